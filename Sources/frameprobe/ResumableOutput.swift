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
        var ledger: ResumeLedger?
        if options.resume != .off, let path = options.outputFile {
            ledger = try ResumeLedger.read(path, record: record, items: items, mode: options.resume)
        }
        let writer: JSONLWriter
        if let ledger, let path = options.outputFile {
            if let redone = ledger.redone { Console.printError("--resume=redo-changed: \(redone): analysed again from there") }
            writer = try JSONLWriter(resuming: path, keeping: ledger.keptBytes)
        } else {
            writer = try options.outputFile.map { path throws(FrameProbeError) in try JSONLWriter(path: path, overwrite: options.overwrite) }
                ?? Console.standardOutput
        }
        if (ledger?.keptBytes ?? 0) == 0 && !writer.write(Event(source: "", RunStarted(record))) && !writer.readerGone {
            throw writer.failure ?? FrameProbeError("OUTPUT_UNWRITABLE", "the output cannot be written")
        }
        return ResumableOutput(writer: writer, kept: ledger?.kept ?? 0, failedInputs: ledger?.failedInputs ?? 0)
    }
}
