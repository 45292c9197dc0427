/// A code a decoder found: its bytes, where it is (polygon corners in source pixels) and its symbology.
public struct BarcodeObservation: Sendable, Equatable {
    public var payload: [UInt8]
    public var polygon: [Point2D]
    /// frameprobe's name of the symbology (`qrcode`, `ean13` …).
    public var symbology: String

    /// The text its ECI designator says, when the decoder did not apply it (`ECIReader`).
    public var designated: DesignatedText?

    public init(payload: [UInt8], polygon: [Point2D], symbology: String) {
        self.payload = payload
        self.polygon = polygon
        self.symbology = symbology
    }

    /// The payload as text, with its charset: as its ECI designator says, else by `PayloadText`'s rule; nil for a
    /// binary payload.
    public var decoded: (text: String, charset: String)? { designated.map { ($0.text, $0.charset) } ?? PayloadText.decode(payload) }

    public var text: String? { decoded?.text }

    /// What identifies the code across frames and decoders: its text, or its bytes when it is binary.
    public var content: [UInt8] { text.map { Array($0.utf8) } ?? payload }

    public var bounds: Box { Box(enclosing: polygon) }
}

/// A code's text as its ECI designator says, and that charset's name.
public struct DesignatedText: Sendable, Equatable {
    public let text: String
    public let charset: String
}
