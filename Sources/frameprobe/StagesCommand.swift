import FrameProbe

/// `frameprobe stages`: the registry, with what each stage emits, needs and the options that configure it.
enum StagesCommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.withoutArguments(arguments, command: "stages",
                                 usage: "Usage: frameprobe stages\n\nLists the analysis stages usable with --stages, in registry order.") {
            var lines: [String] = []
            for descriptor in StageRegistry.builtIn.descriptors {
                lines.append("\(descriptor.name) — \(descriptor.summary)")
                lines.append("  emits: \(descriptor.emits.map { $0.eventName }.joined(separator: ", "))")
                if !descriptor.requires.isEmpty { lines.append("  needs: \(descriptor.requires.map(\.name).joined(separator: ", "))") }
                for option in descriptor.options { lines.append("  \(option.synopsis)  \(option.helpLine)") }
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// `frameprobe schema`: the JSON Schema of every event, generated from the stages' payload types.
enum SchemaCommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.withoutArguments(arguments, command: "schema", usage: """
            Usage: frameprobe schema

            Prints the JSON Schema (2020-12) of the events analyze, acquire and report write, one definition per
            event, generated from the stages' payload types (schema/events.schema.json is this output).
            """) {
            SchemaDocument.json(stages: StageRegistry.builtIn.descriptors).pretty()
        }
    }
}
