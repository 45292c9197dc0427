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

    /// Which limits the scores pass.
    public struct Flags: Sendable, Equatable {
        public var tooDark: Bool
        public var tooLight: Bool
        public var blurred: Bool

        /// From the labels of read-back fields (`darknessLabel` …).
        init(reading fields: EventFields) {
            tooDark = fields.string(Field.darknessLabel) == "Too dark"
            tooLight = fields.string(Field.lightnessLabel) == "Too light"
            blurred = fields.string(Field.sharpnessLabel) == "Blurred"
        }

        init(tooDark: Bool, tooLight: Bool, blurred: Bool) {
            (self.tooDark, self.tooLight, self.blurred) = (tooDark, tooLight, blurred)
        }
    }

    public var flags: Flags { Flags(tooDark: isTooDark, tooLight: isTooLight, blurred: isBlurred) }

    /// The event fields' names: the encoding, the schema and the reading back below use these.
    enum Field {
        static let darkness = "darkness", lightness = "lightness", sharpness = "sharpness"
        static let darknessLabel = "darknessLabel", lightnessLabel = "lightnessLabel", sharpnessLabel = "sharpnessLabel"
    }

    /// The schema of `jsonFields`.
    static let schemaProperties: [EventSchema.Property] = [
        .init(Field.darkness, .unit), .init(Field.lightness, .unit), .init(Field.sharpness, .number(minimum: 0)),
        .init(Field.darknessLabel, .oneOf(["Too dark", "Acceptable"])), .init(Field.lightnessLabel, .oneOf(["Too light", "Acceptable"])),
        .init(Field.sharpnessLabel, .oneOf(["Blurred", "Acceptable"])),
    ]

    /// The event fields: the three scores and their labels.
    var jsonFields: [(String, JSONValue)] {
        [
            (Field.darkness, .number(darkness, decimals: 4)),
            (Field.lightness, .number(lightness, decimals: 4)),
            (Field.sharpness, .number(sharpness, decimals: 4)),
            (Field.darknessLabel, .string(darknessLabel)),
            (Field.lightnessLabel, .string(lightnessLabel)),
            (Field.sharpnessLabel, .string(sharpnessLabel)),
        ]
    }

    /// The scores of read-back fields; nil when one is missing.
    init?(reading fields: EventFields) {
        guard let darkness = fields.number(Field.darkness), let lightness = fields.number(Field.lightness),
              let sharpness = fields.number(Field.sharpness) else { return nil }
        self.init(darkness: darkness, lightness: lightness, sharpness: sharpness)
    }
}
