/// The oval and tolerances of guided acquisition (`guidance` in the session config). Defaults tuned on the
/// generated selfie footage (see the README): a face fills the oval when its landmarks span 55–95 % of its width.
public struct GuidanceOptions: Sendable, Equatable {
    /// Oval width as a fraction of the frame's height-limited 3:4 area (the widest 3:4 rectangle that fits).
    public var ovalWidth = 0.6
    /// Oval height / oval width.
    public var ovalAspect = 1.35
    /// Oval centre, as fractions of the frame.
    public var ovalCenterX = 0.5
    public var ovalCenterY = 0.5
    /// Face width (landmarks, jaw to jaw) / oval width: below → TOO_FAR, above → TOO_CLOSE.
    public var minFaceRatio = 0.55
    public var maxFaceRatio = 0.95
    /// Allowed offset of the face centre from the oval centre, as fractions of the oval's width (x) and height (y).
    public var centerTolerance = 0.12
    /// Stillness: how long GOOD_POSITION must hold (media time), how far the centre may move (fraction of the
    /// oval width) and how much the size may change (fraction) while it does.
    public var stillMs = 1000.0
    public var stillMovement = 0.05
    public var stillSizeChange = 0.10

    public init() {}

    /// The session config's `guidance` keys.
    static let fields: [String: WritableKeyPath<GuidanceOptions, Double> & Sendable] = [
        "ovalWidth": \.ovalWidth, "ovalAspect": \.ovalAspect, "ovalCenterX": \.ovalCenterX, "ovalCenterY": \.ovalCenterY,
        "minFaceRatio": \.minFaceRatio, "maxFaceRatio": \.maxFaceRatio, "centerTolerance": \.centerTolerance,
        "stillMs": \.stillMs, "stillMovement": \.stillMovement, "stillSizeChange": \.stillSizeChange,
    ]

    public func validate() throws(FrameProbeError) {
        let fractions = [ovalWidth, ovalCenterX, ovalCenterY, centerTolerance, stillMovement, stillSizeChange]
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
