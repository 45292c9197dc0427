import CVision

/// Finds faces with dlib's HOG frontal detector (`FaceFinder`) and follows them across frames.
///
/// A full pass scans the whole frame every `detectEvery` analysed frames (and whenever no face is followed, or a
/// followed face was not found near its last place), on a copy scaled so that the smallest face asked for
/// (`minFaceSize` × frame width) meets the detector's ~80 px window: small faces are upsampled, large selfie faces
/// are found on a downscaled copy. When the landmarks stage runs right after it, that stage follows the faces
/// between scans by their landmarks (`LandmarkFollower`) and this one only scans (`FaceSearch`). Otherwise it
/// follows them itself: each followed face is looked for again in a window around its last box, at the scale that
/// face needs.
/// A face the frontal detector loses there (turned beyond ~40° of yaw) is kept while OpenCV's profile cascade still
/// sees it, as a profile face (`FaceObservation.profile`, its box following the cascade's hits); otherwise it is
/// dropped at once, so a face that left never lingers as a ghost. When nothing frontal is found, full scans look
/// for profile faces too.
/// With `--max-faces N`, the scheduled scans look for new faces only while fewer than N are followed; while N (or
/// more) are, a safety scan for faces at least half as wide as those runs every `safetyScanFactor` × `detectEvery`
/// frames instead, and what it finds is followed too (N bounds the search, not the output). Under `--max-faces` the
/// mirrored, turned and profile scans that follow an upright scan finding nothing run at the frame's own size at
/// most (on a 368-px phone selfie they cost 0.69 s upsampled for 37-px faces, against ~0.04 s for the upright scan):
/// a rolled or turned face smaller than the detector's ~80-px window is not found there.
public struct FaceDetectionStage: Stage {
    public static let descriptor = StageDescriptor(
        FaceDetectionStage.self, name: "faceDetection",
        summary: "finds faces (dlib HOG) at a scale set by --min-face-size and tracks them", provides: [.faces],
        options: [
            .number("min-face-size", "minFaceSize", "FRACTION", "smallest face to find, as a fraction of the frame width",
                    invalid: "INVALID_MIN_FACE_SIZE", \Options.minFaceSize, bounds: .above(0, atMost: 1)),
            .int("detect-every", "detectEvery", "N", "scan the whole frame for faces every Nth analysed frame, following known faces in between",
                 invalid: "INVALID_DETECT_EVERY", \Options.detectEvery, bounds: .within(1...1_000_000)),
            .int("max-faces", "maxFaces", "N",
                 "faces expected at most (0: any number); while N are followed, the whole frame is scanned only every \(safetyScanFactor) × --detect-every frames (acquire: 1)",
                 invalid: "INVALID_MAX_FACES", \Options.maxFaces, bounds: .within(0...1_000_000)),
        ],
        selection: StageSelection(analyzeWhen: { $0.captureType == .face }, report: true, acquire: true), report: FaceReport.self)

    public struct Options: StageOptions {
        /// Smallest face to find, as a fraction of the frame width.
        public var minFaceSize = 0.1
        /// Scan the whole frame every Nth analysed frame (1 = every frame); faces are followed in between.
        public var detectEvery = 10
        /// Faces expected at most (0: any number): while this many are followed, only the safety scan looks for more.
        public var maxFaces = 0

        public init() {}

        /// Whether as many faces as expected are followed: then only the safety scan looks for more.
        func expectsNoMore(following followed: Int) -> Bool { maxFaces > 0 && followed >= maxFaces }
    }

    /// Every this many scheduled passes while faces are followed, one scans for the smallest faces asked for.
    static let finePassEvery = 3
    /// With `--max-faces` reached, the safety scan runs this many times less often than the scheduled scans (every
    /// 30 frames by default: a face that comes into view is found within a second at 30 fps).
    public static let safetyScanFactor = 3
    /// The safety scan looks for faces at least this share of the narrowest followed face's width (and no smaller
    /// than `--min-face-size`, nor than the detector's window at the frame's own size: it never upsamples) — a second
    /// person in a selfie or at a desk, near as far from the camera as the first, not a face in the crowd behind.
    public static let safetyScanFaceShare = 0.5

