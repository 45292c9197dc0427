/// The oval and tolerances of guided acquisition (`guidance` in the session config).
///
/// The oval is matched against the face box as dlib's detector draws it (eyebrows to chin, cheek to cheek), taken
/// from the 68 landmarks (`FaceGeometry.faceBox`: steady from frame to frame, where the detector's own boxes jump
/// by its 6/5 pyramid steps). Defaults, for a 9:16 portrait frame (the oval is 0.6 of its width):
/// - size: a phone's front camera sees about 48° across a portrait frame, and the box spans about 14.5 cm of a
///   face, so its share of the frame's width is about 0.163 m / distance. `minFaceRatio` 0.5 (box 0.30 of the
///   width) is a face beyond ~55 cm, further than an arm holds a phone; `maxFaceRatio` 1.1 (0.66 of the width) one
///   nearer than ~25 cm, where the face fills the frame. Physical reasoning, not fitted to a clip.
/// - centre: the box centre within `centerToleranceX` 0.15 of the oval's width (±9 % of a portrait frame's
///   width) and `centerToleranceY` 0.3 of its height (±14 % of its height) of the oval's centre. Natural selfie
///   framings put the face box from the frame's middle to well above it (eyes near the upper third): the test-data
///   folder's `selfie/filmed_pexels_8048492.mp4` (box centre at 0.39 of the height) and `phone_test_video_01.mp4`
///   (0.44 of the width) set these two; the other `selfie/` clips and `video/` test them (RealGuidanceTests).
public struct GuidanceOptions: Sendable, Equatable {
    /// Oval width as a fraction of the frame's height-limited 3:4 area (the widest 3:4 rectangle that fits).
    public var ovalWidth = 0.6
    /// Oval height / oval width.
    public var ovalAspect = 1.35
    /// Oval centre, as fractions of the frame.
    public var ovalCenterX = 0.5
    public var ovalCenterY = 0.5
    /// Face box width / oval width: below → TOO_FAR, above → TOO_CLOSE.
    public var minFaceRatio = 0.5
    public var maxFaceRatio = 1.1
    /// Allowed offset of the face box's centre from the oval's, as a fraction of the oval's width (x) and height (y).
    public var centerToleranceX = 0.15
    public var centerToleranceY = 0.3
    /// Both tolerances at once (the session config's `centerTolerance`; the per-axis keys win over it).
    public var centerTolerance: Double {
        get { max(centerToleranceX, centerToleranceY) }
        set { (centerToleranceX, centerToleranceY) = (newValue, newValue) }
    }
    /// Stillness: how long GOOD_POSITION must hold (media time), how far the centre may move (fraction of the
    /// oval width) and how much the size may change (fraction) while it does.
    public var stillMs = 1000.0
    public var stillMovement = 0.05
    public var stillSizeChange = 0.10

    public init() {}

    /// The session config's `guidance` keys, applied in sorted order (so `centerTolerance` comes before the per-axis ones).
    static let fields: [String: WritableKeyPath<GuidanceOptions, Double> & Sendable] = [
        "ovalWidth": \.ovalWidth, "ovalAspect": \.ovalAspect, "ovalCenterX": \.ovalCenterX, "ovalCenterY": \.ovalCenterY,
        "minFaceRatio": \.minFaceRatio, "maxFaceRatio": \.maxFaceRatio, "centerTolerance": \.centerTolerance,
        "centerToleranceX": \.centerToleranceX, "centerToleranceY": \.centerToleranceY,
        "stillMs": \.stillMs, "stillMovement": \.stillMovement, "stillSizeChange": \.stillSizeChange,
    ]

    public func validate() throws(FrameProbeError) {
        let fractions = [ovalWidth, ovalCenterX, ovalCenterY, centerToleranceX, centerToleranceY, stillMovement, stillSizeChange]
        let ratios = [ovalAspect, minFaceRatio, maxFaceRatio]
        guard fractions.allSatisfy({ $0 > 0 && $0 <= 1 }), ratios.allSatisfy({ $0 > 0 && $0 <= 100 }), maxFaceRatio > minFaceRatio,
              stillMs >= 0, stillMs <= 600_000 else {
            throw FrameProbeError("INVALID_SESSION_CONFIG", "guidance values are out of range (fractions in (0, 1], 0 < minFaceRatio < maxFaceRatio ≤ 100, ovalAspect in (0, 100], stillMs 0…600000)")
        }
    }

    /// The oval in a `width` × `height` frame.
    public func oval(frameWidth width: Int, height: Int) -> Box {
        let areaWidth = min(Double(width), Double(height) * 0.75)
        let w = ovalWidth * areaWidth, h = w * ovalAspect
        return Box(x: Double(width) * ovalCenterX - w / 2, y: Double(height) * ovalCenterY - h / 2, width: w, height: h)
    }
}
