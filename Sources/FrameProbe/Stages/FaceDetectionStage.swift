import CVision

/// Finds faces with dlib's HOG frontal detector and follows them across frames.
///
/// A full pass scans the whole frame every `detectEvery` analysed frames (and whenever no face is followed, or a
/// followed face was not found near its last place), on
/// a copy scaled so that the smallest face asked for (`minFaceSize` × frame width) meets the detector's ~80 px
/// window: small faces are upsampled, large selfie faces are found on a downscaled copy. In between, each
/// followed face is looked for again in a window around its last box, at the scale that face needs — a small,
/// cheap search. A face the frontal detector loses there (turned beyond ~40° of yaw) is kept while OpenCV's
/// profile cascade still sees it, as a profile face (`FaceObservation.profile`, its box following the cascade's
/// hits); otherwise it is dropped at once, so a face that left never lingers as a ghost. When nothing frontal is
/// found, full scans look for profile faces too.
public struct FaceDetectionStage: Stage {
    public static let descriptor = StageDescriptor(
        FaceDetectionStage.self, name: "faceDetection",
        summary: "finds faces (dlib HOG) at a scale set by --min-face-size and tracks them", provides: [.faces],
        options: [
            .number("min-face-size", "minFaceSize", "FRACTION", "smallest face to find, as a fraction of the frame width",
                    invalid: "INVALID_MIN_FACE_SIZE", \Options.minFaceSize, bounds: .above(0, atMost: 1)),
            .int("detect-every", "detectEvery", "N", "scan the whole frame for faces every Nth analysed frame, following known faces in between",
                 invalid: "INVALID_DETECT_EVERY", \Options.detectEvery, bounds: .atLeast(1)),
        ])

    public struct Options: StageOptions {
        /// Smallest face to find, as a fraction of the frame width.
        public var minFaceSize = 0.1
        /// Scan the whole frame every Nth analysed frame (1 = every frame); faces are followed in between.
        public var detectEvery = 10

        public init() {}
    }

    /// dlib's frontal detector finds faces down to about this size (its HOG window).
    static let detectorWindow = 80.0
    /// Around a followed face, the search window reaches this many face widths beyond its box on each side
    /// (a face moves less than that between two frames; one that moves more is found by a full pass).
    static let searchMargin = 0.35
    /// Followed faces are searched at the scale that makes them this wide (a little above the window, so a face
    /// that shrank by up to 10 % is still found).
    static let followedFaceWidth = 90.0

    /// Every this many scheduled passes while faces are followed, one scans for the smallest faces asked for.
    static let finePassEvery = 3

    /// dlib's frontal detector finds faces rolled up to about ±30°; when a full scan finds none, copies of the frame
    /// turned by these angles are scanned too (faces rolled up to about ±60°).
    static let turnedScans = [35.0, -35.0]

    private let options: Options
    private let detector: FaceModels.Detector
    /// A photo: the turned scans run whenever the upright one finds nothing (a video runs them on the frames
    /// where a face was just lost, and every `detectEvery` frames without a face).
    private let stillImage: Bool
    private var framesSinceTurnedScan: Int
    private var framesSinceFullPass = Int.max - 1
    /// Scheduled passes since the last one that found nothing followed.
    private var periodicPasses = 0
    private let finePassEvery: Int
    private var nextTrackingId = 1
    /// The faces this stage found in the previous frame: it follows them on its own, so that it can run a frame
    /// ahead of the landmarks stage on another thread.
    private var followedFaces: [FaceObservation] = []

    public init(options: Options, stillImage: Bool = true) throws(FrameProbeError) {
        try self.init(options: options, stillImage: stillImage, finePassEvery: Self.finePassEvery)
    }

    /// `finePassEvery`: 1 makes every scheduled pass a fine one (tests compare the two).
    init(options: Options, stillImage: Bool, finePassEvery: Int) throws(FrameProbeError) {
        self.options = try Self.validated(options)
        self.stillImage = stillImage
        self.finePassEvery = finePassEvery
        framesSinceTurnedScan = options.detectEvery  // a video's first frames may scan turned copies at once
        detector = try FaceModels.detector()
    }

