import Foundation

/// Builds input reports from analysis events — live ones, or lines read back from `analyze`'s JSON Lines.
/// Events of one input arrive together (as frameprobe writes them), frame by frame; each `inputOpened` starts a new
/// input. Memory stays flat in the input's length: scores are summed as they come, the plots' points thinned as
/// they grow, and intervals built in one pass (`IntervalTracker`).
public final class ReportAggregator {
    /// What the events of the frame being read said so far.
    private struct FrameFacts {
        var frame: Int
        var pts: Double
        var quality: (darkness: Double, lightness: Double, sharpness: Double, tooDark: Bool, tooLight: Bool, blurred: Bool)?
        var face: (count: Int, x: Double?, y: Double?, z: Double?)?
        var faceImageQuality: [String: Double]?
        var faceLost = false
    }

    /// One input while its events are read.
    private struct Reading {
        var report: InputReport
        var frame: FrameFacts?
        var darkness = ScoreAccumulator(), lightness = ScoreAccumulator(), sharpness = ScoreAccumulator()
        /// Face image quality scores, per component and `unifiedQuality`.
        var faceImageQuality: [String: ScoreAccumulator] = [:]
        var series = SeriesBuilder()
        var trackers: [IntervalCondition: IntervalTracker]
        /// Face analysis ran (a face event came); the last transition said there is no valid face.
        var facesAnalysed = false, faceAbsent = false
        var lastPts: Double?
        var frameDuration = 1.0 / 30
        /// Its `inputClosed` came: the analysis reached its end (or said where it was interrupted).
        var closed = false
    }

    public private(set) var reports: [InputReport] = []
    private let intervals: IntervalSettings
    /// `unifiedQuality` below this is the `lowFaceImageQuality` condition (`--fiq-threshold`).
    private let fiqThreshold: Double
    private var current: Reading?
    private var nextIndex = 0

    public init(intervals: IntervalSettings = IntervalSettings(), fiqThreshold: Double = 50) {
        self.intervals = intervals
        self.fiqThreshold = fiqThreshold
    }

    /// Feeds a live event; `index` is the input's place in the full input list (nil: in order of appearance).
    public func consume(_ event: Event, index: Int? = nil) {
        consume(ReportFact(event), source: event.source, index: index)
    }

    /// Feeds an event read back from JSON Lines; false when it is not a frameprobe event.
    @discardableResult
    public func consume(jsonObject object: [String: Any], index: Int? = nil) -> Bool {
        guard let name = object["event"] as? String, let source = object["source"] as? String else { return false }
        // The run's own line says what the run is; it belongs to no input.
        if name == RunStarted.eventName { return true }
        consume(ReportFact(name: name, fields: object), source: source, index: index)
        return true
    }

    private func consume(_ fact: ReportFact, source: String, index: Int?) {
        var startsInput = false
        switch fact {
        case .inputOpened: startsInput = true
        case .skipped: startsInput = false
        default: startsInput = current?.report.source != source
        }
        if startsInput {
            finishCurrent()
            let trackers = Dictionary(uniqueKeysWithValues: IntervalCondition.allCases.map { ($0, IntervalTracker(intervals)) })
            current = Reading(report: InputReport(index: index ?? nextIndex, source: source), trackers: trackers)
            nextIndex = (index ?? nextIndex) + 1
        }
        guard var reading = current else { return }
        defer { current = reading }
        switch fact {
        case .inputOpened(let fps):
            if fps > 0 { reading.frameDuration = 1 / fps }
        case .frameQuality(let frame, let pts, let darkness, let lightness, let sharpness, let tooDark, let tooLight, let blurred):
            begin(frame, pts, in: &reading)
            reading.frame?.quality = (darkness, lightness, sharpness, tooDark, tooLight, blurred)
        case .face(let frame, let pts, let count, let angles, let labels, let quality):
            begin(frame, pts, in: &reading)
            reading.frame?.face = (count, angles.x, angles.y, angles.z)
            reading.frame?.faceImageQuality = quality
            reading.report.faceFrames += 1
            reading.report.faceCounts[String(count), default: 0] += 1
            for (axis, label) in labels ?? [:] { reading.report.headPose[axis, default: [:]][label, default: 0] += 1 }
        case .faceLost(let frame, let pts):
            begin(frame, pts, in: &reading)
            reading.frame?.faceLost = true
        case .code(let content, let pts):
            guard !reading.report.qrCodes.contains(where: { $0.content == content }) else { return }
            reading.report.qrCodes.append(CodeFinding(content: content, firstSeen: pts))
        case .acquisition(let check):
            reading.report.acquisition = check
        case .thumbnail(let jpeg):
            reading.report.thumbnail = "data:image/jpeg;base64,\(jpeg)"
        case .failure(let key, let message):
            if reading.report.error == nil { reading.report.error = "\(key): \(message)" }
        case .closed(let decoded, let analysed, let elapsed, let interrupted):
            reading.closed = true
            if interrupted { reading.report.markIncomplete("interrupted after \(analysed) analysed frames: the run was stopped") }
            reading.report.framesDecoded = decoded
            reading.report.framesAnalysed = analysed
            reading.report.elapsedSeconds = elapsed
        case .outOfRange(let event, let field):
            if reading.report.error == nil { reading.report.error = "INVALID_REPORT: \(event).\(field) is out of range" }
        case .skipped, .other:
            break
        }
    }

