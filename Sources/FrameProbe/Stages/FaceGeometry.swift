import Foundation

/// Eye and smile measures from the 68 iBUG landmarks, mapped to probabilities by logistic curves.
///
/// - Eye openness: the eye aspect ratio EAR = (|p2−p6| + |p3−p5|) / (2·|p1−p4|) over the eye's six points
///   (Soukupová & Čech): 0.25–0.51 for open eyes, and up to 0.194 for closed eyes whose lash line the landmarks
///   follow (eyeliner, long lashes: the tuning frames of the test-data folder's real-frames/). A broad smile lifts the cheeks
///   and narrows open eyes (EAR 0.215 on dlib's Tom_Cruise_avp_2014_4.jpg), so the smiling probability adds back
///   0.03 of EAR: openness = EAR + 0.03·p(smile), p = 1 / (1 + e^(−60·(openness − 0.215))) — closed eyes ≤ 0.25,
///   a smiling open eye 0.86, a relaxed open eye > 0.9. Tested on held-out real frames (RealFrameTests).
/// - Smile: score = (mouth width / outer-eye-corner distance − 0.55) + (rise of the mouth corners above the lips'
///   centre line / mouth width). A smile widens the mouth (ratio 0.74–0.86 against 0.54–0.64 for neutral faces on
///   dlib's bald_guys.jpg) and lifts its corners; p = 1 / (1 + e^(−25·(score − 0.25))): neutral faces (score
///   < 0.12) read < 0.05, broad smiles (score > 0.35) > 0.9.
/// "Left"/"right" are the subject's own, as ML Kit: the left eye is points 42–47 (the image's right side).
public enum FaceGeometry {
    public static let eyeMidpoint = 0.215
    public static let eyeSlope = 60.0
    /// How much a full smile narrows an open eye, in EAR.
    static let smileNarrowing = 0.03
    public static let smileMidpoint = 0.25
    public static let smileSlope = 25.0

    static let rightEye = Array(36...41)
    static let leftEye = Array(42...47)

    public static func eyeAspectRatio(_ points: [Point2D], eye: [Int]) -> Double {
        let p = eye.map { points[$0] }
        let width = p[0].distance(to: p[3])
        guard width > 0 else { return 0 }
        return (p[1].distance(to: p[5]) + p[2].distance(to: p[4])) / (2 * width)
    }

    /// Mouth width over outer-eye-corner distance, minus the neutral ratio, plus the corners' rise.
    public static func smileScore(_ points: [Point2D]) -> Double {
        let eyes = points[36].distance(to: points[45])
        let mouthWidth = points[48].distance(to: points[54])
        guard eyes > 0, mouthWidth > 0 else { return 0 }
        let widening = mouthWidth / eyes - neutralMouthRatio
        let lipCentre = (points[51].y + points[57].y) / 2 + (points[62].y + points[66].y) / 2
        let cornerRise = (lipCentre / 2 - (points[48].y + points[54].y) / 2) / mouthWidth
        return widening + cornerRise
    }

    /// Mouth width / outer-eye-corner distance of a relaxed mouth.
    static let neutralMouthRatio = 0.55

    static func logistic(_ value: Double, midpoint: Double, slope: Double) -> Double {
        1 / (1 + exp(-slope * (value - midpoint)))
    }

    public static func leftEyeOpenProbability(_ points: [Point2D]) -> Double { eyeOpenProbability(points, eye: leftEye) }

    public static func rightEyeOpenProbability(_ points: [Point2D]) -> Double { eyeOpenProbability(points, eye: rightEye) }

    static func eyeOpenProbability(_ points: [Point2D], eye: [Int]) -> Double {
        let openness = eyeAspectRatio(points, eye: eye) + smileNarrowing * smilingProbability(points)
        return logistic(openness, midpoint: eyeMidpoint, slope: eyeSlope)
    }

    public static func smilingProbability(_ points: [Point2D]) -> Double {
        logistic(smileScore(points), midpoint: smileMidpoint, slope: smileSlope)
    }

