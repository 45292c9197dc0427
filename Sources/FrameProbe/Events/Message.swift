/// `message`: one of the seed's message keys about the primary face (`INVALID_MINIMUM_SIZE`, `INVALID_MAXIMUM_SIZE`,
/// `INVALID_OUT_OF_ROI`), or about a QR code, which `content`/`encoding` then name. Shared by the face-region and
/// QR stages, so it has one schema.
public struct Message: EventPayload {
    public static let eventName = "message"
    public let key: String
    public let code: BarcodeObservation?

    public init(_ key: String, code: BarcodeObservation? = nil) {
        self.key = key
        self.code = code
    }

    public static let schema = EventSchema(.either, [
        .init("message", .oneOf(["INVALID_MINIMUM_SIZE", "INVALID_MAXIMUM_SIZE", "INVALID_OUT_OF_ROI"])),
        .init("content", .string(), required: false), .init("encoding", .oneOf(["utf8", "base64"]), required: false),
    ])

    public var fields: [(String, JSONValue)] { [("message", .string(key))] + (code.map { Array($0.jsonFields.prefix(2)) } ?? []) }
}
