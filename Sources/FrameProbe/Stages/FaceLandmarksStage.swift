import CVision

/// Fits dlib's 68 landmarks to every face on the full-resolution frame, upright (rolled faces are fitted on a copy
/// turned upright); faces seen only in profile get none.
public struct FaceLandmarksStage: Stage {
    public static let descriptor = StageDescriptor(
        FaceLandmarksStage.self, name: "faceLandmarks", summary: "fits dlib's 68 landmarks to every face (none to faces seen in profile)",
        requires: [.faces], provides: [.landmarks], runsBehind: true)

    private var landmarker: FaceModels.Landmarker?
    /// A frontal detector of its own, to find the roll at which a newly seen, rolled face stands upright.
    private var checker: FaceModels.Detector?
    /// Per trackingId: the eye-line slope of its last fit, when the face is rolled enough to be fitted upright.
    private var rollByFace: [Int: Double] = [:]

    /// dlib's predictor is trained on upright faces: beyond this eye-line slope (degrees) the face is fitted again
    /// on a copy turned upright, and the points mapped back. Below it an upright fit is as good and cheaper.
    static let uprightFitSlope = 12.0

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
        for index in analysis.faces.indices where analysis.faces[index].profile == nil {
            // A face seen in profile gets no landmarks: the 68-point model fits nonsense there.
            analysis.faces[index].landmarks = try fitUpright(analysis.faces[index], in: gray, with: landmarker)
        }
        let present = Set(analysis.faces.map(\.trackingId))
        rollByFace = rollByFace.filter { present.contains($0.key) }
    }

    /// Fits from the best roll guess (the detector's turned copy, else the face's last fit), and again on copies
    /// turned by the fit's own eye line while the face is rolled beyond `uprightFitSlope`.
    private mutating func fitUpright(_ face: FaceObservation, in gray: GrayImage, with landmarker: FaceModels.Landmarker) throws(FrameProbeError) -> [Point2D] {
        let guess = face.roll ?? rollByFace[face.trackingId] ?? 0
        var angle = guess
        var points = try fit(face.box, turnedBy: angle, in: gray, with: landmarker)
        var slope = FaceGeometry.eyeLineAngle(points)
        if guess == 0, abs(slope) > Self.uprightFitSlope {
            // A fit from an upright start on a face rolled far can settle on a wrong, self-consistent slope: start
            // again from the roll at which dlib's frontal detector sees the face best.
            angle = try bestRoll(of: face.box, near: slope, in: gray)
            points = try fit(face.box, turnedBy: angle, in: gray, with: landmarker)
            slope = FaceGeometry.eyeLineAngle(points)
        }
        // A fit on a copy turned less than the face is rolled underestimates the roll: turn by what it found, and
        // again, until the eye line stays put (three refits at most; each takes most of the remaining roll).
        for _ in 0..<3 where abs(slope) > Self.uprightFitSlope && abs(slope - angle) > 2 {
            angle = slope
            points = try fit(face.box, turnedBy: angle, in: gray, with: landmarker)
            slope = FaceGeometry.eyeLineAngle(points)
        }
        rollByFace[face.trackingId] = abs(slope) > Self.uprightFitSlope ? slope : nil
        return points
    }

    /// Among the slope a first fit found and rolls 15° and 30° further the same way (and 15° back), the one at which
    /// the frontal detector scores the face highest — on a small window around it, so it costs little, and only
    /// for a face rolled beyond `uprightFitSlope` that has no roll from the frames before.
    private mutating func bestRoll(of box: Box, near slope: Double, in gray: GrayImage) throws(FrameProbeError) -> Double {
        let detector: FaceModels.Detector
        if let made = checker { detector = made } else { detector = try FaceModels.detector(); checker = detector }
        let side: Double = slope < 0 ? -1 : 1
        let candidates = [slope, slope + 15 * side, slope + 30 * side, slope - 15 * side].filter { abs($0) <= 75 }
        let margin = box.width * 0.3
        let window = cvision_box(x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin, score: 0, filter: -1)
        let scale = min(max(90 / max(box.width, 1), 0.05), 4)
        var best = (angle: slope, score: -Double.infinity)
        for angle in candidates {
            var found = [cvision_box](repeating: cvision_box(), count: 8)
            var count: Int32 = 0
            try CVisionCall.check("face detection") {
                cvision_detect_faces_rotated(detector.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width),
                                             window, scale, -0.5, angle, &found, Int32(found.count), &count)
            }
            let hits = found.prefix(Int(min(count, 8))).filter { hit in
                Box(x: hit.x, y: hit.y, width: hit.width, height: hit.height).intersectionOverUnion(box) > 0.2
            }
            if let score = hits.map(\.score).max(), score > best.score { best = (angle, score) }
        }
        return best.angle
    }

    /// The 68 points of the face in `box`, fitted on the frame turned counter-clockwise by `angle` degrees.
    private func fit(_ box: Box, turnedBy angle: Double, in gray: GrayImage, with landmarker: FaceModels.Landmarker) throws(FrameProbeError) -> [Point2D] {
        var points = [cvision_point](repeating: cvision_point(), count: 68)
        let request = cvision_box(x: box.x, y: box.y, width: box.width, height: box.height, score: 0, filter: -1)
        try CVisionCall.check("landmark fitting") {
            abs(angle) < 0.5
                ? cvision_fit_landmarks(landmarker.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width), request, &points)
                : cvision_fit_landmarks_rotated(landmarker.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width),
                                                request, angle, &points)
        }
        return points.map { Point2D(x: Double($0.x), y: Double($0.y)) }
    }
}
