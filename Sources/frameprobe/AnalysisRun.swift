import FrameProbe
import Foundation

/// What `analyze` and `acquire` share: the checked options, stages and inputs, then one run — open the output,
/// run the inputs, choose the exit code.
struct AnalysisRun {
    let options: AnalysisOptions
    let stages: [StageDescriptor]
    let inputs: RunInputs
    let arguments: [String]

    /// Resolves the stages and expands the inputs (usage errors: exit 2).
    init(options: AnalysisOptions, arguments: [String]) throws(FrameProbeError) {
        self.options = options
        self.arguments = arguments
        stages = try StageRegistry.builtIn.resolve(options)
        inputs = try RunInputs(arguments, options: options)
        if let path = options.outputFile { try inputs.refuseAsOutput(path) }
    }

    /// Runs every input, writing the events; `observe` sees each one as it is written and `progress` how far each
    /// input's analysis is (source, frames analysed, media time) — the progress line on stderr.
    func run(signals: Signals, observe: ((Event) -> Void)?, progress: ((String, Int, Double) -> Void)? = nil) -> Int32 {
        if inputs.foundNothing { return Console.outputFailure(RunInputs.nothingFound(arguments)) }
        let writer: JSONLWriter
        do throws(FrameProbeError) {
            writer = try options.outputFile.map { path throws(FrameProbeError) in try JSONLWriter(path: path, overwrite: options.overwrite) }
                ?? Console.standardOutput
        } catch {
            return Console.outputFailure(error)
        }
        let stop = signals.stop
        let batch = BatchRunner(runner: InputRunner(options: options, stages: stages), jobs: options.jobs)
        let items = inputs.items
        let advance = progress.map { progress in { (index: Int, frames: Int, time: Double) in progress(items[index].source, frames, time) } }
        let failures = batch.run(items, folders: inputs.folders, stop: stop, progress: advance) { event, _ in
            observe?(event)
            if !writer.write(event) { stop.raise() }
        }
        if let status = Console.outputStatus(of: writer) { return status }
        if let code = signals.interruptionExitCode { return code }
        return failures > 0 && !writer.readerGone ? ExitCode.inputFailed : ExitCode.success
    }
}
