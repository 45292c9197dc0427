import FrameProbe
import Foundation

/// What `analyze` and `acquire` share: parse the options, open the output, run the inputs, choose the exit code.
struct AnalysisCommand: Sendable {
    let parser: ArgumentParser
    let help: String
    /// Adjusts the parsed options (the command's own pipeline) and checks the inputs; throws for exit 2.
    var prepare: @Sendable (inout AnalysisOptions, [String]) throws(FrameProbeError) -> Void = { _, _ throws(FrameProbeError) in }
    /// Sees every event as it is written (progress and status lines on stderr).
    var makeObserver: @Sendable (AnalysisOptions, [InputItem]) -> (@Sendable (Event) -> Void)? = { _, _ in nil }

    func run(_ arguments: [String], signals: Signals) -> Int32 {
        var options: AnalysisOptions
        let parsed: ParsedArguments
        let stages: [StageDescriptor]
        do throws(FrameProbeError) {
            guard let command = try parser.parseCommand(arguments, help: help) else { return ExitCode.success }
            (parsed, options) = command
            try prepare(&options, parsed.positionals)
            stages = try StageRegistry.resolve(options)
        } catch {
            return Console.usageFailure(error)
        }
        let writer: JSONLWriter
        do throws(FrameProbeError) {
            writer = try options.outputPath.map { path throws(FrameProbeError) in try JSONLWriter(path: path) } ?? JSONLWriter()
        } catch {
            return Console.usageFailure(error)
        }
        let items: [InputItem]
        do throws(FrameProbeError) {
            items = try Self.shardedItems(parsed.positionals, options: options).map(\.item)
        } catch {
            return Console.usageFailure(error)
        }
        let observe = makeObserver(options, items)
        let stop = signals.stop
        let batch = BatchRunner(runner: InputRunner(options: options, stages: stages), jobs: options.jobs)
        let failures = signals.runInterruptibly(writer: writer) {
            batch.run(items, stop: stop) { event, _ in
                observe?(event)
                if !writer.write(event) { stop.raise() }
            }
        }
        if let code = signals.interruptionExitCode { return code }
        return (failures ?? 0) > 0 && !writer.readerGone ? ExitCode.inputFailed : ExitCode.success
    }

    /// The inputs, expanded, with their position in the full list, cut to this machine's shard.
    static func shardedItems(_ arguments: [String], options: AnalysisOptions) throws(FrameProbeError) -> [(position: Int, item: InputItem)] {
        let all = InputDiscovery.expand(arguments).enumerated().map { ($0.offset, $0.element) }
        guard let shard = try options.resolvedShard() else { return all }
        return all.filter { shard.contains($0.0) }
    }
}
