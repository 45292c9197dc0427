/// Would `frameprobe acquire` succeed on this input, and when would it record? Follows guidance's go-ahead like
/// the recording stage but writes nothing; emits `acquisitionCheck` when the input ends (for `report`).
public struct AcquisitionCheckStage: Stage {
    public static let descriptor = StageDescriptor(
        AcquisitionCheckStage.self, name: "acquisitionCheck", summary: "whether acquire would succeed on the input, and when it would record",
        requires: [.recordingCue], emits: [AcquisitionCheck.self],
        selection: StageSelection(report: true), report: AcquisitionReport.self)

    private let options: AcquisitionOptions
    /// The recording `acquire` would make; nil when no quality fits the input.
    private let plan: RecordingPlan?
    private var startPts: Double?
    private var startTime = 0.0
    private var completed = false

    public init(options: AcquisitionOptions, context: StageContext) {
        self.options = options
        plan = context.info.flatMap { info in try? RecordingPlan(options: options, info: info) }
    }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        if startPts == nil, analysis.recordingCue != nil { (startPts, startTime) = (frame.pts, frame.time) }
        guard let plan, startPts != nil, !completed else { return }
        completed = plan.completes(at: frame.time - startTime)
    }

    public mutating func finish(emit: Emit) {
        let failure: String?
        if plan == nil { failure = "NO_AVAILABLE_QUALITY" }
        else if !completed { failure = RecordingPlan.endedEarly(recordingStarted: startPts != nil, options: options).key }
        else { failure = nil }
        emit(AcquisitionCheck(succeeded: failure == nil, recordStartPts: startPts, failure: failure))
    }
}

/// `acquisitionCheck`: the outcome `acquire` would have on an input.
public struct AcquisitionCheck: ReadableEvent, Equatable, Codable {
    public static let eventName = "acquisitionCheck"
    public var succeeded: Bool
    /// When recording would start (media time).
    public var recordStartPts: Double?
    /// The error key acquisition would end with.
    public var failure: String?

    enum Field {
        static let succeeded = EventField<Bool>.boolean("succeeded")
        static let recordStartPts = EventField<Double?>.optionalNumber("recordStartPts", .number(minimum: 0), decimals: 3)
        static let failure = EventField<String?>.optionalText("failure", .string())
    }

    public static let schema = EventSchema(.input, description: "report's acquisition check: would `acquire` succeed on this input, and from when", [
        Field.succeeded.property, Field.recordStartPts.property, Field.failure.property,
    ])

    public var fields: [(String, JSONValue)] {
        [Field.succeeded.json(succeeded), Field.recordStartPts.json(recordStartPts), Field.failure.json(failure)]
    }

    public init(succeeded: Bool, recordStartPts: Double?, failure: String?) {
        (self.succeeded, self.recordStartPts, self.failure) = (succeeded, recordStartPts, failure)
    }

    public init?(reading fields: EventFields) {
        self.init(succeeded: Field.succeeded.read(fields) ?? false, recordStartPts: Field.recordStartPts.read(fields) ?? nil,
                  failure: Field.failure.read(fields) ?? nil)
    }
}
