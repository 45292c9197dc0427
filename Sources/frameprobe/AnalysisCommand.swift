import FrameProbe
import Foundation

/// What `analyze` and `acquire` share: parse the options, open the output, run the inputs, choose the exit code.
struct AnalysisCommand: Sendable {
    let parser: ArgumentParser
    let help: String
    /// Adjusts the parsed options (the command's own pipeline) and checks the inputs; throws for exit 2.
    var prepare: @Sendable (inout AnalysisOptions, [String]) throws(FrameProbeError) -> Void = { _, _ throws(FrameProbeError) in }
    /// Sees every event as it is written (progress and status lines on stderr).
    var makeObserver: @Sendable (AnalysisOptions, [InputItem]) -> ((Event) -> Void)? = { _, _ in nil }

    func run(_ arguments: [String], signals: Signals) -> Int32 {
        var options: AnalysisOptions
        let inputs: RunInputs
        let stages: [StageDescriptor]
        do throws(FrameProbeError) {
            guard let command = try parser.parseCommand(arguments, help: help) else { return Console.printOut(help) }
            options = command.1
            try prepare(&options, command.0.positionals)
            stages = try StageRegistry.builtIn.resolve(options)
            inputs = try RunInputs(command.0.positionals, options: options)
            if let path = options.outputPath { try inputs.refuseAsOutput(path) }
            if inputs.foundNothing { return Console.outputFailure(RunInputs.nothingFound(command.0.positionals)) }
        } catch {
            return Console.usageFailure(error)
        }
        let writer: JSONLWriter
        do throws(FrameProbeError) {
            writer = try options.outputPath.map { path throws(FrameProbeError) in try JSONLWriter(path: path, overwrite: options.overwrite) }
                ?? Console.standardOutput
        } catch {
            return Console.outputFailure(error)
        }
        let observe = makeObserver(options, inputs.items)
        let stop = signals.stop
        let batch = BatchRunner(runner: InputRunner(options: options, stages: stages), jobs: options.jobs)
        let failures = batch.run(inputs.items, folders: inputs.folders, stop: stop) { event, _ in
            observe?(event)
            if !writer.write(event) { stop.raise() }
        }
        if let status = Console.outputStatus(of: writer) { return status }
        if let code = signals.interruptionExitCode { return code }
        return failures > 0 && !writer.readerGone ? ExitCode.inputFailed : ExitCode.success
    }
}
