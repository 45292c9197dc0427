/// The events the runner emits around every input's stage events (SPEC §2).

/// `inputOpened`: the input opened, and what it is.
public struct InputOpened: ReadableEvent {
    public static let eventName = "inputOpened"
    public let info: InputInfo
    /// A file input's size, time and first-MiB digest (what `--resume` compares); nil for streams and devices.
    public let fingerprint: InputFingerprint?

    public init(_ info: InputInfo, fingerprint: InputFingerprint? = nil) {
        self.info = info
        self.fingerprint = fingerprint
    }

    public static let schema = EventSchema(.input, [
        .init("width", .integer(minimum: 0, description: "0 when the stream does not declare its size")),
        .init("height", .integer(minimum: 0, description: "0 when the stream does not declare its size")),
        .init("fps", .number(minimum: 0)),
        .init("codec", .string()),
        .init("pixelFormat", .string()),
        .init("durationSeconds", .number(minimum: 0), required: false),
        .init("rotation", .oneOf([0, 90, 180, 270])),
        .init("fingerprint", InputFingerprint.schema, required: false),
    ])

    public var fields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("width", .int(info.width)), ("height", .int(info.height)), ("fps", .number(info.fps, decimals: 3)),
            ("codec", .string(info.codec)), ("pixelFormat", .string(info.pixelFormat)),
        ]
        if let duration = info.durationSeconds { fields.append(("durationSeconds", .number(duration, decimals: 3))) }
        fields.append(("rotation", .int(info.rotation)))
        if let fingerprint { fields.append(("fingerprint", fingerprint.json)) }
        return fields
    }

    /// What the report reads back: the stream's description (its fingerprint is `--resume`'s, not the report's).
    public init?(reading fields: EventFields) {
        info = InputInfo(width: fields.integer("width") ?? 0, height: fields.integer("height") ?? 0, fps: fields.number("fps") ?? 0,
                         codec: fields.string("codec") ?? "", pixelFormat: fields.string("pixelFormat") ?? "",
                         durationSeconds: fields.number("durationSeconds"), rotation: fields.integer("rotation") ?? 0)
        fingerprint = nil
    }
}

/// `inputClosed`: the input is finished; what was decoded and found.
public struct InputClosed: ReadableEvent {
    public static let eventName = "inputClosed"
    public let summary: InputSummary

    public init(_ summary: InputSummary) { self.summary = summary }

    /// The counts, each declared once (name, schema, how it is written and read back), with where they are kept.
    static var counts: [(field: EventField<Int>, value: WritableKeyPath<InputSummary, Int>)] { [
        (.integer("framesDecoded", .integer(minimum: 0)), \.framesDecoded), (.integer("framesAnalysed", .integer(minimum: 0)), \.framesAnalysed),
        (.integer("corruptPacketsSkipped", .integer(minimum: 0)), \.corruptPacketsSkipped),
    ] }
    static var findings: [(field: EventField<Int>, value: WritableKeyPath<InputSummary, Int>)] { [
        (.integer("faceFrames", .integer(minimum: 0)), \.faceFrames), (.integer("anyFaceFrames", .integer(minimum: 0)), \.anyFaceFrames),
        (.integer("qrCodes", .integer(minimum: 0)), \.qrCodes), (.integer("imagesCaptured", .integer(minimum: 0)), \.imagesCaptured),
    ] }
    static let elapsed = EventField<Double>.number("elapsedSeconds", .number(minimum: 0), decimals: 3)
    static let interrupted = EventField<Bool>.boolean("interrupted", required: false)

    public static let schema = EventSchema(.input, counts.map(\.field.property) + [elapsed.property] + findings.map(\.field.property)
                                           + [interrupted.property])

    public var fields: [(String, JSONValue)] {
        Self.counts.map { $0.field.json(summary[keyPath: $0.value]) } + [Self.elapsed.json(summary.elapsedSeconds)]
            + Self.findings.map { $0.field.json(summary[keyPath: $0.value]) } + (summary.interrupted ? [Self.interrupted.json(true)] : [])
    }

    public static var countFields: Set<String> { Set((counts + findings).map(\.field.name)) }

    public init?(reading fields: EventFields) {
        var summary = InputSummary()
        for (field, value) in Self.counts + Self.findings { summary[keyPath: value] = field.read(fields) ?? 0 }
        summary.elapsedSeconds = Self.elapsed.read(fields) ?? 0
        summary.interrupted = Self.interrupted.read(fields) ?? false
        self.summary = summary
    }
}

/// `skipped`: a file in a walked folder that is not media.
public struct InputSkipped: ReadableEvent {
    public static let eventName = "skipped"
    public let reason: String

    public init(reason: String) { self.reason = reason }

    public static let schema = EventSchema(.input, [.init("reason", .string(minLength: 1))])
    public var fields: [(String, JSONValue)] { [("reason", .string(reason))] }
    public init?(reading fields: EventFields) { reason = fields.string("reason") ?? "" }
}

/// `error`: the input (or the frame named) failed; the key is one of SPEC's error keys.
public struct Failure: ReadableEvent {
    public static let eventName = "error"
    public let error: FrameProbeError

    public init(_ error: FrameProbeError) { self.error = error }

    public static let schema = EventSchema(.either, [.init("key", .key), .init("message", .string(minLength: 1))])
    public var fields: [(String, JSONValue)] { [("key", .string(error.key)), ("message", .string(error.message))] }
    public var isFailure: Bool { true }
    public init?(reading fields: EventFields) { error = FrameProbeError(fields.string("key") ?? "ERROR", fields.string("message") ?? "") }
}

/// `notice`: something worth knowing that is not a failure (e.g. a setting that does not apply here).
public struct Notice: EventPayload {
    public static let eventName = "notice"
    public let key: String
    public let message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public static let schema = EventSchema(.input, [.init("key", .key), .init("message", .string())])
    public var fields: [(String, JSONValue)] { [("key", .string(key)), ("message", .string(message))] }
}
