import FrameProbe

/// `frameprobe stages`: the registry, with what each stage emits, needs and the options that configure it.
enum StagesCommand {
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            return Console.printOut("Usage: frameprobe stages\n\nLists the analysis stages usable with --stages, in registry order.")
        }
        if let unknown = arguments.first {
            return Console.usageFailure(FrameProbeError("INVALID_ARGUMENT", "frameprobe stages takes no argument, got '\(unknown)'"))
        }
        var lines: [String] = []
        for descriptor in StageRegistry.all {
            lines.append("\(descriptor.name) — \(descriptor.summary)")
            lines.append("  emits: \(descriptor.emits.joined(separator: ", "))")
            if !descriptor.requires.isEmpty { lines.append("  needs: \(descriptor.requires.joined(separator: ", "))") }
            for option in descriptor.options { lines.append("  \(option.synopsis)  \(option.help)") }
        }
        return Console.printOut(lines.joined(separator: "\n"))
    }
}
