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
    /// (`SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN`) / `SLURM_ARRAY_TASK_STEP` of `SLURM_ARRAY_TASK_COUNT` (or
    /// `--shard-count`); nil when
    /// neither is set. A value that is not a number, or a shard without a count, is an error (exit 2): running every
    /// input on every machine of the job is the mistake sharding exists to avoid.
    public static func fromEnvironment(_ environment: [String: String], countHint: Int?) throws(FrameProbeError) -> Shard? {
        func number(_ name: String) throws(FrameProbeError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw FrameProbeError("INVALID_SHARD", "\(name)=\(text) is not a whole number")
            }
            return value
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            guard let countHint else {
                throw FrameProbeError("INVALID_SHARD", "JOB_COMPLETION_INDEX is set: give the number of shards with --shard-count (the Job's completions)")
            }
            return try Shard(index: index, count: countHint)
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            // A stepped array (`--array=0-20:5`: ids 0, 5, 10 …) numbers its tasks MIN + k × STEP.
            let step = try number("SLURM_ARRAY_TASK_STEP") ?? 1
            guard step >= 1 else { throw FrameProbeError("INVALID_SHARD", "SLURM_ARRAY_TASK_STEP \(step) is not a step") }
            let (offset, overflow) = id.subtractingReportingOverflow(minimum)
            guard !overflow else { throw FrameProbeError("INVALID_SHARD", "SLURM_ARRAY_TASK_ID \(id) is out of range") }
            guard offset % step == 0 else {
                throw FrameProbeError("INVALID_SHARD", "SLURM_ARRAY_TASK_ID \(id) is not on the array's step \(step) from its first task")
            }
            // The count, when Slurm does not give it, follows from the last task: (MAX − MIN) / STEP + 1.
            let fromMaximum = try number("SLURM_ARRAY_TASK_MAX").flatMap { maximum -> Int? in
                let (span, overflow) = maximum.subtractingReportingOverflow(minimum)
                return overflow || span < 0 ? nil : span / step + 1
            }
            guard let count = try number("SLURM_ARRAY_TASK_COUNT") ?? fromMaximum ?? countHint else {
                throw FrameProbeError("INVALID_SHARD", "SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX: give --shard-count")
            }
            return try Shard(index: offset / step, count: count)
        }
        return nil
    }

    /// Whether the input at `position` of the full list belongs to this shard.
    public func contains(_ position: Int) -> Bool { position % count == index }
}
