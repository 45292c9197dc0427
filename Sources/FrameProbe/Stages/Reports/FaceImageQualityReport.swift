/// What face image quality reports about an input: `unifiedQuality` per frame (plotted), every component's and
/// `unifiedQuality`'s statistics, and when the quality was below `--fiq-threshold`.
public struct FaceImageQualityReport: ReportPart {
    /// The totals' section is the same: the inputs' statistics combined.
    public typealias Total = FaceImageQualityReport

    /// Score statistics per component and `unifiedQuality` (nil: nothing was measured).
    public var faceImageQuality: [String: ScoreStats]?
    /// `--fiq-threshold`, below which a frame's quality is low (nil: nothing was measured).
    public var faceImageQualityThreshold: Double?
    private var reading = Transient(Reading())

    struct Reading: Sendable {
        var threshold = 50.0
        var sums: [String: ScoreAccumulator] = [:]
        /// The frame being read's scores.
        var frame: [String: Double]?
    }

    enum CodingKeys: String, CodingKey { case faceImageQuality, faceImageQualityThreshold }

    public init() {}
    public init(options: AnalysisOptions) { reading.value.threshold = options.fiqThreshold }

    static let unified = "unifiedQuality"
    static let notMeasured = "no face image quality was measured: no face was found, or the run had no --face-image-quality"

    public static let values = [
        ReportedValue("faceImageQuality", label: unified, range: 0...100, help: "the lowest ISO/IEC 29794-5 component score of the face",
                      plot: "face image quality (unified, 0–100)", color: "#0b7285", appearsWhenMeasured: true,
                      decimals: 0, precision: 0),
    ]
    public static let conditions = [
        ReportedCondition("lowFaceImageQuality", label: "face image quality low", color: "#0b7285", plot: values[0].plot,
                          missingReason: notMeasured),
    ]
    public static let gateFields = [GateField("faceImageQualityMean", missing: notMeasured), GateField("faceImageQualityMin", missing: notMeasured)]
        + FaceImageQuality.componentNames.flatMap { name in
            ["mean", "min"].map { GateField("fiq.\(name).\($0)", missing: "no face image quality was measured for this component: " + notMeasured) }
        }
    public static let reads: [any ReadableEvent.Type] = [FaceDetected.self, FaceUndetected.self]
    public static let frameEvents = reads

    public mutating func read(_ event: Event, frame: inout FrameValues) {
        guard let measured = (event.payload as? FaceDetected)?.face.imageQuality else { return }
        var scores = Dictionary(uniqueKeysWithValues: measured.components.map { ($0.name, Double($0.value.score)) })
        scores[Self.unified] = Double(measured.unifiedQuality)
        reading.value.frame = scores
        frame.values[Self.values[0].name] = scores[Self.unified]
    }

    public mutating func endFrame(_ frame: inout FrameValues) {
        let scores = reading.value.frame
        reading.value.frame = nil
        for (name, score) in scores ?? [:] { reading.value.sums[name, default: ScoreAccumulator()].add(score) }
        // Frames without a measured face count as low quality once the stage has measured some.
        guard !reading.value.sums.isEmpty else { return }
        frame.conditions[Self.conditions[0].name] = (scores?[Self.unified] ?? 0) < reading.value.threshold
    }

    public mutating func finish(_ input: InputCounts) {
        guard !reading.value.sums.isEmpty else { return }
        faceImageQuality = reading.value.sums.compactMapValues(\.stats)
        faceImageQualityThreshold = reading.value.threshold
    }

    /// The threshold's line across the plot.
    public var plotReferences: [String: [ReferenceLine]] {
        faceImageQualityThreshold.map { [Self.values[0].name: [ReferenceLine($0, "--fiq-threshold")]] } ?? [:]
    }

    /// The components that pulled the unified quality down, for a gate on it: "lowest: headSize 5, interEyeDistance 9".
    public func gateNote(_ field: String) -> String? { Self.gateNote(field, of: self) }

    public static func gateNote(_ field: String, of total: FaceImageQualityReport) -> String? {
        let statistic: KeyPath<ScoreStats, Double>
        switch field {
        case "faceImageQualityMean": statistic = \.mean
        case "faceImageQualityMin": statistic = \.min
        default: return nil
        }
        let lowest = total.lowestComponents(by: statistic).prefix(2).map { "\($0.name) \(formatted($0.stats[keyPath: statistic], decimals: 1))" }
        return lowest.isEmpty ? nil : "lowest: " + lowest.joined(separator: ", ")
    }

    /// The components (not `unifiedQuality`), lowest first by `statistic`, ties by name.
    func lowestComponents(by statistic: KeyPath<ScoreStats, Double>) -> [(name: String, stats: ScoreStats)] {
        (faceImageQuality ?? [:]).filter { $0.key != Self.unified }.map { (name: $0.key, stats: $0.value) }
            .sorted { ($0.stats[keyPath: statistic], $0.name) < ($1.stats[keyPath: statistic], $1.name) }
    }

    /// The unified quality's statistics and the three lowest components (mean and min).
    public func htmlRows(_ fields: [String: Double]) -> [ReportRow] {
        guard let unified = faceImageQuality?[Self.unified] else { return [] }
        let lowest = lowestComponents(by: \.mean).prefix(3).map {
            "\($0.name) mean \(formatted($0.stats.mean, decimals: 1)), min \(formatted($0.stats.min, decimals: 1))"
        }
        return [ReportRow("face image quality (unified)", "mean \(formatted(unified.mean, decimals: 1)), min \(formatted(unified.min, decimals: 1))"
                          + (faceImageQualityThreshold.map { " (threshold \(formatted($0, decimals: 1)))" } ?? ""),
                          fields: ["faceImageQualityMean", "faceImageQualityMin"])]
            + (lowest.isEmpty ? [] : [ReportRow("lowest components", lowest.map(escapeMarkup).joined(separator: "; "))])
    }

    public func fields(_ input: InputCounts) -> [String: Double] { Self.fields(of: self, input) }

    public var fieldOutOfRange: String? {
        (faceImageQuality ?? [:]).sorted { $0.key < $1.key }.first { !$0.value.isPlausible }.map { "faceImageQuality.\($0.key)" }
    }

    public static func total(_ parts: [FaceImageQualityReport]) -> FaceImageQualityReport {
        let measured = parts.compactMap(\.faceImageQuality)
        let names = Set(measured.flatMap(\.keys))
        var total = FaceImageQualityReport()
        total.faceImageQualityThreshold = parts.lazy.compactMap(\.faceImageQualityThreshold).first
        if !names.isEmpty {
            total.faceImageQuality = Dictionary(uniqueKeysWithValues: names.compactMap { name in
                ScoreStats(combining: measured.compactMap { $0[name] }).map { (name, $0) }
            })
        }
        return total
    }

    /// `faceImageQualityMean`/`Min` (of `unifiedQuality`) and `fiq.COMPONENT.mean`/`.min`.
    public static func fields(of total: FaceImageQualityReport, _ input: InputCounts) -> [String: Double] {
        var fields: [String: Double] = [:]
        for (name, stat) in total.faceImageQuality ?? [:] {
            let (mean, min) = name == unified ? ("faceImageQualityMean", "faceImageQualityMin") : ("fiq.\(name).mean", "fiq.\(name).min")
            fields[mean] = stat.mean
            fields[min] = stat.min
        }
        return fields
    }
}
