import Foundation

/// Runs one input through a fresh pipeline: `inputOpened`, the stages' events frame by frame, then
/// `inputClosed` (or an `error` when the input cannot be opened or decoding fails).
///
/// One path for every pipeline: frames come from the decode thread; the pipeline is cut before each stage that may
/// run behind (`StageDescriptor.runsBehind`: the landmarks, then head pose), and each segment runs on a thread of its
/// own, a frame or a few ahead of the next — face detection, then following and fitting the landmarks, then pose and
/// the rest on the calling thread. Events come out in frame order, each segment's before the next's. A pipeline with
/// no such split has an empty tail.
public struct InputRunner: Sendable {
    public let options: AnalysisOptions
    public let stages: [StageDescriptor]

    /// `stages` are checked with `StageRegistry.resolve(_:)` before any input runs.
    public init(options: AnalysisOptions, stages: [StageDescriptor]) {
        self.options = options
        self.stages = stages
    }

    /// Analyses `item`, emitting its events in order; returns false when the input failed. `outputFolder` is its
    /// folder under `--output-dir` (`OutputLayout`); `analysed` sees every analysed frame (for progress).
    public func run(_ item: InputItem, outputFolder: String? = nil, stop: StopSignal, analysed: ((Frame) -> Void)? = nil,
                    emit: (Event) -> Void) -> Bool {
        switch item {
        case .skipped(let source, let reason):
            emit(Event(source: source, InputSkipped(reason: reason)))
            return true
        case .failed(let source, let error):
            emit(Event(source: source, Failure(error)))
            return false
        case .media(let source, let location):
            return analyse(source: source, location: location, outputFolder: outputFolder, stop: stop, analysed: analysed, emit: emit)
        }
    }

    private func analyse(source: String, location: MediaLocation, outputFolder: String?, stop: StopSignal,
                         analysed onFrame: ((Frame) -> Void)?, emit deliver: (Event) -> Void) -> Bool {
        let started = Date()
        var summary = InputSummary()
        var failed = false
        func emit(_ event: Event) {
            failed = failed || event.isFailure
            summary.count(event)
            deliver(event)
        }
        let frames: FrameSource
        do throws(FrameProbeError) {
            frames = try FrameSource(location: location, options: options.decode)
        } catch {
            emit(Event(source: source, Failure(error)))
            return false
        }
        emit(Event(source: source, InputOpened(frames.info, fingerprint: location.filePath.flatMap(InputFingerprint.init(path:)))))
        do throws(FrameProbeError) {
            var context = StageContext(source: source, options: options, info: frames.info, outputFolder: outputFolder)
            let capacity = Self.handoffCapacity(frames.info)
            let board = FollowedFacesBoard(handoffCapacity: capacity)
            context.followedFacesBoard = board
            var pipeline = try StageRegistry.makePipeline(stages, context: context)
            try pipeline.begin { emit(Event(source: source, $0)) }
            let analysed = analyseFrames(pipeline, frames: frames, capacity: capacity, board: board, source: source, stop: stop,
                                         analysed: onFrame, emit: emit)
            (summary.framesAnalysed, summary.faceFrames, summary.anyFaceFrames) = (analysed.frames, analysed.withFace, analysed.withAnyFace)
            summary.interrupted = stop.isRaised
        } catch {
            emit(Event(source: source, Failure(error)))
        }
        let outcome = frames.finish()
        if let error = outcome.error, !failed {
            emit(Event(source: source, Failure(error)))
        }
        summary.framesDecoded = outcome.framesDecoded
        summary.corruptPacketsSkipped = outcome.corruptPackets
        // A window that starts past the input's end analyses nothing: an error, not a quiet success.
        if !failed && !summary.interrupted && summary.framesAnalysed == 0 && options.decode.start > 0 {
            let length = frames.info.durationSeconds.map { String(format: " (%.3f s)", $0) } ?? ""
            emit(Event(source: source, Failure(FrameProbeError("DECODE_ERROR", String(format: "no frame in the analysed window: --start %.3f s is past the input's end", options.decode.start) + length))))
        }
        summary.elapsedSeconds = Date().timeIntervalSince(started)
        emit(Event(source: source, InputClosed(summary)))
        return !failed
    }

    /// How many frames a segment may run ahead of the next (the head keeps working while the landmark model loads,
    /// and the tail keeps working through a scheduled face scan: up to 24 ms on a 480-px frame), within a memory
    /// budget of about 20 MB of frames per handoff — up to 32 small ones (2–5 % faster than 8 on the 480–512 px
    /// devdata clips, +15 MB), 3 of 1080p.
    static func handoffCapacity(_ info: InputInfo) -> Int {
        min(32, max(2, 20_000_000 / max(1, info.width * info.height * 3)))
    }

