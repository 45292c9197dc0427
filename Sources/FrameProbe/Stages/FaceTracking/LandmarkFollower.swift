import Foundation

/// Follows faces from frame to frame by their landmarks, as MediaPipe's face mesh does: the detector looks once, at
/// the place and size a face's last 68 points give (`FaceFinder.bestHit`: one window, one scale) — much cheaper than
/// searching a window around its last box — and the points are fitted again in the box it finds there. A face it
/// does not find is searched for around its last box, then in the whole frame, then by the profile cascade, and only
/// then given up. The detection stage's scheduled scans (`FaceSearch.scanned`) add the faces that came into view.
/// Under `--max-faces`, a face the detector found on the previous frame and loses on this one is first held by a
/// correlation tracker started there (`CorrelationTracker`), as MediaPipe's mesh holds a face while its presence score
/// stays up: a head looking far down, which dlib's HOG filters no longer score as a face, is still followed, and the
/// whole-frame scans a loss sets off are not run. It is held while the tracker is sure of it (and its box's centre is
/// in the frame), until the detector finds it again; a face that left — a cut, a person walking out — is dropped on
/// the first frame the tracker is unsure, and the tracker never takes back a face once it let it go.
struct LandmarkFollower {
    /// A followed face is kept while the detector scores a hit at its place above this (dlib's SVM margin: 0 is its
    /// default threshold for finding faces; a face already known may score lower: turned, looking down, blurred).
    /// On the seven devdata clips the lowest such score was −0.26 (source_s18, whose median is 0.06: its boxes sit
    /// right of what the points give), 0.06–1.07 on the others (medians 1.0–2.2); none fell below it.
    static let keepThreshold = -0.5
    /// Beyond this eye-line slope the check runs on a copy turned upright (dlib's rolled filters reach about ±30°).
    static let uprightCheckSlope = 20.0
    /// Under `--max-faces`, the whole-frame scans on the frames after a face was lost (until one is followed again)
    /// look for faces at least this share of its width — the same person coming back into view, as the safety scan
    /// looks for a second person near as close (`FaceDetectionStage.safetyScanFaceShare`) — but for every size the
    /// frame's own scale reaches on every `--detect-every`th frame after the loss, so that a face coming back smaller
    /// is found as soon as a scheduled scan would find a new one.
    static let lostFaceShare = FaceDetectionStage.safetyScanFaceShare

    private let finder: FaceFinder
    private let underMaxFaces: Bool
    private let detectEvery: Int
    /// Under `--max-faces`, while no face is followed again: the width of the narrowest face lost, and how many
    /// frames before the last one it was lost (nil otherwise).
    private var lastLoss: (width: Double, framesBefore: Int)?
    private var identities = FaceIdentities()
    /// Under `--max-faces`: the trackers holding faces the detector lost, by tracking id, and the previous frame
    /// (where a tracker starts, on the face the detector found there).
    private var trackers: [Int: CorrelationTracker] = [:]
    private var previousGray: GrayImage?
    /// The faces of the previous frame, with their landmarks (none for faces seen in profile).
    private var followed: [FaceObservation] = []

    /// `underMaxFaces` (under `--max-faces`): a lost face is first held by a correlation tracker; its own whole-frame
    /// scans never upsample the frame for faces down to `minFaceSize` (the detection stage's scans find smaller
    /// faces), and after a loss they look for faces at least `lostFaceShare` of the lost one's width; otherwise they
    /// look for every face down to `minFaceSize`.
    init(minFaceSize: Double, underMaxFaces: Bool = false, detectEvery: Int = FaceDetectionStage.Options().detectEvery) throws(FrameProbeError) {
        finder = try FaceFinder(minFaceSize: minFaceSize, upsamples: !underMaxFaces)
        self.underMaxFaces = underMaxFaces
        self.detectEvery = detectEvery
    }

