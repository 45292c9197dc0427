import FrameProbe

/// `frameprobe analyze INPUT...`: stream analysis events as JSON Lines.
enum AnalyzeCommand {
    static let parser = ArgumentParser(specs: OptionTable.analyze)

    static let command = AnalysisCommand(
        parser: parser,
        help: """
            Usage: frameprobe analyze [options] INPUT...

            Streams analysis events as JSON Lines. INPUT is a video or image file, a directory (walked
            recursively, sorted), - for standard input (a container stream, or raw frames with
            --input-format rawvideo), or a URL/device libavformat opens.

            Options:
            \(parser.optionsHelp())
            """,
        makeObserver: { options, items in
            guard ProgressLine.isWanted(options.progress) else { return nil }
            let progress = ProgressLine(totalInputs: items.count)
            return { progress.observe($0) }
        })
}