    public init(options: Options, context: StageContext) throws(FrameProbeError) {
        try self.init(options: options, stillImage: context.info?.isStillImage ?? false)
    }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        let gray = try analysis.gray(of: frame)
        var followed = followedFaces
        var faces: [FaceObservation] = []
        var scanned = false
        framesSinceFullPass += 1
        if framesSinceFullPass >= options.detectEvery || followed.isEmpty {
            // While faces are followed, a scheduled pass looks for new faces; only every `finePassEvery`th of those
            // upsamples the frame for the smallest faces asked for (a 480-px frame scanned at 1.67× costs 2.8×
            // one at its own size), the others scan at the frame's size or below.
            periodicPasses = followed.isEmpty ? 0 : periodicPasses + 1
            let coarse = periodicPasses % finePassEvery != 0
            faces = try fullPass(gray, continuing: &followed, coarse: coarse)
            scanned = true
        }
        var lost: [FaceObservation] = []
        for var face in followed {
            if let hit = try redetect(face.box, roll: face.roll, in: gray), !faces.contains(where: { $0.box.intersectionOverUnion(hit.box) > 0.3 }) {
                face.box = hit.box
                face.confidence = hit.score
                face.isTracked = false
                face.profile = nil
                faces.append(face)
            } else {
                lost.append(face)
            }
        }
        // A face that moved out of its search window (fast motion, a cut) is looked for in the whole frame
        // before it is given up, so that it keeps its identity and no false "undetected" is reported.
        if !lost.isEmpty && !scanned {
            for found in try fullPass(gray, continuing: &lost) where !faces.contains(where: { $0.trackingId == found.trackingId || $0.box.intersectionOverUnion(found.box) > 0.3 }) {
                faces.append(found)
            }
        }
        for var face in lost {
            guard let profile = try profile(around: face.box, in: gray) else { continue }
            // Follow the profile hit with the face's own box size (the cascade's boxes are shaped differently).
            face.box = Box(x: profile.box.centre.x - face.box.width / 2, y: profile.box.centre.y - face.box.height / 2,
                           width: face.box.width, height: face.box.height)
            face.isTracked = true
            face.confidence = nil
            face.profile = profile.side
            faces.append(face)
        }
        analysis.faces = faces.sorted { $0.box.width > $1.box.width }
        followedFaces = analysis.faces
    }

    /// Scans the whole frame; detections continue the followed faces they overlap (removed from `followed`).
    private mutating func fullPass(_ gray: GrayImage, continuing followed: inout [FaceObservation], coarse: Bool = false) throws(FrameProbeError) -> [FaceObservation] {
        framesSinceFullPass = 0
        let whole = Box(x: 0, y: 0, width: Double(gray.width), height: Double(gray.height))
        let scale = detectionScale(frameWidth: gray.width)
        let fromLevel = coarse ? Self.coarseLevel(scale) : 0
        var faces: [FaceObservation] = []
        for hit in try detect(in: gray, region: whole, scale: scale, threshold: 0, fromLevel: fromLevel) {
            faces.append(takeIdentity(for: hit, from: &followed))
        }
        framesSinceTurnedScan = min(framesSinceTurnedScan + 1, options.detectEvery)
        guard faces.isEmpty, stillImage || !followed.isEmpty || framesSinceTurnedScan >= options.detectEvery else { return faces }
        framesSinceTurnedScan = 0
        for angle in Self.turnedScans {
            for hit in try detect(in: gray, region: whole, scale: scale, threshold: 0, turnedBy: angle)
            where !faces.contains(where: { $0.box.intersectionOverUnion(hit.box) > 0.3 }) {
                var face = takeIdentity(for: hit, from: &followed)
                face.roll = angle + (hit.rollHint ?? 0)
                faces.append(face)
            }
        }
        guard faces.isEmpty else { return faces }
        for profile in try profiles(in: whole, in: gray) {
            var face = takeIdentity(for: Detection(box: profile.box, score: 0, filter: -1), from: &followed)
            face.confidence = nil
            face.profile = profile.side
            faces.append(face)
        }
        return faces
    }

    /// The first pyramid level (each 5/6 of the last) at which a scan at `scale` is no longer upsampled: a coarse
    /// scan starts there, so it finds large faces in the boxes the whole scan would, at a fraction of its cost.
    static func coarseLevel(_ scale: Double) -> Int {
        var level = 0, size = scale
        while size > 1 {
            size *= 5.0 / 6.0
            level += 1
        }
        return level
    }

    /// The scale that brings the smallest wanted face to the detector's window.
    func detectionScale(frameWidth: Int) -> Double {
        let smallestFace = options.minFaceSize * Double(frameWidth)
        return min(max(Self.detectorWindow / smallestFace, 0.05), 4)
    }

    /// A detection continues the followed face it overlaps most (same trackingId), or starts a new one.
    private mutating func takeIdentity(for hit: Detection, from followed: inout [FaceObservation]) -> FaceObservation {
        let box = hit.box
        let best = followed.indices.max { followed[$0].box.intersectionOverUnion(box) < followed[$1].box.intersectionOverUnion(box) }
        var face: FaceObservation
        if let best, followed[best].box.intersectionOverUnion(box) > 0.3 {
            face = followed.remove(at: best)
            face.box = box
            face.isTracked = false
        } else {
            face = FaceObservation(box: box, trackingId: nextTrackingId)
            nextTrackingId += 1
        }
        face.confidence = hit.score
        face.roll = hit.rollHint
        face.profile = nil
        return face
    }

    /// Looks for a followed face again in a window around its last box; the best hit nearest to it.
    /// `roll`: the face was found on a turned copy; it is looked for on one again.
    private func redetect(_ box: Box, roll: Double?, in gray: GrayImage) throws(FrameProbeError) -> Detection? {
        let margin = box.width * Self.searchMargin
        let window = Box(x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin)
        let scale = min(max(Self.followedFaceWidth / max(box.width, 1), 0.05), 4)
        let hits = try detect(in: gray, region: window, scale: scale, threshold: -0.2, turnedBy: roll ?? 0)
        // Hits come best first; the best one that overlaps the face (not the one nearest its old box, which
        // would make the box lag behind a moving face).
        return hits.first { $0.box.intersectionOverUnion(box) > 0.2 }
    }

    /// A detector hit: its box and dlib's HOG score (the SVM margin: above 0 is a face at the default threshold).
    struct Detection {
        var box: Box
        var score: Double
        /// Which of dlib's five HOG filters fired: 0 front, 1 and 2 turned, 3 and 4 rolled.
        var filter: Int

        /// The eye-line slope a rolled filter means (3: the face rolled counter-clockwise, 4: clockwise; about 30°,
        /// measured on photos turned in 5° steps): where the landmark fit starts.
        var rollHint: Double? {
            switch filter {
            case 3: -Self.rolledFilterSlope
            case 4: Self.rolledFilterSlope
            default: nil
            }
        }

        static let rolledFilterSlope = 30.0
    }

    /// Faces in `region`, on the frame turned counter-clockwise by `angle` degrees about the region's centre;
    /// upright scans may start at pyramid level `fromLevel` (large faces only).
    private func detect(in gray: GrayImage, region: Box, scale: Double, threshold: Double, turnedBy angle: Double = 0,
                        fromLevel: Int = 0) throws(FrameProbeError) -> [Detection] {
        var found = [cvision_box](repeating: cvision_box(), count: 64)
        var count: Int32 = 0
        let area = cvision_box(x: region.x, y: region.y, width: region.width, height: region.height, score: 0, filter: -1)
        try CVisionCall.check("face detection") {
            abs(angle) < 0.5
                ? cvision_detect_faces(detector.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width),
                                       area, scale, threshold, Int32(fromLevel), &found, Int32(found.count), &count)
                : cvision_detect_faces_rotated(detector.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width),
                                               area, scale, threshold, angle, &found, Int32(found.count), &count)
        }
        return found.prefix(Int(min(count, 64))).map { Detection(box: Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height), score: $0.score, filter: Int($0.filter)) }
    }

    /// The profile-cascade hit overlapping a followed face's `box`, if any.
    private func profile(around box: Box, in gray: GrayImage) throws(FrameProbeError) -> ProfileHit? {
        let margin = box.width * 0.4
        let region = Box(x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin)
        return try profiles(in: region, scale: 1, smallest: max(24, box.width * 0.5), in: gray)
            .first { $0.box.intersectionOverUnion(box) > 0.2 }
    }

    /// A face the profile cascades found, and which way it is turned.
    struct ProfileHit {
        var box: Box
        var side: ProfileSide
    }

    /// The cascades' window: a full scan brings the smallest wanted face to about this size.
    static let profileWindow = 40.0

    /// Profile faces in the whole `region`, on a copy scaled for the smallest wanted face (full scans).
    private func profiles(in region: Box, in gray: GrayImage) throws(FrameProbeError) -> [ProfileHit] {
        let smallestFace = options.minFaceSize * Double(gray.width)
        return try profiles(in: region, scale: min(max(Self.profileWindow / smallestFace, 0.05), 2), smallest: Self.profileWindow, in: gray)
    }

    /// Profile faces in `region` of at least `smallest` pixels on the copy scaled by `scale`; none without opencv-data.
    private func profiles(in region: Box, scale: Double, smallest: Double, in gray: GrayImage) throws(FrameProbeError) -> [ProfileHit] {
        guard let cascades = detector.profiles else { return [] }
        let area = cvision_box(x: region.x, y: region.y, width: region.width, height: region.height, score: 0, filter: -1)
        var found = [cvision_box](repeating: cvision_box(), count: 8)
        var count: Int32 = 0
        try CVisionCall.check("profile detection") {
            cvision_detect_profiles(cascades, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width), area,
                                    scale, Int32(smallest), &found, Int32(found.count), &count)
        }
        return found.prefix(Int(min(count, 8))).map {
            ProfileHit(box: Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height), side: $0.filter == 0 ? .left : .right)
        }
    }
}
