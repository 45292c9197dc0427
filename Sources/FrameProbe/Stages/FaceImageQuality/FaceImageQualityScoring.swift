import CVision

/// How each component is measured and mapped to its score — frameprobe's definitions, after the ideas of ISO/IEC
/// 29794-5 and BSI's OFIQ (which uses networks for the face region, sharpness, compression and expression; here the
/// region is the landmarks' convex hull and those components have pixel or landmark measures instead). Every
/// mapping is piecewise linear between the anchors given, clamped to 0…100.
enum FaceImageQualityScoring {
    /// Linear between `(native, score)` anchors sorted by native value; flat beyond the ends.
    static func score(_ value: Double, _ anchors: [(Double, Double)]) -> Int {
        guard let first = anchors.first, let last = anchors.last else { return 0 }
        if value <= first.0 { return Int(first.1.rounded()) }
        if value >= last.0 { return Int(last.1.rounded()) }
        for (low, high) in zip(anchors, anchors.dropFirst()) where value <= high.0 {
            let t = (value - low.0) / max(high.0 - low.0, 1e-12)
            return Int((low.1 + t * (high.1 - low.1)).rounded())
        }
        return Int(last.1.rounded())
    }

    /// The components of the primary face `face` among `faces`, in a `width` × `height` frame, from its pixel
    /// statistics `stats` (nil: the region could not be measured).
    static func components(of face: FaceObservation, among faces: [FaceObservation], width: Int, height: Int,
                           stats: cvision_face_image_stats?) -> [(String, FaceImageQuality.Component)] {
        var found: [(String, FaceImageQuality.Component)] = []
        func add(_ name: String, _ native: Double, _ anchors: [(Double, Double)]) {
            found.append((name, .init(native: native, score: score(native, anchors))))
        }
        if let stats {
            // Mean luminance of the face region, 0…1: ideal 0.3–0.7, useless below 0.1 or above 0.95.
            add("luminanceMean", stats.luminance_mean, [(0.1, 0), (0.3, 100), (0.7, 100), (0.95, 0)])
            // Its variance (of Y/255): a flat face (std < 0.02) has no detail; 0.005–0.06 is a lit face; harsh beyond.
            add("luminanceVariance", stats.luminance_variance, [(0.0004, 0), (0.005, 100), (0.06, 100), (0.2, 0)])
            // Shares of nearly black (Y ≤ 25) and nearly white (Y ≥ 247) pixels: 100 at none, 0 at half the face.
            add("underExposurePrevention", stats.under_exposed, [(0, 100), (0.5, 0)])
            add("overExposurePrevention", stats.over_exposed, [(0, 100), (0.5, 0)])
            // Entropy of the luminance histogram, bits: 7 bits and more is a full range.
            add("dynamicRange", stats.entropy, [(0, 0), (7, 100)])
            // Overlap of the left and right halves' luminance histograms: 0.9 and more is even light.
            add("illuminationUniformity", stats.uniformity, [(0, 0), (0.9, 100)])
            // Laplacian std at a 64-pixel inter-eye distance: see the README for the real frames that placed the anchors.
            add("sharpness", stats.sharpness, [(FaceImageQualityScoring.blurredSharpness, 0), (FaceImageQualityScoring.sharpSharpness, 100)])
            // Steps across the codec's 8-pixel grid over steps elsewhere: about 1.25 in camera footage and photos that
            // were compressed once, 3–4 after JPEG quality 5 (README: the frames that placed the anchors).
            add("compressionArtifacts", stats.blockiness, [(1.4, 100), (2.6, 0)])
            if stats.colour_known != 0 {
                // Distance of the cheeks' mean (a*, b*) from a skin range (a* 5…28, b* 5…35): 100 inside, 0 at 15 away.
                let da = max(0, 5 - stats.colour_a, stats.colour_a - 28), db = max(0, 5 - stats.colour_b, stats.colour_b - 35)
                add("naturalColour", (da * da + db * db).squareRoot(), [(0, 100), (15, 0)])
            }
        }
        // Another face beside the primary one: 1 − (its width / the primary's); 1 when alone.
        let others = faces.filter { $0.trackingId != face.trackingId }.map(\.box.width)
        add("singleFacePresent", 1 - min(1, (others.max() ?? 0) / max(face.box.width, 1)), [(0, 0), (1, 100)])
        if let left = face.leftEyeOpenProbability, let right = face.rightEyeOpenProbability {
            add("eyesOpen", min(left, right), [(0, 0), (1, 100)])
        }
        guard let points = face.landmarks, points.count == 68 else { return found }
        let mouthWidth = max(points[48].distance(to: points[54]), 1)
        let gap = (points[61].distance(to: points[67]) + points[62].distance(to: points[66]) + points[63].distance(to: points[65])) / 3
        let opening = gap / mouthWidth
        // Inner-lip gap over mouth width: closed below 0.05, wide open at 0.35.
        add("mouthClosed", opening, [(0.05, 100), (0.35, 0)])
        // Neutral: neither smiling nor mouth open.
        let smile = face.smilingProbability ?? 0
        add("expressionNeutrality", 1 - max(smile, min(1, max(0, (opening - 0.05) / 0.3))), [(0, 0), (1, 100)])
        let bounds = FaceGeometry.headBounds(points)
        let ied = FaceGeometry.interEyeDistance(points)
        // Head height (chin to the forehead estimate) over the frame height: 0.3–0.8 suits a portrait or a selfie.
        add("headSize", bounds.height / Double(height), [(0.1, 0), (0.3, 100), (0.8, 100), (1.0, 0)])
        // Pixels between the eye centres: ISO/IEC 39794-5 asks at least 90 for a portrait; below 30 is useless.
        add("interEyeDistance", ied, [(30, 0), (90, 100)])
        // Margins between the head and the frame's edges, in inter-eye distances: 0 touches, 0.5 and more is whole.
        let unit = max(ied, 1)
        add("leftwardCropOfTheFaceImage", bounds.x / unit, [(0, 0), (0.5, 100)])
        add("rightwardCropOfTheFaceImage", (Double(width) - bounds.right) / unit, [(0, 0), (0.5, 100)])
        add("upwardCropOfTheFaceImage", bounds.y / unit, [(0, 0), (0.5, 100)])
        add("downwardCropOfTheFaceImage", (Double(height) - bounds.bottom) / unit, [(0, 0), (0.5, 100)])
        if let pose = face.headPose {
            // 100 within 5° of frontal, 0 from 45° on, either way.
            let anchors: [(Double, Double)] = [(-45, 0), (-5, 100), (5, 100), (45, 0)]
            add("headPoseYaw", pose.y, anchors)
            add("headPosePitch", pose.x, anchors)
            add("headPoseRoll", pose.z, anchors)
        }
        return found
    }

    /// Laplacian std (at IED 64) of a clearly blurred face and of a sharp one; placed on real frames (README).
    static let blurredSharpness = 8.0
    static let sharpSharpness = 40.0
}
