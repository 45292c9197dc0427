import CVision

/// Fits dlib's 68 landmarks to a face on the full-resolution frame, upright: a rolled face is fitted on a copy turned
/// upright, and the points mapped back. It remembers each face's roll from frame to frame.
struct LandmarkFitter {
    private var landmarker: FaceModels.Landmarker?
    /// Scores the rolls at which a newly seen, rolled face may stand upright.
    private var checker: FaceFinder?
    /// Per trackingId: the eye-line slope of its last fit, when the face is rolled enough to be fitted upright.
    private var rollByFace: [Int: Double] = [:]

    /// dlib's predictor is trained on upright faces: beyond this eye-line slope (degrees) the face is fitted again
    /// on a copy turned upright, and the points mapped back. Below it an upright fit is as good and cheaper.
    static let uprightFitSlope = 12.0

    /// Whether each fit is the mean of dlib's fit and the mirror image of its fit on the mirrored image: a face and
    /// its mirror image then get mirror images of the same points (and yaws of opposite sign). dlib's fit is not
    /// mirror-equivariant — a face and its mirror read yaws up to 4.9° apart on turned/ — but the mean doubles the
    /// fit's cost (~0.65 ms a face), so photos take it and video frames, fitted every frame, do not.
    private let mirrorAveraged: Bool

    /// The model loads in the background from here on; the first fit waits for it.
    init(mirrorAveraged: Bool) {
        self.mirrorAveraged = mirrorAveraged
        FaceModels.preloadLandmarker()
    }

    /// The 68 points of `face`, fitted from its box: from the best roll guess (the detector's turned copy, else the
    /// face's last fit), and again on copies turned by the fit's own eye line while the face is rolled beyond
    /// `uprightFitSlope`.
    mutating func fit(_ face: FaceObservation, in gray: GrayImage) throws(FrameProbeError) -> [Point2D] {
        let landmarker = try loadedLandmarker()
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

    /// Forgets the rolls of faces no longer in view.
    mutating func keepOnly(_ faces: [FaceObservation]) {
        let present = Set(faces.map(\.trackingId))
        rollByFace = rollByFace.filter { present.contains($0.key) }
    }

    private mutating func loadedLandmarker() throws(FrameProbeError) -> FaceModels.Landmarker {
        if let landmarker { return landmarker }
        let loaded = try FaceModels.landmarker()
        landmarker = loaded
        return loaded
    }

    /// Among the slope a first fit found and rolls 15° and 30° further the same way (and 15° back), the one at which
    /// the frontal detector scores the face highest — on a small window around it, so it costs little, and only
    /// for a face rolled beyond `uprightFitSlope` that has no roll from the frames before.
    private mutating func bestRoll(of box: Box, near slope: Double, in gray: GrayImage) throws(FrameProbeError) -> Double {
        let finder: FaceFinder
        if let made = checker { finder = made } else { finder = try FaceFinder(minFaceSize: 1); checker = finder }
        let side: Double = slope < 0 ? -1 : 1
        let candidates = [slope, slope + 15 * side, slope + 30 * side, slope - 15 * side].filter { abs($0) <= 75 }
        var best = (angle: slope, score: -Double.infinity)
        for angle in candidates {
            if let score = try finder.bestHit(on: box, roll: angle, threshold: -0.5, margin: 0.3, faceWidth: 90, overlap: 0.2, in: gray)?.score,
               score > best.score {
                best = (angle, score)
            }
        }
        return best.angle
    }

    /// The 68 points of the face in `box`, fitted on the frame turned counter-clockwise by `angle` degrees.
    private func fit(_ box: Box, turnedBy angle: Double, in gray: GrayImage, with landmarker: FaceModels.Landmarker) throws(FrameProbeError) -> [Point2D] {
        var points = [cvision_point](repeating: cvision_point(), count: 68)
        let request = cvision_box(x: box.x, y: box.y, width: box.width, height: box.height, score: 0, filter: -1)
        try CVisionCall.check("landmark fitting") {
            abs(angle) < 0.5
                ? cvision_fit_landmarks(landmarker.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width), request,
                                        mirrorAveraged ? 1 : 0, &points)
                : cvision_fit_landmarks_rotated(landmarker.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width),
                                                request, angle, mirrorAveraged ? 1 : 0, &points)
        }
        return points.map { Point2D(x: Double($0.x), y: Double($0.y)) }
    }
}
