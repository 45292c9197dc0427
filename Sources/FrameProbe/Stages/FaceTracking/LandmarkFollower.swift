import Foundation

/// Follows faces from frame to frame by their landmarks, as MediaPipe's face mesh does: the detector looks once, at
/// the place and size a face's last 68 points give (`FaceFinder.bestHit`: one window, one scale) — much cheaper than
/// searching a window around its last box — and the points are fitted again in the box it finds there. A face it
/// does not find is searched for around its last box, then in the whole frame, then by the profile cascade, and only
/// then given up. The detection stage's scheduled scans (`FaceSearch.scanned`) add the faces that came into view.
struct LandmarkFollower {
    /// A followed face is kept while the detector scores a hit at its place above this (dlib's SVM margin: 0 is its
    /// default threshold for finding faces; a face already known may score lower: turned, looking down, blurred).
    /// On the seven devdata clips the lowest such score was −0.26 (source_s18, whose median is 0.06: its boxes sit
    /// right of what the points give), 0.06–1.07 on the others (medians 1.0–2.2); none fell below it.
    static let keepThreshold = -0.5
    /// Beyond this eye-line slope the check runs on a copy turned upright (dlib's rolled filters reach about ±30°).
    static let uprightCheckSlope = 20.0

    private let finder: FaceFinder
    private var identities = FaceIdentities()
    /// The faces of the previous frame, with their landmarks (none for faces seen in profile).
    private var followed: [FaceObservation] = []

    /// `upsampledScans`: whether its own whole-frame scans may upsample the frame for faces down to `minFaceSize`
    /// (under `--max-faces` they scan at the frame's own size, and the detection stage's scans find smaller faces).
    init(minFaceSize: Double, upsampledScans: Bool = true) throws(FrameProbeError) {
        finder = try FaceFinder(minFaceSize: minFaceSize, upsamples: upsampledScans)
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
            if let moved = try finder.searchedFace(continuing: face, apartFrom: faces + found, in: gray) { found.append(moved) } else { gone.append(face) }
        }
        // Between the detection stage's scans, a face that was lost (or, with none followed, any new face) is looked
        // for in the whole frame — on turned copies and in profile too when one was just lost.
        if scan == nil && (!gone.isEmpty || followed.isEmpty) {
            let hits = try finder.scanWholeFrame(gray, coarse: false, lookFurther: !gone.isEmpty).hits
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
        followed = faces.sorted { $0.box.width > $1.box.width }
        return followed
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
