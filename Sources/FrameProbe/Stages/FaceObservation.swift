/// One face found in a frame, with what the face stages learned about it.
public struct FaceObservation: Sendable {
    /// The detector-style box in source pixels (before the capture enlargement).
    public var box: Box
    /// Stable while the same face stays in view.
    public var trackingId: Int
    /// True when the face was carried from the previous frame rather than detected in this one (a profile face
    /// follows the cascade's hits at its own box size).
    public var isTracked: Bool
    /// How far the face is rolled, when it was found on a turned copy of the frame: the slope of its eye line in
    /// degrees (image coordinates, positive when it falls to the right) — the landmark fit starts upright from it.
    public var roll: Double?
    /// The detector's score for this frame's box (dlib's HOG SVM margin: above 0 is a face at the default
    /// threshold, higher is surer); nil when the box was carried (profile cascade, or not detected in this frame).
    public var confidence: Double?
    /// Set when only a profile detector sees the face (turned beyond ~40° of yaw): which way it is turned. Such a
    /// face gets no landmarks (dlib's 68-point model fits nonsense there), so no expressions or contours, and its
    /// pose is the profile's rough yaw alone.
    public var profile: ProfileSide?
    /// The 68 iBUG landmarks, in source pixels (with the landmarks stage).
    public var landmarks: [Point2D]?
    /// Head rotation (with the head-pose stage).
    public var headPose: HeadPose?
    /// Eyes and smile (with the expressions stage).
    public var leftEyeOpenProbability: Double?
    public var rightEyeOpenProbability: Double?
    public var smilingProbability: Double?
    /// ISO/IEC 29794-5 components (with the face-image-quality stage; the primary face only).
    public var imageQuality: FaceImageQuality?

    public init(box: Box, trackingId: Int, isTracked: Bool = false) {
        self.box = box
        self.trackingId = trackingId
        self.isTracked = isTracked
    }
}

/// Which way a face seen in profile is turned, in the image.
public enum ProfileSide: String, Sendable {
    /// The nose points toward the image's left (ML Kit's yaw < 0).
    case left
    /// The nose points toward the image's right (yaw > 0).
    case right

    /// The yaw reported for a profile face: the middle of the range where the profile cascades find faces and
    /// dlib's frontal detector no longer does (~40° to ~80°, measured on turned/ of the test-data folder).
    public var yawEstimate: Double { self == .left ? -60 : 60 }
}
