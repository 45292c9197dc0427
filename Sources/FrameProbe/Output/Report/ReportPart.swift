/// What one stage reports about an input, declared beside the stage — the way a Prometheus or OpenTelemetry
/// instrument declares its name, unit, help and aggregation once and every exporter renders it. The report machinery
/// knows no stage: it reads events into each registered part, and builds the statistics, intervals, gates, baseline
/// deltas and every format's columns and plots from what the parts declare.
///
/// A part is the input's report section as it is written in the report's JSON: its stored properties are encoded
/// into the input's object beside the report's own keys (and read back from it for `--baseline`, `--merge` and
/// `--resume`), so a part's property names are the report's field names. Its `Total` is its section of the totals.
///
/// A library user's stage reports a value by giving its descriptor a part (`StageDescriptor(report:)`).
public protocol ReportPart: Codable, Sendable, Equatable {
    associatedtype Total: Codable, Sendable, Equatable = NoTotal

    /// The per-frame numbers it reports: the plots' series (with range, unit and reference lines).
    static var values: [ReportedValue] { get }
    /// The conditions whose intervals it reports ("too dark").
    static var conditions: [ReportedCondition] { get }
    /// The numbers a gate can test on an input (its conditions' interval fields come with them).
    static var gateFields: [GateField] { get }
    /// The events it reads: the report decodes these from JSON Lines into their typed payloads.
    static var reads: [any ReadableEvent.Type] { get }
    /// Those of them that make their frame a reported one: its values plotted and its conditions observed.
    static var frameEvents: [any ReadableEvent.Type] { get }
    /// Headline numbers (ratios): the Markdown table's change against `--baseline` and JUnit's summary show them.
    static var headlines: [(label: String, field: String)] { get }
    /// The Markdown table's columns it adds (`cells` and `totalCells` fill them).
    static var columns: [ReportColumn] { get }

    /// The part of an input before any of its events.
    init()
    /// The same, for a run with these settings (a part whose condition has a threshold option reads it here).
    init(options: AnalysisOptions)
    /// One of the input's events (live, or read back from JSON Lines as the same typed payload). For a frame event,
    /// `frame` is the frame being read: the part puts its per-frame values there.
    mutating func read(_ event: Event, frame: inout FrameValues)
    /// Every event of `frame` has been read: the part counts it and says which of its conditions hold.
    mutating func endFrame(_ frame: inout FrameValues)
    /// Every event of the input has been read.
    mutating func finish(_ input: InputCounts)
    /// Its gate fields' values on this input (a field without a value is absent: a gate on it fails, saying why).
    func fields(_ input: InputCounts) -> [String: Double]
    /// The first of its stored numbers read back that cannot be right (a negative count), or nil.
    var fieldOutOfRange: String? { get }

    /// Its section of the totals, from every input's.
    static func total(_ parts: [Self]) -> Total
    /// The totals' gate fields from it (`input` holds the totals' counts).
    static func fields(of total: Total, _ input: InputCounts) -> [String: Double]

    /// Its Markdown cells, one per column.
    func cells(_ fields: [String: Double]) -> [String]
    static func totalCells(_ total: Total, _ fields: [String: Double], inputs: Int) -> [String]
    /// Its rows in an input's card of the HTML report (`fields`: every part's fields of the input).
    func htmlRows(_ fields: [String: Double]) -> [ReportRow]
    /// Lines across its values' plots for this input, by value name, besides the declared ones (a threshold the
    /// run was given).
    var plotReferences: [String: [ReferenceLine]] { get }
    /// What explains a failed gate on `field` ("lowest: headSize 5, interEyeDistance 9"), or nil.
    func gateNote(_ field: String) -> String?
    /// The same for a gate on the totals.
    static func gateNote(_ field: String, of total: Total) -> String?
    /// A picture of the input for the head of its card (the best face crop), as an HTML element; nil: none.
    var htmlImage: String? { get }
    /// Whether its stage told anything about this input: the Markdown table leaves out columns no input has data
    /// for (an acquisition that was never checked).
    var hasData: Bool { get }
}

extension ReportPart {
    public init(options: AnalysisOptions) { self.init() }
    public static var values: [ReportedValue] { [] }
    public static var conditions: [ReportedCondition] { [] }
    public static var gateFields: [GateField] { [] }
    public static var frameEvents: [any ReadableEvent.Type] { [] }
    public static var headlines: [(label: String, field: String)] { [] }
    public static var columns: [ReportColumn] { [] }
    public mutating func endFrame(_ frame: inout FrameValues) {}
    public mutating func finish(_ input: InputCounts) {}
    public func fields(_ input: InputCounts) -> [String: Double] { [:] }
    public var fieldOutOfRange: String? { nil }
    public func cells(_ fields: [String: Double]) -> [String] { [] }
    public static func totalCells(_ total: Total, _ fields: [String: Double], inputs: Int) -> [String] { [] }
    public func htmlRows(_ fields: [String: Double]) -> [ReportRow] { [] }
    public var htmlImage: String? { nil }
    public var plotReferences: [String: [ReferenceLine]] { [:] }
    public func gateNote(_ field: String) -> String? { nil }
    public static func gateNote(_ field: String, of total: Total) -> String? { nil }
    public var hasData: Bool { true }
    public static func fields(of total: Total, _ input: InputCounts) -> [String: Double] { [:] }
}

extension ReportPart where Total == NoTotal {
    public static func total(_ parts: [Self]) -> NoTotal { NoTotal() }
}

/// The totals' section of a part that adds nothing to the totals.
public struct NoTotal: Codable, Sendable, Equatable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
    public func encode(to encoder: any Encoder) throws {}
}

