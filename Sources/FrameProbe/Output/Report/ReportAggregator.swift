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

    /// Feeds a live event; `index` is the input's place in the full input list (nil: in order of appearance).
    public func consume(_ event: Event, index: Int? = nil) {
        consume(ReportFact(event), source: event.source, index: index)
    }

    /// Feeds an event read back from JSON Lines; false when it is not a frameprobe event.
    @discardableResult
    public func consume(jsonObject object: [String: Any], index: Int? = nil) -> Bool {
        guard let name = object["event"] as? String, let source = object["source"] as? String else { return false }
        consume(ReportFact(name: name, fields: object), source: source, index: index)
        return true
    }

    private func consume(_ fact: ReportFact, source: String, index: Int?) {
        var startsInput = false
        switch fact {
        case .inputOpened: startsInput = true
        case .skipped: startsInput = false
        default: startsInput = current?.source != source
        }
        if startsInput {
            finishCurrent()
            current = InputReport(index: index ?? nextIndex, source: source)
            nextIndex = (index ?? nextIndex) + 1
        }
        guard var report = current else { return }
        defer { current = report }
        switch fact {
        case .frameQuality(let frame, let pts, let darkness, let lightness, let sharpness, let tooDark, let tooLight, let blurred):
            rows[frame, default: FrameRow()].pts = pts
            rows[frame]?.quality = (darkness, lightness, sharpness)
            report.scoredFrames = (report.scoredFrames ?? 0) + 1
            if tooDark { report.tooDarkFrames += 1 }
            if tooLight { report.tooLightFrames += 1 }
            if blurred { report.blurredFrames += 1 }
        case .face(let frame, let pts, let count, let angles, let labels):
            report.faceFrames += 1
            report.faceCounts[String(count), default: 0] += 1
            rows[frame, default: FrameRow()].pts = pts
            rows[frame]?.face = 1
            rows[frame]?.head = (angles.x, angles.y, angles.z)
            for (axis, label) in labels ?? [:] { report.headPose[axis, default: [:]][label, default: 0] += 1 }
        case .code(let content, let pts):
            guard !report.qrCodes.contains(where: { $0.content == content }) else { return }
            report.qrCodes.append(CodeFinding(content: content, firstSeen: pts))
        case .acquisition(let check):
            report.acquisition = check
        case .thumbnail(let jpeg):
            report.thumbnail = "data:image/jpeg;base64,\(jpeg)"
        case .failure(let key, let message):
            if report.error == nil { report.error = "\(key): \(message)" }
        case .closed(let decoded, let analysed, let elapsed):
            report.framesDecoded = decoded
            report.framesAnalysed = analysed
            report.elapsedSeconds = elapsed
        case .inputOpened, .skipped, .other:
            break
        }
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
