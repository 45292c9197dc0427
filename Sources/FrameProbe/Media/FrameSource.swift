import Foundation

/// Decodes an input on its own thread, ahead of analysis, through a small bounded queue: both cores stay
/// busy and memory stays flat whatever the input's length (the decoder waits when analysis falls behind).
public final class FrameSource: @unchecked Sendable {
    /// How decoding ended, known once `next()` has returned nil.
    public struct Outcome: Sendable {
        public var framesDecoded = 0
        public var corruptPackets = 0
        public var error: FrameProbeError?
    }

    public let info: InputInfo
    private let queue: BoundedQueue<Frame>
    private let done = BoundedQueue<Outcome>(capacity: 1)
    private var outcome: Outcome?

    /// Opens `url` (a URL, device or file path) and starts decoding in the background.
    public convenience init(url: String, options: DecodeOptions, capacity: Int = 4) throws(FrameProbeError) {
        try self.init(location: MediaLocation(url: url), options: options, capacity: capacity)
    }

    /// Opens `location` (errors here mean the input could not be opened) and starts decoding in the background.
    public init(location: MediaLocation, options: DecodeOptions, capacity: Int = 4) throws(FrameProbeError) {
        let decoder = try MediaDecoder(location: location, options: options)
        info = decoder.info
        queue = BoundedQueue(capacity: capacity)
        let thread = Thread { [queue, done] in
            var failure: FrameProbeError?
            var cancelled = false
            do throws(FrameProbeError) {
                while let frame = try decoder.nextFrame() {
                    guard queue.push(frame) else {
                        cancelled = true
                        break
                    }
                }
            } catch {
                failure = error
            }
            var ended = Outcome(framesDecoded: decoder.framesDecoded, corruptPackets: decoder.corruptPackets,
                                error: failure ?? decoder.readError ?? (cancelled ? nil : decoder.truncationError()))
            if ended.error == nil && decoder.framesProduced == 0 {
                ended.error = decoder.nothingDecodedError()
            }
            queue.finish()
            _ = done.push(ended)
            done.finish()
        }
        thread.name = "frameprobe.decode"
        thread.start()
    }

    /// The next frame, waiting for the decoder; nil once the input is exhausted or cancelled.
    public func next() -> Frame? { queue.pop() }

    /// Stops decoding early (the frames already queued are dropped).
    public func cancel() { queue.cancel() }

    /// How decoding ended; stops decoding if it is still going, and waits for the decode thread.
    public func finish() -> Outcome {
        if let outcome { return outcome }
        queue.cancel()
        let ended = done.pop() ?? Outcome()
        outcome = ended
        return ended
    }
}