/// The counts every input (and the totals) has, which parts' ratios are over.
public struct InputCounts: Sendable {
    public var framesDecoded: Int
    public var framesAnalysed: Int
}

/// One frame while its events are read: the per-frame values parts put there (plotted when the frame has any), and
/// the conditions parts say hold or not (a condition a part says nothing of on a frame is not observed there).
public struct FrameValues: Sendable {
    public let frame: Int
    public let pts: Double
    public var values: [String: Double] = [:]
    public var conditions: [String: Bool] = [:]

    public init(frame: Int, pts: Double) {
        self.frame = frame
        self.pts = pts
    }
}

/// A per-frame number a stage reports, as plots show it.
public struct ReportedValue: Sendable {
    /// Its key in the report's per-frame series (`series.darkness`).
    public let name: String
    /// What legends and tooltips call it ("darkness", "pitch (X)").
    public let label: String
    /// Its unit ("°"; "" for a score without one).
    public let unit: String
    /// The plot's range for it.
    public let range: ClosedRange<Double>
    /// One line saying what it is.
    public let help: String
    /// The plot it is drawn in, by title: a part's values with the same plot share one.
    public let plot: String
    /// Its line's colour in plots.
    public let color: String
    /// Lines drawn across its plot: a threshold, a band's edges.
    public let references: [ReferenceLine]
    /// Its series starts once it has a value (earlier points null): a value only some runs measure. Otherwise the
    /// series is there from the first point, null where the frame has none.
    public let appearsWhenMeasured: Bool
    /// What a plotted frame without this value shows (the face plot's 0); nil: a gap.
    public let absentValue: Double?
    /// The decimals it is shown with (tooltips).
    public let decimals: Int
    /// The decimals its series keeps in the JSON report.
    public let precision: Int
    /// A gate field that is this value's mean under another name (`faceFrameRatio`, the mean of face presence): its
    /// gates' bounds are drawn on the plot like those on `NAMEMean`.
    public let meanField: String?

    public init(_ name: String, label: String? = nil, unit: String = "", range: ClosedRange<Double>, help: String, plot: String,
                color: String, references: [ReferenceLine] = [], appearsWhenMeasured: Bool = false, absentValue: Double? = nil,
                decimals: Int = 2, precision: Int = 4, meanField: String? = nil) {
        self.name = name
        self.label = label ?? name
        self.unit = unit
        self.range = range
        self.help = help
        self.plot = plot
        self.color = color
        self.references = references
        self.appearsWhenMeasured = appearsWhenMeasured
        self.absentValue = absentValue
        self.decimals = decimals
        self.precision = precision
        self.meanField = meanField
    }
}

/// A row of an input's card in the HTML report: a label, its HTML, and the gate fields it shows, whose change
/// against `--baseline` its Δ cell gives (in percentage points for ratios).
public struct ReportRow: Sendable {
    public let label: String
    public let html: String
    public let fields: [String]
    public let ratio: Bool

    public init(_ label: String, _ html: String, fields: [String] = [], ratio: Bool = false) {
        self.label = label
        self.html = html
        self.fields = fields
        self.ratio = ratio
    }
}

/// A line across a plot at `value`, named `label` ("blur threshold").
public struct ReferenceLine: Sendable {
    public let value: Double
    public let label: String

    public init(_ value: Double, _ label: String) {
        self.value = value
        self.label = label
    }
}

/// A condition that holds or not on each frame: the report gives the intervals it held (SPEC §7.1, like ffmpeg's
/// `blackdetect`) and three gate fields: `darkSeconds` (total time), `longestDarkInterval`, `darkIntervals` (how many).
public struct ReportedCondition: Sendable {
    /// Its key in the report's `intervals` and the stem of its gate fields ("dark").
    public let name: String
    /// How reports name it: "too dark 3.20–5.04 s".
    public let label: String
    /// Its bands' shade in plots.
    public let color: String
    /// The plot whose time axis its bands shade, by title.
    public let plot: String
    /// Why its fields can have no value on an input.
    public let missingReason: String

    public init(_ name: String, label: String, color: String, plot: String, missingReason: String) {
        self.name = name
        self.label = label
        self.color = color
        self.plot = plot
        self.missingReason = missingReason
    }

    public var secondsField: String { name + "Seconds" }
    public var longestField: String { "longest" + name.prefix(1).uppercased() + name.dropFirst() + "Interval" }
    public var countField: String { name + "Intervals" }
    public var fields: [String] { [secondsField, longestField, countField] }
}

/// A column of the Markdown table.
public struct ReportColumn: Sendable {
    public let header: String
    /// Right-aligned (numbers) or left (text).
    public let numeric: Bool

    public init(_ header: String, numeric: Bool = true) {
        self.header = header
        self.numeric = numeric
    }
}

/// A number gates can test (`--gate NAME>=…`), and why it can be missing.
public struct GateField: Sendable {
    public let name: String
    public let missingReason: String
    /// The totals have it too (`total.NAME`).
    public let onTotals: Bool

    public init(_ name: String, missing missingReason: String, onTotals: Bool = true) {
        self.name = name
        self.missingReason = missingReason
        self.onTotals = onTotals
    }

    /// `NAMEMean`, `NAMEMin`, `NAMEMax`: the fields of a score's statistics.
    public static func statistics(_ name: String, missing: String) -> [GateField] {
        ScoreStats.fieldSuffixes.map { GateField(name + $0, missing: missing) }
    }
}

/// What a part keeps only while it reads an input's events (a running sum, whether a face was seen): not written
/// in the report, not compared. Leave it out of the part's `CodingKeys`.
public struct Transient<Value: Sendable>: Sendable, Equatable {
    public var value: Value

    public init(_ value: Value) { self.value = value }

    public static func == (a: Transient, b: Transient) -> Bool { true }
}
