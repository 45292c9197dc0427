import FrameProbe
import Foundation

/// What `analyze` and `acquire` share: the checked options, stages and inputs, then one run — open the output,
/// run the inputs, choose the exit code.
struct AnalysisRun {
    let options: AnalysisOptions
    let stages: [StageDescriptor]
    let inputs: RunInputs
    let arguments: [String]
    /// What the run is: the output's first line.
    let record: RunRecord

    /// Resolves the stages and expands the inputs (usage errors: exit 2).
    init(command: StageSelection.Command, options: AnalysisOptions, arguments: [String]) throws(FrameProbeError) {
        self.options = options
        self.arguments = arguments
        stages = try StageRegistry.builtIn.resolve(options, for: command)
        inputs = try RunInputs(arguments, options: options)
        if let path = options.outputFile { try inputs.refuseAsOutput(path) }
        if options.resume != .off && options.outputFile == nil {
            throw FrameProbeError("INVALID_RESUME", "--resume continues an output file: give -o FILE")
        }
        record = inputs.record(command: command.rawValue, settings: options.recordedSettings)
    }

    /// Runs every input, writing the events; `observe` sees each one as it is written and `progress` how far each
    /// input's analysis is (source, frames analysed, media time) — the progress line on stderr.
    func run(signals: Signals, observe: ((Event) -> Void)?, progress: ((String, Int, Double) -> Void)? = nil) -> Int32 {
        if inputs.foundNothing { return Console.outputFailure(RunInputs.nothingFound(arguments)) }
        let output: ResumableOutput
        do throws(FrameProbeError) {
            output = try ResumableOutput.open(options, record: record, items: inputs.items)
        } catch {
            return error.key == "OUTPUT_UNWRITABLE" || error.key == "OUTPUT_EXISTS" ? Console.outputFailure(error) : Console.usageFailure(error)
        }
        let writer = output.writer
        let stop = signals.stop
        var runOptions = options
        // An input analysed again replaces the images and clips its cut run left in its folder.
        if output.kept < inputs.items.count && options.resume != .off { runOptions.overwrite = true }
        let batch = BatchRunner(runner: InputRunner(options: runOptions, stages: stages), jobs: options.jobs)
        let rest = inputs.dropping(first: output.kept)
        let items = rest.items
        let advance = progress.map { progress in { (index: Int, frames: Int, time: Double) in progress(items[index].source, frames, time) } }
        let failures = output.failedInputs + batch.run(items, folders: rest.folders, stop: stop, progress: advance) { event, _ in
            observe?(event)
            if !writer.write(event) { stop.raise() }
        }
        if let status = Console.outputStatus(of: writer) { return status }
        if let code = signals.interruptionExitCode { return code }
        return failures > 0 && !writer.readerGone ? ExitCode.inputFailed : ExitCode.success
    }
}
