/// The events of guided acquisition's recording (Unissey's), emitted by `RecordingStage`.

/// `cameraReady`: the input is open and a clip quality fits it.
public struct CameraReady: EventPayload, Equatable {
    public static let eventName = "cameraReady"
    public var width: Int, height: Int, fps: Double
    public var preset: String, recordingDurationMs: Int
    /// The quality the clip will be recorded at; nil when none fits the input (a `notice` says so).
    public var quality: String?
    /// `unissey_video_capture_title`, pluralised for the duration.
    public var title: String

    public static let schema = EventSchema(.input, [
        .init("width", .integer(minimum: 1)), .init("height", .integer(minimum: 1)), .init("fps", .number(minimum: 0)),
        .init("preset", .oneOf(AcquisitionPreset.allCases.map(\.rawValue))), .init("recordingDurationMs", .integer(minimum: 1)),
        .init("quality", JSONSchema.oneOf(VideoQuality.allCases.map(\.rawValue)).orNull), .init("title", .string()),
    ])

    public var fields: [(String, JSONValue)] {
        [("width", .int(width)), ("height", .int(height)), ("fps", .number(fps, decimals: 3)), ("preset", .string(preset)),
         ("recordingDurationMs", .int(recordingDurationMs)), ("quality", quality.map { .string($0) } ?? .null), ("title", .string(title))]
    }
}

/// `videoCaptureStarted`: guidance begins.
public struct VideoCaptureStarted: EventPayload {
    public static let eventName = "videoCaptureStarted"
    public static let schema = EventSchema(.input, [])
    public var fields: [(String, JSONValue)] { [] }
}

/// `videoRecordStarted`: the face held still; the clip starts at this frame.
public struct VideoRecordStarted: EventPayload {
    public static let eventName = "videoRecordStarted"
    public var quality: String, width: Int, height: Int

    public static let schema = EventSchema(.frame, [
        .init("quality", .oneOf(VideoQuality.allCases.map(\.rawValue))), .init("width", .integer(minimum: 2)),
        .init("height", .integer(minimum: 2)),
    ])
    public var fields: [(String, JSONValue)] { [("quality", .string(quality)), ("width", .int(width)), ("height", .int(height))] }
}

/// `videoRecordProgress`: a tenth more of the clip is recorded.
public struct VideoRecordProgress: EventPayload {
    public static let eventName = "videoRecordProgress"
    public var progress: Double

    public static let schema = EventSchema(.frame, [.init("progress", .number(maximum: 1, exclusiveMinimum: 0))])
    public var fields: [(String, JSONValue)] { [("progress", .number(progress, decimals: 3))] }
}

/// `videoRecordEnded`: the session response (clip and metadata), or why there is none.
public enum VideoRecordEnded: EventPayload {
    case success(videoFilePath: String, metadata: String)
    case failure(FrameProbeError)

    public static let eventName = "videoRecordEnded"
    public static let schema = EventSchema(.either, [
        .init("videoFilePath", .string(minLength: 1), required: false),
        .init("metadata", JSONSchema([("type", .string("string")), ("contentMediaType", .string("application/json"))]), required: false),
        .init("error", .object([.init("key", .oneOf(["FACE_NEVER_STABLE", "INPUT_ENDED", "NO_AVAILABLE_QUALITY"])), .init("message", .string())]), required: false),
    ], extra: [("oneOf", .array([
        .object([("required", .array([.string("videoFilePath"), .string("metadata")]))]),
        .object([("required", .array([.string("error")]))]),
    ]))])

    public var fields: [(String, JSONValue)] {
        switch self {
        case .success(let path, let metadata):
            [("videoFilePath", .string(path)), ("metadata", .string(metadata))]
        case .failure(let error):
            [("error", .object([("key", .string(error.key)), ("message", .string(error.message))]))]
        }
    }

    public var isFailure: Bool {
        if case .failure = self { true } else { false }
    }
}
