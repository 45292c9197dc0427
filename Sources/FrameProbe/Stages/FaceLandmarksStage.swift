/// Fits dlib's 68 landmarks to every face on the full-resolution frame, upright (rolled faces are fitted on a copy
/// turned upright); faces seen only in profile get none. After the detection stage, it also follows the faces
/// from frame to frame by their landmarks (`LandmarkFollower`, `FaceSearch`).
public struct FaceLandmarksStage: Stage {
    public static let descriptor = StageDescriptor(
        FaceLandmarksStage.self, name: "faceLandmarks",
        summary: "fits dlib's 68 landmarks to every face (none to faces seen in profile) and follows faces by them",
        requires: [.faces], provides: [.landmarks], runsBehind: true,
        selection: StageSelection(analyzeWhen: { $0.captureType == .face }, report: true, acquire: true))

    private var fitter: LandmarkFitter
    private var follower: LandmarkFollower?
    private let minFaceSize: Double
    private let underMaxFaces: Bool
    private let detectEvery: Int
    /// Under `--max-faces`: where the faces followed on each frame are posted for the detection stage.
    private let board: FollowedFacesBoard?

    /// `minFaceSize`: the smallest face a whole-frame scan of its own looks for (the detection stage's setting);
    /// `underMaxFaces`: as under `--max-faces`, those scans run at the frame's own size at most, and after a loss look
    /// for the lost face's size (`LandmarkFollower`).
    /// `stillImage`: a photo's points are the mean of the fit on it and on its mirror image (`LandmarkFitter`).
    public init(minFaceSize: Double = FaceDetectionStage.Options().minFaceSize, underMaxFaces: Bool = false, detectEvery: Int = FaceDetectionStage.Options().detectEvery,
                stillImage: Bool = true, board: FollowedFacesBoard? = nil) {
        self.minFaceSize = minFaceSize
        self.underMaxFaces = underMaxFaces
        self.detectEvery = detectEvery
        self.board = underMaxFaces ? board : nil
        fitter = LandmarkFitter(mirrorAveraged: stillImage)
    }

    public init(options: NoOptions, context: StageContext) {
        let detection = context.options[FaceDetectionStage.Options.self]
        self.init(minFaceSize: detection.minFaceSize, underMaxFaces: detection.maxFaces > 0, detectEvery: detection.detectEvery,
                  stillImage: context.info?.isStillImage ?? false, board: context.followedFacesBoard)
    }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        let scan: [FaceObservation]?
        switch analysis.faceSearch {
        case .complete:
            guard !analysis.faces.isEmpty else { return }
            let gray = try analysis.gray(of: frame)
            for index in analysis.faces.indices where analysis.faces[index].profile == nil {
                // A face seen in profile gets no landmarks: the 68-point model fits nonsense there.
                analysis.faces[index].landmarks = try fitter.fit(analysis.faces[index], in: gray)
            }
            fitter.keepOnly(analysis.faces)
            return
        case .scanned(let hits): scan = hits
        case .toFollow: scan = nil
        }
        // Taken out while it works, so that its arrays are not copied every frame.
        var follower: LandmarkFollower
        if let existing = self.follower.take() { follower = existing } else { follower = try LandmarkFollower(minFaceSize: minFaceSize, underMaxFaces: underMaxFaces, detectEvery: detectEvery) }
        analysis.faces = try follower.faces(in: try analysis.gray(of: frame), scan: scan, fitter: &fitter)
        self.follower = follower
        board?.post(analysis.faces)
        analysis.faceSearch = .complete
    }
}