    /// The events of `frame` start: the previous frame's facts are complete.
    private func begin(_ frame: Int, _ pts: Double, in reading: inout Reading) {
        if let facts = reading.frame, facts.frame == frame { return }
        if let facts = reading.frame { Self.add(facts, to: &reading, fiqThreshold: fiqThreshold) }
        reading.frame = FrameFacts(frame: frame, pts: pts)
    }

    /// One frame's facts into the scores, the plots and the intervals.
    private static func add(_ facts: FrameFacts, to reading: inout Reading, fiqThreshold: Double) {
        let pts = facts.pts
        reading.lastPts = max(reading.lastPts ?? pts, pts)
        if let quality = facts.quality {
            reading.darkness.add(quality.darkness)
            reading.lightness.add(quality.lightness)
            reading.sharpness.add(quality.sharpness)
            reading.report.scoredFrames = (reading.report.scoredFrames ?? 0) + 1
            if quality.tooDark { reading.report.tooDarkFrames += 1 }
            if quality.tooLight { reading.report.tooLightFrames += 1 }
            if quality.blurred { reading.report.blurredFrames += 1 }
            reading.trackers[.dark]?.observe(quality.tooDark, at: pts)
            reading.trackers[.light]?.observe(quality.tooLight, at: pts)
            reading.trackers[.blurred]?.observe(quality.blurred, at: pts)
        }
        if facts.face != nil || facts.faceLost {
            reading.facesAnalysed = true
            reading.faceAbsent = facts.face == nil
        }
        if reading.facesAnalysed {
            // A face is valid from its faceDetected on, absent from a faceUndetected until the next one.
            reading.trackers[.noFace]?.observe(facts.face == nil && reading.faceAbsent, at: pts)
            reading.trackers[.severalFaces]?.observe((facts.face?.count ?? 0) > 1, at: pts)
            let turned = [facts.face?.x, facts.face?.y].contains { abs($0 ?? 0) > IntervalCondition.frontalLimit }
            reading.trackers[.notFrontal]?.observe(turned, at: pts)
        }
        for (name, score) in facts.faceImageQuality ?? [:] { reading.faceImageQuality[name, default: ScoreAccumulator()].add(score) }
        if !reading.faceImageQuality.isEmpty {
            // Frames without a measured face count as low quality once the stage has measured some.
            reading.trackers[.lowFaceImageQuality]?.observe((facts.faceImageQuality?["unifiedQuality"] ?? 0) < fiqThreshold, at: pts)
        }
        if facts.quality != nil || facts.face != nil {
            reading.series.add(pts: pts, face: facts.face == nil ? 0 : 1, head: (facts.face?.x, facts.face?.y, facts.face?.z),
                               quality: facts.quality.map { ($0.darkness, $0.lightness, $0.sharpness) },
                               faceImageQuality: facts.faceImageQuality?["unifiedQuality"])
        }
    }

    /// Closes the last input and returns every report, in input order.
    public func finish() -> [InputReport] {
        finishCurrent()
        return reports.sorted { $0.index < $1.index }
    }

    /// Closes the input being read (its events have all come) and returns its report; nil when none is open.
    @discardableResult
    public func finishInput() -> InputReport? {
        guard current != nil else { return nil }
        finishCurrent()
        return reports.last
    }

    private func finishCurrent() {
        guard var reading = current else { return }
        current = nil
        if let facts = reading.frame { Self.add(facts, to: &reading, fiqThreshold: fiqThreshold) }
        var report = reading.report
        // Events that stop before their input's inputClosed are a cut-short analysis (a killed run, a truncated
        // file); an input that failed to open has its error already and no inputClosed.
        if !reading.closed && report.error == nil {
            report.markIncomplete("its events end before its inputClosed: the analysis was cut short")
        }
        report.darkness = reading.darkness.stats
        report.lightness = reading.lightness.stats
        report.sharpness = reading.sharpness.stats
        report.faceCounts["0"] = max(0, report.framesAnalysed - report.faceFrames)
        report.series = reading.series.series
        if !reading.faceImageQuality.isEmpty { report.faceImageQuality = reading.faceImageQuality.compactMapValues(\.stats) }
        let end = (reading.lastPts ?? 0) + reading.frameDuration
        var found: [String: [[Double]]] = [:]
        for condition in IntervalCondition.allCases {
            let hasData = switch condition {
            case .dark, .light, .blurred: (report.scoredFrames ?? 0) > 0
            case .noFace, .severalFaces, .notFrontal: reading.facesAnalysed
            case .lowFaceImageQuality: !reading.faceImageQuality.isEmpty
            }
            guard hasData, var tracker = reading.trackers[condition] else { continue }
            found[condition.rawValue] = tracker.finish(at: end)
        }
        report.intervals = found
        reports.append(report)
    }
}
