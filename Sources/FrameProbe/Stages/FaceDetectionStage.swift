import CVision

/// Finds faces with dlib's HOG frontal detector and keeps them across frames.
///
/// Detection runs on a copy scaled so that the smallest face asked for (`minFaceSize` × frame width) meets the
/// detector's ~80 px window: small faces are upsampled, large selfie faces are found on a downscaled copy. Between
/// detections (`detectEvery`) faces are carried from the previous frame, where the landmarks stage re-fits them;
/// a face the frontal detector loses (turned beyond ~40° of yaw) is kept while OpenCV's profile cascade still
/// sees it, or for `maxMissedDetections` detection passes.
public struct FaceDetectionStage: Stage {
    public struct Options: Sendable {
        /// Smallest face to find, as a fraction of the frame width.
        public var minFaceSize = 0.1
        /// Run the detector every Nth analysed frame (1 = every frame); faces are tracked in between.
        public var detectEvery = 1
        /// Detection passes a tracked face may miss before it is dropped (unless the profile cascade sees it).
        public var maxMissedDetections = 2

        public init() {}

        init(_ options: AnalysisOptions) {
            minFaceSize = options.minFaceSize
            detectEvery = options.detectEvery
        }

        public func validate() throws(FrameProbeError) {
            guard minFaceSize > 0 && minFaceSize <= 1 else {
                throw FrameProbeError("INVALID_MIN_FACE_SIZE", "minFaceSize must be in (0, 1], got \(minFaceSize)")
            }
            guard detectEvery >= 1 else { throw FrameProbeError("INVALID_DETECT_EVERY", "detectEvery must be 1 or more") }
        }
    }

    /// dlib's frontal detector finds faces down to about this size (its HOG window).
    static let detectorWindow = 80.0

    private let options: Options
    private let detector: FaceModels.Detector
    private var framesSinceDetection = Int.max
    private var nextTrackingId = 1

    public init(options: Options) throws(FrameProbeError) {
        try options.validate()
        self.options = options
        detector = try FaceModels.detector()
    }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: (Event.Body) -> Void) throws(FrameProbeError) {
        let gray = try analysis.gray(of: frame)
        let carried = analysis.previousFaces.filter { $0.landmarks != nil }
        let detectNow = framesSinceDetection >= options.detectEvery - 1 || carried.isEmpty
        var faces: [FaceObservation]
        if detectNow {
            framesSinceDetection = 0
            faces = try assignIdentities(to: detect(in: gray), carried: carried, gray: gray)
        } else {
            framesSinceDetection += 1
            faces = carried.map { face in
                var tracked = face
                tracked.isTracked = true
                return tracked
            }
        }
        analysis.faces = faces.sorted { $0.box.width > $1.box.width }
    }

    /// The scale that brings the smallest wanted face to the detector's window.
    func detectionScale(frameWidth: Int) -> Double {
        let smallestFace = options.minFaceSize * Double(frameWidth)
        return min(max(Self.detectorWindow / smallestFace, 0.05), 4)
    }

    private func detect(in gray: GrayImage) throws(FrameProbeError) -> [Box] {
        var found = [cvision_box](repeating: cvision_box(), count: 64)
        var count: Int32 = 0
        try CVisionCall.check("face detection") {
            cvision_detect_faces(detector.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width),
                                 detectionScale(frameWidth: gray.width), &found, Int32(found.count), &count)
        }
        return found.prefix(Int(min(count, 64))).map { Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
    }

    /// Detections take over the identity of the carried face they overlap most; carried faces nobody matched
    /// stay (as tracked) while the profile cascade confirms them or until they missed too many passes.
    private mutating func assignIdentities(to detections: [Box], carried: [FaceObservation], gray: GrayImage) throws(FrameProbeError) -> [FaceObservation] {
        var unmatched = carried
        var faces: [FaceObservation] = []
        for box in detections {
            let best = unmatched.indices.max { unmatched[$0].box.intersectionOverUnion(box) < unmatched[$1].box.intersectionOverUnion(box) }
            if let best, unmatched[best].box.intersectionOverUnion(box) > 0.3 {
                var face = unmatched.remove(at: best)
                face.box = box
                face.isTracked = false
                face.missedDetections = 0
                faces.append(face)
            } else {
                faces.append(FaceObservation(box: box, trackingId: nextTrackingId))
                nextTrackingId += 1
            }
        }
        for var face in unmatched {
            face.isTracked = true
            if try profileSees(face.box, in: gray) {
                face.missedDetections = 0
            } else {
                face.missedDetections += 1
            }
            if face.missedDetections <= options.maxMissedDetections { faces.append(face) }
        }
        return faces
    }

    /// Whether OpenCV's profile cascade finds a face (either profile) around `box`.
    private func profileSees(_ box: Box, in gray: GrayImage) throws(FrameProbeError) -> Bool {
        guard let profiles = detector.profiles else { return false }
        let margin = box.width * 0.4
        let region = cvision_box(x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin,
                                 height: box.height + 2 * margin, score: 0)
        var found = [cvision_box](repeating: cvision_box(), count: 8)
        var count: Int32 = 0
        try CVisionCall.check("profile detection") {
            cvision_detect_profiles(profiles, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width), region,
                                    Int32(max(24, box.width * 0.5)), &found, Int32(found.count), &count)
        }
        return found.prefix(Int(min(count, 8))).contains { hit in
            Box(x: hit.x, y: hit.y, width: hit.width, height: hit.height).intersectionOverUnion(box) > 0.2
        }
    }
}
