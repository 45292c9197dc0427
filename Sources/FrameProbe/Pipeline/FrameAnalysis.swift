/// What the stages found in one frame so far; each stage reads earlier stages' findings and adds its own.
public struct FrameAnalysis: Sendable {
    /// Whole-frame quality, computed once by the first stage that needs it.
    public var frameQuality: QualityScores?
    /// Images saved for this frame.
    public var capturedImages: Int = 0
    /// Set by a stage to end this input's analysis after this frame (e.g. `--stop-at-end-capture`).
    public var stopInput = false

    public init() {}

    /// The whole-frame quality, scoring the frame the first time it is asked for.
    public mutating func wholeFrameQuality(of frame: Frame) throws(FrameProbeError) -> QualityScores {
        if let frameQuality { return frameQuality }
        let scores = try QualityScores(of: frame.image, ellipticalMask: false)
        frameQuality = scores
        return scores
    }
}
