/// A kind of finding a stage adds to `FrameAnalysis` and later stages read (`--stages` checks that each stage's
/// needs are provided before it). A library user names their own: `extension Finding { static let motion: Finding = "motion" }`.
public struct Finding: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let name: String
    public init(stringLiteral name: String) { self.name = name }
    public var description: String { name }

    public static let frameQuality: Finding = "frameQuality"
    public static let faces: Finding = "faces"
    public static let landmarks: Finding = "landmarks"
    public static let headPose: Finding = "headPose"
    public static let expressions: Finding = "expressions"
    public static let validFace: Finding = "validFace"
    public static let faceImageQuality: Finding = "faceImageQuality"
    public static let codes: Finding = "codes"
    public static let recordingCue: Finding = "recordingCue"
    public static let capturedImages: Finding = "capturedImages"
}

/// What is known about a stage before it runs: its name (for `--stages`), summary, the findings it reads and
/// adds, the payload types of its events (for `frameprobe schema`), its option rows (for the parser, `--config`,
/// validation and help), and how to build it for one input.
public struct StageDescriptor: Sendable {
    public let name: String
    public let summary: String
    /// Findings this stage reads, which an earlier stage must provide.
    public let requires: [Finding]
    public let provides: [Finding]
    /// The payload types of the events it emits.
    public let emits: [any EventPayload.Type]
    /// The options that configure it, each bound to a field of its `Options` (or of `AnalysisOptions`).
    public let options: [OptionSpec]
    /// This stage (and the ones after it) may run one frame behind the earlier stages, on a second thread.
    public let runsBehind: Bool
    private let make: @Sendable (StageContext) throws(FrameProbeError) -> any Stage
    private let validateOptions: @Sendable (AnalysisOptions) throws(FrameProbeError) -> Void

    public init<S: Stage>(_ stage: S.Type, name: String, summary: String, requires: [Finding] = [], provides: [Finding] = [],
                          emits: [any EventPayload.Type] = [], options: [OptionSpec] = [], runsBehind: Bool = false) {
        self.name = name
        self.summary = summary
        self.requires = requires
        self.provides = provides
        self.emits = emits
        self.options = options.map { row in
            var row = row
            row.stage = name
            return row
        }
        self.runsBehind = runsBehind
        make = { context throws(FrameProbeError) in try S(options: context.options[S.Options.self], context: context) }
        validateOptions = { options throws(FrameProbeError) in try options[S.Options.self].validate() }
    }

    /// Checks this stage's settings in `options`: each option's bounds, then the rules across them.
    public func validate(_ options: AnalysisOptions) throws(FrameProbeError) {
        for row in self.options { try row.validate(options) }
        try validateOptions(options)
    }

    /// A fresh stage for one input.
    public func makeStage(_ context: StageContext) throws(FrameProbeError) -> any Stage {
        try validate(context.options)
        return try make(context)
    }
}

extension Stage {
    /// `options` checked against this stage's option rows and rules (for stages built directly from Swift).
    public static func validated(_ options: Options) throws(FrameProbeError) -> Options {
        var all = AnalysisOptions()
        all[Options.self] = options
        try descriptor.validate(all)
        return options
    }
}
