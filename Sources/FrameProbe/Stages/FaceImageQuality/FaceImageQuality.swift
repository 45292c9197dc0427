/// A face image's quality by the components of ISO/IEC 29794-5 that landmarks, head pose and pixels can measure
/// (SPEC §11): each component's `native` value and its `score` 0–100 (100 = ideal), and `unifiedQuality`, the
/// lowest component score — a frame is as good as its worst aspect (`FaceImageQualityScoring` has the definitions).
public struct FaceImageQuality: Sendable, Equatable {
    public struct Component: Sendable, Equatable {
        public let native: Double
        public let score: Int
    }

    /// The components, in the order of SPEC §11's table (those that could not be measured are absent).
    public let components: [(name: String, value: Component)]

    public static func == (lhs: FaceImageQuality, rhs: FaceImageQuality) -> Bool {
        lhs.components.elementsEqual(rhs.components) { $0.name == $1.name && $0.value == $1.value }
    }

    public subscript(_ name: String) -> Component? { components.first { $0.name == name }?.value }

    /// The lowest component score (0 when nothing was measured).
    public var unifiedQuality: Int { components.map(\.value.score).min() ?? 0 }

    /// The mean component score: what tells apart frames with the same `unifiedQuality` (`--capture-best`).
    public var meanScore: Double { components.isEmpty ? 0 : Double(components.map(\.value.score).reduce(0, +)) / Double(components.count) }

    /// Every component's name, in order (the schema and the report list them).
    public static let componentNames = [
        "luminanceMean", "luminanceVariance", "underExposurePrevention", "overExposurePrevention", "dynamicRange",
        "illuminationUniformity", "sharpness", "compressionArtifacts", "naturalColour", "singleFacePresent", "eyesOpen",
        "mouthClosed", "expressionNeutrality", "headSize", "interEyeDistance", "leftwardCropOfTheFaceImage",
        "rightwardCropOfTheFaceImage", "upwardCropOfTheFaceImage", "downwardCropOfTheFaceImage", "headPoseYaw",
        "headPosePitch", "headPoseRoll",
    ]

    /// `{"luminanceMean": {"native": 0.46, "score": 100}, …, "unifiedQuality": {"native": 71, "score": 71}}`.
    var json: JSONValue {
        .object(components.map { ($0.name, .object([("native", .number($0.value.native, decimals: 4)), ("score", .int($0.value.score))])) }
            + [("unifiedQuality", .object([("native", .int(unifiedQuality)), ("score", .int(unifiedQuality))]))])
    }

    static var schema: JSONSchema {
        let component = JSONSchema.object([.init("native", .number()), .init("score", JSONSchema([("type", .string("integer")),
                                                                                                  ("minimum", .int(0)), ("maximum", .int(100))]))])
        return .object((componentNames + ["unifiedQuality"]).map { .init($0, component, required: $0 == "unifiedQuality") })
    }
}

extension FaceImageQuality {
    /// The components of read-back `faceImageQuality` fields (`unifiedQuality` is their lowest score again).
    init(reading fields: EventFields) {
        components = Self.componentNames.compactMap { name in
            fields.nested(name).map { (name, Component(native: $0.number("native") ?? 0, score: $0.integer("score") ?? 0)) }
        }
    }
}
