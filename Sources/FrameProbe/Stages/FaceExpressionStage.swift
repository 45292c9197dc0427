/// Eye-open and smiling probabilities of every face, from its landmarks (`FaceGeometry`'s curves).
public struct FaceExpressionStage: Stage {
    public static let descriptor = StageDescriptor(
        FaceExpressionStage.self, name: "faceExpressions", summary: "eye-open and smiling probabilities (from the landmarks)",
        requires: [.landmarks], provides: [.expressions],
        selection: StageSelection(analyzeWhen: { $0.captureType == .face }, report: true, acquire: true))

    public init() {}
    public init(options: NoOptions, context: StageContext) {}

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        for index in analysis.faces.indices {
            guard let points = analysis.faces[index].landmarks else { continue }
            analysis.faces[index].leftEyeOpenProbability = FaceGeometry.leftEyeOpenProbability(points)
            analysis.faces[index].rightEyeOpenProbability = FaceGeometry.rightEyeOpenProbability(points)
            analysis.faces[index].smilingProbability = FaceGeometry.smilingProbability(points)
        }
    }
}
