/// `--frame-quality`: darkness, lightness and sharpness of every analysed whole frame (no mask).
public struct QualityStage: Stage {
    public static let descriptor = StageDescriptor(
        QualityStage.self, name: "quality", summary: "darkness, lightness and sharpness of the whole frame",
        provides: [.frameQuality], emits: [FrameQuality.self],
        options: [
            .toggle("frame-quality", "frameQuality", "emit frameQuality (darkness, lightness, sharpness of the whole frame) per analysed frame",
                    invalid: "INVALID_FRAME_QUALITY", \AnalysisOptions.frameQuality),
        ],
        selection: StageSelection(analyzeWhen: { $0.frameQuality }, report: true), report: QualityReport.self)

    public init() {}
    public init(options: NoOptions, context: StageContext) {}

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        emit(FrameQuality(scores: try analysis.wholeFrameQuality(of: frame)))
    }
}

/// `frameQuality`: the whole frame's scores.
public struct FrameQuality: ReadableEvent {
    public static let eventName = "frameQuality"
    public let scores: QualityScores
    /// The labels as a read-back event gave them (nil: from the scores). Rounded scores could fall on the other
    /// side of a limit; the event's labels are what it said.
    private var readFlags: QualityScores.Flags?

    public init(scores: QualityScores) { self.scores = scores }

    /// Too dark, too light, blurred.
    public var flags: QualityScores.Flags { readFlags ?? scores.flags }

    public static let schema = EventSchema(.frame, QualityScores.schemaProperties)
    public var fields: [(String, JSONValue)] { scores.jsonFields }

    public init?(reading fields: EventFields) {
        guard let scores = QualityScores(reading: fields) else { return nil }
        self.scores = scores
        readFlags = QualityScores.Flags(reading: fields)
    }
}
