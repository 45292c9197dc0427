import FrameProbe

/// `frameprobe analyze INPUT...`: stream analysis events as JSON Lines.
struct AnalyzeCommand: Command {
    static let name = "analyze"
    static let usage = "[options] INPUT..."
    static let summary = "stream analysis events as JSON Lines"
    static let description = """
        Streams analysis events as JSON Lines. INPUT is a video or image file, a directory (walked
        recursively, sorted), - for standard input (a container stream, or raw frames with
        --input-format rawvideo), or a URL/device libavformat opens.
        """
    /// Input and output options, then the options of every stage it can run (all but acquisition's).
    static let options = OptionTable.input + OptionTable.output + StageRegistry.builtIn.options(offeredIn: .analyze)

    let analysis: AnalysisRun

    init(_ parsed: ParsedArguments) throws(FrameProbeError) {
        let options = try parsed.analysisOptions()
        // A switch whose stage the other settings leave out would do nothing, silently: a usage error instead.
        if options.faceImageQuality && options.stages == nil
            && !StageRegistry.builtIn.stageNames(for: options).contains(FaceImageQualityStage.descriptor.name) {
            throw FrameProbeError("INVALID_FACE_IMAGE_QUALITY",
                                  "--face-image-quality measures faces, and --capture-type \(options.captureType.rawValue) runs no face stage (use --capture-type face, the default)")
        }
        analysis = try AnalysisRun(command: .analyze, options: options, arguments: try parsed.inputs())
    }

    func run(signals: Signals) -> Int32 {
        let progress = ProgressLine.isWanted(analysis.options.progress) ? ProgressLine(totalInputs: analysis.inputs.items.count) : nil
        let status = analysis.run(signals: signals, observe: progress.map { progress in { progress.observe($0) } },
                                  progress: progress.map { progress in { progress.advance(source: $0, frames: $1, time: $2) } })
        progress?.end()
        return status
    }
}
