import Foundation

/// Builds input reports from analysis events — live ones, or lines read back from `analyze`'s JSON Lines, decoded
/// once into the same typed payloads. Events of one input arrive together (as frameprobe writes them), frame by
/// frame; each `inputOpened` starts a new input. The stages' report parts read the events; the aggregator groups
/// them by frame, plots the frames' values, and builds each declared condition's intervals in one pass
/// (`IntervalTracker`). Memory stays flat in the input's length: parts sum as they go and the plots' points are
/// thinned as they grow.
public final class ReportAggregator {
    /// One input while its events are read.
    private struct Reading {
        var report: InputReport
        /// The frame whose events are being read.
        var frame: FrameValues?
        var series: SeriesBuilder
        var trackers: [String: IntervalTracker]
        /// The conditions observed on some frame: they have intervals (perhaps none).
        var observed: Set<String> = []
        var lastPts: Double?
        var frameDuration = 1.0 / 30
        /// Its `inputClosed` came: the analysis reached its end (or said where it was interrupted).
        var closed = false
    }

    public private(set) var reports: [InputReport] = []
    public let parts: ReportPartTypes
    private let options: AnalysisOptions
    private let values: [ReportedValue]
    private let frameEvents: Set<ObjectIdentifier>
    private let readable: [String: any ReadableEvent.Type]
    private var current: Reading?
    private var nextIndex = 0

    /// `options`: the run's settings (the intervals' minimum duration and merge gap, and what parts read, such as
    /// `--fiq-threshold`).
    public init(options: AnalysisOptions = AnalysisOptions(), parts: ReportPartTypes = .builtIn) {
        self.options = options
        self.parts = parts
        values = parts.types.flatMap { $0.values }
        frameEvents = Set(parts.types.flatMap { $0.frameEvents }.map { ObjectIdentifier($0) })
        var readable = parts.readable
        for type in [InputOpened.self, InputSkipped.self, Failure.self, InputClosed.self] as [any ReadableEvent.Type] {
            readable[type.eventName] = type
        }
        self.readable = readable
    }

    /// Feeds a live event; `index` is the input's place in the full input list (nil: in order of appearance).
    public func consume(_ event: Event, index: Int? = nil) {
        consume(event, source: event.source, index: index)
    }

    /// Feeds an event read back from JSON Lines; false when it is not a frameprobe event.
    @discardableResult
    public func consume(jsonObject object: [String: Any], index: Int? = nil) -> Bool {
        guard let name = object["event"] as? String, let source = object["source"] as? String else { return false }
        // The run's own line says what the run is; it belongs to no input.
        if name == RunStarted.eventName { return true }
        let fields = EventFields(object)
        let type = readable[name]
        if let field = fields.implausibleField(counts: type?.countFields ?? []) {
            consume(nil, source: source, index: index, outOfRange: "INVALID_REPORT: \(name).\(field) is out of range")
            return true
        }
        // An event the report does not read, or one without a field it needs, only marks which input is current.
        let payload = type.flatMap { $0.init(reading: fields) }
        consume(payload.map { Event(source: source, frame: fields.integer("frame"), pts: fields.number("pts"), $0) }, source: source, index: index)
        return true
    }

    private func consume(_ event: Event?, source: String, index: Int?, outOfRange: String? = nil) {
        let startsInput = switch event?.payload {
        case is InputOpened: true
        case is InputSkipped: false
        default: current?.report.source != source
        }
        if startsInput {
            finishCurrent()
            let report = InputReport(index: index ?? nextIndex, source: source, parts: parts, options: options)
            let trackers = Dictionary(uniqueKeysWithValues: parts.conditions.map { ($0.name, IntervalTracker(options.intervals)) })
            current = Reading(report: report, series: SeriesBuilder(values), trackers: trackers)
            nextIndex = (index ?? nextIndex) + 1
        }
        guard var reading = current else { return }
        defer { current = reading }
        if let outOfRange, reading.report.error == nil { reading.report.error = outOfRange }
        guard let event else { return }
        switch event.payload {
        case let opened as InputOpened:
            if opened.info.fps > 0 { reading.frameDuration = 1 / opened.info.fps }
        case let failure as Failure:
            if reading.report.error == nil { reading.report.error = "\(failure.error.key): \(failure.error.message)" }
        case let closed as InputClosed:
            let summary = closed.summary
            reading.closed = true
            if summary.interrupted {
                reading.report.markIncomplete("interrupted after \(summary.framesAnalysed) analysed frames: the run was stopped")
            }
            reading.report.framesDecoded = summary.framesDecoded
            reading.report.framesAnalysed = summary.framesAnalysed
            reading.report.elapsedSeconds = summary.elapsedSeconds
        case is InputSkipped:
            break
        case let payload where frameEvents.contains(ObjectIdentifier(type(of: payload))):
            // About a frame: it joins (or starts) the frame being read.
            guard let frame = event.frame else { return }
            let pts = event.pts ?? 0
            if let open = reading.frame, open.frame != frame { close(open, in: &reading) }
            if reading.frame == nil { reading.frame = FrameValues(frame: frame, pts: pts) }
            for index in reading.report.parts.indices { reading.report.parts[index].read(event, frame: &reading.frame!) }
        default:
            var unplotted = FrameValues(frame: event.frame ?? 0, pts: event.pts ?? 0)
            for index in reading.report.parts.indices { reading.report.parts[index].read(event, frame: &unplotted) }
        }
    }

    /// Every event of `frame` has come: the parts count it, its values are plotted, its conditions observed.
    private func close(_ frame: FrameValues, in reading: inout Reading) {
        var frame = frame
        reading.frame = nil
        reading.lastPts = max(reading.lastPts ?? frame.pts, frame.pts)
        for index in reading.report.parts.indices { reading.report.parts[index].endFrame(&frame) }
        for (name, holds) in frame.conditions {
            reading.trackers[name]?.observe(holds, at: frame.pts)
            reading.observed.insert(name)
        }
        if !frame.values.isEmpty { reading.series.add(frame) }
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
        if let frame = reading.frame { close(frame, in: &reading) }
        // Events that stop before their input's inputClosed are a cut-short analysis (a killed run, a truncated
        // file); an input that failed to open has its error already and no inputClosed.
        if !reading.closed && reading.report.error == nil {
            reading.report.markIncomplete("its events end before its inputClosed: the analysis was cut short")
        }
        var report = reading.report
        let counts = report.counts
        for index in report.parts.indices { report.parts[index].finish(counts) }
        report.series = reading.series.series
        let end = (reading.lastPts ?? 0) + reading.frameDuration
        var found: [String: [[Double]]] = [:]
        for condition in parts.conditions where reading.observed.contains(condition.name) {
            guard var tracker = reading.trackers[condition.name] else { continue }
            found[condition.name] = tracker.finish(at: end)
        }
        report.intervals = found
        reports.append(report)
    }
}
