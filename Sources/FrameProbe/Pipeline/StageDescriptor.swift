/// What a stage adds to `FrameAnalysis` for later stages to read: a type of its own. A library user's stage adds
/// one with `analysis[MotionScore.self] = MotionScore(…)` and names it in its descriptor's `provides`; a stage that
/// reads it names it in `requires`, and the pipeline is refused when no earlier stage provides it.
public protocol AnalysisFinding: Sendable {}

/// A finding type, as descriptors name it in `requires` and `provides`: `Finding(MotionScore.self)`, or one of the
/// built-in ones below.
public struct Finding: Hashable, Sendable, CustomStringConvertible {
    private let type: ObjectIdentifier
    /// The type's name, as errors and `frameprobe stages` show it.
    public let name: String

    /// `name` defaults to the type's name.
    public init<F: AnalysisFinding>(_ type: F.Type, name: String? = nil) {
        self.type = ObjectIdentifier(type)
        self.name = name ?? String(describing: type)
    }

    public var description: String { name }
    public static func == (a: Finding, b: Finding) -> Bool { a.type == b.type }
    public func hash(into hasher: inout Hasher) { hasher.combine(type) }

    // The built-in stages' findings are stored properties of `FrameAnalysis` (`frameQuality`, `faces`, …, typed and
    // read on every frame); these types name them.
    public enum FrameQuality: AnalysisFinding {}
    public enum Faces: AnalysisFinding {}
    public enum Landmarks: AnalysisFinding {}
    public enum HeadPoses: AnalysisFinding {}
    public enum Expressions: AnalysisFinding {}
    public enum ValidFace: AnalysisFinding {}
    public enum FaceImageQualities: AnalysisFinding {}
    public enum Codes: AnalysisFinding {}
    public enum RecordingCues: AnalysisFinding {}
    public enum CapturedImages: AnalysisFinding {}

    public static let frameQuality = Finding(FrameQuality.self, name: "frameQuality")
    public static let faces = Finding(Faces.self, name: "faces")
    public static let landmarks = Finding(Landmarks.self, name: "landmarks")
    public static let headPose = Finding(HeadPoses.self, name: "headPose")
    public static let expressions = Finding(Expressions.self, name: "expressions")
    public static let validFace = Finding(ValidFace.self, name: "validFace")
    public static let faceImageQuality = Finding(FaceImageQualities.self, name: "faceImageQuality")
    public static let codes = Finding(Codes.self, name: "codes")
    public static let recordingCue = Finding(RecordingCues.self, name: "recordingCue")
    public static let capturedImages = Finding(CapturedImages.self, name: "capturedImages")
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
    /// This stage (and the ones after it, up to the next such stage) may run a few frames behind the earlier stages,
    /// on a thread of its own.
    public let runsBehind: Bool
    /// Which commands run it when `--stages` does not name the stages, and the settings that turn it on.
    public let selection: StageSelection
    /// What it reports about an input, declared once: `report` reads its events into this part (nil: nothing).
    public let report: (any ReportPart.Type)?
    private let make: @Sendable (StageContext) throws(FrameProbeError) -> any Stage
    private let validateOptions: @Sendable (AnalysisOptions) throws(FrameProbeError) -> Void

    public init<S: Stage>(_ stage: S.Type, name: String, summary: String, requires: [Finding] = [], provides: [Finding] = [],
                          emits: [any EventPayload.Type] = [], options: [OptionSpec] = [], runsBehind: Bool = false,
                          selection: StageSelection = .whenNamed, report: (any ReportPart.Type)? = nil) {
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
        self.selection = selection
        self.report = report
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

/// Where a stage runs unless `--stages` names the stages: the commands that always run it, the settings that turn it
/// on in `analyze`, and the commands whose options include its own. A stage's descriptor says this of itself; the
/// registry's order is the order stages run in.
public struct StageSelection: Sendable {
    public enum Command: String, Sendable, CaseIterable { case analyze, report, acquire }

    private let analyzeWhen: (@Sendable (AnalysisOptions) -> Bool)?
    private let always: Set<Command>
    /// The commands that offer its options (on the command line and in `--config`).
    public let optionsOffered: Set<Command>

    /// `analyzeWhen`: the settings that turn it on in `analyze` (nil: never by default). `report`/`acquire`: those
    /// commands always run it. `optionsIn`: the commands that offer its options, by default `analyze` and `report`
    /// (whose options are analyze's and its own), and `acquire` when it runs there.
    public init(analyzeWhen: (@Sendable (AnalysisOptions) -> Bool)? = nil, report: Bool = false, acquire: Bool = false,
                optionsIn: Set<Command>? = nil) {
        self.analyzeWhen = analyzeWhen
        always = Set([report ? Command.report : nil, acquire ? .acquire : nil].compactMap { $0 })
        optionsOffered = optionsIn ?? Set([.analyze, .report] + (acquire ? [.acquire] : []))
    }

    /// Runs only where `--stages` names it (a library user's stage, unless it says otherwise).
    public static let whenNamed = StageSelection()

    /// Whether `command` runs it by default with these settings.
    public func runs(in command: Command, _ options: AnalysisOptions) -> Bool {
        always.contains(command) || (command == .analyze && analyzeWhen?(options) == true)
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
