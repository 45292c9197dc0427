/// One shard report given to `report --merge`: where it was read, and what it holds.
public struct MergePart: Sendable {
    public let path: String
    public let document: ReportDocument

    public init(path: String, document: ReportDocument) {
        self.path = path
        self.document = document
    }

    var shardName: String { document.run?.shardName ?? "?" }
}

/// A merged report's account of its parts: which shard each was, how many inputs it brought and how many failed.
public struct ShardSummary: Codable, Sendable, Equatable {
    public var shard: String
    public var path: String
    public var inputs: Int
    public var failedInputs: Int
    /// The failed inputs, `source: error` each.
    public var failures: [String]
    public var interrupted: Bool?

    /// The line `report --merge` prints for a shard that did not end well; nil for one that did.
    public var complaint: String? {
        if interrupted == true { return "shard \(shard) (\(path)) was interrupted: its report lacks the inputs it had not finished" }
        guard failedInputs > 0 else { return nil }
        return "shard \(shard) (\(path)): \(failedInputs) of \(inputs) inputs failed: " + failures.joined(separator: "; ")
    }
}

/// What `report --merge` checks before it adds shard reports up: that they are shards of one run (same command,
/// settings and input list, same number of shards), each shard once — refused otherwise (`INVALID_MERGE`, naming
/// the part) — and which shards are missing or were interrupted: the merged report is written, and fails with
/// that reason.
enum ShardMerge {
    struct Outcome {
        var run: RunRecord?
        var shards: [ShardSummary]
        /// Why the merged report cannot pass, whatever its gates say.
        var problems: [String]
    }

    static func check(_ parts: [MergePart]) throws(FrameProbeError) -> Outcome {
        let summaries = parts.map { part in
            ShardSummary(shard: part.shardName, path: part.path, inputs: part.document.inputs.count,
                         failedInputs: part.document.total.failedInputs,
                         failures: part.document.inputs.compactMap { input in input.error.map { "\(input.source): \($0)" } },
                         interrupted: part.document.interrupted)
        }
        let problems = summaries.filter { $0.interrupted == true }.compactMap(\.complaint)
        let recorded = parts.filter { $0.document.run != nil }
        guard let first = recorded.first, let reference = first.document.run else {
            return Outcome(run: nil, shards: summaries, problems: problems)
        }
        if let unrecorded = parts.first(where: { $0.document.run == nil }) {
            throw FrameProbeError("INVALID_MERGE", "\(unrecorded.path) does not say which run and shard it is (a report of an older frameprobe, or merged already): it cannot be checked against \(first.path)")
        }
        var owners: [Int: String] = [:]
        for part in parts {
            let run = part.document.run!
            if let difference = reference.runDifference(from: run) {
                throw FrameProbeError("INVALID_MERGE", "\(part.path) is not a shard of the run \(first.path) is from: \(difference)")
            }
            let index = run.shard?.index ?? 0
            if let other = owners[index] {
                throw FrameProbeError("INVALID_MERGE", "\(other) and \(part.path) are both shard \(run.shardName): a shard is merged once")
            }
            owners[index] = part.path
        }
        let count = reference.shard?.count ?? 1
        let missing = (0..<count).filter { owners[$0] == nil }.map { index in
            let share = reference.allInputCount > index ? (reference.allInputCount - index - 1) / count + 1 : 0
            return "shard \(index)/\(count) is missing: its \(share) of the run's \(reference.allInputCount) inputs are not in the report"
        }
        var run = reference
        run.shard = nil
        run.inputs = parts.flatMap { $0.document.run!.inputs }.sorted()
        return Outcome(run: run, shards: summaries, problems: missing + problems)
    }
}

extension RunRecord {
    /// How `other` is not a shard of the same run as this one (command, settings, input list, shard count); nil
    /// when it is.
    func runDifference(from other: RunRecord) -> String? {
        var alike = other
        alike.shard = shard
        alike.inputs = inputs
        if let difference = difference(from: alike) { return difference }
        if shard?.count != other.shard?.count { return "\(shard?.count ?? 1) shards there, \(other.shard?.count ?? 1) here" }
        return nil
    }
}