    /// The pipeline's segments (`Pipeline.segments`) on threads of their own, each handing a frame's findings and
    /// events to the next through a channel of `capacity`, the last one here; `board` is closed as soon as a segment
    /// after the head stops short, and cancelled when the head ends. Returns how many frames were analysed, how many
    /// of them had a valid face, and how many had any face.
    private func analyseFrames(_ pipeline: Pipeline, frames: FrameSource, capacity: Int, board: FollowedFacesBoard, source: String,
                               stop: StopSignal, analysed onFrame: ((Frame) -> Void)?,
                               emit: (Event) -> Void) -> (frames: Int, withFace: Int, withAnyFace: Int) {
        var segments = pipeline.segments()
        // Without a split point the stages still run on a thread of their own, and their events are written here.
        var tail = segments.count > 1 ? segments.removeLast() : Pipeline(stages: [])
        var workers: [Worker] = []
        var handoff: Channel<SegmentStep>?
        for (index, segment) in segments.enumerated() {
            let next = Channel<SegmentStep>(capacity: capacity)
            let name = index == 0 ? "frameprobe.head" : "frameprobe.segment\(index)"
            workers.append(Worker(name: name) { [handoff] in
                if let handoff {
                    Self.continueSteps(from: handoff, through: segment, into: next, board: board, frames: frames, stop: stop)
                    board.close()
                } else {
                    Self.startSteps(through: segment, into: next, frames: frames, stop: stop)
                    board.cancel()
                }
            })
            handoff = next
        }

        var headFinish: [any EventPayload] = []
        var tailEnded = false
        var analysed = (frames: 0, withFace: 0, withAnyFace: 0)
        while let step = handoff?.receive() {
            guard case .frame(let frame, var analysis, let events, let failure) = step else {
                if case .finished(let events) = step { headFinish = events }
                continue
            }
            // Once the tail has ended (an error, or a stage that needs no more frames), the decoder is stopped
            // and the few frames the earlier segments already analysed are dropped, up to their finishing events.
            // Once stopped, the frames they had queued are dropped too: the input ends at once, marked interrupted.
            guard !tailEnded, !stop.isRaised else {
                board.close()
                continue
            }
            func frameEmit(_ payload: any EventPayload) { emit(Event(source: source, frame: frame.index, pts: frame.pts, payload)) }
            events.forEach(frameEmit)
            analysed.frames += 1
            do throws(FrameProbeError) {
                if let failure { throw failure }
                try tail.process(frame, &analysis, emit: frameEmit)
                if analysis.validFaceBox != nil { analysed.withFace += 1 }
                if !analysis.faces.isEmpty { analysed.withAnyFace += 1 }
                tailEnded = tail.endsInput
            } catch {
                frameEmit(Failure(error))
                tailEnded = true
            }
            onFrame?(frame)
            if tailEnded {
                board.close()
                frames.cancel()
            }
        }
        workers.forEach { $0.join() }
        headFinish.forEach { emit(Event(source: source, $0)) }
        tail.finish { emit(Event(source: source, $0)) }
        return analysed
    }

    /// The first segment: every decoded frame through `segment`, into `next`, then its finishing events.
    private static func startSteps(through segment: Pipeline, into next: Channel<SegmentStep>, frames: FrameSource, stop: StopSignal) {
        var segment = segment
        while !stop.isRaised, let frame = frames.next() {
            var analysis = FrameAnalysis()
            var events: [any EventPayload] = []
            do throws(FrameProbeError) {
                try segment.process(frame, &analysis) { events.append($0) }
            } catch {
                next.send(.frame(frame, analysis, events, failure: error))
                break
            }
            guard next.send(.frame(frame, analysis, events, failure: nil)), !segment.endsInput else { break }
        }
        var finishing: [any EventPayload] = []
        segment.finish { finishing.append($0) }
        next.send(.finished(finishing))
        next.close()
    }

    /// A middle segment: what the one before it handed on, through `segment`, into `next`. A frame that failed before
    /// is passed on as it is; after a failure, or once `segment` ends the input (the decoder is stopped), the frames
    /// still coming are dropped — and `board` is closed: its entries for them will never come. The earlier segments'
    /// finishing events come first, then its own.
    private static func continueSteps(from handoff: Channel<SegmentStep>, through segment: Pipeline, into next: Channel<SegmentStep>,
                                      board: FollowedFacesBoard, frames: FrameSource, stop: StopSignal) {
        var segment = segment
        var ended = false
        while let step = handoff.receive() {
            switch step {
            case .finished(var finishing):
                segment.finish { finishing.append($0) }
                next.send(.finished(finishing))
            case .frame(let frame, var analysis, var events, var failure):
                guard !ended, !stop.isRaised else {
                    board.close()
                    continue
                }
                if failure == nil {
                    do throws(FrameProbeError) {
                        try segment.process(frame, &analysis) { events.append($0) }
                    } catch {
                        failure = error
                    }
                }
                ended = failure != nil || segment.endsInput
                if ended { board.close() }
                if segment.endsInput { frames.cancel() }
                next.send(.frame(frame, analysis, events, failure: failure))
            }
        }
        next.close()
    }
}

/// What a pipeline segment hands to the next: one frame with its findings and events so far, then the finishing
/// events of it and of the segments before it.
private enum SegmentStep: Sendable {
    case frame(Frame, FrameAnalysis, [any EventPayload], failure: FrameProbeError?)
    case finished([any EventPayload])
}

extension InputSummary {
    /// Counts what an event reports: QR codes and saved images.
    mutating func count(_ event: Event) {
        switch event.payload {
        case is QRCodeScanned: qrCodes += 1
        case is ImageCaptured: imagesCaptured += 1
        default: break
        }
    }
}
