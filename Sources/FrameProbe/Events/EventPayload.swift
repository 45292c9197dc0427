/// What one kind of event says: its name (SPEC §2), its fields in a stable order, and the JSON Schema of those
/// fields. Each stage declares the payload types it emits in its descriptor; `frameprobe schema` is built from
/// them, so a payload's fields and its schema sit side by side in the stage's file.
///
/// A library user adds an event by conforming a type of their own.
public protocol EventPayload: Sendable {
    /// The `event` field.
    static var eventName: String { get }
    /// The schema of the payload's fields (everything after `event`, `source`, `frame`, `pts`).
    static var schema: EventSchema { get }
    /// The payload's fields, in the order they are written.
    var fields: [(String, JSONValue)] { get }
    /// Whether this event means its input failed (exit code 1).
    var isFailure: Bool { get }
}

extension EventPayload {
    public var isFailure: Bool { false }
}

/// The JSON Schema of one event: which of `frame`/`pts` it carries, and its own properties.
public struct EventSchema: Sendable {
    public enum Placement: Sendable {
        /// About one frame: `frame` and `pts` are always there.
        case frame
        /// About the input: no `frame` or `pts`.
        case input
        /// Either (a message about a frame, or about the input).
        case either
    }

    public struct Property: Sendable {
        public let name: String
        public let schema: JSONSchema
        public let required: Bool

        public init(_ name: String, _ schema: JSONSchema, required: Bool = true) {
            self.name = name
            self.schema = schema
            self.required = required
        }
    }

    public let placement: Placement
    public let description: String?
    public let properties: [Property]
    /// Extra keywords of the event's object schema (e.g. a `oneOf` between two shapes).
    public let extra: [(String, JSONValue)]

    public init(_ placement: Placement, description: String? = nil, _ properties: [Property], extra: [(String, JSONValue)] = []) {
        self.placement = placement
        self.description = description
        self.properties = properties
        self.extra = extra
    }

    /// The object schema of an event named `name`.
    func json(named name: String) -> JSONValue {
        let common = ["event", "source"] + (placement == .input ? [] : ["frame", "pts"])
        var shape: [(String, JSONValue)] = [("type", .string("object"))]
        if let description { shape.append(("description", .string(description))) }
        let own = properties.map { ($0.name, $0.schema.json) }
        shape.append(("properties", .object([("event", .object([("const", .string(name))]))]
            + common.dropFirst().map { ($0, .bool(true)) } + own)))
        let required = (placement == .frame ? common : ["event", "source"]) + properties.filter(\.required).map(\.name)
        shape.append(("required", .array(required.map { .string($0) })))
        return .object(shape + extra + [("additionalProperties", .bool(false))])
    }
}

/// A JSON Schema (2020-12) fragment, built with the few keywords frameprobe's events need.
public struct JSONSchema: Sendable {
    public let json: JSONValue

    public init(_ keywords: [(String, JSONValue)]) { json = .object(keywords) }

    public static func integer(minimum: Int? = nil, description: String? = nil) -> JSONSchema {
        JSONSchema([("type", .string("integer"))] + (minimum.map { [("minimum", .int($0))] } ?? []) + described(description))
    }

    public static func number(minimum: Double? = nil, maximum: Double? = nil, exclusiveMinimum: Double? = nil,
                              description: String? = nil) -> JSONSchema {
        var keywords: [(String, JSONValue)] = [("type", .string("number"))]
        if let minimum { keywords.append(("minimum", bound(minimum))) }
        if let exclusiveMinimum { keywords.append(("exclusiveMinimum", bound(exclusiveMinimum))) }
        if let maximum { keywords.append(("maximum", bound(maximum))) }
        return JSONSchema(keywords + described(description))
    }

    public static func string(minLength: Int? = nil, pattern: String? = nil, description: String? = nil) -> JSONSchema {
        var keywords: [(String, JSONValue)] = [("type", .string("string"))]
        if let minLength { keywords.append(("minLength", .int(minLength))) }
        if let pattern { keywords.append(("pattern", .string(pattern))) }
        return JSONSchema(keywords + described(description))
    }

    public static let boolean = JSONSchema([("type", .string("boolean"))])
    /// A number in 0…1 (darkness, lightness, probabilities).
    public static let unit = number(minimum: 0, maximum: 1)
    /// An `[x, y]` pair in pixels.
    public static let point = array(of: JSONSchema([("type", .string("number"))]), minItems: 2, maxItems: 2)
    /// An error or notice key: upper case with underscores.
    public static let key = string(pattern: "^[A-Z][A-Z0-9_]*$")

    /// One of the given strings (and `null` when `nullable`).
    public static func oneOf(_ names: [String], nullable: Bool = false) -> JSONSchema {
        JSONSchema([("enum", .array(names.map { .string($0) } + (nullable ? [.null] : [])))])
    }

    public static func oneOf(_ values: [Int]) -> JSONSchema { JSONSchema([("enum", .array(values.map { .int($0) }))]) }

    public static func array(of items: JSONSchema, minItems: Int? = nil, maxItems: Int? = nil) -> JSONSchema {
        var keywords: [(String, JSONValue)] = [("type", .string("array")), ("items", items.json)]
        if let minItems { keywords.append(("minItems", .int(minItems))) }
        if let maxItems { keywords.append(("maxItems", .int(maxItems))) }
        return JSONSchema(keywords)
    }

    /// An object with exactly these properties (the required ones listed as such).
    public static func object(_ properties: [EventSchema.Property], nullable: Bool = false) -> JSONSchema {
        var keywords: [(String, JSONValue)] = [("type", nullable ? .array([.string("object"), .string("null")]) : .string("object"))]
        keywords.append(("properties", .object(properties.map { ($0.name, $0.schema.json) })))
        let required = properties.filter(\.required).map { JSONValue.string($0.name) }
        if !required.isEmpty { keywords.append(("required", .array(required))) }
        return JSONSchema(keywords + [("additionalProperties", .bool(false))])
    }

    /// The same schema, also accepting `null`.
    public var orNull: JSONSchema {
        guard case .object(let keywords) = json else { return self }
        return JSONSchema(keywords.map { key, value in
            key == "type" ? (key, .array([value, .string("null")])) : (key, value)
        })
    }

    /// The same schema with a description.
    public func described(_ text: String) -> JSONSchema {
        guard case .object(let keywords) = json else { return self }
        return JSONSchema(keywords + [("description", .string(text))])
    }

    private static func described(_ text: String?) -> [(String, JSONValue)] { text.map { [("description", .string($0))] } ?? [] }

    private static func bound(_ value: Double) -> JSONValue {
        value.rounded() == value && abs(value) < 1e15 ? .int(Int(value)) : .number(value, decimals: 6)
    }
}
