import Foundation

/// What a stage needs to be built for one input.
public struct StageContext: Sendable {
    /// The input as given (`-` for standard input).
    public let source: String
    public let options: AnalysisOptions
    /// The opened input (nil when a pipeline is built without one).
    public let info: InputInfo?
    /// The input's own folder under `--output-dir` (`OutputLayout`).
    public let outputFolder: String

    public init(source: String, options: AnalysisOptions, info: InputInfo? = nil, outputFolder: String? = nil) {
        self.source = source
        self.options = options
        self.info = info
        self.outputFolder = outputFolder ?? OutputLayout.sanitised(source == "-" ? "stdin" : (source as NSString).lastPathComponent)
    }

    /// Where this input's images and clips go: `--output-dir` (default `./frameprobe-output`) / its folder.
    public var imageStore: ImageStore {
        ImageStore(root: URL(fileURLWithPath: options.outputDirectory ?? "frameprobe-output", isDirectory: true),
                   folder: outputFolder, overwrite: options.overwrite)
    }
}

/// A registry entry: a stage's name, what it does, what it emits, what it needs from earlier stages, and how to
/// build it. `frameprobe stages` and `--stages` read these entries; options come from `OptionTable` by stage name.
public struct StageDescriptor: Sendable {
    public let name: String
    public let summary: String
    /// The payload types of the events it emits (`frameprobe schema` is built from them).
    public let emits: [any EventPayload.Type]
    /// Findings this stage reads, which an earlier stage must provide.
    public let requires: [String]
    public let provides: [String]
    /// This stage (and the ones after it) may run one frame behind the earlier stages, on a second thread.
    public var runsBehind = false
    let make: @Sendable (StageContext) throws(FrameProbeError) -> any Stage

    /// The options that configure this stage.
    public var options: [OptionSpec] { (OptionTable.analyze + OptionTable.acquire).filter { $0.stage == name } }
}

/// Every stage frameprobe knows. Adding a stage = one file in Stages/ + one entry here.
public enum StageRegistry {
    /// What `frameprobe acquire` runs.
    public static let acquisitionStages = ["faceDetection", "faceLandmarks", "guidance", "recording"]
    /// What `frameprobe report` runs on media.
    public static let reportStages = ["quality", "faceDetection", "faceLandmarks", "headPose", "faceRegion", "faceThumbnail",
                                      "qrcode", "guidance", "acquisitionCheck"]

