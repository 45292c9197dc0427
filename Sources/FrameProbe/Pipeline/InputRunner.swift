import Foundation

/// Runs one input through a fresh pipeline: `inputOpened`, the stages' events frame by frame, then
/// `inputClosed` (or an `error` when the input cannot be opened or decoding fails).
public struct InputRunner: Sendable {
    public let options: AnalysisOptions
    public let stages: [StageDescriptor]

    /// `stages` are checked with `StageRegistry.resolve` before any input runs.
    public init(options: AnalysisOptions, stages: [StageDescriptor]) {
        self.options = options
        self.stages = stages
    }

    /// Analyses `item`, emitting its events in order; returns false when the input failed.
    public func run(_ item: InputItem, stop: StopSignal, emit: (Event) -> Void) -> Bool {
        switch item {
        case .skipped(let source, let reason):
            emit(Event(source: source, body: .skipped(reason: reason)))
            return true
        case .failed(let source, let error):
            emit(Event(source: source, body: .error(error)))
            return false
        case .media(let source, let url):
            return analyse(source: source, url: url, stop: stop, emit: emit)
        }
    }

    private func analyse(source: String, url: String, stop: StopSignal, emit deliver: (Event) -> Void) -> Bool {
        let started = Date()
        var failed = false
        func emit(_ event: Event) {
            failed = failed || event.isFailure
            deliver(event)
        }
        let frames: FrameSource
        do throws(FrameProbeError) {
            frames = try FrameSource(url: url, options: options.decode)
        } catch {
            emit(Event(source: source, body: .error(error)))
            return false
        }
        emit(Event(source: source, body: .inputOpened(frames.info)))
        var summary = InputSummary()
        var pipeline = Pipeline(stages: [])
        var ready = false
        do throws(FrameProbeError) {
            pipeline = try StageRegistry.makePipeline(stages, context: StageContext(source: source, options: options, info: frames.info))
            try pipeline.begin { emit(Event(source: source, body: $0)) }
            ready = true
        } catch {
            emit(Event(source: source, body: .error(error)))
        }
        while ready, !stop.isRaised, let frame = frames.next() {
            summary.framesAnalysed += 1
            do throws(FrameProbeError) {
                let analysis = try pipeline.process(frame) { emit(Event(source: source, frame: frame.index, pts: frame.pts, body: $0)) }
                summary.imagesCaptured += analysis.capturedImages
                if analysis.validFaceBox != nil { summary.faceFrames += 1 }
                summary.qrCodes += analysis.codesReported
                if analysis.stopInput { break }
            } catch {
                emit(Event(source: source, frame: frame.index, pts: frame.pts, body: .error(error)))
                break
            }
        }
        if ready { pipeline.finish { emit(Event(source: source, body: $0)) } }
        let outcome = frames.finish()
        if let error = outcome.error, !failed {
            emit(Event(source: source, body: .error(error)))
        }
        summary.framesDecoded = outcome.framesDecoded
        summary.corruptPacketsSkipped = outcome.corruptPackets
        summary.elapsedSeconds = Date().timeIntervalSince(started)
        emit(Event(source: source, body: .inputClosed(summary)))
        return !failed
    }
}
