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
    /// The names of the stages in the pipeline being built, in order (set by `StageRegistry.makePipeline`): a stage
    /// may leave work to one that runs after it.
    public internal(set) var pipelineStages: [String] = []
    /// Where the landmark follower posts what it followed for the detection stage ahead of it (set by `InputRunner`;
    /// nil when a pipeline is built on its own, which then runs on one thread).
    public internal(set) var followedFacesBoard: FollowedFacesBoard?

    public init(source: String, options: AnalysisOptions, info: InputInfo? = nil, outputFolder: String? = nil) {
        self.source = source
        self.options = options
        self.info = info
        self.outputFolder = outputFolder ?? OutputLayout.sanitised(source == "-" ? "stdin" : (source as NSString).lastPathComponent)
    }

    /// Where this input's images and clips go: `--output-dir` (default `./frameprobe-output`) / its folder.
    public var imageStore: ImageStore {
        ImageStore(root: URL(fileURLWithPath: options.outputFolder, isDirectory: true),
                   folder: outputFolder, overwrite: options.overwrite)
    }
}
