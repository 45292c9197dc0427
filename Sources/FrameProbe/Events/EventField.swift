/// One field of an event, declared once: its name, its JSON Schema, how it is written and how `report` reads it
/// back from JSON Lines. A payload lists its fields' `property` in its schema, writes `json(value)` in `fields` and
/// reads `read(fields)` in `init(reading:)`, so the name is spelt in one place.
public struct EventField<Value: Sendable>: Sendable {
    public let name: String
    public let schema: JSONSchema
    public let required: Bool
    private let write: @Sendable (Value) -> JSONValue
    private let parse: @Sendable (EventFields, String) -> Value?

    public init(_ name: String, _ schema: JSONSchema, required: Bool = true, write: @escaping @Sendable (Value) -> JSONValue,
                read: @escaping @Sendable (EventFields, String) -> Value?) {
        self.name = name
        self.schema = schema
        self.required = required
        self.write = write
        parse = read
    }

    /// Its line in the event's schema.
    public var property: EventSchema.Property { EventSchema.Property(name, schema, required: required) }

    /// The field as the event writes it.
    public func json(_ value: Value) -> (String, JSONValue) { (name, write(value)) }

    /// Its value in a read-back event; nil when it is missing or of another type.
    public func read(_ fields: EventFields) -> Value? { parse(fields, name) }
}

extension EventField where Value == Double {
    /// A number written with at most `decimals` decimals.
    public static func number(_ name: String, _ schema: JSONSchema, decimals: Int) -> EventField {
        EventField(name, schema, write: { .number($0, decimals: decimals) }, read: { $0.number($1) })
    }
}

extension EventField where Value == Double? {
    /// A number that may be `null`.
    public static func optionalNumber(_ name: String, _ schema: JSONSchema, decimals: Int) -> EventField {
        EventField(name, schema.orNull, write: { $0.map { .number($0, decimals: decimals) } ?? .null }, read: { .some($0.number($1)) })
    }
}

extension EventField where Value == Int {
    public static func integer(_ name: String, _ schema: JSONSchema) -> EventField {
        EventField(name, schema, write: { .int($0) }, read: { $0.integer($1) })
    }
}

extension EventField where Value == String {
    public static func text(_ name: String, _ schema: JSONSchema) -> EventField {
        EventField(name, schema, write: { .string($0) }, read: { $0.string($1) })
    }
}

extension EventField where Value == String? {
    /// Text that may be `null`.
    public static func optionalText(_ name: String, _ schema: JSONSchema) -> EventField {
        EventField(name, schema.orNull, write: { $0.map { .string($0) } ?? .null }, read: { .some($0.string($1)) })
    }
}

extension EventField where Value == Bool {
    public static func boolean(_ name: String, required: Bool = true) -> EventField {
        EventField(name, .boolean, required: required, write: { .bool($0) }, read: { $0.bool($1) })
    }
}
