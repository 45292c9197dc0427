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
            tooDark = Field.darknessLabel.read(fields) == "Too dark"
            tooLight = Field.lightnessLabel.read(fields) == "Too light"
            blurred = Field.sharpnessLabel.read(fields) == "Blurred"
        }

        init(tooDark: Bool, tooLight: Bool, blurred: Bool) {
            (self.tooDark, self.tooLight, self.blurred) = (tooDark, tooLight, blurred)
        }
    }

    public var flags: Flags { Flags(tooDark: isTooDark, tooLight: isTooLight, blurred: isBlurred) }

    /// The event fields, each declared once: the encoding, the schema and the reading back below use these.
    enum Field {
        static let darkness = EventField<Double>.number("darkness", .unit, decimals: 4)
        static let lightness = EventField<Double>.number("lightness", .unit, decimals: 4)
        static let sharpness = EventField<Double>.number("sharpness", .number(minimum: 0), decimals: 4)
        static let darknessLabel = EventField<String>.text("darknessLabel", .oneOf(["Too dark", "Acceptable"]))
        static let lightnessLabel = EventField<String>.text("lightnessLabel", .oneOf(["Too light", "Acceptable"]))
        static let sharpnessLabel = EventField<String>.text("sharpnessLabel", .oneOf(["Blurred", "Acceptable"]))
    }

    /// The schema of `jsonFields`.
    static let schemaProperties: [EventSchema.Property] = [Field.darkness, Field.lightness, Field.sharpness].map(\.property)
        + [Field.darknessLabel, Field.lightnessLabel, Field.sharpnessLabel].map(\.property)

    /// The event fields: the three scores and their labels.
    var jsonFields: [(String, JSONValue)] {
        [Field.darkness.json(darkness), Field.lightness.json(lightness), Field.sharpness.json(sharpness),
         Field.darknessLabel.json(darknessLabel), Field.lightnessLabel.json(lightnessLabel), Field.sharpnessLabel.json(sharpnessLabel)]
    }

    /// The scores of read-back fields; nil when one is missing.
    init?(reading fields: EventFields) {
        guard let darkness = Field.darkness.read(fields), let lightness = Field.lightness.read(fields),
              let sharpness = Field.sharpness.read(fields) else { return nil }
        self.init(darkness: darkness, lightness: lightness, sharpness: sharpness)
    }
}
