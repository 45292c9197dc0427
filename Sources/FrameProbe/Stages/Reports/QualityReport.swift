/// What the quality stage reports about an input: darkness, lightness and sharpness per frame (plotted, with their
/// statistics) and the frames too dark, too light or blurred (ratios, intervals).
public struct QualityReport: ReportPart {
    public var darkness: ScoreStats?
    public var lightness: ScoreStats?
    public var sharpness: ScoreStats?
    public var tooDarkFrames = 0
    public var tooLightFrames = 0
    public var blurredFrames = 0
    /// Frames with quality scores (`frameQuality` events): what the ratios are over. Optional so that reports
    /// written before it existed still merge.
    public var scoredFrames: Int?
    private var sums = Transient([ScoreAccumulator](repeating: ScoreAccumulator(), count: 3))

    enum CodingKeys: String, CodingKey { case darkness, lightness, sharpness, tooDarkFrames, tooLightFrames, blurredFrames, scoredFrames }

    public init() {}

    static let notScored = "no frame was scored for quality (no frameQuality events: analyze without --frame-quality?)"
    static let plot = "quality"

    public static let values = [
        ReportedValue(QualityScores.Field.darkness.name, range: 0...1, help: "share of the frame's pixels that are dark", plot: plot, color: "#343a40",
                      references: [ReferenceLine(QualityScores.darknessLimit, "too dark")]),
        ReportedValue(QualityScores.Field.lightness.name, range: 0...1, help: "share of the frame's pixels that are bright", plot: plot, color: "#f08c00",
                      references: [ReferenceLine(QualityScores.lightnessLimit, "too light")]),
        ReportedValue(QualityScores.Field.sharpness.name, range: 0...1, help: "edge energy of the frame (below the blur threshold: blurred)", plot: plot,
                      color: "#1c7ed6", references: [ReferenceLine(QualityScores.blurLimit, "blur threshold")]),
    ]

    public static let conditions = [
        ReportedCondition("dark", label: "too dark", color: "#343a40", plot: plot, missingReason: notScored + ", or the report predates intervals"),
        ReportedCondition("light", label: "too light", color: "#f08c00", plot: plot, missingReason: notScored + ", or the report predates intervals"),
        ReportedCondition("blurred", label: "blurred", color: "#1c7ed6", plot: plot, missingReason: notScored + ", or the report predates intervals"),
    ]

    public static let gateFields = ["tooDarkRatio", "tooLightRatio", "blurredRatio"].map { GateField($0, missing: notScored) }
        + values.flatMap { GateField.statistics($0.name, missing: notScored) }

    public static let reads: [any ReadableEvent.Type] = [FrameQuality.self]
    public static let frameEvents: [any ReadableEvent.Type] = [FrameQuality.self]
    public static let headlines = [(label: "blurred", field: "blurredRatio"), (label: "dark", field: "tooDarkRatio")]
    public static let columns = [ReportColumn("blurred"), ReportColumn("too dark"), ReportColumn("too light"), ReportColumn("sharpness (mean)")]

    public mutating func read(_ event: Event, frame: inout FrameValues) {
        guard let quality = event.payload as? FrameQuality else { return }
        let scores = quality.scores
        for (index, value) in [scores.darkness, scores.lightness, scores.sharpness].enumerated() {
            frame.values[Self.values[index].name] = value
            sums.value[index].add(value)
        }
        scoredFrames = (scoredFrames ?? 0) + 1
        let flags = quality.flags
        if flags.tooDark { tooDarkFrames += 1 }
        if flags.tooLight { tooLightFrames += 1 }
        if flags.blurred { blurredFrames += 1 }
        for (condition, holds) in zip(Self.conditions, [flags.tooDark, flags.tooLight, flags.blurred]) { frame.conditions[condition.name] = holds }
    }

    public mutating func finish(_ input: InputCounts) {
        (darkness, lightness, sharpness) = (sums.value[0].stats, sums.value[1].stats, sums.value[2].stats)
    }

    public func fields(_ input: InputCounts) -> [String: Double] { Self.fields(of: self, input) }

    public var fieldOutOfRange: String? {
        let counts = [("tooDarkFrames", tooDarkFrames), ("tooLightFrames", tooLightFrames), ("blurredFrames", blurredFrames),
                      ("scoredFrames", scoredFrames ?? 0)]
        if let (name, _) = counts.first(where: { !(0...InputReport.countLimit).contains($0.1) }) { return name }
        return [("darkness", darkness), ("lightness", lightness), ("sharpness", sharpness)].first { $0.1.map { !$0.isPlausible } ?? false }?.0
    }

    /// The totals' section is the same: statistics combined, counts summed.
    public typealias Total = QualityReport

    public static func total(_ parts: [QualityReport]) -> QualityReport {
        var total = QualityReport()
        total.darkness = ScoreStats(combining: parts.compactMap(\.darkness))
        total.lightness = ScoreStats(combining: parts.compactMap(\.lightness))
        total.sharpness = ScoreStats(combining: parts.compactMap(\.sharpness))
        total.tooDarkFrames = parts.reduce(0) { $0 + $1.tooDarkFrames }
        total.tooLightFrames = parts.reduce(0) { $0 + $1.tooLightFrames }
        total.blurredFrames = parts.reduce(0) { $0 + $1.blurredFrames }
        total.scoredFrames = parts.reduce(0) { $0 + ($1.scoredFrames ?? 0) }
        return total
    }

    public static func fields(of total: Total, _ input: InputCounts) -> [String: Double] {
        var fields: [String: Double] = [:]
        if let scored = total.scoredFrames, scored > 0 {
            fields["tooDarkRatio"] = Double(total.tooDarkFrames) / Double(scored)
            fields["tooLightRatio"] = Double(total.tooLightFrames) / Double(scored)
            fields["blurredRatio"] = Double(total.blurredFrames) / Double(scored)
        }
        for (name, stats) in [("darkness", total.darkness), ("lightness", total.lightness), ("sharpness", total.sharpness)] {
            if let stats { fields.merge(stats.fields(named: name)) { $1 } }
        }
        return fields
    }

    public func cells(_ fields: [String: Double]) -> [String] {
        [percent(fields["blurredRatio"]), percent(fields["tooDarkRatio"]), percent(fields["tooLightRatio"]), formatted(sharpness?.mean)]
    }

    public static func totalCells(_ total: Total, _ fields: [String: Double], inputs: Int) -> [String] { total.cells(fields) }

    public func htmlRows(_ fields: [String: Double]) -> [ReportRow] {
        guard scoredFrames ?? 0 > 0 else { return [] }
        return [ReportRow("darkness / lightness / sharpness (mean)", "\(formatted(darkness?.mean)) / \(formatted(lightness?.mean)) / \(formatted(sharpness?.mean))",
                          fields: ["darknessMean", "lightnessMean", "sharpnessMean"]),
                ReportRow("too dark / too light / blurred", "\(percent(fields["tooDarkRatio"])) / \(percent(fields["tooLightRatio"])) / \(percent(fields["blurredRatio"]))",
                          fields: ["tooDarkRatio", "tooLightRatio", "blurredRatio"], ratio: true)]
    }
}
