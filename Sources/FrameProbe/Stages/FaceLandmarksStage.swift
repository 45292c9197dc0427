import CVision

/// Fits dlib's 68 landmarks to every face on the full-resolution frame. A freshly detected face teaches how its
/// detector box sits around its landmarks; a face only the profile cascade still sees gets its box from its new
/// landmarks that way.
public struct FaceLandmarksStage: Stage {
    public static let descriptor = StageDescriptor(
        FaceLandmarksStage.self, name: "faceLandmarks", summary: "fits dlib's 68 landmarks to every face (and moves tracked faces)",
        requires: [.faces], provides: [.landmarks], runsBehind: true)

    private var landmarker: FaceModels.Landmarker?
    /// Per trackingId: where the detector's box sits relative to the landmarks' bounding box.
    private var boxFromLandmarks: [Int: BoxRelation] = [:]

    /// The model loads in the background from here on; the first frame with a face waits for it.
    public init() {
        FaceModels.preloadLandmarker()
    }

    public init(options: NoOptions, context: StageContext) { self.init() }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        guard !analysis.faces.isEmpty else { return }
        let gray = try analysis.gray(of: frame)
        let landmarker: FaceModels.Landmarker
        if let loaded = self.landmarker {
            landmarker = loaded
        } else {
            landmarker = try FaceModels.landmarker()
            self.landmarker = landmarker
        }
        var kept: [FaceObservation] = []
        for var face in analysis.faces {
            let points = try fit(face.box, in: gray, with: landmarker)
            let extent = Box(enclosing: points)
            if face.isTracked, let relation = boxFromLandmarks[face.trackingId] {
                let moved = relation.apply(to: extent)
                // A fit that collapsed or jumped means the face is gone, not moved.
                guard moved.width > face.box.width * 0.6, moved.width < face.box.width * 1.6,
                      moved.centre.distance(to: face.box.centre) < face.box.width * 0.5,
                      moved.clamped(toWidth: frame.width, height: frame.height) != nil else { continue }
                face.box = moved
            } else {
                boxFromLandmarks[face.trackingId] = BoxRelation(of: face.box, relativeTo: extent)
            }
            face.landmarks = points
            kept.append(face)
        }
        analysis.faces = kept.sorted { $0.box.width > $1.box.width }
        let present = Set(kept.map(\.trackingId))
        boxFromLandmarks = boxFromLandmarks.filter { present.contains($0.key) }
    }

    private func fit(_ box: Box, in gray: GrayImage, with landmarker: FaceModels.Landmarker) throws(FrameProbeError) -> [Point2D] {
        var points = [cvision_point](repeating: cvision_point(), count: 68)
        let request = cvision_box(x: box.x, y: box.y, width: box.width, height: box.height, score: 0)
        try CVisionCall.check("landmark fitting") {
            cvision_fit_landmarks(landmarker.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width), request, &points)
        }
        return points.map { Point2D(x: Double($0.x), y: Double($0.y)) }
    }
}
