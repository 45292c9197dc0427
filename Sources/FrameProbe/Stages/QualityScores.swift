import CVision

/// Yoonit's image-quality scores of an image, with their labels.
///
/// Blur rule: the seed README says `sharpness >= 0.1591` is "Blurred", which is inverted (sharpness falls as
/// blur grows); the reference demos and frameprobe use `sharpness < 0.1591`.
public struct QualityScores: Sendable, Equatable {
    public static let darknessLimit = 0.7
    public static let lightnessLimit = 0.65
    public static let blurLimit = 0.1591

    public let darkness: Double
    public let lightness: Double
    public let sharpness: Double

    public init(darkness: Double, lightness: Double, sharpness: Double) {
        self.darkness = darkness
        self.lightness = lightness
        self.sharpness = sharpness
    }

    /// Scores `image`; `ellipticalMask` restricts darkness/lightness to the centred ellipse used for face crops.
    public init(of image: BGRImage, ellipticalMask: Bool) throws(FrameProbeError) {
        var scores = cvision_quality_scores()
        try CVisionCall.check("quality scoring") {
            cvision_quality(image.pixels, Int32(image.width), Int32(image.height), Int32(image.stride),
                            ellipticalMask ? 1 : 0, &scores)
        }
        self.init(darkness: scores.darkness, lightness: scores.lightness, sharpness: scores.sharpness)
    }

    public var isTooDark: Bool { darkness > Self.darknessLimit }
    public var isTooLight: Bool { lightness > Self.lightnessLimit }
    public var isBlurred: Bool { sharpness < Self.blurLimit }

    public var darknessLabel: String { isTooDark ? "Too dark" : "Acceptable" }
    public var lightnessLabel: String { isTooLight ? "Too light" : "Acceptable" }
    public var sharpnessLabel: String { isBlurred ? "Blurred" : "Acceptable" }

    /// The schema of `jsonFields`.
    static let schemaProperties: [EventSchema.Property] = [
        .init("darkness", .unit), .init("lightness", .unit), .init("sharpness", .number(minimum: 0)),
        .init("darknessLabel", .oneOf(["Too dark", "Acceptable"])), .init("lightnessLabel", .oneOf(["Too light", "Acceptable"])),
        .init("sharpnessLabel", .oneOf(["Blurred", "Acceptable"])),
    ]

    /// The event fields: the three scores and their labels.
    var jsonFields: [(String, JSONValue)] {
        [
            ("darkness", .number(darkness, decimals: 4)),
            ("lightness", .number(lightness, decimals: 4)),
            ("sharpness", .number(sharpness, decimals: 4)),
            ("darknessLabel", .string(darknessLabel)),
            ("lightnessLabel", .string(lightnessLabel)),
            ("sharpnessLabel", .string(sharpnessLabel)),
        ]
    }
}
