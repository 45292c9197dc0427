import FrameProbe

/// `frameprobe stages`: the registry, with what each stage emits, needs and the options that configure it.
struct StagesCommand: Command {
    static let name = "stages"
    static let usage = ""
    static let summary = "list the analysis stages and their options"
    static let description = "Lists the analysis stages usable with --stages, in registry order."
    static let options: [OptionSpec] = []

    init(_ parsed: ParsedArguments) throws(FrameProbeError) { try parsed.expectNoInput(Self.name) }

    func run(signals: Signals) -> Int32 {
        var lines: [String] = []
        for descriptor in StageRegistry.builtIn.descriptors {
            lines.append("\(descriptor.name) — \(descriptor.summary)")
            lines.append("  emits: \(descriptor.emits.map { $0.eventName }.joined(separator: ", "))")
            if !descriptor.requires.isEmpty { lines.append("  needs: \(descriptor.requires.map(\.name).joined(separator: ", "))") }
            for option in descriptor.options { lines.append("  \(option.synopsis)  \(option.helpLine)") }
        }
        return Console.printOut(lines.joined(separator: "\n"))
    }
}

/// `frameprobe schema`: the JSON Schema of every event, generated from the stages' payload types.
struct SchemaCommand: Command {
    static let name = "schema"
    static let usage = ""
    static let summary = "the JSON Schema of the events"
    static let description = """
        Prints the JSON Schema (2020-12) of the events analyze, acquire and report write, one definition per
        event, generated from the stages' payload types (schema/events.schema.json is this output).
        """
    static let options: [OptionSpec] = []

    init(_ parsed: ParsedArguments) throws(FrameProbeError) { try parsed.expectNoInput(Self.name) }

    func run(signals: Signals) -> Int32 {
        Console.printOut(SchemaDocument.json(stages: StageRegistry.builtIn.descriptors).pretty())
    }
}
