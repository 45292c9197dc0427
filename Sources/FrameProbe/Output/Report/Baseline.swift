/// An earlier JSON report to compare with (`--baseline OLD.json`, SPEC §7.2): every numeric field gets a
/// `delta.FIELD` = new − old, per input present in both and in the totals.
public struct Baseline: Sendable {
    public let path: String
    public let document: ReportDocument
    /// Whether a delta gate passes on an input the baseline does not have (`--baseline-new-inputs pass`).
    public let newInputsPass: Bool

    public init(path: String, document: ReportDocument, newInputsPass: Bool) {
        self.path = path
        self.document = document
        self.newInputsPass = newInputsPass
    }

    public static func read(_ path: String, newInputsPass: Bool) throws(FrameProbeError) -> Baseline {
        Baseline(path: path, document: try ReportDocument.read(path), newInputsPass: newInputsPass)
    }

    /// Inputs are matched by their key (`InputReport.matchKey`: the name, or its raw bytes when it is not UTF-8).
    /// Two inputs of one side with the same key — names that print alike, `clip.mp4` from two folders — cannot be
    /// matched: an error, not a guess.
    public func checkMatchable(_ inputs: [InputReport]) throws(FrameProbeError) {
        for (side, list) in [("this report", inputs), ("the baseline \(path)", document.inputs)] {
            var seen: Set<String> = []
            for input in list where !seen.insert(input.matchKey).inserted {
                throw FrameProbeError("INVALID_BASELINE", "\(side) has two inputs named \(input.source): they cannot be matched to the baseline's")
            }
        }
    }

    /// The fields both reports have a value for, new − old. A field one of them lacks (a report from an older
    /// version, quality not scored) has no delta, so a gate on it fails and says why.
    static func delta(new: [String: Double], old: [String: Double]) -> [String: Double] {
        var delta: [String: Double] = [:]
        for (field, value) in new where !field.hasPrefix(deltaPrefix) {
            if let before = old[field] { delta[field] = ReportPrecision.rounded(value - before) }
        }
        return delta
    }

    static let deltaPrefix = "delta."
}

/// What the report says about the baseline: which file, and which inputs are new or gone.
public struct BaselineComparison: Codable, Sendable, Equatable {
    public var path: String
    public var newInputsPass: Bool
    public var added: [String]
    public var gone: [String]
}
