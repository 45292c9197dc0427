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

    /// The fields both reports have a value for, new − old. A field one of them lacks (a report from an older
    /// version, quality not scored) has no delta, so a gate on it fails and says why.
    static func delta(new: [String: Double], old: [String: Double]) -> [String: Double] {
        var delta: [String: Double] = [:]
        for (field, value) in new where !field.hasPrefix(deltaPrefix) {
            if let before = old[field] { delta[field] = value - before }
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
