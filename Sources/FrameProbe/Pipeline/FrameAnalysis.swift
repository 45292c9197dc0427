/// What the stages found in one frame so far; each stage reads earlier stages' findings and adds its own.
public struct FrameAnalysis: Sendable {
    /// Whole-frame quality, computed once by the first stage that needs it.
    public var frameQuality: QualityScores?
    /// Faces found in this frame, the widest first (face stages).
    public var faces: [FaceObservation] = []
    /// Whether `faces` is complete, or the detection stage left following faces to the landmarks stage.
    public var faceSearch = FaceSearch.complete
    /// The primary face's enlarged box when it passed the region checks (what face capture saves).
    public var validFaceBox: Box?
    /// Codes decoded in this frame that passed the region checks (QR stage).
    public var codes: [BarcodeObservation] = []
    /// Set by guidance on the frame where recording may start.
    public var recordingCue: RecordingCue?

    private var grayCache: GrayImage?
    /// Findings of other types (a library user's stages), by type.
    private var added: [ObjectIdentifier: any AnalysisFinding] = [:]

    public init() {}

    /// A finding an earlier stage added (`analysis[MotionScore.self]`), or nil; set it to add one. The built-in
    /// findings are the stored properties above.
    public subscript<F: AnalysisFinding>(_ type: F.Type) -> F? {
        get { added[ObjectIdentifier(type)] as? F }
        set { added[ObjectIdentifier(type)] = newValue }
    }

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

/// How the detection and landmarks stages share finding faces. Alone, the detection stage finds every face in every
/// frame (`complete`). With the landmarks stage after it, the detection stage only scans whole frames on its
/// schedule and the landmarks stage follows faces from their landmarks: the detection stage hands on its scan's hits
/// (`scanned`), or says that it did not scan this frame (`toFollow`); the landmarks stage then fills `faces`.
public enum FaceSearch: Sendable {
    case complete
    case scanned([FaceObservation])
    case toFollow
}
