/// Per-frame values for the HTML plots (at most `Series.limit` points, evenly picked): the frames' times and one
/// column per reported value, by the value's name (`series.darkness`).
public struct Series: Sendable, Equatable {
    public static let limit = 600
    public var pts: [Double] = []
    public var columns: [String: [Double?]] = [:]

    public init() {}

    /// Every other point (when a growing series passes its limit).
    mutating func halve() {
        func pick<T>(_ values: [T]) -> [T] { stride(from: 0, to: values.count, by: 2).map { values[$0] } }
        pts = pick(pts)
        columns = columns.mapValues(pick)
    }
}

/// Written as one object: `pts` and each column under its value's name.
extension Series: Codable {
    struct Key: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: Key.self)
        for key in keys.allKeys {
            if key.stringValue == "pts" { pts = try keys.decode([Double].self, forKey: key) }
            else { columns[key.stringValue] = try keys.decode([Double?].self, forKey: key) }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: Key.self)
        try keys.encode(pts, forKey: Key("pts"))
        for (name, values) in columns { try keys.encode(values, forKey: Key(name)) }
    }
}

/// Builds a `Series` as frames come, with flat memory: every point up to `Series.limit`, then every 2nd, 4th, …
/// frame, evenly spread over the whole input.
struct SeriesBuilder {
    private(set) var series = Series()
    private let values: [ReportedValue]
    private var seen = 0
    private var step = 1

    /// A column per value; those that appear when measured start at their first value.
    init(_ values: [ReportedValue]) {
        self.values = values
        for value in values where !value.appearsWhenMeasured { series.columns[value.name] = [] }
    }

    /// A frame with values.
    mutating func add(_ frame: FrameValues) {
        defer { seen += 1 }
        guard seen % step == 0 else { return }
        series.pts.append(ReportPrecision.rounded(frame.pts))
        for value in values {
            let point = (frame.values[value.name] ?? value.absentValue).map { ReportPrecision.rounded($0, decimals: value.precision) }
            if point != nil && series.columns[value.name] == nil {
                series.columns[value.name] = Array(repeating: nil, count: series.pts.count - 1)
            }
            series.columns[value.name]?.append(point)
        }
        if series.pts.count > Series.limit {
            series.halve()
            step *= 2
        }
    }
}
