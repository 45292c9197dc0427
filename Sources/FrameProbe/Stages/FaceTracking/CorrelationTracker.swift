import CVision

/// dlib's correlation tracker holding one face (`cvision_face_tracker`: a DSST, a correlation filter learnt on the
/// face's HOG features, with a scale search). It is not a face detector: it says whether what it started on is still
/// there, moved or rescaled, which is what keeps a face the detector no longer scores as one (looking far down,
/// half out of the frame) under `--max-faces` (`LandmarkFollower`).
final class CorrelationTracker: @unchecked Sendable {  // one follower uses it on one thread
    /// Under this peak-to-sidelobe ratio the tracker has lost what it held: MOSSE's authors' reading (Bolme et al.,
    /// "Visual object tracking using adaptive correlation filters", 2010: 20–60 while tracking, under 7 lost or
    /// occluded). Not tuned on any clip here.
    static let lostBelow = 7.0

    private let handle: OpaquePointer

    /// Starts on the face in `box` of `gray`.
    init(on gray: GrayImage, box: Box) throws(FrameProbeError) {
        guard let made = cvision_face_tracker_start(gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width),
                                                    cvision_box(x: box.x, y: box.y, width: box.width, height: box.height, score: 0, filter: -1)) else {
            throw FrameProbeError("IMAGE_ERROR", "the face tracker failed to start: \(String(cString: cvision_last_error()))")
        }
        handle = made
    }

    deinit { cvision_face_tracker_free(handle) }

    /// Where the face is in `gray` (the next frame), or nil when the tracker lost it.
    func follow(into gray: GrayImage) throws(FrameProbeError) -> Box? {
        var place = cvision_box()
        try CVisionCall.check("face tracking") {
            cvision_face_tracker_update(handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width), &place)
        }
        guard place.score >= Self.lostBelow else { return nil }
        return Box(x: place.x, y: place.y, width: place.width, height: place.height)
    }
}
