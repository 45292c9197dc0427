import FrameProbe

/// Where a run's JSON Lines go, with its `runStarted` line written: standard output, a new file, or (with
/// `--resume`) the file an earlier run of it left, cut back to the inputs that run finished.
struct ResumableOutput {
    let writer: JSONLWriter
    /// Inputs, from the first, already in the output.
    let kept: Int
    /// How many of those failed.
    let failedInputs: Int

    static func open(_ options: AnalysisOptions, record: RunRecord, items: [InputItem]) throws(FrameProbeError) -> ResumableOutput {
        guard let path = options.outputFile else {
            try ResumableFile.begin(Console.standardOutput, record: record)
            return ResumableOutput(writer: Console.standardOutput, kept: 0, failedInputs: 0)
        }
        let file = try ResumableFile(path, record: record, items: items, mode: options.resume, overwrite: options.overwrite)
        if let redone = file.ledger?.redone { Console.printError("--resume=redo-changed: \(redone): analysed again from there") }
        return ResumableOutput(writer: file.writer, kept: file.ledger?.kept ?? 0, failedInputs: file.ledger?.failedInputs ?? 0)
    }
}
