/// Gives each face found a trackingId: the one of the followed face it overlaps most, or a new one.
struct FaceIdentities {
    private var next = 1

    /// The face `hit` shows: it continues the followed face it overlaps most (IoU above 0.3, removed from
    /// `followed`), or starts a new one. Its box, score, roll and profile side are this frame's.
    mutating func face(for hit: FaceFinder.Hit, from followed: inout [FaceObservation]) -> FaceObservation {
        let box = hit.box
        let best = followed.indices.max { followed[$0].box.intersectionOverUnion(box) < followed[$1].box.intersectionOverUnion(box) }
        var face: FaceObservation
        if let best, followed[best].box.intersectionOverUnion(box) > 0.3 {
            face = followed.remove(at: best)
            face.box = box
            face.isTracked = false
        } else {
            face = FaceObservation(box: box, trackingId: next)
            next += 1
        }
        face.confidence = hit.score
        face.roll = hit.roll
        face.profile = hit.profile
        return face
    }
}
