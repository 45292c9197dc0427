import Foundation

/// Mean, minimum and maximum of a score.
public struct ScoreStats: Codable, Sendable, Equatable {
    public var mean: Double
    public var min: Double
    public var max: Double
    /// How many values it summarises (for weighting when inputs are combined).
    public var count: Int

    /// The gate fields of a score's statistics: `NAMEMean`, `NAMEMin`, `NAMEMax`.
    static let fieldSuffixes = ["Mean", "Min", "Max"]

    /// This score's statistics as gate fields named after it (`darknessMean`, `darknessMin`, `darknessMax`).
    public func fields(named name: String) -> [String: Double] { [name + "Mean": mean, name + "Min": min, name + "Max": max] }

    /// The statistics as the report keeps them: rounded to `decimals` (the JSON report's precision for every
    /// derived number, so that `3.7199999999999998` is written `3.72`, and a report read back equals the one made).
    public init(mean: Double, min: Double, max: Double, count: Int) {
        self.mean = ReportPrecision.rounded(mean)
        self.min = ReportPrecision.rounded(min)
        self.max = ReportPrecision.rounded(max)
        self.count = count
    }

    /// Values a report read back can hold: finite, within ±10⁶ (scores are 0…1 or 0…100), from 1…countLimit values.
    public var isPlausible: Bool {
        [mean, min, max].allSatisfy { $0.isFinite && abs($0) <= 1e6 } && (1...InputReport.countLimit).contains(count)
    }

    /// Several inputs' statistics as one (mean weighted by count).
    public init?(combining parts: [ScoreStats]) {
        let total = parts.reduce(0) { $0 + $1.count }
        guard total > 0 else { return nil }
        self.init(mean: parts.reduce(0) { $0 + $1.mean * Double($1.count) } / Double(total), min: parts.map(\.min).min() ?? 0,
                  max: parts.map(\.max).max() ?? 0, count: total)
    }
}

/// Mean, minimum and maximum of a score, summed as the values come.
public struct ScoreAccumulator: Sendable {
    private var sum = 0.0, count = 0, low = Double.infinity, high = -Double.infinity

    public init() {}

    public mutating func add(_ value: Double) {
        sum += value
        count += 1
        low = min(low, value)
        high = max(high, value)
    }

    public var stats: ScoreStats? { count > 0 ? ScoreStats(mean: sum / Double(count), min: low, max: high, count: count) : nil }
}

/// The precision of the numbers a report derives (statistics, deltas, interval sums, gate values): 6 decimals, far
/// below any threshold's resolution. Per-frame series keep their value's declared `ReportedValue.precision`.
public enum ReportPrecision {
    public static let decimals = 6

    public static func rounded(_ value: Double, decimals: Int = decimals) -> Double {
        guard value.isFinite else { return value }
        let scale = pow(10, Double(decimals))
        let result = (value * scale).rounded() / scale
        return result == 0 ? 0 : result
    }
}
