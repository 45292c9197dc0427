import FrameProbe

/// `frameprobe stages`: the registry, with what each stage emits, needs and the options that configure it.
enum StagesCommand {
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print("Usage: frameprobe stages\n\nLists the analysis stages usable with --stages, in registry order.")
            return ExitCode.success
        }
        if let unknown = arguments.first {
            return Console.usageFailure(FrameProbeError("INVALID_ARGUMENT", "frameprobe stages takes no argument, got '\(unknown)'"))
        }
        for descriptor in StageRegistry.all {
            print("\(descriptor.name) — \(descriptor.summary)")
            print("  emits: \(descriptor.emits.joined(separator: ", "))")
            if !descriptor.requires.isEmpty { print("  needs: \(descriptor.requires.joined(separator: ", "))") }
            for option in descriptor.options { print("  \(option.synopsis)  \(option.help)") }
        }
        return ExitCode.success
    }
}
