/// One analysis event: where it comes from (input, frame, pts) and what happened (`body`).
/// Serialized as one JSON object: `event`, `source`, `frame`, `pts`, then the body's fields (SPEC §2).
public struct Event: Sendable {
    public var source: String
    public var frame: Int?
    public var pts: Double?
    public var body: Body

    public init(source: String, frame: Int? = nil, pts: Double? = nil, body: Body) {
        self.source = source
        self.frame = frame
        self.pts = pts
        self.body = body
    }

    /// What happened; one case per event name of SPEC §2.
    public enum Body: Sendable {
        case inputOpened(InputInfo)
        case frameQuality(QualityScores)
        case faceDetected(FaceReport)
        case faceUndetected
        /// One of the seed's message keys (`INVALID_MINIMUM_SIZE`, `INVALID_MAXIMUM_SIZE`, `INVALID_OUT_OF_ROI`).
        case message(String)
        case qrCodeScanned(QRCodeObservation)
        case imageCaptured(CapturedImage)
        case endCapture(type: String, count: Int)
        case skipped(reason: String)
        case error(FrameProbeError)
        case inputClosed(InputSummary)
    }

    /// The event name written in the `event` field.
    public var name: String {
        switch body {
        case .inputOpened: "inputOpened"
        case .frameQuality: "frameQuality"
        case .faceDetected: "faceDetected"
        case .faceUndetected: "faceUndetected"
        case .message: "message"
        case .qrCodeScanned: "qrCodeScanned"
        case .imageCaptured: "imageCaptured"
        case .endCapture: "endCapture"
        case .skipped: "skipped"
        case .error: "error"
        case .inputClosed: "inputClosed"
        }
    }

    public var isError: Bool {
        if case .error = body { return true }
        return false
    }

    /// The event as a JSON object with stable key order.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("event", .string(name)), ("source", .string(source))]
        if let frame { fields.append(("frame", .int(frame))) }
        if let pts { fields.append(("pts", .number(pts, decimals: 3))) }
        fields += bodyFields
        return .object(fields)
    }

    private var bodyFields: [(String, JSONValue)] {
        switch body {
        case .inputOpened(let info): info.jsonFields
        case .frameQuality(let scores): scores.jsonFields
        case .faceDetected(let report): report.jsonFields
        case .faceUndetected: []
        case .message(let key): [("message", .string(key))]
        case .qrCodeScanned(let code): code.jsonFields
        case .imageCaptured(let image): image.jsonFields
        case .endCapture(let type, let count): [("type", .string(type)), ("count", .int(count))]
        case .skipped(let reason): [("reason", .string(reason))]
        case .error(let error): [("key", .string(error.key)), ("message", .string(error.message))]
        case .inputClosed(let summary): summary.jsonFields
        }
    }
}

extension Event: Encodable {
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}
