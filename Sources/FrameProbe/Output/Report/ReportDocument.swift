import Foundation

/// A whole report: every input, the totals, the gates and whether they all passed. Its JSON form is complete
/// (plots and thumbnails included), so shard reports merge into exactly what one run would write.
public struct ReportDocument: Codable, Sendable, Equatable {
    public var tool = "frameprobe \(Versions.frameprobe)"
    public var inputs: [InputReport]
    public var total: ReportTotals
    public var gates: [String]
    public var totalGates: [GateResult]
    public var passed: Bool
    /// What run wrote it: command, settings, shard and inputs (nil in reports of older versions).
    public var run: RunRecord?
    /// A merged report's parts, one per shard (nil: not merged).
    public var shards: [ShardSummary]?
    /// The comparison with `--baseline`, when there was one.
    public var baseline: BaselineComparison?
    /// The report was written on a signal: the inputs it shows are what was done by then (nil: it was not).
    public var interrupted: Bool? {
        didSet { if interrupted == true { passed = false } }
    }
    /// The parts its inputs are made of: what its formats show (not written: a report's JSON is read back with the
    /// parts of the registry that reads it).
    public var parts = ReportPartTypes.builtIn
    /// The baseline's per-frame series of the inputs it shares with this report, by match key, for the HTML plots
    /// (not written: the baseline's own JSON has them).
    public var baselineSeries: [String: Series] = [:]
    /// The verdict in a word, as every format shows it: "interrupted" (written on a signal), "passed" or "failed".
    public var verdict: String { interrupted == true ? "interrupted" : passed ? "passed" : "failed" }
    /// The outcome in a line, as the command and GitHub's notice say it: "2 inputs, 1 of 3 gates failed".
    public var summary: String {
        let checked = inputs.flatMap(\.gates) + totalGates
        let outcome = interrupted == true ? "interrupted"
            : gates.isEmpty && totalGates.isEmpty ? "no gates configured"
            : passed ? "all \(counted(gates.count, "gate")) passed"
            : "gates FAILED (\(checked.filter { !$0.passed }.count) of \(checked.count) checks)"
        return "\(counted(total.inputs, "input")), \(outcome)"
    }
    /// The inputs as reports list them: those that failed or failed a gate first, then the others, each group in
    /// natural order of their names (clip2 before clip10).
    var inputsFailedFirst: [InputReport] {
        let byName = inputs.sorted { $0.source.compare($1.source, options: .numeric) == .orderedAscending }
        return byName.filter(\.failedSomething) + byName.filter { !$0.failedSomething }
    }

    /// What an interrupted report says about the inputs it lacks.
    static let interruptionNote = "the report was written on a signal: inputs not finished by then are missing or incomplete"

    enum CodingKeys: String, CodingKey { case tool, inputs, total, gates, totalGates, passed, run, shards, baseline, interrupted }

