import Foundation

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
            let names = ReportedCondition(name, label: name, color: "", plot: "", missingReason: "")
            let durations = list.compactMap { $0.count == 2 ? $0[1] - $0[0] : nil }
            fields[names.secondsField] = ReportPrecision.rounded(durations.reduce(0, +))
            fields[names.longestField] = durations.max() ?? 0
            fields[names.countField] = Double(durations.count)
        }
        return fields
    }

    /// "too dark 1.00–3.00 s, 4.20–5.00 s" for one condition, or nil when it never held.
    func intervalLine(_ condition: ReportedCondition) -> String? {
        guard let list = intervals?[condition.name], !list.isEmpty else { return nil }
        let spans = list.filter { $0.count == 2 }.map { String(format: "%.2f–%.2f s", $0[0], $0[1]) }
        return "\(condition.label) " + spans.joined(separator: ", ")
    }

    /// The gates this input failed, as "gate (value)" — and, for a gate on intervals, when they were.
    func failedGates(_ parts: ReportPartTypes) -> [String] {
        gates.filter { !$0.passed }.map { result in
            let condition = result.field.flatMap { field in parts.conditions.first { $0.fields.contains(field) } }
            let when = condition.flatMap(intervalLine).map { ": \($0)" } ?? ""
            return "\(result.gate) (\(result.outcome))\(when)"
        }
    }

    /// Every condition's intervals, "too dark 1.00–3.03 s; no face 1.00–2.53 s", or nil when none held.
    func intervalSummary(_ parts: ReportPartTypes) -> String? {
        let lines = parts.conditions.compactMap(intervalLine)
        return lines.isEmpty ? nil : lines.joined(separator: "; ")
    }
}
