/// What face image quality reports about an input: `unifiedQuality` per frame (plotted), every component's and
/// `unifiedQuality`'s statistics, and when the quality was below `--fiq-threshold`.
public struct FaceImageQualityReport: ReportPart {
    /// The totals' section is the same: the inputs' statistics combined.
    public typealias Total = FaceImageQualityReport

    /// Score statistics per component and `unifiedQuality` (nil: nothing was measured).
    public var faceImageQuality: [String: ScoreStats]?
    private var reading = Transient(Reading())

    struct Reading: Sendable {
        var threshold = 50.0
        var sums: [String: ScoreAccumulator] = [:]
        /// The frame being read's scores.
        var frame: [String: Double]?
    }

    enum CodingKeys: String, CodingKey { case faceImageQuality }

    public init() {}
    public init(options: AnalysisOptions) { reading.value.threshold = options.fiqThreshold }

    static let unified = "unifiedQuality"
    static let notMeasured = "no face image quality was measured (analyze without --face-image-quality?)"

    public static let values = [
        ReportedValue("faceImageQuality", label: unified, range: 0...100, help: "the lowest ISO/IEC 29794-5 component score of the face",
                      plot: "face image quality (unified, 0–100)", color: "#0b7285", appearsWhenMeasured: true),
    ]
    public static let conditions = [
        ReportedCondition("lowFaceImageQuality", label: "face image quality low", color: "#0b7285", plot: values[0].plot,
                          missingReason: notMeasured),
    ]
    public static let gateFields = [GateField("faceImageQualityMean", missing: notMeasured), GateField("faceImageQualityMin", missing: notMeasured)]
        + FaceImageQuality.componentNames.flatMap { name in
            ["mean", "min"].map { GateField("fiq.\(name).\($0)", missing: "no face image quality was measured for this component (analyze without --face-image-quality?)") }
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
        if !reading.value.sums.isEmpty { faceImageQuality = reading.value.sums.compactMapValues(\.stats) }
    }

    public func fields(_ input: InputCounts) -> [String: Double] { Self.fields(of: self, input) }

    public var fieldOutOfRange: String? {
        (faceImageQuality ?? [:]).sorted { $0.key < $1.key }.first { !$0.value.isPlausible }.map { "faceImageQuality.\($0.key)" }
    }

    public static func total(_ parts: [FaceImageQualityReport]) -> FaceImageQualityReport {
        let measured = parts.compactMap(\.faceImageQuality)
        let names = Set(measured.flatMap(\.keys))
        var total = FaceImageQualityReport()
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
