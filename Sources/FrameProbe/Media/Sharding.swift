import Foundation

/// A deterministic share of the input list for one machine of many: shard K of N (K from 0) takes the inputs
/// whose position in the sorted, expanded list is K modulo N. Kubernetes Indexed Jobs and Slurm job arrays give
/// K (and N) in their environment.
public struct Shard: Sendable, Equatable {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws(FrameProbeError) {
        guard count >= 1, index >= 0, index < count else {
            throw FrameProbeError("INVALID_SHARD", "a shard is K/N with 0 ≤ K < N, got \(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init(parsing text: String) throws(FrameProbeError) {
        let parts = text.split(separator: "/").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let index = parts[0], let count = parts[1] else {
            throw FrameProbeError("INVALID_SHARD", "--shard takes K/N (e.g. 0/4), got '\(text)'")
        }
        try self.init(index: index, count: count)
    }

    /// The shard the environment asks for: `JOB_COMPLETION_INDEX` with `countHint` (`--shard-count`), or
    /// `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` of `SLURM_ARRAY_TASK_COUNT`; nil when neither applies.
    public static func fromEnvironment(_ environment: [String: String], countHint: Int?) throws(FrameProbeError) -> Shard? {
        if let value = environment["JOB_COMPLETION_INDEX"], let index = Int(value) {
            guard let countHint else {
                throw FrameProbeError("INVALID_SHARD", "JOB_COMPLETION_INDEX is set: give the number of shards with --shard-count (the Job's completions)")
            }
            return try Shard(index: index, count: countHint)
        }
        if let id = environment["SLURM_ARRAY_TASK_ID"].flatMap(Int.init),
           let count = environment["SLURM_ARRAY_TASK_COUNT"].flatMap(Int.init) ?? countHint {
            let first = environment["SLURM_ARRAY_TASK_MIN"].flatMap(Int.init) ?? 0
            return try Shard(index: id - first, count: count)
        }
        return nil
    }

    /// Whether the input at `position` of the full list belongs to this shard.
    public func contains(_ position: Int) -> Bool { position % count == index }
}
