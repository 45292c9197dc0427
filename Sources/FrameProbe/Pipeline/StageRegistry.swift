/// The stages a run can use, in the order `frameprobe stages` lists them. The built-in list is one line per stage;
/// a library user extends it with `registering(_:)` and builds pipelines from the result.
public struct StageRegistry: Sendable {
    public let descriptors: [StageDescriptor]

    public init(_ stages: [any Stage.Type]) { descriptors = stages.map { $0.descriptor } }

    /// Every stage frameprobe ships, in the order they run. Adding a stage = one file in Stages/ + one line here.
    public static let builtIn = StageRegistry([
        QualityStage.self,
        // QR decoding needs no faces: ahead of the face stages it runs on the pipeline's first thread, beside the
        // scheduled face scans, while following and fitting faces keep the second one busy.
        QRCodeStage.self,
        FaceDetectionStage.self,
        FaceLandmarksStage.self,
        HeadPoseStage.self,
        FaceExpressionStage.self,
        FaceImageQualityStage.self,
        FaceRegionStage.self,
        // Before guidance, which gives a face the region checks refused a box of its own.
        FaceThumbnailStage.self,
        GuidanceStage.self,
        RecordingStage.self,
        AcquisitionCheckStage.self,
        CaptureStage.self,
    ])

    /// This registry with `stage` added (after the others).
    public func registering(_ stage: any Stage.Type) -> StageRegistry {
        StageRegistry(descriptors: descriptors + [stage.descriptor])
    }

    private init(descriptors: [StageDescriptor]) { self.descriptors = descriptors }

    public func descriptor(named name: String) -> StageDescriptor? { descriptors.first { $0.name == name } }

    /// The option rows `command` offers, each once, in registry order.
    public func options(offeredIn command: StageSelection.Command) -> [OptionSpec] {
        descriptors.filter { $0.selection.optionsOffered.contains(command) }.flatMap(\.options)
    }

    /// Checks every stage's settings before anything runs (a wrong value is an error even if its stage is not run).
    public func validate(_ options: AnalysisOptions) throws(FrameProbeError) {
        for descriptor in descriptors { try descriptor.validate(options) }
    }

    /// The stages a run of `command` uses: `--stages` as given, or those whose descriptors select themselves for
    /// these settings, in registry order.
    public func stageNames(for options: AnalysisOptions, in command: StageSelection.Command = .analyze) -> [String] {
        options.stages ?? descriptors.filter { $0.selection.runs(in: command, options) }.map(\.name)
    }

    /// Checks the stage list before anything runs: known names, and each stage's needs met by an earlier one.
    public func resolve(_ options: AnalysisOptions, for command: StageSelection.Command = .analyze) throws(FrameProbeError) -> [StageDescriptor] {
        var provided: Set<Finding> = []
        var resolved: [StageDescriptor] = []
        for name in stageNames(for: options, in: command) {
            guard let descriptor = descriptor(named: name) else {
                throw FrameProbeError("INVALID_STAGES", "unknown stage '\(name)'\(Suggestion.hint(for: name, in: descriptors.map(\.name)))")
            }
            if let missing = descriptor.requires.first(where: { !provided.contains($0) }) {
                let providers = descriptors.filter { $0.provides.contains(missing) }.map(\.name)
                let fix = providers.isEmpty ? "which no registered stage provides" : "which \(providers.joined(separator: " or ")) must provide before it"
                throw FrameProbeError("INVALID_STAGES", "stage '\(name)' needs \(missing), \(fix)")
            }
            provided.formUnion(descriptor.provides)
            resolved.append(descriptor)
        }
        return resolved
    }

    /// Builds a fresh pipeline (fresh stage state) for one input.
    public static func makePipeline(_ descriptors: [StageDescriptor], context: StageContext) throws(FrameProbeError) -> Pipeline {
        var context = context
        context.pipelineStages = descriptors.map(\.name)
        var stages: [any Stage] = []
        for descriptor in descriptors { stages.append(try descriptor.makeStage(context)) }
        return Pipeline(stages: stages, splitIndices: descriptors.indices.filter { descriptors[$0].runsBehind })
    }
}
