/// A QR code an input showed, and when it was first seen.
public struct CodeFinding: Codable, Sendable, Equatable {
    public var content: String
    public var firstSeen: Double
}

/// What QR decoding reports about an input: each code's content, and when it was first seen.
public struct QRCodeReport: ReportPart {
    public var qrCodes: [CodeFinding] = []

    public init() {}

    public static let gateFields = [GateField("qrCodeCount", missing: "the report has no value for qrCodeCount")]
    public static let reads: [any ReadableEvent.Type] = [QRCodeScanned.self]
    public static let columns = [ReportColumn("QR codes")]

    public mutating func read(_ event: Event, frame: inout FrameValues) {
        guard let scanned = event.payload as? QRCodeScanned else { return }
        let content = scanned.content
        guard !qrCodes.contains(where: { $0.content == content }) else { return }
        qrCodes.append(CodeFinding(content: content, firstSeen: event.pts ?? 0))
    }

    public func fields(_ input: InputCounts) -> [String: Double] { ["qrCodeCount": Double(qrCodes.count)] }

    public struct Total: Codable, Sendable, Equatable {
        public var qrCodeCount = 0
    }

    public static func total(_ parts: [QRCodeReport]) -> Total { Total(qrCodeCount: parts.reduce(0) { $0 + $1.qrCodes.count }) }
    public static func fields(of total: Total, _ input: InputCounts) -> [String: Double] { ["qrCodeCount": Double(total.qrCodeCount)] }

    public func cells(_ fields: [String: Double]) -> [String] { ["\(qrCodes.count)"] }
    public static func totalCells(_ total: Total, _ fields: [String: Double], inputs: Int) -> [String] { ["\(total.qrCodeCount)"] }

    public func htmlRows(_ fields: [String: Double]) -> [ReportRow] {
        [ReportRow("QR codes", qrCodes.isEmpty ? "none" : qrCodes.map { "\(escapeMarkup($0.content)) (\(formatted($0.firstSeen, decimals: 2)) s)" }.joined(separator: ", "), fields: ["qrCodeCount"])]
    }
}