    /// This frame's faces, with their landmarks: the followed ones, and those the detection stage's `scan` found
    /// (nil when it did not scan this frame).
    mutating func faces(in gray: GrayImage, scan: [FaceObservation]?, fitter: inout LandmarkFitter) throws(FrameProbeError) -> [FaceObservation] {
        var faces: [FaceObservation] = []
        var lost: [FaceObservation] = []
        for face in followed {
            if let kept = try refound(face, in: gray, fitter: &fitter), !faces.contains(where: { $0.box.intersectionOverUnion(kept.box) > 0.3 }) {
                faces.append(kept)
            } else {
                lost.append(face)
            }
        }
        var found: [FaceObservation] = []
        for hit in scan ?? [] where !faces.contains(where: { $0.box.intersectionOverUnion(hit.box) > 0.3 }) {
            found.append(identities.face(for: FaceFinder.Hit(box: hit.box, score: hit.confidence, roll: hit.roll, profile: hit.profile), from: &lost))
        }
        var gone: [FaceObservation] = []
        for face in lost {
            if let moved = try finder.searchedFace(continuing: face, apartFrom: faces + found, in: gray) {
                found.append(moved)
            } else if let held = try held(face, in: gray, apartFrom: faces + found) {
                found.append(held)
            } else {
                gone.append(face)
            }
        }
        // Between the detection stage's scans, a face that was lost (or, with none followed, any new face) is looked
        // for in the whole frame — on turned copies and in profile too when one was just lost.
        if scan == nil && (!gone.isEmpty || followed.isEmpty) {
            let hits = try finder.scanWholeFrame(gray, coarse: false, lookFurther: !gone.isEmpty, atLeast: smallestAfterLoss(of: gone)).hits
            for hit in hits where !(faces + found).contains(where: { $0.box.intersectionOverUnion(hit.box) > 0.3 }) {
                found.append(identities.face(for: hit, from: &gone))
            }
        }
        for face in gone {
            if let profile = try finder.profileFace(continuing: face, apartFrom: faces + found, in: gray) { found.append(profile) }
        }
        for var face in found {
            face.landmarks = nil
            if face.profile == nil {
                // A face seen in profile gets no landmarks: the 68-point model fits nonsense there.
                face.landmarks = try fitter.fit(face, in: gray)
            }
            faces.append(face)
        }
        fitter.keepOnly(faces)
        if underMaxFaces {
            lastLoss = faces.isEmpty ? (gone.map(\.box.width).min().map { ($0, 0) } ?? lastLoss.map { ($0.width, $0.framesBefore + 1) }) : nil
        }
        followed = faces.sorted { $0.box.width > $1.box.width }
        if underMaxFaces {
            trackers = trackers.filter { id, _ in followed.contains { $0.trackingId == id && $0.isTracked && $0.profile == nil } }
            previousGray = gray
        }
        return followed
    }

    /// Under `--max-faces`, the smallest face a whole-frame scan looks for (nil: every size) on a frame where `gone`
    /// were just lost, or after the last loss: `lostFaceShare` of the lost face's width, except on every
    /// `detectEvery`th frame after it.
    private func smallestAfterLoss(of gone: [FaceObservation]) -> Double? {
        guard underMaxFaces else { return nil }
        if let width = gone.map(\.box.width).min() { return width * Self.lostFaceShare }
        guard let loss = lastLoss, (loss.framesBefore + 1) % detectEvery != 0 else { return nil }
        return loss.width * Self.lostFaceShare
    }

    /// Under `--max-faces`, `face` (lost by the detector) where a correlation tracker holds it: one started on the
    /// previous frame when the detector found it there, or the one already holding it. Nil when the tracker is unsure,
    /// its box's centre left the frame, or it overlaps a face `taken` in this frame.
    private mutating func held(_ face: FaceObservation, in gray: GrayImage, apartFrom taken: [FaceObservation]) throws(FrameProbeError) -> FaceObservation? {
        guard underMaxFaces, face.profile == nil else { return nil }
        let tracker: CorrelationTracker
        if let holding = trackers[face.trackingId] {
            tracker = holding
        } else if !face.isTracked, let previousGray {
            tracker = try CorrelationTracker(on: previousGray, box: face.box)
            trackers[face.trackingId] = tracker
        } else {
            return nil
        }
        guard let box = try tracker.follow(into: gray),
              box.centre.x >= 0, box.centre.x < Double(gray.width), box.centre.y >= 0, box.centre.y < Double(gray.height),
              !taken.contains(where: { $0.box.intersectionOverUnion(box) > 0.3 }) else {
            trackers[face.trackingId] = nil
            return nil
        }
        var kept = face
        kept.box = box
        kept.isTracked = true
        kept.confidence = nil
        return kept
    }

    /// `face` found again where its last landmarks say it is, and fitted there; nil when the detector sees no face
    /// at that place and size.
    private func refound(_ face: FaceObservation, in gray: GrayImage, fitter: inout LandmarkFitter) throws(FrameProbeError) -> FaceObservation? {
        guard face.profile == nil, let last = face.landmarks else { return nil }
        let slope = FaceGeometry.eyeLineAngle(last)
        guard let hit = try finder.bestHit(on: FaceGeometry.faceBox(around: last), roll: abs(slope) > Self.uprightCheckSlope ? slope : nil,
                                           threshold: Self.keepThreshold, in: gray) else { return nil }
        var found = face
        found.box = hit.box
        found.confidence = hit.score
        found.isTracked = false
        found.landmarks = try fitter.fit(found, in: gray)
        return found
    }
}
