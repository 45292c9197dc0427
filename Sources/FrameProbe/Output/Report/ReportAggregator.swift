import Foundation

/// Builds input reports from analysis events — live ones, or lines read back from `analyze`'s JSON Lines.
/// Events of one input arrive together (as frameprobe writes them); each `inputOpened` starts a new input.
public final class ReportAggregator {
    private struct FrameRow {
        var pts = 0.0
        var face = 0
        var head: (Double?, Double?, Double?) = (nil, nil, nil)
        var quality: (Double, Double, Double)?
    }

    public private(set) var reports: [InputReport] = []
    private var current: InputReport?
    private var rows: [Int: FrameRow] = [:]
    private var nextIndex = 0

    public init() {}

    /// Feeds one event; `index` is the input's place in the full input list (nil: in order of appearance).
    public func consume(_ event: [String: Any], index: Int? = nil) {
        guard let name = event["event"] as? String, let source = event["source"] as? String else { return }
        let frame = (event["frame"] as? NSNumber)?.intValue
        if name == "inputOpened" || (current?.source != source && name != "skipped") {
            finishCurrent()
            current = InputReport(index: index ?? nextIndex, source: source)
            nextIndex = (index ?? nextIndex) + 1
        }
        guard var report = current else { return }
        defer { current = report }
        func number(_ key: String) -> Double? { (event[key] as? NSNumber)?.doubleValue }
        switch name {
        case "frameQuality":
            guard let frame, let d = number("darkness"), let l = number("lightness"), let s = number("sharpness") else { return }
            rows[frame, default: FrameRow()].pts = number("pts") ?? 0
            rows[frame]?.quality = (d, l, s)
            report.scoredFrames = (report.scoredFrames ?? 0) + 1
            if event["darknessLabel"] as? String == "Too dark" { report.tooDarkFrames += 1 }
            if event["lightnessLabel"] as? String == "Too light" { report.tooLightFrames += 1 }
            if event["sharpnessLabel"] as? String == "Blurred" { report.blurredFrames += 1 }
        case "faceDetected":
            guard let frame else { return }
            report.faceFrames += 1
            let count = (event["faceCount"] as? NSNumber)?.intValue ?? 1
            report.faceCounts[String(count), default: 0] += 1
            rows[frame, default: FrameRow()].pts = number("pts") ?? 0
            rows[frame]?.face = 1
            rows[frame]?.head = (number("headEulerAngleX"), number("headEulerAngleY"), number("headEulerAngleZ"))
            if let pose = event["headPose"] as? [String: Any] {
                for axis in ["vertical", "horizontal", "tilt"] {
                    report.headPose[axis, default: [:]][pose[axis] as? String ?? "none", default: 0] += 1
                }
            }
        case "qrCodeScanned":
            guard let content = event["content"] as? String, !report.qrCodes.contains(where: { $0.content == content }) else { return }
            report.qrCodes.append(CodeFinding(content: content, firstSeen: number("pts") ?? 0))
        case "acquisitionCheck":
            report.acquisition = AcquisitionCheck(succeeded: event["succeeded"] as? Bool ?? false,
                                                  recordStartPts: number("recordStartPts"), failure: event["failure"] as? String)
        case "faceThumbnail":
            if let jpeg = event["jpegBase64"] as? String { report.thumbnail = "data:image/jpeg;base64,\(jpeg)" }
        case "error":
            if report.error == nil { report.error = "\(event["key"] as? String ?? "ERROR"): \(event["message"] as? String ?? "")" }
        case "inputClosed":
            report.framesDecoded = (event["framesDecoded"] as? NSNumber)?.intValue ?? 0
            report.framesAnalysed = (event["framesAnalysed"] as? NSNumber)?.intValue ?? 0
            report.elapsedSeconds = number("elapsedSeconds")
        default:
            break
        }
    }

    /// Feeds a live event.
    public func consume(_ event: Event, index: Int? = nil) {
        if let object = event.json.foundationObject as? [String: Any] { consume(object, index: index) }
    }

    /// Closes the last input and returns every report, in input order.
    public func finish() -> [InputReport] {
        finishCurrent()
        return reports.sorted { $0.index < $1.index }
    }

    private func finishCurrent() {
        guard var report = current else { return }
        current = nil
        let ordered = rows.sorted { $0.key < $1.key }.map(\.value)
        rows = [:]
        let scored = ordered.compactMap(\.quality)
        report.darkness = ScoreStats(scored.map(\.0))
        report.lightness = ScoreStats(scored.map(\.1))
        report.sharpness = ScoreStats(scored.map(\.2))
        report.faceCounts["0"] = max(0, report.framesAnalysed - report.faceFrames)
        report.series = Series(pts: ordered.map(\.pts), face: ordered.map(\.face), headX: ordered.map(\.head.0),
                               headY: ordered.map(\.head.1), headZ: ordered.map(\.head.2),
                               darkness: ordered.map { $0.quality?.0 }, lightness: ordered.map { $0.quality?.1 },
                               sharpness: ordered.map { $0.quality?.2 }).thinned()
        reports.append(report)
    }
}

extension JSONValue {
    /// The value as Foundation objects (dictionaries, arrays, NSNumber, String, NSNull).
    var foundationObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .int(let value): value
        case .number(let value, _): value
        case .string(let value): value
        case .array(let items): items.map(\.foundationObject)
        case .object(let fields): Dictionary(fields.map { ($0.0, $0.1.foundationObject) }) { $1 }
        }
    }
}
