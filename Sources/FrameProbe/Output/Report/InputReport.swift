/// What a report says about one input: its own facts (frames, failure, plots, intervals, gates) and each stage's
/// part (`report[QualityReport.self]`). Every number a gate can test is in `fields`.
public struct InputReport: Sendable, Equatable {
    /// Position in the full, unsharded input list (keeps merged shard reports in the single-run order).
    public var index: Int
    public var source: String
    /// The input's name as raw bytes (hex) when it is not UTF-8: its `source` shows the invalid bytes as U+FFFD, so
    /// two such names can print alike. Nil for every other name.
    public var sourceBytes: String?
    /// What identifies the input when reports are compared (`--baseline`) or combined (`--merge`).
    public var matchKey: String { sourceBytes.map { "bytes:" + $0 } ?? source }
    /// `KEY: message` when the input failed.
    public var error: String?
    /// Why the input was not analysed to its end (interrupted, events cut short): it fails every gate, saying so.
    public var incomplete: String?
    public var framesDecoded = 0
    public var framesAnalysed = 0
    /// Wall time the analysis took (`inputClosed.elapsedSeconds`), for JUnit's `time`.
    public var elapsedSeconds: Double?
    public var series = Series()
    /// Per condition with data, its `[start, end]` media-time intervals; nil in reports written before intervals
    /// existed.
    public var intervals: [String: [[Double]]]?
    /// New − old for every field both this report and `--baseline` have (nil: no baseline, or an input it lacks).
    public var delta: [String: Double]?
    public var gates: [GateResult] = []
    /// The stages' parts, in registry order.
    public internal(set) var parts: [any ReportPart]

    /// An input's report before any of its events (`options`: the run's settings, which parts may read).
    public init(index: Int, source: String, parts: ReportPartTypes = .builtIn, options: AnalysisOptions = AnalysisOptions()) {
        self.index = index
        self.source = source
        self.parts = parts.fresh(options)
    }

    /// A stage's part of this input's report.
    public subscript<Part: ReportPart>(_ type: Part.Type) -> Part? {
        get { parts.lazy.compactMap { $0 as? Part }.first }
        set {
            guard let newValue, let position = parts.firstIndex(where: { $0 is Part }) else { return }
            parts[position] = newValue
        }
    }

    /// The largest count a report holds for one input (a million hours at 300 fps): a million inputs of it still
    /// sum within 64 bits. Counts read back beyond it, or below 0, are damaged data.
    public static let countLimit = 1_000_000_000_000

    var counts: InputCounts { InputCounts(framesDecoded: framesDecoded, framesAnalysed: framesAnalysed) }

    /// The first field of a report read back whose value cannot be right (a count out of 0…countLimit, a score
    /// that is not a finite number), or nil.
    var fieldOutOfRange: String? {
        let counts: [(String, Int)] = [("index", index), ("framesDecoded", framesDecoded), ("framesAnalysed", framesAnalysed)]
        if let (name, _) = counts.first(where: { !(0...Self.countLimit).contains($0.1) }) { return name }
        if let name = parts.lazy.compactMap { $0.fieldOutOfRange }.first { return name }
        if let (name, _) = fields.first(where: { !$0.value.isFinite }) { return name }
        return nil
    }

    /// Marks the input incomplete: a failed input (`INCOMPLETE: why`) whose gates all fail with that reason.
    public mutating func markIncomplete(_ reason: String) {
        incomplete = reason
        if error == nil { error = "INCOMPLETE: \(reason)" }
    }

    /// The report's own gate fields (the parts add theirs).
    static let coreFields = ["failed", "framesDecoded", "framesAnalysed"]

