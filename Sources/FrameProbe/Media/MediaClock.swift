/// Media time that only moves forward, for the timers that count it (the capture gate, the acquisition's
/// stillness and recording, the QR forget time). It follows the stream's pts while they increase; where they go
/// back — two files concatenated (`cat a.ts b.ts`), an MPEG-TS timestamp wrap, a camera restarting its clock —
/// the step across the jump counts as one frame's duration, and counting goes on from there. So a gate of 1 s
/// opens after 1 s of footage, whatever the timestamps did. Forward jumps are kept: they are media time that
/// passed (a stream that paused).
public struct MediaClock: Sendable {
    private var lastPts: Double?
    private var elapsed = 0.0

    public init() {}

    /// The clock at a frame with presentation time `pts`; `step` is its nominal duration (0 when unknown).
    public mutating func advance(to pts: Double, step: Double) -> Double {
        defer { lastPts = pts }
        guard let lastPts else {
            elapsed = max(pts, 0)
            return elapsed
        }
        let delta = pts - lastPts
        elapsed += delta >= 0 ? delta : max(step, 0)
        return elapsed
    }
}
