import Foundation

/// Runs one input through a fresh pipeline: `inputOpened`, the stages' events frame by frame, then
/// `inputClosed` (or an `error` when the input cannot be opened or decoding fails).
public struct InputRunner: Sendable {
    public let options: AnalysisOptions
    public let stages: [StageDescriptor]

    /// `stages` are checked with `StageRegistry.resolve(_:)` before any input runs.
    public init(options: AnalysisOptions, stages: [StageDescriptor]) {
        self.options = options
        self.stages = stages
    }

    /// Analyses `item`, emitting its events in order; returns false when the input failed. `outputFolder` is its
    /// folder under `--output-dir` (`OutputLayout`).
    public func run(_ item: InputItem, outputFolder: String? = nil, stop: StopSignal, emit: (Event) -> Void) -> Bool {
        switch item {
        case .skipped(let source, let reason):
            emit(Event(source: source, InputSkipped(reason: reason)))
            return true
        case .failed(let source, let error):
            emit(Event(source: source, Failure(error)))
            return false
        case .media(let source, let location):
            return analyse(source: source, location: location, outputFolder: outputFolder, stop: stop, emit: emit)
        }
    }

    private func analyse(source: String, location: MediaLocation, outputFolder: String?, stop: StopSignal,
                         emit deliver: (Event) -> Void) -> Bool {
        let started = Date()
        var failed = false
        func emit(_ event: Event) {
            failed = failed || event.isFailure
            deliver(event)
        }
        let frames: FrameSource
        do throws(FrameProbeError) {
            frames = try FrameSource(location: location, options: options.decode)
        } catch {
            emit(Event(source: source, Failure(error)))
            return false
        }
        emit(Event(source: source, InputOpened(frames.info)))
        var summary = InputSummary()
        var pipeline = Pipeline(stages: [])
        var ready = false
        do throws(FrameProbeError) {
            pipeline = try StageRegistry.makePipeline(stages, context: StageContext(source: source, options: options, info: frames.info,
                                                                                outputFolder: outputFolder))
            try pipeline.begin { emit(Event(source: source, $0)) }
            ready = true
        } catch {
            emit(Event(source: source, Failure(error)))
        }
        if ready {
            if let halves = pipeline.split() {
                summary = analyseSplit(halves.head, halves.tail, frames: frames, source: source, stop: stop, emit: emit)
            } else {
                summary = analyseSequentially(&pipeline, frames: frames, source: source, stop: stop, emit: emit)
            }
        }
        let outcome = frames.finish()
        if let error = outcome.error, !failed {
            emit(Event(source: source, Failure(error)))
        }
        summary.framesDecoded = outcome.framesDecoded
        summary.corruptPacketsSkipped = outcome.corruptPackets
        summary.elapsedSeconds = Date().timeIntervalSince(started)
        emit(Event(source: source, InputClosed(summary)))
        return !failed
    }

    /// One thread: every stage on a frame, then the next frame.
    private func analyseSequentially(_ pipeline: inout Pipeline, frames: FrameSource, source: String, stop: StopSignal,
                                     emit: (Event) -> Void) -> InputSummary {
        var summary = InputSummary()
        while !stop.isRaised, let frame = frames.next() {
            do throws(FrameProbeError) {
                let analysis = try pipeline.process(frame) { emit(Event(source: source, frame: frame.index, pts: frame.pts, $0)) }
                if summary.count(analysis) { break }
            } catch {
                summary.framesAnalysed += 1
                emit(Event(source: source, frame: frame.index, pts: frame.pts, Failure(error)))
                break
            }
        }
        pipeline.finish { emit(Event(source: source, $0)) }
        return summary
    }

    /// Two threads: the head stages (face detection) run a frame ahead of the tail stages (landmarks and the rest)
    /// on a thread of their own; events still come out in frame order, the head's before the tail's.
    private func analyseSplit(_ head: Pipeline, _ tail: Pipeline, frames: FrameSource, source: String, stop: StopSignal,
                              emit: (Event) -> Void) -> InputSummary {
        // The head may run a few frames ahead (it keeps working while the landmark model loads), within a memory
        // budget of about 20 MB of frames.
        let frameBytes = max(1, frames.info.width * frames.info.height * 3)
        let handoff = BoundedQueue<HeadResult>(capacity: min(8, max(2, 20_000_000 / frameBytes)))
        let headBox = PipelineBox(head)
        let headDone = DispatchSemaphore(value: 0)
        let thread = Thread {
            while !stop.isRaised, let frame = frames.next() {
                var analysis = FrameAnalysis()
                var events: [any EventPayload] = []
                let failure: FrameProbeError?
                do throws(FrameProbeError) {
                    try headBox.pipeline.process(frame, &analysis) { events.append($0) }
                    failure = nil
                } catch {
                    failure = error
                }
                guard handoff.push(HeadResult(frame: frame, analysis: analysis, events: events, failure: failure)), failure == nil else { break }
            }
            handoff.finish()
            headDone.signal()
        }
        thread.name = "frameprobe.head"
        thread.start()

        var tail = tail
        var summary = InputSummary()
        while let item = handoff.pop() {
            let frame = item.frame
            func frameEmit(_ body: any EventPayload) { emit(Event(source: source, frame: frame.index, pts: frame.pts, body)) }
            item.events.forEach(frameEmit)
            var analysis = item.analysis
            do throws(FrameProbeError) {
                if let failure = item.failure { throw failure }
                try tail.process(frame, &analysis, emit: frameEmit)
                if summary.count(analysis) { break }
            } catch {
                summary.framesAnalysed += 1
                frameEmit(Failure(error))
                break
            }
        }
        // Stop the head thread (and the decoder) if the tail ended first, then finish in stage order.
        handoff.cancel()
        frames.cancel()
        headDone.wait()
        headBox.pipeline.finish { emit(Event(source: source, $0)) }
        tail.finish { emit(Event(source: source, $0)) }
        return summary
    }
}

/// What the head stages made of one frame, handed to the tail.
private struct HeadResult: @unchecked Sendable {
    let frame: Frame
    let analysis: FrameAnalysis
    let events: [any EventPayload]
    let failure: FrameProbeError?
}

/// Hands the head pipeline to its thread (which alone uses it until it ends).
private final class PipelineBox: @unchecked Sendable {
    var pipeline: Pipeline
    init(_ pipeline: Pipeline) { self.pipeline = pipeline }
}

extension InputSummary {
    /// Counts an analysed frame; true when a stage asked to stop the input.
    mutating func count(_ analysis: FrameAnalysis) -> Bool {
        framesAnalysed += 1
        imagesCaptured += analysis.capturedImages
        if analysis.validFaceBox != nil { faceFrames += 1 }
        qrCodes += analysis.codesReported
        return analysis.stopInput
    }
}
