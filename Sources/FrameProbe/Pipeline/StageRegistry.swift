/// The stages a run can use, in the order `frameprobe stages` lists them. The built-in list is one line per stage;
/// a library user extends it with `registering(_:)` and builds pipelines from the result.
public struct StageRegistry: Sendable {
    public let descriptors: [StageDescriptor]

    public init(_ stages: [any Stage.Type]) { descriptors = stages.map { $0.descriptor } }

    /// Every stage frameprobe ships. Adding a stage = one file in Stages/ + one line here.
    public static let builtIn = StageRegistry([
        QualityStage.self,
        FaceDetectionStage.self,
        FaceLandmarksStage.self,
        HeadPoseStage.self,
        FaceExpressionStage.self,
        FaceImageQualityStage.self,
        FaceRegionStage.self,
        QRCodeStage.self,
        GuidanceStage.self,
        RecordingStage.self,
        AcquisitionCheckStage.self,
        FaceThumbnailStage.self,
        CaptureStage.self,
    ])

    /// This registry with `stage` added (after the others).
    public func registering(_ stage: any Stage.Type) -> StageRegistry {
        StageRegistry(descriptors: descriptors + [stage.descriptor])
    }

    private init(descriptors: [StageDescriptor]) { self.descriptors = descriptors }

    /// What `frameprobe acquire` runs.
    public static let acquisitionStages = ["faceDetection", "faceLandmarks", "headPose", "faceExpressions", "faceImageQuality",
                                           "guidance", "recording"]
    /// The stages only acquisition uses (their options are `acquire`'s).
    public static let acquisitionOnlyStages = ["guidance", "recording"]
    /// What `frameprobe report` runs on media.
    public static let reportStages = ["quality", "faceDetection", "faceLandmarks", "headPose", "faceExpressions", "faceImageQuality",
                                      "faceRegion", "faceThumbnail",
                                      "qrcode", "guidance", "acquisitionCheck"]

    public func descriptor(named name: String) -> StageDescriptor? { descriptors.first { $0.name == name } }

    /// The option rows of the named stages, each once, in registry order.
    public func options(of names: [String]) -> [OptionSpec] {
        descriptors.filter { names.contains($0.name) }.flatMap(\.options)
    }

    /// The option rows of every stage but the named ones.
    public func options(ofStagesOtherThan names: [String]) -> [OptionSpec] {
        options(of: descriptors.map(\.name).filter { !names.contains($0) })
    }

    /// Checks every stage's settings before anything runs (a wrong value is an error even if its stage is not run).
    public func validate(_ options: AnalysisOptions) throws(FrameProbeError) {
        for descriptor in descriptors { try descriptor.validate(options) }
    }

    /// The stages a run uses: `--stages` as given, or derived from the capture type and flags.
    public static func stageNames(for options: AnalysisOptions) -> [String] {
        if let explicit = options.stages { return explicit }
        var names: [String] = []
        if options.frameQuality { names.append("quality") }
        // QR decoding needs no faces: ahead of the face stages it runs on the pipeline's first thread, beside the
        // scheduled face scans, while following and fitting faces keep the second one busy.
        if options.captureType == .qrcode || options.qrcode { names.append("qrcode") }
        if options.captureType == .face {
            let measuresQuality = options.faceImageQuality || options[CaptureStage.Options.self].best
            names += ["faceDetection", "faceLandmarks", "headPose", "faceExpressions"] + (measuresQuality ? ["faceImageQuality"] : [])
                + ["faceRegion"]
        }
        if options.savesImages && [.face, .frame].contains(options.captureType) { names.append("capture") }
        return names
    }

    /// Checks the stage list before anything runs: known names, and each stage's needs met by an earlier one.
    public func resolve(_ options: AnalysisOptions) throws(FrameProbeError) -> [StageDescriptor] {
        var provided: Set<Finding> = []
        var resolved: [StageDescriptor] = []
        for name in Self.stageNames(for: options) {
            guard let descriptor = descriptor(named: name) else {
                throw FrameProbeError("INVALID_STAGES", "unknown stage '\(name)'\(Suggestion.hint(for: name, in: descriptors.map(\.name)))")
            }
            if let missing = descriptor.requires.first(where: { !provided.contains($0) }) {
                let providers = descriptors.filter { $0.provides.contains(missing) }.map(\.name)
                throw FrameProbeError("INVALID_STAGES", "stage '\(name)' needs \(missing), which \(providers.joined(separator: " or ")) must provide before it")
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
        return Pipeline(stages: stages, splitIndex: descriptors.firstIndex(where: \.runsBehind))
    }
}
