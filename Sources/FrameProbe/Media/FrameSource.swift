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
    private let condition = NSCondition()
    private var queue: [Frame] = []
    private let capacity: Int
    private var done = false
    private var cancelled = false
    private var outcome = Outcome()

    /// Opens `url` (errors here mean the input could not be opened) and starts decoding in the background.
    public init(url: String, options: DecodeOptions, capacity: Int = 4) throws(FrameProbeError) {
        let decoder = try MediaDecoder(url: url, options: options)
        info = decoder.info
        self.capacity = max(capacity, 1)
        let thread = Thread { [self] in self.decode(with: decoder) }
        thread.name = "frameprobe.decode"
        thread.start()
    }

    /// The next frame, waiting for the decoder; nil once the input is exhausted or cancelled.
    public func next() -> Frame? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !done { condition.wait() }
        guard !queue.isEmpty else { return nil }
        let frame = queue.removeFirst()
        condition.broadcast()
        return frame
    }

    /// How decoding ended; waits for the decode thread to finish.
    public func finish() -> Outcome {
        cancel()
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
        return outcome
    }

    /// Stops decoding early (the frames already queued are dropped).
    public func cancel() {
        condition.lock()
        cancelled = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func decode(with decoder: MediaDecoder) {
        var failure: FrameProbeError?
        do {
            while let frame = try decoder.nextFrame() {
                guard push(frame) else { break }
            }
        } catch {
            failure = error
        }
        var ended = Outcome(framesDecoded: decoder.framesDecoded, corruptPackets: decoder.corruptPackets,
                            error: failure ?? decoder.readError)
        if ended.error == nil && decoder.framesDecoded == 0 && decoder.corruptPackets > 0 {
            ended.error = FrameProbeError("DECODE_ERROR", "no frame could be decoded (\(decoder.corruptPackets) corrupt packets)")
        }
        condition.lock()
        outcome = ended
        done = true
        condition.broadcast()
        condition.unlock()
    }

    private func push(_ frame: Frame) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        queue.append(frame)
        condition.broadcast()
        return true
    }
}
