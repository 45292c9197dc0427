/// A JSON Lines file a run writes and `--resume` continues: opened after what an earlier run of it finished (cut
/// back to that, `ResumeLedger`), or new — and then begun with the run's `runStarted` line.
public struct ResumableFile: Sendable {
    public let writer: JSONLWriter
    /// What the earlier run left (nil: there was no such file, or resuming was not asked for).
    public let ledger: ResumeLedger?

    /// Opens `path` for the run `record` over `items`. With `mode` `.off` the file is new (an existing one is
    /// replaced only with `overwrite`).
    public init(_ path: String, record: RunRecord, items: [InputItem], mode: AnalysisOptions.ResumeMode,
                overwrite: Bool) throws(FrameProbeError) {
        ledger = mode == .off ? nil : try ResumeLedger.read(path, record: record, items: items, mode: mode)
        if let ledger {
            writer = try JSONLWriter(resuming: path, keeping: ledger.keptBytes)
        } else {
            writer = try JSONLWriter(path: path, overwrite: overwrite)
        }
        if (ledger?.keptBytes ?? 0) == 0 { try Self.begin(writer, record: record) }
    }

    /// Writes the run's first line; a reader that left (standard output closed by `| head`) is not a failure.
    public static func begin(_ writer: JSONLWriter, record: RunRecord) throws(FrameProbeError) {
        if !writer.write(Event(source: "", RunStarted(record))) && !writer.readerGone {
            throw writer.failure ?? FrameProbeError("OUTPUT_UNWRITABLE", "the output cannot be written")
        }
    }
}
