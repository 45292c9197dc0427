import Foundation

/// Decodes an input on its own thread, ahead of analysis, through a small bounded channel: both cores stay
/// busy and memory stays flat whatever the input's length (the decoder waits when analysis falls behind).
public final class FrameSource: Sendable {
    /// How decoding ended, known once `next()` has returned nil.
    public struct Outcome: Sendable {
        public var framesDecoded = 0
        public var corruptPackets = 0
        public var error: FrameProbeError?
    }

    public let info: InputInfo
    private let frames: Channel<Frame>
    /// The decode thread's last word: how decoding ended.
    private let ended = Channel<Outcome>(capacity: 1)

    /// Opens `url` (a URL, device or file path) and starts decoding in the background.
    public convenience init(url: String, options: DecodeOptions, capacity: Int = 4) throws(FrameProbeError) {
        try self.init(location: MediaLocation(url: url), options: options, capacity: capacity)
    }

    /// Opens `location` (errors here mean the input could not be opened) and starts decoding in the background.
    public init(location: MediaLocation, options: DecodeOptions, capacity: Int = 4) throws(FrameProbeError) {
        let decoder = try MediaDecoder(location: location, options: options)
        info = decoder.info
        let frames = Channel<Frame>(capacity: capacity)
        self.frames = frames
        _ = Worker(name: "frameprobe.decode") { [ended] in
            var failure: FrameProbeError?
            var cancelled = false
            do throws(FrameProbeError) {
                while let frame = try decoder.nextFrame() {
                    guard frames.send(frame) else {
                        cancelled = true
                        break
                    }
                }
            } catch {
                failure = error
            }
            var outcome = Outcome(framesDecoded: decoder.framesDecoded, corruptPackets: decoder.corruptPackets,
                                  error: failure ?? decoder.readError ?? (cancelled ? nil : decoder.truncationError()))
            if outcome.error == nil && decoder.framesProduced == 0 {
                outcome.error = decoder.nothingDecodedError()
            }
            frames.close()
            ended.send(outcome)
            ended.close()
        }
    }

    /// The next frame, waiting for the decoder; nil once the input is exhausted or cancelled.
    public func next() -> Frame? { frames.receive() }

    /// Stops decoding early (the frames already queued are dropped).
    public func cancel() { frames.cancel() }

    /// How decoding ended; stops decoding if it is still going, and waits for the decode thread. Call it once.
    public func finish() -> Outcome {
        frames.cancel()
        return ended.receive() ?? Outcome()
    }
}
