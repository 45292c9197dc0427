import Foundation

/// A quality gate: `[total.][delta.]field op number`, e.g. `faceFrameRatio>=0.9`, `total.blurredRatio<=0.1`,
/// `delta.faceFrameRatio>=-0.02`. Without `total.` it holds for every input; with it, for the totals; `delta.` tests
/// the change against `--baseline`. Operators: >= <= > < == !=.
public struct Gate: Codable, Sendable, Equatable {
    public var expression: String
    public var total: Bool
    public var field: String
    public var comparison: String
    public var threshold: Double

    static let comparisons = [">=", "<=", "==", "!=", ">", "<"]

    /// `parts`: the report parts whose fields a gate may name.
    public init(parsing text: String, parts: ReportPartTypes = .builtIn) throws(FrameProbeError) {
        let compact = text.replacingOccurrences(of: " ", with: "")
        expression = compact
        guard let comparison = Self.comparisons.first(where: { compact.contains($0) }),
              let range = compact.range(of: comparison) else {
            throw FrameProbeError("INVALID_GATE", "'\(text)' is not FIELD OP NUMBER (OP one of \(Self.comparisons.joined(separator: " ")))")
        }
        var name = String(compact[..<range.lowerBound])
        let isTotal = name.hasPrefix("total.")
        if isTotal { name.removeFirst("total.".count) }
        total = isTotal
        let known = isTotal ? parts.totalFieldNames : parts.fieldNames
        let base = name.hasPrefix(Baseline.deltaPrefix) ? String(name.dropFirst(Baseline.deltaPrefix.count)) : name
        guard known.contains(base) else {
            let hint = Suggestion.hint(for: base, in: known, prefix: name.hasPrefix(Baseline.deltaPrefix) ? Baseline.deltaPrefix : "")
            throw FrameProbeError("INVALID_GATE", "unknown field '\(name)' in '\(text)'"
                                  + (hint.isEmpty ? " (`frameprobe report --help` lists the fields)" : hint))
        }
        guard let threshold = Double(compact[range.upperBound...]), threshold.isFinite else {
            throw FrameProbeError("INVALID_GATE", "'\(text)' does not end with a number")
        }
        field = name
        self.comparison = comparison
        self.threshold = threshold
    }

    /// Whether it tests a change against the baseline.
    var isDelta: Bool { field.hasPrefix(Baseline.deltaPrefix) }

    /// The gate on a set of fields; a missing field (no frames scored, no acquisition check, no baseline value)
    /// fails it, and the result says why: a gate never passes on missing data — except a delta gate on an input
    /// the baseline lacks (`newInput`) when `passNew` (`--baseline-new-inputs pass`).
    func evaluate(_ fields: [String: Double], newInput: Bool, passNew: Bool, parts: ReportPartTypes) -> GateResult {
        guard let value = fields[field] else {
            if isDelta && newInput {
                return GateResult(gate: expression, value: nil, passed: passNew, reason: "the input is not in the baseline", field: field)
            }
            return GateResult(gate: expression, value: nil, passed: false, reason: Self.missingReason(field, parts), field: field)
        }
        let passed = switch comparison {
        case ">=": value >= threshold
        case "<=": value <= threshold
        case ">": value > threshold
        case "<": value < threshold
        case "==": value == threshold
        default: value != threshold
        }
        return GateResult(gate: expression, value: ReportPrecision.rounded(value), passed: passed, field: field)
    }
}

/// One gate's outcome on one input (or on the totals).
public struct GateResult: Codable, Sendable, Equatable {
    public var gate: String
    public var value: Double?
    public var passed: Bool
    /// Why a gate failed without a value.
    public var reason: String?
    /// The field it tests (nil in reports written before it was kept).
    public var field: String?
    /// What explains a failure, from the part that reports the field ("lowest: headSize 5, interEyeDistance 9").
    public var note: String?

    public init(gate: String, value: Double?, passed: Bool, reason: String? = nil, field: String?, note: String? = nil) {
        (self.gate, self.value, self.passed, self.reason, self.field, self.note) = (gate, value, passed, reason, field, note)
    }

    /// What a failed gate shows: its value, or why it has none, and what explains it.
    public var outcome: String {
        guard let value else { return "no value: \(reason ?? "no data")" }
        return "got \(formatted(value))" + (reason.map { " (\($0))" } ?? "") + (note.map { ", \($0)" } ?? "")
    }
}

extension Gate {
    /// Why `field` can have no value: what the part that declares it says.
    static func missingReason(_ field: String, _ parts: ReportPartTypes) -> String {
        if field.hasPrefix(Baseline.deltaPrefix) {
            let base = String(field.dropFirst(Baseline.deltaPrefix.count))
            return "no baseline (--baseline), or it or this report has no value for \(base) (\(missingReason(base, parts)))"
        }
        return parts.missingReason(field) ?? "the report has no value for \(field)"
    }
}