    public static let all: [StageDescriptor] = [
        StageDescriptor(name: "quality", summary: "darkness, lightness and sharpness of the whole frame",
                        emits: [FrameQuality.self], requires: [], provides: ["frameQuality"]) { _ in QualityStage() },
        StageDescriptor(name: "faceDetection", summary: "finds faces (dlib HOG) at a scale set by --min-face-size and tracks them",
                        emits: [], requires: [], provides: ["faces"]) { context throws(FrameProbeError) in
            try FaceDetectionStage(options: FaceDetectionStage.Options(context.options))
        },
        StageDescriptor(name: "faceLandmarks", summary: "fits dlib's 68 landmarks to every face (and moves tracked faces)",
                        emits: [], requires: ["faces"], provides: ["landmarks"], runsBehind: true) { _ in FaceLandmarksStage() },
        StageDescriptor(name: "headPose", summary: "head Euler angles (solvePnP), eye-open and smiling probabilities",
                        emits: [], requires: ["landmarks"], provides: ["headPose"]) { _ in HeadPoseStage() },
        StageDescriptor(name: "faceRegion", summary: "enlarges and validates the primary face (ROI, min/max size); faceDetected/faceUndetected/message",
                        emits: [FaceDetected.self, FaceUndetected.self, Message.self], requires: ["faces"], provides: ["validFace"]) { context throws(FrameProbeError) in
            try FaceRegionStage(options: FaceRegionStage.Options(context.options))
        },
        StageDescriptor(name: "qrcode", summary: "decodes QR codes (and other barcodes) with zbar, and WeChatQRCode on images; qrCodeScanned on appearance",
                        emits: [QRCodeScanned.self, Message.self], requires: [], provides: ["codes"]) { context throws(FrameProbeError) in
            try QRCodeStage(options: QRCodeStage.Options(context.options), stillImage: context.info?.isStillImage ?? false)
        },
        StageDescriptor(name: "guidance", summary: "Unissey's oval guidance and stillness timer; faceInfo when the instruction changes",
                        emits: [FaceInfo.self], requires: ["landmarks"], provides: ["recordingCue"]) { context throws(FrameProbeError) in
            try GuidanceStage(options: context.options.acquisition.guidance, strings: context.options.acquisition.strings)
        },
        StageDescriptor(name: "recording", summary: "records the preset's clip once guidance says go; the session response",
                        emits: [CameraReady.self, VideoCaptureStarted.self, VideoRecordStarted.self, VideoRecordProgress.self, VideoRecordEnded.self],
                        requires: ["recordingCue"], provides: []) { context throws(FrameProbeError) in
            try RecordingStage(options: context.options.acquisition, context: context)
        },
        StageDescriptor(name: "acquisitionCheck", summary: "whether acquire would succeed on the input, and when it would record",
                        emits: [AcquisitionCheck.self], requires: ["recordingCue"], provides: []) { context in
            AcquisitionCheckStage(options: context.options.acquisition, info: context.info)
        },
        StageDescriptor(name: "faceThumbnail", summary: "keeps the sharpest well-exposed face crop as a small JPEG (for reports)",
                        emits: [FaceThumbnail.self], requires: ["validFace"], provides: []) { _ in FaceThumbnailStage() },
        StageDescriptor(name: "capture", summary: "saves face crops or frames on a media-time gate, up to numberOfImages",
                        emits: [ImageCaptured.self, EndCapture.self], requires: [], provides: ["capturedImages"]) { context throws(FrameProbeError) in
            try CaptureStage(options: CaptureStage.Options(context.options), store: context.imageStore)
        },
    ]

    public static func descriptor(named name: String) -> StageDescriptor? { all.first { $0.name == name } }

    /// The stages a run uses: `--stages` as given, or derived from the capture type and flags.
    public static func stageNames(for options: AnalysisOptions) -> [String] {
        if let explicit = options.stages { return explicit }
        var names: [String] = []
        if options.frameQuality { names.append("quality") }
        if options.captureType == .face { names += ["faceDetection", "faceLandmarks", "headPose", "faceRegion"] }
        if options.captureType == .qrcode || options.qrcode { names.append("qrcode") }
        if options.savesImages && [.face, .frame].contains(options.captureType) { names.append("capture") }
        return names
    }

    /// Checks the stage list before anything runs: known names, and each stage's needs met by an earlier one.
    public static func resolve(_ options: AnalysisOptions) throws(FrameProbeError) -> [StageDescriptor] {
        var provided: Set<String> = []
        var resolved: [StageDescriptor] = []
        for name in stageNames(for: options) {
            guard let descriptor = descriptor(named: name) else {
                throw FrameProbeError("INVALID_STAGES", "unknown stage '\(name)'\(Suggestion.hint(for: name, in: all.map(\.name)))")
            }
            if let missing = descriptor.requires.first(where: { !provided.contains($0) }) {
                let providers = all.filter { $0.provides.contains(missing) }.map(\.name)
                throw FrameProbeError("INVALID_STAGES", "stage '\(name)' needs \(missing), which \(providers.joined(separator: " or ")) must provide before it")
            }
            provided.formUnion(descriptor.provides)
            resolved.append(descriptor)
        }
        return resolved
    }

    /// Builds a fresh pipeline (fresh stage state) for one input.
    public static func makePipeline(_ descriptors: [StageDescriptor], context: StageContext) throws(FrameProbeError) -> Pipeline {
        var stages: [any Stage] = []
        for descriptor in descriptors { stages.append(try descriptor.make(context)) }
        return Pipeline(stages: stages, splitIndex: descriptors.firstIndex(where: \.runsBehind))
    }
}