    /// The head: the landmarks' box (brows to chin, jaw to jaw) raised by the forehead they do not cover — half
    /// the brow-to-chin height, the classic thirds of a face. Face image quality measures its size and margins.
    public static func headBounds(_ points: [Point2D]) -> Box {
        let landmarks = Box(enclosing: points)
        let forehead = landmarks.height * 0.5
        return Box(x: landmarks.x, y: landmarks.y - forehead, width: landmarks.width, height: landmarks.height + forehead)
    }

    /// A dlib-style box from the 68 points: this many times the points' width (across the face, along its eye
    /// line), square, its centre this many widths above the points' middle. Medians over the faces of
    /// WDA_AlexandriaOcasioCortez_000, driving_d10 and source_s18 (boxes from dlib's detector, points fitted in them:
    /// 1.08, 1.07, 1.07 and −0.08, −0.10, −0.09); driving_d3, d6, d11 and source_s13 checked them (0.93–1.15, −0.05…−0.12).
    static let boxWidthPerPointsWidth = 1.07
    static let boxRisePerPointsWidth = 0.09

    /// The dlib-style box of a face with these 68 points: square, sized and placed from the points' extent along
    /// the eye line (so a rolled face's box is not widened by its roll).
    public static func faceBox(around points: [Point2D]) -> Box {
        let angle = FaceGeometry.eyeLineAngle(points) * .pi / 180
        let (cosine, sine) = (cos(angle), sin(angle))
        let middle = Point2D(x: points.map(\.x).reduce(0, +) / Double(points.count), y: points.map(\.y).reduce(0, +) / Double(points.count))
        // The points in the face's own axes (eye line horizontal), about their middle.
        let along = points.map { ($0.x - middle.x) * cosine + ($0.y - middle.y) * sine }
        let across = points.map { -($0.x - middle.x) * sine + ($0.y - middle.y) * cosine }
        guard let left = along.min(), let right = along.max(), let top = across.min(), let bottom = across.max() else { return Box(x: 0, y: 0, width: 0, height: 0) }
        let width = right - left
        let centreAlong = (left + right) / 2, centreAcross = (top + bottom) / 2 - boxRisePerPointsWidth * width
        let centre = Point2D(x: middle.x + centreAlong * cosine - centreAcross * sine, y: middle.y + centreAlong * sine + centreAcross * cosine)
        let side = boxWidthPerPointsWidth * width
        return Box(x: centre.x - side / 2, y: centre.y - side / 2, width: side, height: side)
    }

    /// Pixels between the centres of the two eyes (their six landmarks each).
    public static func interEyeDistance(_ points: [Point2D]) -> Double {
        eyeCentre(points, leftEye).distance(to: eyeCentre(points, rightEye))
    }

    /// The slope of the line from the subject's right eye (on the image's left) to the left one, in degrees, in
    /// image coordinates: positive when it falls to the right (the face rolled clockwise).
    public static func eyeLineAngle(_ points: [Point2D]) -> Double {
        let right = eyeCentre(points, rightEye), left = eyeCentre(points, leftEye)
        return atan2(left.y - right.y, left.x - right.x) * 180 / .pi
    }

    static func eyeCentre(_ points: [Point2D], _ eye: [Int]) -> Point2D {
        Point2D(x: eye.map { points[$0].x }.reduce(0, +) / Double(eye.count), y: eye.map { points[$0].y }.reduce(0, +) / Double(eye.count))
    }

    /// The named landmark groups of `--face-contours` (ML Kit's contour names; left/right are the subject's).
    public static let contourGroups: [(String, [Int])] = [
        ("jaw", Array(0...16)), ("rightEyebrow", Array(17...21)), ("leftEyebrow", Array(22...26)),
        ("noseBridge", Array(27...30)), ("noseBottom", Array(31...35)), ("rightEye", rightEye), ("leftEye", leftEye),
        ("outerLips", Array(48...59)), ("innerLips", Array(60...67)),
    ]
}
