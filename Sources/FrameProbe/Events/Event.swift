/// One analysis event: where it comes from (input, frame, pts) and what happened (`payload`).
/// Serialized as one JSON object: `event`, `source`, `frame`, `pts`, then the payload's fields (SPEC §2).
public struct Event: Sendable {
    public var source: String
    public var frame: Int?
    public var pts: Double?
    public var payload: any EventPayload

    public init(source: String, frame: Int? = nil, pts: Double? = nil, _ payload: any EventPayload) {
        self.source = source
        self.frame = frame
        self.pts = pts
        self.payload = payload
    }

    /// The event name written in the `event` field.
    public var name: String { type(of: payload).eventName }

    /// Whether this event means its input failed (exit code 1).
    public var isFailure: Bool { payload.isFailure }

    /// The payload as `type`, when it is one (`event.as(FaceDetected.self)`).
    public func `as`<Payload: EventPayload>(_ type: Payload.Type) -> Payload? { payload as? Payload }

    /// The event as a JSON object with stable key order.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("event", .string(name)), ("source", .string(source))]
        if let frame { fields.append(("frame", .int(frame))) }
        if let pts { fields.append(("pts", .number(pts, decimals: 3))) }
        return .object(fields + payload.fields)
    }
}

extension Event: Encodable {
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

/// How stages hand their events to the runner (which adds source, frame and pts).
public typealias Emit = (any EventPayload) -> Void
