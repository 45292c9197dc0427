/// What the acquisition check reports about an input: whether `acquire` would succeed on it, and from when it
/// would record.
public struct AcquisitionReport: ReportPart {
    public var acquisition: AcquisitionCheck?

    public init() {}

    static let notChecked = "the acquisition was not checked, or would not start"

    public static let gateFields = [GateField("acquisitionSucceeded", missing: notChecked),
                                    // The totals have no acquisition start (each input has its own).
                                    GateField("acquisitionStartPts", missing: notChecked, onTotals: false)]
    public static let reads: [any ReadableEvent.Type] = [AcquisitionCheck.self]
    public static let columns = [ReportColumn("acquire", numeric: false)]

    public mutating func read(_ event: Event, frame: inout FrameValues) {
        if let check = event.payload as? AcquisitionCheck { acquisition = check }
    }

    public var hasData: Bool { acquisition != nil }

    public func fields(_ input: InputCounts) -> [String: Double] {
        guard let acquisition else { return [:] }
        var fields = ["acquisitionSucceeded": acquisition.succeeded ? 1.0 : 0]
        if let start = acquisition.recordStartPts { fields["acquisitionStartPts"] = start }
        return fields
    }

    public struct Total: Codable, Sendable, Equatable {
        /// Inputs whose acquisition would succeed — per input 0 or 1 (`acquisitionSucceeded`), here their count.
        public var acquisitionsSucceeded = 0
        /// Inputs whose acquisition was checked (none: the totals' `acquisitionSucceeded` has no value).
        public var acquisitionsChecked: Int?
    }

    public static func total(_ parts: [AcquisitionReport]) -> Total {
        Total(acquisitionsSucceeded: parts.filter { $0.acquisition?.succeeded == true }.count,
              acquisitionsChecked: parts.filter { $0.acquisition != nil }.count)
    }

    public static func fields(of total: Total, _ input: InputCounts) -> [String: Double] {
        (total.acquisitionsChecked ?? 0) > 0 ? ["acquisitionSucceeded": Double(total.acquisitionsSucceeded)] : [:]
    }

    /// Said in words, not as a verdict: whether `acquire` would record is information unless a gate asks for it
    /// ("yes, from 1.20 s", "no: face never stable").
    public func cells(_ fields: [String: Double]) -> [String] {
        [acquisition.map { $0.succeeded ? "yes, from \(formatted($0.recordStartPts, decimals: 2)) s" : "no: \(escapeMarkdown(Self.words($0.failure)))" } ?? "–"]
    }

    /// A failure key in words: `FACE_NEVER_STABLE` → "face never stable".
    static func words(_ key: String?) -> String { (key ?? "unknown").lowercased().replacingOccurrences(of: "_", with: " ") }

    public static func totalCells(_ total: Total, _ fields: [String: Double], inputs: Int) -> [String] { ["\(total.acquisitionsSucceeded)/\(inputs)"] }

    public func htmlRows(_ fields: [String: Double]) -> [ReportRow] {
        [ReportRow("acquire", acquisition.map { $0.succeeded ? "would record from \(formatted($0.recordStartPts, decimals: 2)) s" : "would not record: \(escapeMarkup(Self.words($0.failure))) (<code>\(escapeMarkup($0.failure ?? ""))</code>)" } ?? "not checked", fields: ["acquisitionSucceeded"])]
    }
}