    /// Evaluates `gates` on `inputs` (ordered by their index) and the totals, after giving them their `delta.`
    /// fields against `baseline` when there is one.
    public init(inputs: [InputReport], gates: [Gate], baseline: Baseline? = nil, parts: ReportPartTypes = .builtIn) {
        var inputs = inputs.sorted { $0.index < $1.index }
        var total = ReportTotals(inputs, parts: parts)
        var comparison: BaselineComparison?
        if let baseline {
            // Keys are unique on both sides (`Baseline.checkMatchable`, before a report is made).
            let old = Dictionary(baseline.document.inputs.map { ($0.matchKey, $0) }) { first, _ in first }
            for index in inputs.indices {
                inputs[index].delta = old[inputs[index].matchKey].map { Baseline.delta(new: inputs[index].fields, old: $0.fields) }
            }
            total.delta = Baseline.delta(new: total.fields, old: baseline.document.total.fields)
            let keys = Set(inputs.map(\.matchKey))
            baselineSeries = old.filter { keys.contains($0.key) }.mapValues(\.series)
            comparison = BaselineComparison(path: baseline.path, newInputsPass: baseline.newInputsPass,
                                            added: inputs.filter { old[$0.matchKey] == nil }.map(\.source),
                                            gone: baseline.document.inputs.filter { !keys.contains($0.matchKey) }.map(\.source))
        }
        let passNew = comparison?.newInputsPass ?? false
        let perInput = gates.filter { !$0.total }, onTotals = gates.filter(\.total)
        for index in inputs.indices {
            let isNew = comparison != nil && inputs[index].delta == nil
            inputs[index].gates = perInput.map { gate in
                var result = gate.evaluate(inputs[index].fields, newInput: isNew, passNew: passNew, parts: parts)
                if !result.passed, result.value != nil, let field = result.field {
                    result.note = inputs[index].parts.lazy.compactMap { $0.gateNote(field) }.first
                }
                if let reason = inputs[index].incomplete { (result.passed, result.reason) = (false, "the input is incomplete: \(reason)") }
                return result
            }
        }
        self.inputs = inputs
        self.total = total
        self.parts = parts
        self.baseline = comparison
        self.gates = gates.map(\.expression)
        let totalResults = onTotals.map { gate in
            var result = gate.evaluate(total.fields, newInput: false, passNew: false, parts: parts)
            if !result.passed, result.value != nil, let field = result.field {
                result.note = total.sections.lazy.compactMap { $0.part.totalGateNote($0, field) }.first
            }
            return result
        }
        totalGates = totalResults
        passed = inputs.allSatisfy { $0.gates.allSatisfy(\.passed) } && totalResults.allSatisfy(\.passed)
    }

    /// Shard reports as one: their inputs together, gates evaluated again (`gates`, or the shards' own). Parts that
    /// are not shards of one run, a shard given twice, or an input in two parts (it would be counted twice) are
    /// errors; a missing or interrupted shard fails the merged report, which says so (`ShardMerge`).
    public init(merging merged: [MergePart], gates: [Gate]?, baseline: Baseline? = nil, parts: ReportPartTypes = .builtIn) throws(FrameProbeError) {
        let documents = merged.map(\.document)
        let shardCheck = try ShardMerge.check(merged)
        var seen: Set<String> = []
        for input in documents.flatMap(\.inputs) where !seen.insert(input.matchKey).inserted {
            throw FrameProbeError("INVALID_MERGE", "the input \(input.source) is in more than one merged report")
        }
        try baseline?.checkMatchable(documents.flatMap(\.inputs))
        var expressions: [String] = []
        for expression in documents.flatMap(\.gates) where !expressions.contains(expression) { expressions.append(expression) }
        var chosen: [Gate] = []
        if let gates {
            chosen = gates
        } else {
            for expression in expressions { chosen.append(try Gate(parsing: expression, parts: parts)) }
        }
        self.init(inputs: documents.flatMap(\.inputs), gates: chosen, baseline: baseline, parts: parts)
        run = shardCheck.run
        shards = shardCheck.shards
        for problem in shardCheck.problems {
            totalGates.append(GateResult(gate: "every shard", value: nil, passed: false, reason: problem, field: nil))
            passed = false
        }
    }

    /// A JSON report, read with `parts` (a part the file lacks is empty: a report of a run without that stage).
    public static func read(_ path: String, parts: ReportPartTypes = .builtIn) throws(FrameProbeError) -> ReportDocument {
        let data = try FileContents.read(path, errorKey: "INVALID_REPORT", limit: FileContents.reportLimit)
        var document: ReportDocument
        do { document = try parts.decoder().decode(ReportDocument.self, from: data) } catch {
            throw FrameProbeError("INVALID_REPORT", "\(path) is not a frameprobe JSON report: \(error)")
        }
        document.parts = parts
        for input in document.inputs {
            if let field = input.fieldOutOfRange {
                throw FrameProbeError("INVALID_REPORT", "\(path): input \(input.source): \(field) is out of range")
            }
        }
        return document
    }

    /// Stable, readable JSON. A value JSON cannot hold (an infinite mean, from numbers that overflowed) is an error,
    /// never an empty file.
    public func json() throws(FrameProbeError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { return try encoder.encode(self) + Data("\n".utf8) } catch {
            throw FrameProbeError("INVALID_REPORT", "the report holds a value JSON cannot write (a number out of range): \(error)")
        }
    }
}
