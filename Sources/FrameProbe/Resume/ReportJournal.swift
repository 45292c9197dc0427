import Foundation

/// What `report --resume` keeps of its work as it goes, so that a run cut short (preempted, killed, out of time)
/// continues where it was: `PREFIX.resume.jsonl`, a `runStarted` line, then one `inputReport` line per finished
/// input, holding its whole report (exactly as the JSON report holds it) and its file's fingerprint. A resumed
/// report takes the finished inputs' reports from it, so it equals an uninterrupted run's.
public final class ReportJournal: Sendable {
    public static let lineEvent = "inputReport"

    private let writer: JSONLWriter
    /// The reports of the inputs an earlier run finished: the first `kept.count` of the run's media inputs.
    public let kept: [InputReport]
    /// What made `redo-changed` start over where it did.
    public let redone: String?

    /// Opens (or starts) the journal at `path` for the run `record` over `items` (its media inputs).
    public init(path: String, record: RunRecord, items: [InputItem], mode: AnalysisOptions.ResumeMode) throws(FrameProbeError) {
        let file = try ResumableFile(path, record: record, items: items, mode: mode, overwrite: false)
        var kept: [InputReport] = []
        if let ledger = file.ledger, ledger.kept > 0 {
            try FileContents.forEachLine(path, errorKey: "INVALID_RESUME", wholeLinesOnly: true) { line throws(FrameProbeError) in
                guard kept.count < ledger.kept, let entry = try? JSONDecoder().decode(Line.self, from: line),
                      entry.event == Self.lineEvent else { return }
                kept.append(entry.report)
            }
            guard kept.count == ledger.kept else {
                throw FrameProbeError("INVALID_RESUME", "\(path): an input's report cannot be read back")
            }
        }
        self.kept = kept
        redone = file.ledger?.redone
        writer = file.writer
    }

    private struct Line: Decodable {
        let event: String
        let report: InputReport
    }

    /// Records a finished input; false (with `failure` set) when the journal cannot be written. An input that did
    /// not finish (interrupted) is not recorded: a resumed run analyses it again.
    @discardableResult
    public func record(_ report: InputReport, fingerprint: InputFingerprint?) -> Bool {
        guard report.incomplete == nil else { return true }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A report JSON cannot hold (a number out of range) is left out: a resumed run analyses the input again.
        guard let body = try? encoder.encode(report) else { return true }
        var fields: [(String, JSONValue)] = [("event", .string(Self.lineEvent)), ("source", .string(report.source))]
        if let fingerprint { fields.append(("fingerprint", fingerprint.json)) }
        let head = JSONValue.object(fields).serialized().dropLast()
        return writer.write(line: head + ",\"report\":" + String(decoding: body, as: UTF8.self) + "}")
    }

    public var failure: FrameProbeError? { writer.failure }
}