    private let options: Options
    private let finder: FaceFinder
    /// Whether this stage follows faces between its scans itself (HOG searches around each face), or leaves that to
    /// the landmarks stage right after it (`FaceSearch`): then it only scans, on its schedule, and hands the hits on.
    private let followsFaces: Bool
    /// A photo: the turned scans run whenever the upright one finds nothing (a video runs them on the frames
    /// where a face was just lost, and every `detectEvery` frames without a face).
    private let stillImage: Bool
    private var framesSinceTurnedScan: Int
    private var framesSinceFullPass = Int.max - 1
    /// Scheduled passes since the last one made at once because none was followed.
    private var periodicPasses = 0
    private let finePassEvery: Int
    private var identities = FaceIdentities()
    /// The faces this stage found in the previous frame (or, when it only scans, in its last scan): it follows
    /// them on its own, so that it can run a frame ahead of the landmarks stage on another thread.
    private var followedFaces: [FaceObservation] = []
    /// Under `--max-faces` with the landmark follower: what it followed, `lag` frames behind (nil once closed).
    private var board: FollowedFacesBoard?
    private var framesAnalysed = 0

    public init(options: Options, stillImage: Bool = true) throws(FrameProbeError) {
        try self.init(options: options, stillImage: stillImage, finePassEvery: Self.finePassEvery)
    }

    /// `finePassEvery`: 1 makes every scheduled pass a fine one (tests compare the two). `board`: where the landmark
    /// follower posts what it followed, read under `--max-faces` when it follows the faces (`countedFaces`).
    init(options: Options, stillImage: Bool, finePassEvery: Int, followsFaces: Bool = true, board: FollowedFacesBoard? = nil) throws(FrameProbeError) {
        self.options = try Self.validated(options)
        self.stillImage = stillImage
        self.finePassEvery = finePassEvery
        self.followsFaces = followsFaces
        self.board = options.maxFaces > 0 && !followsFaces ? board : nil
        framesSinceTurnedScan = options.detectEvery  // a video's first frames may scan turned copies at once
        // Under --max-faces the mirrored, turned and profile scans never upsample the frame: on a small frame they
        // cost up to five times the upright scan, which still finds the smallest faces asked for.
        finder = try FaceFinder(minFaceSize: options.minFaceSize, upsamplesFurtherLooks: options.maxFaces == 0)
    }

    public init(options: Options, context: StageContext) throws(FrameProbeError) {
        try self.init(options: options, stillImage: context.info?.isStillImage ?? false, finePassEvery: Self.finePassEvery,
                      followsFaces: !Self.landmarksFollow(in: context.pipelineStages), board: context.followedFacesBoard)
    }