    /// The numbers gates test, by name. A field without a value is absent: a ratio over no frames (the quality
    /// ratios when no frame was scored), an acquisition that was not checked.
    public var fields: [String: Double] {
        var fields: [String: Double] = [
            "failed": error == nil ? 0 : 1, "framesDecoded": Double(framesDecoded), "framesAnalysed": Double(framesAnalysed),
        ]
        for part in parts { fields.merge(part.fields(counts)) { $1 } }
        return fields.merging(intervalFields) { $1 }.merging(Self.prefixed(delta)) { $1 }
    }

    /// `delta` as `delta.FIELD` fields.
    static func prefixed(_ delta: [String: Double]?) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: (delta ?? [:]).map { (Baseline.deltaPrefix + $0.key, $0.value) })
    }

    public static func == (a: InputReport, b: InputReport) -> Bool {
        a.index == b.index && a.source == b.source && a.sourceBytes == b.sourceBytes && a.error == b.error && a.incomplete == b.incomplete
            && a.framesDecoded == b.framesDecoded && a.framesAnalysed == b.framesAnalysed && a.elapsedSeconds == b.elapsedSeconds
            && a.series == b.series && a.intervals == b.intervals && a.delta == b.delta && a.gates == b.gates
            && a.parts.count == b.parts.count && zip(a.parts, b.parts).allSatisfy { $0.isEqual(to: $1) }
    }
}

/// The report's keys of an input's JSON object; each part's own keys sit beside them.
extension InputReport: Codable {
    enum CodingKeys: String, CodingKey {
        case index, source, sourceBytes, error, incomplete, framesDecoded, framesAnalysed, elapsedSeconds, series, intervals, delta, gates
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        index = try keys.decode(Int.self, forKey: .index)
        source = try keys.decode(String.self, forKey: .source)
        sourceBytes = try keys.decodeIfPresent(String.self, forKey: .sourceBytes)
        error = try keys.decodeIfPresent(String.self, forKey: .error)
        incomplete = try keys.decodeIfPresent(String.self, forKey: .incomplete)
        framesDecoded = try keys.decode(Int.self, forKey: .framesDecoded)
        framesAnalysed = try keys.decode(Int.self, forKey: .framesAnalysed)
        elapsedSeconds = try keys.decodeIfPresent(Double.self, forKey: .elapsedSeconds)
        series = try keys.decode(Series.self, forKey: .series)
        intervals = try keys.decodeIfPresent([String: [[Double]]].self, forKey: .intervals)
        delta = try keys.decodeIfPresent([String: Double].self, forKey: .delta)
        gates = try keys.decode([GateResult].self, forKey: .gates)
        parts = try ReportPartTypes.of(decoder).types.map { try $0.decodePart(from: decoder) }
    }

    public func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(index, forKey: .index)
        try keys.encode(source, forKey: .source)
        try keys.encodeIfPresent(sourceBytes, forKey: .sourceBytes)
        try keys.encodeIfPresent(error, forKey: .error)
        try keys.encodeIfPresent(incomplete, forKey: .incomplete)
        try keys.encode(framesDecoded, forKey: .framesDecoded)
        try keys.encode(framesAnalysed, forKey: .framesAnalysed)
        try keys.encodeIfPresent(elapsedSeconds, forKey: .elapsedSeconds)
        try keys.encode(series, forKey: .series)
        try keys.encodeIfPresent(intervals, forKey: .intervals)
        try keys.encodeIfPresent(delta, forKey: .delta)
        try keys.encode(gates, forKey: .gates)
        for part in parts { try part.encode(to: encoder) }
    }
}

/// The report's totals over all inputs: its own counts and each part's section.
public struct ReportTotals: Sendable, Equatable {
    public var inputs = 0
    public var failedInputs = 0
    public var framesDecoded = 0
    public var framesAnalysed = 0
    /// The interval fields over all inputs that have them: seconds and counts summed, the longest the longest.
    public var intervalFields: [String: Double]?
    /// New − old for the totals' fields, against `--baseline`.
    public var delta: [String: Double]?
    var sections: [TotalSection]

