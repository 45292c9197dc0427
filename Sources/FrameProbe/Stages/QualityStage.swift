/// `--frame-quality`: darkness, lightness and sharpness of every analysed whole frame (no mask).
public struct QualityStage: Stage {
    public init() {}

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        emit(FrameQuality(scores: try analysis.wholeFrameQuality(of: frame)))
    }
}

/// `frameQuality`: the whole frame's scores.
public struct FrameQuality: EventPayload {
    public static let eventName = "frameQuality"
    public let scores: QualityScores

    public static let schema = EventSchema(.frame, QualityScores.schemaProperties)
    public var fields: [(String, JSONValue)] { scores.jsonFields }
}
