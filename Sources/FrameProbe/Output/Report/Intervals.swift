import Foundation

/// The conditions a report gives the time intervals of (SPEC §7.1), like ffmpeg's `blackdetect`.
public enum IntervalCondition: String, CaseIterable, Codable, Sendable {
    case dark, light, blurred, noFace, severalFaces, notFrontal, lowFaceImageQuality

    /// How reports name it: "too dark 3.20–5.04 s".
    public var label: String {
        switch self {
        case .dark: "too dark"
        case .light: "too light"
        case .blurred: "blurred"
        case .noFace: "no face"
        case .severalFaces: "several faces"
        case .notFrontal: "not frontal"
        case .lowFaceImageQuality: "face image quality low"
        }
    }

    /// Its gate fields: `darkSeconds` (total time), `longestDarkInterval`, `darkIntervals` (how many).
    public var secondsField: String { rawValue + "Seconds" }
    public var longestField: String { "longest" + rawValue.prefix(1).uppercased() + rawValue.dropFirst() + "Interval" }
    public var countField: String { rawValue + "Intervals" }
    public var fields: [String] { [secondsField, longestField, countField] }

    /// The condition a gate field is about.
    static func of(field: String) -> IntervalCondition? { allCases.first { $0.fields.contains(field) } }

    /// A face turned or tilted beyond the seed's frontal band (|yaw| or |pitch| > 12°).
    static let frontalLimit = 12.0
}

/// `--interval-min-duration` (shorter intervals are dropped, after merging) and `--interval-merge-gap` (intervals
/// closer than this are one).
public struct IntervalSettings: Codable, Sendable, Equatable {
    public var minDuration = 0.5
    public var mergeGap = 0.2

    public init() {}
}

/// One condition's intervals, built from the frames in time order with flat memory: the open interval and the last
/// closed one (which may still merge with the next) are all it holds besides the finished intervals.
struct IntervalTracker {
    let settings: IntervalSettings
    private var openedAt: Double?
    private var pending: (start: Double, end: Double)?
    private(set) var intervals: [[Double]] = []

    init(_ settings: IntervalSettings) { self.settings = settings }

    /// A frame at `pts` where the condition holds or not. An interval ends where the first frame without it starts.
    mutating func observe(_ holds: Bool, at pts: Double) {
        if holds, openedAt == nil { openedAt = pts }
        if !holds, let start = openedAt {
            openedAt = nil
            close(start, pts)
        }
    }

    /// The input ended at `end` (the last frame's pts plus its duration); returns every interval.
    mutating func finish(at end: Double) -> [[Double]] {
        if let start = openedAt {
            openedAt = nil
            close(start, max(end, start))
        }
        if let last = pending { keep(last) }
        pending = nil
        return intervals
    }

    private mutating func close(_ start: Double, _ end: Double) {
        if let last = pending, start - last.end < settings.mergeGap {
            pending = (last.start, end)
            return
        }
        if let last = pending { keep(last) }
        pending = (start, end)
    }

    private mutating func keep(_ interval: (start: Double, end: Double)) {
        guard interval.end - interval.start >= settings.minDuration - 1e-9 else { return }
        intervals.append([rounded(interval.start), rounded(interval.end)])
    }

    private func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

extension InputReport {
    /// The interval fields of the conditions this input has data for.
    var intervalFields: [String: Double] {
        var fields: [String: Double] = [:]
        for (name, list) in intervals ?? [:] {
            guard let condition = IntervalCondition(rawValue: name) else { continue }
            let durations = list.compactMap { $0.count == 2 ? $0[1] - $0[0] : nil }
            fields[condition.secondsField] = durations.reduce(0, +)
            fields[condition.longestField] = durations.max() ?? 0
            fields[condition.countField] = Double(durations.count)
        }
        return fields
    }

    /// "too dark 1.00–3.00 s, 4.20–5.00 s" for one condition, or nil when it never held.
    func intervalLine(_ condition: IntervalCondition) -> String? {
        guard let list = intervals?[condition.rawValue], !list.isEmpty else { return nil }
        let spans = list.filter { $0.count == 2 }.map { String(format: "%.2f–%.2f s", $0[0], $0[1]) }
        return "\(condition.label) " + spans.joined(separator: ", ")
    }
}