    init(_ inputs: [InputReport], parts: ReportPartTypes = .builtIn) {
        self.inputs = inputs.count
        failedInputs = inputs.filter { $0.error != nil }.count
        framesDecoded = inputs.reduce(0) { $0 + $1.framesDecoded }
        framesAnalysed = inputs.reduce(0) { $0 + $1.framesAnalysed }
        var intervals: [String: Double] = [:]
        for condition in parts.conditions {
            let found = inputs.map(\.intervalFields).filter { $0[condition.secondsField] != nil }
            guard !found.isEmpty else { continue }
            intervals[condition.secondsField] = found.reduce(0) { $0 + ($1[condition.secondsField] ?? 0) }
            intervals[condition.countField] = found.reduce(0) { $0 + ($1[condition.countField] ?? 0) }
            intervals[condition.longestField] = found.compactMap { $0[condition.longestField] }.max() ?? 0
        }
        intervalFields = intervals.mapValues { ReportPrecision.rounded($0) }
        sections = parts.types.map { $0.totalSection(of: inputs) }
    }

    /// A part's section of the totals.
    public subscript<Part: ReportPart>(_ type: Part.Type) -> Part.Total? {
        sections.lazy.compactMap { $0.part == type ? $0.value as? Part.Total : nil }.first
    }

    var counts: InputCounts { InputCounts(framesDecoded: framesDecoded, framesAnalysed: framesAnalysed) }

    static let coreFields = ["failed", "framesDecoded", "framesAnalysed", "inputs", "failedInputs"]

    /// The totals' fields: counts summed, ratios over all inputs' frames (absent over none), like `InputReport.fields`.
    public var fields: [String: Double] {
        var fields: [String: Double] = [
            "inputs": Double(inputs), "failedInputs": Double(failedInputs), "failed": Double(failedInputs),
            "framesDecoded": Double(framesDecoded), "framesAnalysed": Double(framesAnalysed),
        ]
        for section in sections { fields.merge(section.part.totalFields(section, counts)) { $1 } }
        return fields.merging(intervalFields ?? [:]) { $1 }.merging(InputReport.prefixed(delta)) { $1 }
    }

    public static func == (a: ReportTotals, b: ReportTotals) -> Bool {
        a.inputs == b.inputs && a.failedInputs == b.failedInputs && a.framesDecoded == b.framesDecoded
            && a.framesAnalysed == b.framesAnalysed && a.intervalFields == b.intervalFields && a.delta == b.delta
            && a.sections.count == b.sections.count && zip(a.sections, b.sections).allSatisfy { $0.part == $1.part && $0.part.totalsEqual($0, $1) }
    }
}

extension ReportTotals: Codable {
    enum CodingKeys: String, CodingKey { case inputs, failedInputs, framesDecoded, framesAnalysed, intervalFields, delta }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        inputs = try keys.decode(Int.self, forKey: .inputs)
        failedInputs = try keys.decode(Int.self, forKey: .failedInputs)
        framesDecoded = try keys.decode(Int.self, forKey: .framesDecoded)
        framesAnalysed = try keys.decode(Int.self, forKey: .framesAnalysed)
        intervalFields = try keys.decodeIfPresent([String: Double].self, forKey: .intervalFields)
        delta = try keys.decodeIfPresent([String: Double].self, forKey: .delta)
        sections = try ReportPartTypes.of(decoder).types.map { try $0.decodeTotal(from: decoder) }
    }

    public func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(inputs, forKey: .inputs)
        try keys.encode(failedInputs, forKey: .failedInputs)
        try keys.encode(framesDecoded, forKey: .framesDecoded)
        try keys.encode(framesAnalysed, forKey: .framesAnalysed)
        try keys.encodeIfPresent(intervalFields, forKey: .intervalFields)
        try keys.encodeIfPresent(delta, forKey: .delta)
        for section in sections { try section.part.encodeTotal(section, to: encoder) }
    }
}
