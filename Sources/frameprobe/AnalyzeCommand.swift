import FrameProbe
import Foundation

/// `frameprobe analyze INPUT...`: stream analysis events as JSON Lines.
enum AnalyzeCommand {
    static let parser = ArgumentParser(specs: OptionTable.analyze)

    static let help = """
        Usage: frameprobe analyze [options] INPUT...

        Streams analysis events as JSON Lines. INPUT is a video or image file, a directory (walked
        recursively, sorted), - for standard input (a container stream, or raw frames with
        --input-format rawvideo), or a URL/device libavformat opens.

        Options:
        \(parser.optionsHelp())
        """

    static func run(_ arguments: [String], signals: Signals) -> Int32 {
        let options: AnalysisOptions
        let parsed: ParsedArguments
        let stages: [StageDescriptor]
        do throws(FrameProbeError) {
            parsed = try parser.parse(arguments)
            if parsed.wantsHelp {
                print(help)
                return ExitCode.success
            }
            options = try parsed.analysisOptions()
            stages = try StageRegistry.resolve(options)
            if parsed.positionals.isEmpty { throw FrameProbeError("INVALID_ARGUMENT", "no input given (see frameprobe analyze --help)") }
        } catch {
            return Console.usageFailure(error)
        }
        let writer: JSONLWriter
        do throws(FrameProbeError) {
            writer = try options.outputPath.map { path throws(FrameProbeError) in try JSONLWriter(path: path) } ?? JSONLWriter()
        } catch {
            return Console.usageFailure(error)
        }
        let items = InputDiscovery.expand(parsed.positionals)
        let progress = ProgressLine.isWanted(options.progress) ? ProgressLine(totalInputs: items.count) : nil
        let stop = signals.stop
        let batch = BatchRunner(runner: InputRunner(options: options, stages: stages), jobs: options.jobs)
        let failures = signals.runInterruptibly(writer: writer) {
            batch.run(items, stop: stop) { event in
                progress?.observe(event)
                if !writer.write(event) { stop.raise() }
            }
        }
        progress?.end()
        if let code = signals.interruptionExitCode { return code }
        return (failures ?? 0) > 0 && !writer.readerGone ? ExitCode.inputFailed : ExitCode.success
    }
}
