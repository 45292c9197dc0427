import Foundation

/// What an earlier run left in a JSON Lines output (or a report's journal, `ReportJournal`), as `--resume` reads
/// it: the inputs it finished, from the first, in order, and where that part of the file ends. Everything after — an input cut short, a line cut in
/// half, inputs finished after the first unfinished one (at an interrupt, inputs running side by side end
/// together) — is cut off and analysed again, so the file reads as one uninterrupted run's once it is done.
public struct ResumeLedger: Sendable, Equatable {
    /// How many inputs, from the first, the earlier run finished and are kept.
    public let kept: Int
    /// The bytes of the file that stay: its `runStarted` line and the kept inputs' lines (0: start the file over).
    public let keptBytes: Int64
    /// How many of the kept inputs failed (they count towards the exit status as they did then).
    public let failedInputs: Int
    /// What made `redo-changed` start over where it did (another run's file, an input changed since); nil when
    /// nothing changed.
    public let redone: String?

    /// Reads `path` for a run described by `record` over `items`; nil when there is no such file. A file that
    /// another run started (other settings, inputs or shard) or an input that changed since it was analysed is
    /// refused (`RESUME_MISMATCH`, exit 2) — or, with `redo-changed`, analysed again from there. A file whose first
    /// line is not a `runStarted` is not frameprobe's and is refused (`INVALID_RESUME`).
    public static func read(_ path: String, record: RunRecord, items: [InputItem],
                            mode: AnalysisOptions.ResumeMode) throws(FrameProbeError) -> ResumeLedger? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw FrameProbeError("INVALID_RESUME", "--resume continues a file; \(path) is not a regular file")
        }
        var reading = Reading(path: path, record: record, expected: items, mode: mode)
        try FileContents.forEachLine(path, errorKey: "INVALID_RESUME", wholeLinesOnly: true) { line throws(FrameProbeError) in
            try reading.take(line)
        }
        return ResumeLedger(kept: reading.kept, keptBytes: reading.keptBytes, failedInputs: reading.failed, redone: reading.restart)
    }

    /// The line-by-line reading: the header, then one input's lines after another, until the kept part ends.
    private struct Reading {
        let path: String
        let record: RunRecord
        let expected: [InputItem]
        let mode: AnalysisOptions.ResumeMode
        /// Where the next line starts.
        var offset: Int64 = 0
        var sawHeader = false
        /// Set once the kept part has ended: later lines are not looked at.
        var done = false
        var restart: String?
        var kept = 0
        var keptBytes: Int64 = 0
        var failed = 0
        /// The input being read.
        var current: Group?

        init(path: String, record: RunRecord, expected: [InputItem], mode: AnalysisOptions.ResumeMode) {
            self.path = path
            self.record = record
            self.expected = expected
            self.mode = mode
        }

        struct Group {
            var source: String
            var opened = false
            var fingerprint: InputFingerprint?
            var failed = false
            /// Its last event ended it for good: `inputClosed` (not interrupted), or a lone `error`/`skipped`.
            var finished = false
        }

        mutating func take(_ line: Data) throws(FrameProbeError) {
            let end = offset + Int64(line.count) + 1
            defer { offset = end }
            guard !done else { return }
            let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
            guard sawHeader else { return try takeHeader(object, end: end) }
            guard let object, let name = object["event"] as? String, let source = object["source"] as? String else {
                done = true
                return
            }
            if current == nil || name == InputOpened.eventName || current!.source != source {
                // A new input begins; the one before it did not finish.
                if current != nil {
                    done = true
                    return
                }
                current = Group(source: source)
            }
            current!.failed = current!.failed || name == Failure.eventName || object["error"] is [String: Any]
            switch name {
            case InputOpened.eventName:
                current!.opened = true
                current!.fingerprint = InputFingerprint(json: object["fingerprint"])
            case ReportJournal.lineEvent:
                // A report journal's line is one whole input.
                current!.fingerprint = InputFingerprint(json: object["fingerprint"])
                current!.opened = current!.fingerprint != nil
                current!.failed = (object["report"] as? [String: Any])?["error"] is String
                current!.finished = true
            case InputClosed.eventName:
                current!.finished = object["interrupted"] as? Bool != true
                if !current!.finished { done = true }
            case Failure.eventName, InputSkipped.eventName:
                if !current!.opened { current!.finished = true }
            default:
                break
            }
            if current!.finished { try settle(end: end) }
        }

        private mutating func takeHeader(_ object: [String: Any]?, end: Int64) throws(FrameProbeError) {
            guard let object, object["event"] as? String == RunStarted.eventName, let earlier = RunRecord(json: object) else {
                throw FrameProbeError("INVALID_RESUME", "\(path) does not begin with a frameprobe runStarted line: it is not a run's output to resume")
            }
            sawHeader = true
            if let difference = earlier.difference(from: record) {
                guard mode == .redoChanged else {
                    throw FrameProbeError("RESUME_MISMATCH", "\(path) was written by another run (\(difference)); --resume=redo-changed starts it over")
                }
                restart = "another run (\(difference))"
                done = true
                return
            }
            keptBytes = end
        }

        /// A finished input: kept when it is the next one expected and unchanged.
        private mutating func settle(end: Int64) throws(FrameProbeError) {
            guard let group = current, kept < expected.count, expected[kept].source == group.source else {
                done = true
                return
            }
            if group.opened, let change = Self.change(of: expected[kept], since: group.fingerprint) {
                guard mode == .redoChanged else {
                    throw FrameProbeError("RESUME_MISMATCH", "\(group.source) \(change) since \(path) was written; --resume=redo-changed analyses it again")
                }
                restart = "\(group.source) \(change)"
                done = true
                return
            }
            kept += 1
            if group.failed { failed += 1 }
            keptBytes = end
            current = nil
        }

        /// What changed in `item` since it was analysed (its fingerprint then); nil when nothing did.
        static func change(of item: InputItem, since earlier: InputFingerprint?) -> String? {
            guard case .media(_, let location) = item, let path = location.filePath else { return nil }
            guard let now = InputFingerprint(path: path) else { return "can no longer be read" }
            guard let earlier else { return "was not fingerprinted" }
            if now.size != earlier.size { return "changed size (\(earlier.size) → \(now.size) bytes)" }
            if now.headDigest != earlier.headDigest { return "changed (its first MiB differs)" }
            if now.modifiedNanoseconds != earlier.modifiedNanoseconds { return "was modified" }
            return nil
        }
    }
}
