/// What the stages found in one frame so far; each stage reads earlier stages' findings and adds its own.
public struct FrameAnalysis: Sendable {
    /// Whole-frame quality, computed once by the first stage that needs it.
    public var frameQuality: QualityScores?
    /// Faces found in this frame, the widest first (face stages).
    public var faces: [FaceObservation] = []
    /// The primary face's enlarged box when it passed the region checks (what face capture saves).
    public var validFaceBox: Box?
    /// Codes decoded in this frame that passed the region checks (QR stage).
    public var codes: [BarcodeObservation] = []
    /// Set by guidance on the frame where recording may start.
    public var recordingCue: RecordingCue?

    private var grayCache: GrayImage?

    public init() {}

    /// The frame in gray (for the detectors), converted the first time it is asked for.
    public mutating func gray(of frame: Frame) throws(FrameProbeError) -> GrayImage {
        if let grayCache { return grayCache }
        let gray = try GrayImage(frame.image)
        grayCache = gray
        return gray
    }

    /// The whole-frame quality, scoring the frame the first time it is asked for.
    public mutating func wholeFrameQuality(of frame: Frame) throws(FrameProbeError) -> QualityScores {
        if let frameQuality { return frameQuality }
        let scores = try QualityScores(of: frame.image, ellipticalMask: false)
        frameQuality = scores
        return scores
    }
}
