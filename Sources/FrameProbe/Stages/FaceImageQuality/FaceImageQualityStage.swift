import CVision

/// `--face-image-quality`: the ISO/IEC 29794-5 components of the primary face (`FaceImageQuality`), from its
/// landmarks, head pose, expressions and the pixels of its region. Runs after the expression stage, so that eyes
/// and pose are known; `faceDetected` then carries them, and capture, acquisition and reports use them.
public struct FaceImageQualityStage: Stage {
    public static let descriptor = StageDescriptor(
        FaceImageQualityStage.self, name: "faceImageQuality",
        summary: "ISO/IEC 29794-5 face image quality components of the primary face (luminance, sharpness, pose, crop …)",
        requires: [.landmarks], provides: [.faceImageQuality],
        options: [
            .toggle("face-image-quality", "faceImageQuality", "add faceImageQuality (ISO/IEC 29794-5 components, scores 0–100) to faceDetected",
                    invalid: "INVALID_FACE_IMAGE_QUALITY", \AnalysisOptions.faceImageQuality),
        ],
        selection: StageSelection(analyzeWhen: { $0.captureType == .face && ($0.faceImageQuality || $0[CaptureStage.Options.self].best) },
                                  report: true, acquire: true, optionsIn: [.analyze, .report]),
        report: FaceImageQualityReport.self)

    public init() {}
    public init(options: NoOptions, context: StageContext) {}

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        guard let face = analysis.faces.first else { return }
        analysis.faces[0].imageQuality = try Self.measure(face, among: analysis.faces, in: frame)
    }

    /// The components of `face` (the primary one of `faces`) in `frame`.
    public static func measure(_ face: FaceObservation, among faces: [FaceObservation], in frame: Frame) throws(FrameProbeError) -> FaceImageQuality {
        var stats: cvision_face_image_stats?
        if let points = face.landmarks, points.count == 68 {
            let flat = points.flatMap { [Float($0.x), Float($0.y)] }
            var measured = cvision_face_image_stats()
            let image = frame.image
            // A region outside the frame or too small has no pixel components (the landmark ones remain).
            if cvision_face_image_measure(image.pixels, Int32(image.width), Int32(image.height), Int32(image.stride), flat, &measured) == 0 {
                stats = measured
            }
        }
        return FaceImageQuality(components: FaceImageQualityScoring.components(of: face, among: faces, width: frame.width,
                                                                                height: frame.height, stats: stats)
            .map { (name: $0.0, value: $0.1) })
    }
}
