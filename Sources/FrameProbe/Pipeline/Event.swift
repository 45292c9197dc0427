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
        /// For a QR code, `code` names the code it is about (its content).
        case message(String, code: QRCodeObservation? = nil)
        case qrCodeScanned(QRCodeObservation)
        // Guided acquisition (Unissey's events).
        case cameraReady(CameraReady)
        case videoCaptureStarted
        case faceInfo(FaceInstruction)
        case videoRecordStarted(quality: String, width: Int, height: Int)
        case videoRecordProgress(Double)
        case videoRecordEnded(RecordingResult)
        // Report findings, emitted when an input ends.
        case acquisitionCheck(AcquisitionFinding)
        case faceThumbnail(frame: Int, pts: Double, jpegBase64: String)
        /// Something worth knowing that is not a failure (e.g. a setting that does not apply here).
        case notice(key: String, message: String)
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
        case .cameraReady: "cameraReady"
        case .videoCaptureStarted: "videoCaptureStarted"
        case .faceInfo: "faceInfo"
        case .videoRecordStarted: "videoRecordStarted"
        case .videoRecordProgress: "videoRecordProgress"
        case .videoRecordEnded: "videoRecordEnded"
        case .notice: "notice"
        case .acquisitionCheck: "acquisitionCheck"
        case .faceThumbnail: "faceThumbnail"
        case .imageCaptured: "imageCaptured"
        case .endCapture: "endCapture"
        case .skipped: "skipped"
        case .error: "error"
        case .inputClosed: "inputClosed"
        }
    }

    /// Whether this event means its input failed (exit code 1).
    public var isFailure: Bool {
        switch body {
        case .error: true
        case .videoRecordEnded(.failure): true
        default: false
        }
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
        case .message(let key, let code): [("message", .string(key))] + (code.map { Array($0.jsonFields.prefix(2)) } ?? [])
        case .qrCodeScanned(let code): code.jsonFields
        case .cameraReady(let ready): ready.jsonFields
        case .videoCaptureStarted: []
        case .faceInfo(let instruction): instruction.jsonFields
        case .videoRecordStarted(let quality, let width, let height):
            [("quality", .string(quality)), ("width", .int(width)), ("height", .int(height))]
        case .videoRecordProgress(let progress): [("progress", .number(progress, decimals: 3))]
        case .videoRecordEnded(let result): result.jsonFields
        case .notice(let key, let message): [("key", .string(key)), ("message", .string(message))]
        case .acquisitionCheck(let finding): finding.jsonFields
        case .faceThumbnail(let frame, let pts, let jpeg):
            [("thumbnailFrame", .int(frame)), ("thumbnailPts", .number(pts, decimals: 3)), ("jpegBase64", .string(jpeg))]
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
