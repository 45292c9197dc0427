/// The JSON Schema of frameprobe's JSON Lines (`frameprobe schema`; committed as `schema/events.schema.json`),
/// built from the runner's payload types and those the given stages declare.
public enum SchemaDocument {
    /// What the runner emits around every input, whatever the stages.
    public static let runnerPayloads: [any EventPayload.Type] = [RunStarted.self, InputOpened.self, InputClosed.self, InputSkipped.self,
                                                                 Failure.self, Notice.self]

    /// The schema of every event the runner and `stages` can emit (each event name once, in first-seen order).
    public static func json(stages: [StageDescriptor]) -> JSONValue {
        var seen: Set<String> = []
        let payloads = (runnerPayloads + stages.flatMap(\.emits)).filter { seen.insert($0.eventName).inserted }
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string("https://frameprobe.dev/schema/events.schema.json")),
            ("title", .string("frameprobe event")),
            ("description", .string("One line of frameprobe's JSON Lines output. Every event has event and source; frame and pts where a frame applies.")),
            ("type", .string("object")),
            ("required", .array([.string("event"), .string("source")])),
            ("properties", .object([
                ("event", JSONSchema.string().json),
                ("source", JSONSchema.string(description: "the input as given; \"-\" for standard input; \"\" for errors not tied to an input").json),
                ("frame", JSONSchema.integer(minimum: 0).json),
                ("pts", JSONSchema.number(minimum: 0).json),
            ])),
            ("oneOf", .array(payloads.map { .object([("$ref", .string("#/$defs/\($0.eventName)"))]) })),
            ("$defs", .object(payloads.map { ($0.eventName, $0.schema.json(named: $0.eventName)) })),
        ])
    }
}
