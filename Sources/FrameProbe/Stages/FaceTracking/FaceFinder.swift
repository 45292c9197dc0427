import CVision

/// Where faces are in one gray frame, by dlib's HOG frontal detector (upright, and on turned copies for rolled
/// faces) and OpenCV's profile cascade: whole-frame scans at the scale `--min-face-size` asks for, searches around
/// a known face, and the check that a followed face is still one. It keeps no state across frames: the detection
/// stage and the landmark follower each decide when to call what.
struct FaceFinder {
    /// dlib's frontal detector finds faces down to about this size (its HOG window).
    static let detectorWindow = 80.0
    /// Around a followed face, the search window reaches this many face widths beyond its box on each side
    /// (a face moves less than that between two frames; one that moves more is found by a full pass).
    static let searchMargin = 0.35
    /// Followed faces are searched at the scale that makes them this wide (a little above the window, so a face
    /// that shrank by up to 10 % is still found).
    static let followedFaceWidth = 90.0
    /// dlib's frontal detector finds faces rolled up to about ±30°; when a full scan finds none, copies of the frame
    /// turned by these angles are scanned too (faces rolled up to about ±60°).
    static let turnedScans = [35.0, -35.0]
    /// The cascades' window: a full scan brings the smallest wanted face to about this size.
    static let profileWindow = 40.0

    /// Smallest face to find, as a fraction of the frame width.
    let minFaceSize: Double
    /// Whether whole-frame scans may upsample the frame to reach `minFaceSize` (false: they scan at the frame's own
    /// size or below, and find faces down to the detector's window).
    let upsamples: Bool
    /// Whether a whole-frame scan's mirrored, turned and profile scans may upsample too (false: only its upright
    /// scan may) — the detection stage under `--max-faces`, where they cost up to five times the upright scan on a
    /// small frame.
    let upsamplesFurtherLooks: Bool
    private let detector: FaceModels.Detector

    init(minFaceSize: Double, upsamples: Bool = true, upsamplesFurtherLooks: Bool = true) throws(FrameProbeError) {
        self.minFaceSize = minFaceSize
        self.upsamples = upsamples
        self.upsamplesFurtherLooks = upsamples && upsamplesFurtherLooks
        detector = try FaceModels.detector()
    }

    /// A face found: its box, dlib's HOG score (nil for a profile-cascade hit), the roll it was found at (the turned
    /// copy's angle plus what a rolled filter says) and, for a profile-cascade hit, which way it is turned.
    struct Hit {
        var box: Box
        var score: Double?
        var roll: Double?
        var profile: ProfileSide?
    }

    /// The whole frame: upright (from the first pyramid level that is not upsampled when `coarse`); when that finds
    /// nothing and `lookFurther`, its mirror image (faces turned 40–55° one way that dlib's asymmetric filters miss),
    /// turned copies, and then the profile cascade (`lookedFurther`: they ran). With `everywhere` (a photo) every one
    /// of those runs whatever the others found: the mirrored scan's hits are joined to the upright ones (`join`), and
    /// each later pass adds the faces no earlier one holds — a face in the crowd, or a hit the frame's edge cuts, does
    /// not hide a turned face beside it.
    /// `atLeast`: the smallest face wanted, in pixels, when it is larger than `minFaceSize` gives; such a scan (the
    /// profile cascade's too) never upsamples the frame; nor do the mirrored, turned and profile scans unless
    /// `upsamplesFurtherLooks`.
    func scanWholeFrame(_ gray: GrayImage, coarse: Bool, lookFurther: Bool, everywhere: Bool = false,
                        atLeast smallest: Double? = nil) throws(FrameProbeError) -> (hits: [Hit], lookedFurther: Bool) {
        let whole = Box(x: 0, y: 0, width: Double(gray.width), height: Double(gray.height))
        let scale = detectionScale(frameWidth: gray.width, atLeast: smallest)
        var hits = try detect(in: gray, region: whole, scale: scale, threshold: 0, fromLevel: coarse ? Self.coarseLevel(scale) : 0)
            .map(\.hit)
        guard everywhere || (hits.isEmpty && lookFurther) else { return (hits, false) }
        let furtherScale = upsamplesFurtherLooks ? scale : min(scale, 1)
        Self.join(try detect(in: gray, region: whole, scale: furtherScale, threshold: 0, mirrored: true).map(\.hit), to: &hits)
        guard everywhere || hits.isEmpty else { return (hits, true) }
        for angle in Self.turnedScans {
            Self.add(try detect(in: gray, region: whole, scale: furtherScale, threshold: 0, turnedBy: angle)
                .map { Hit(box: $0.box, score: $0.score, roll: angle + ($0.rollHint ?? 0)) }, to: &hits)
        }
        guard everywhere || hits.isEmpty else { return (hits, true) }
        let profileScale = min(max(Self.profileWindow / smallestFace(frameWidth: gray.width, atLeast: smallest), 0.05),
                               upsamplesFurtherLooks && smallest == nil ? 2 : 1)
        Self.add(try profiles(in: whole, scale: profileScale, smallest: Self.profileWindow, in: gray)
            .map { Hit(box: $0.box, profile: $0.side) }, to: &hits)
        return (hits, true)
    }