    /// Whether the landmarks stage runs right after this one, and so can follow the faces between scans: a stage
    /// in between that reads the faces must see every frame's.
    static func landmarksFollow(in stages: [String]) -> Bool {
        guard let here = stages.firstIndex(of: descriptor.name) else { return false }
        return stages.dropFirst(here + 1).first == FaceLandmarksStage.descriptor.name
    }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        let gray = try analysis.gray(of: frame)
        var followed = followedFaces
        var faces: [FaceObservation] = []
        var scanned = false
        framesSinceFullPass += 1
        let counted = countedFaces(followed)
        let safetyScan = options.expectsNoMore(following: counted.count)
        // With none followed, the next frame is scanned at once — unless the landmark follower, which scans the whole
        // frame itself on every frame it follows no face, is left that work under `--max-faces` (this stage's count
        // is its own last scan's, and the follower may well be following a face that scan missed).
        let scanForNone = followed.isEmpty && (followsFaces || options.maxFaces == 0)
        if framesSinceFullPass >= (safetyScan ? options.detectEvery * Self.safetyScanFactor : options.detectEvery) || scanForNone {
            // While faces are followed, a scheduled pass looks for new faces; only every `finePassEvery`th of those
            // upsamples the frame for the smallest faces asked for (a 480-px frame scanned at 1.67× costs 2.8×
            // one at its own size), the others scan at the frame's size or below. So do the scheduled passes with
            // none followed under `--max-faces`, where the follower scans every frame at the frame's own size.
            // Safety scans never upsample.
            if scanForNone { periodicPasses = 0 }
            let coarse = periodicPasses % finePassEvery != 0
            periodicPasses += 1
            let smallest = safetyScan ? counted.narrowestWidth.map { $0 * Self.safetyScanFaceShare } : nil
            faces = try fullPass(gray, continuing: &followed, coarse: coarse, atLeast: smallest)
            scanned = true
        }
        guard followsFaces else {
            analysis.faceSearch = scanned ? .scanned(faces) : .toFollow
            if scanned { followedFaces = faces }
            return
        }
        var lost: [FaceObservation] = []
        for face in followed {
            if let moved = try finder.searchedFace(continuing: face, apartFrom: faces, in: gray) { faces.append(moved) } else { lost.append(face) }
        }
        // A face that moved out of its search window (fast motion, a cut) is looked for in the whole frame
        // before it is given up, so that it keeps its identity and no false "undetected" is reported.
        if !lost.isEmpty && !scanned {
            for found in try fullPass(gray, continuing: &lost) where !faces.contains(where: { $0.trackingId == found.trackingId || $0.box.intersectionOverUnion(found.box) > 0.3 }) {
                faces.append(found)
            }
        }
        for face in lost {
            if let profile = try finder.profileFace(continuing: face, apartFrom: faces, in: gray) { faces.append(profile) }
        }
        analysis.faces = faces.sorted { $0.box.width > $1.box.width }
        followedFaces = analysis.faces
    }

    /// The faces that count toward `--max-faces` on this frame: the ones this stage follows — or, when the landmark
    /// follower followed more `lag` frames before (`FollowedFacesBoard`), those: a face the follower holds (a head
    /// bowed beyond the HOG filters, held by the correlation tracker) that this stage's own scans no longer see then
    /// gets only the safety scan, not the scheduled scans for a frame without faces. Read on every frame from the
    /// `lag`-th on, so the entry read is always that frame's.
    private mutating func countedFaces(_ followed: [FaceObservation]) -> FollowedFacesBoard.Entry {
        let own = FollowedFacesBoard.Entry(count: followed.count, narrowestWidth: followed.map(\.box.width).min())
        framesAnalysed += 1
        guard let board, framesAnalysed > board.lag else { return own }
        guard let behind = board.entryLagBehind() else {
            self.board = nil  // the follower stopped short: this stage's own count from here on
            return own
        }
        return behind.count > own.count ? behind : own
    }

    /// Scans the whole frame; detections continue the followed faces they overlap (removed from `followed`). When
    /// the upright scan finds nothing, turned copies and the profile cascade are tried — at once on a photo or when
    /// a face was just lost, else every `detectEvery` frames; never in a safety scan.
    /// `smallest`: a safety scan's smallest face, in pixels (nil: `--min-face-size`).
    private mutating func fullPass(_ gray: GrayImage, continuing followed: inout [FaceObservation], coarse: Bool = false,
                                   atLeast smallest: Double? = nil) throws(FrameProbeError) -> [FaceObservation] {
        framesSinceFullPass = 0
        framesSinceTurnedScan = min(framesSinceTurnedScan + 1, options.detectEvery)
        // A safety scan looks for a second person, upright: a followed face it misses is looked for as a lost one
        // is (searched around, then in a scan of its own that looks further; or by the landmark follower).
        let lookFurther = smallest == nil && (stillImage || !followed.isEmpty || framesSinceTurnedScan >= options.detectEvery)
        let scan = try finder.scanWholeFrame(gray, coarse: coarse, lookFurther: lookFurther, everywhere: stillImage, atLeast: smallest)
        if scan.lookedFurther { framesSinceTurnedScan = 0 }
        return scan.hits.map { identities.face(for: $0, from: &followed) }
    }

    /// The scale that brings the smallest wanted face to the detector's window.
    func detectionScale(frameWidth: Int) -> Double { finder.detectionScale(frameWidth: frameWidth) }
}