    /// The mirrored scan's hits joined to the upright scan's: a face both found (IoU above 0.3) takes the mean of its
    /// two boxes, the better score and the mean roll, so that a photo's faces are the mirror images of its mirror
    /// image's (dlib's two turned filters place a face's box differently); the others are added.
    private static func join(_ mirrored: [Hit], to hits: inout [Hit]) {
        var joined = Set<Int>(), rest: [Hit] = []
        for hit in mirrored {
            let overlaps = hits.indices.filter { !joined.contains($0) }.map { (index: $0, iou: hits[$0].box.intersectionOverUnion(hit.box)) }
            guard let index = overlaps.filter({ $0.iou > 0.3 }).max(by: { $0.iou < $1.iou })?.index else {
                rest.append(hit)
                continue
            }
            let upright = hits[index]
            hits[index] = Hit(box: upright.box.mean(with: hit.box), score: [upright.score, hit.score].compactMap { $0 }.max(),
                              roll: upright.roll == nil && hit.roll == nil ? nil : ((upright.roll ?? 0) + (hit.roll ?? 0)) / 2)
            joined.insert(index)
        }
        add(rest, to: &hits)
    }

    /// Adds to `hits` each of `found` that holds no face already there: none it overlaps by an IoU above 0.3, or
    /// half of whose box (or its own, when smaller) lies inside the other — a profile hit's box is shaped unlike a
    /// frontal one.
    private static func add(_ found: [Hit], to hits: inout [Hit]) {
        for hit in found where !hits.contains(where: { $0.box.intersectionOverUnion(hit.box) > 0.3 || $0.box.overlapOfSmaller(hit.box) > 0.5 }) {
            hits.append(hit)
        }
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

    /// The scale that brings the smallest wanted face — `minFaceSize`, or `smallest` pixels when that is larger (a
    /// safety scan: it never upsamples) — to the detector's window.
    func detectionScale(frameWidth: Int, atLeast smallest: Double? = nil) -> Double {
        min(max(Self.detectorWindow / smallestFace(frameWidth: frameWidth, atLeast: smallest), 0.05), upsamples && smallest == nil ? 4 : 1)
    }

    /// The smallest face a scan looks for, in pixels: `minFaceSize` of the frame's width, or `smallest` when larger.
    private func smallestFace(frameWidth: Int, atLeast smallest: Double?) -> Double {
        max(minFaceSize * Double(frameWidth), smallest ?? 0)
    }

    /// Looks for a face again in a window around its last `box`, on a copy turned by its `roll`: the best hit that
    /// overlaps the box (not the one nearest it, which would make the box lag behind a moving face).
    func search(around box: Box, roll: Double?, in gray: GrayImage) throws(FrameProbeError) -> Hit? {
        try bestHit(on: box, roll: roll, threshold: -0.2, margin: Self.searchMargin, faceWidth: Self.followedFaceWidth, overlap: 0.2, in: gray)
    }

    /// The frontal detector's best hit on a face expected in `box` — on a window `margin` face widths wider on each
    /// side, at the scale that makes the box `faceWidth` wide, on a copy turned by `roll` — or nil when no hit
    /// overlapping the box by `overlap` (IoU) scores above `threshold`. With the defaults it checks where a followed
    /// face's landmarks say it is: one place at about one size (a 96-px window holding the box at the detector's own
    /// window size), a quarter of a search's cost.
    func bestHit(on box: Box, roll: Double?, threshold: Double, margin: Double = checkMargin, faceWidth: Double = checkedFaceWidth,
                 overlap: Double = 0.4, in gray: GrayImage) throws(FrameProbeError) -> Hit? {
        let scale = min(max(faceWidth / max(box.width, 1), 0.05), 4)
        let hits = try detect(in: gray, region: box.expanded(by: box.width * margin), scale: scale, threshold: threshold, turnedBy: roll ?? 0,
                              window: true)
        // Hits come best first.
        return hits.first { $0.box.intersectionOverUnion(box) > overlap }.map { Hit(box: $0.box, score: $0.score, roll: roll) }
    }

    /// The check's window reaches this many face widths beyond the box on each side (landmarks place a face to
    /// within a few percent of its width from the last frame's fit).
    static let checkMargin = 0.1
    /// The check scans the box at this width: dlib's HOG window. On the seven devdata clips 0.1/80 rejected no
    /// followed face and took 2.34 s on driving_d6 against 2.64 s for 0.15/88 (two pyramid levels).
    static let checkedFaceWidth = 80.0

    /// A followed face found again by `search(around:)`, at the hit's box — unless that overlaps a face already
    /// `taken` in this frame.
    func searchedFace(continuing face: FaceObservation, apartFrom taken: [FaceObservation], in gray: GrayImage) throws(FrameProbeError) -> FaceObservation? {
        guard let hit = try search(around: face.box, roll: face.roll, in: gray),
              !taken.contains(where: { $0.box.intersectionOverUnion(hit.box) > 0.3 }) else { return nil }
        var moved = face
        moved.box = hit.box
        moved.confidence = hit.score
        moved.isTracked = false
        moved.profile = nil
        return moved
    }

    /// A followed face the frontal detector lost, kept as a profile face while the profile cascade still sees it
    /// near its box — unless that hit holds a face found frontally in this frame (`found`): a face that shrank or
    /// moved away is not also a profile beside itself. Its box follows the hit at the face's own size (the cascade's
    /// boxes are shaped differently).
    func profileFace(continuing face: FaceObservation, apartFrom found: [FaceObservation], in gray: GrayImage) throws(FrameProbeError) -> FaceObservation? {
        let box = face.box
        guard let hit = try profiles(in: box.expanded(by: box.width * 0.4), scale: 1, smallest: max(24, box.width * 0.5), in: gray)
            .first(where: { $0.box.intersectionOverUnion(box) > 0.2 }),
            !found.contains(where: { $0.box.overlapOfSmaller(hit.box) > 0.5 }) else { return nil }
        var kept = face
        kept.box = Box(x: hit.box.centre.x - box.width / 2, y: hit.box.centre.y - box.height / 2, width: box.width, height: box.height)
        kept.isTracked = true
        kept.confidence = nil
        kept.profile = hit.side
        kept.landmarks = nil
        return kept
    }

    /// A detector hit: its box and dlib's HOG score (the SVM margin: above 0 is a face at the default threshold).
    private struct Detection {
        var box: Box
        var score: Double
        /// Which of dlib's five HOG filters fired: 0 front, 1 and 2 turned, 3 and 4 rolled.
        var filter: Int

        /// The eye-line slope a rolled filter means (3: the face rolled counter-clockwise, 4: clockwise; about 30°,
        /// measured on photos turned in 5° steps): where the landmark fit starts.
        var rollHint: Double? {
            switch filter {
            case 3: -FaceFinder.rolledFilterSlope
            case 4: FaceFinder.rolledFilterSlope
            default: nil
            }
        }

        /// As a hit of a scan, its roll from the filter that fired.
        var hit: Hit { Hit(box: box, score: score, roll: rollHint) }
    }

    static let rolledFilterSlope = 30.0

    /// Faces in `region`, on the frame turned counter-clockwise by `angle` degrees about the region's centre;
    /// upright scans may start at pyramid level `fromLevel` (large faces only). `window`: the region is a few of the
    /// detector's windows wide (a check or search around a face), where scoring each window by dlib's filters applied
    /// whole takes half the time of dlib's own scan: the same hits and boxes, scores within ~1e-5. Other scans are
    /// dlib's own, spread over the cores (the same hits, bit for bit).
    private func detect(in gray: GrayImage, region: Box, scale: Double, threshold: Double, turnedBy angle: Double = 0,
                        fromLevel: Int = 0, mirrored: Bool = false, window: Bool = false) throws(FrameProbeError) -> [Detection] {
        var found = [cvision_box](repeating: cvision_box(), count: 64)
        var count: Int32 = 0
        let area = cvision_box(x: region.x, y: region.y, width: region.width, height: region.height, score: 0, filter: -1)
        let scan = window ? CVISION_SCAN_WHOLE_FILTERS : CVISION_SCAN_PARALLEL
        try CVisionCall.check("face detection") {
            abs(angle) < 0.5
                ? cvision_detect_faces(detector.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width),
                                       area, scale, threshold, Int32(fromLevel), mirrored ? 1 : 0, scan, &found, Int32(found.count), &count)
                : cvision_detect_faces_rotated(detector.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width),
                                               area, scale, threshold, angle, scan, &found, Int32(found.count), &count)
        }
        return found.prefix(Int(min(count, 64))).map { Detection(box: Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height), score: $0.score, filter: Int($0.filter)) }
    }

    /// A face the profile cascades found, and which way it is turned.
    private struct ProfileHit {
        var box: Box
        var side: ProfileSide
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
