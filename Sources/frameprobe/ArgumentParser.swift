import FrameProbe

/// What the command line said: settings in order, the config file, the inputs.
struct ParsedArguments {
    var settings: [(OptionSpec, OptionValue)] = []
    var configPath: String?
    var positionals: [String] = []
    var wantsHelp = false
    /// The keys `--config` may set: the command's options and every stage's.
    var configSpecs: [OptionSpec] = []

    /// Settings from `--config` first, then the command line's (flags win), over the command's `defaults`, then
    /// validated.
    func analysisOptions(defaults: AnalysisOptions = AnalysisOptions()) throws(FrameProbeError) -> AnalysisOptions {
        var options = defaults
        var given: [(OptionSpec, OptionValue)] = []
        if let configPath { given = try ConfigFile.apply(contentsOf: configPath, to: &options, specs: configSpecs) }
        for (spec, value) in settings { try spec.set(value, in: &options) }
        given += settings
        options.recordedSettings = RunRecord.settings(given.map { (spec: $0.0, value: $0.1.settingText) })
        try options.validate()
        for spec in configSpecs { try spec.validate(options) }
        try StageRegistry.builtIn.validate(options)
        return options
    }

    /// The inputs, at least one.
    func inputs() throws(FrameProbeError) -> [String] {
        if positionals.isEmpty { throw FrameProbeError("INVALID_ARGUMENT", "no input given (see --help)") }
        return positionals
    }

    /// For a command that takes no argument.
    func expectNoInput(_ command: String) throws(FrameProbeError) {
        if let unknown = positionals.first {
            throw FrameProbeError("INVALID_ARGUMENT", "frameprobe \(command) takes no argument, got '\(unknown)'")
        }
    }
}

/// A small table-driven parser over `OptionSpec`s: `--flag value`, `--flag=value`, `-o value`, switches
/// (`--frame-quality`, `--frame-quality=false`), `--` ends options, `-` is an input. Unknown flags get a suggestion.
struct ArgumentParser {
    let specs: [OptionSpec]

    func parse(_ arguments: [String]) throws(FrameProbeError) -> ParsedArguments {
        var parsed = ParsedArguments()
        parsed.configSpecs = specs + StageRegistry.builtIn.descriptors.flatMap(\.options).filter { row in !specs.contains { $0.configKey == row.configKey } }
        var index = 0
        func value(for name: String, inline: String?) throws(FrameProbeError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw FrameProbeError("INVALID_ARGUMENT", "\(name) needs a value") }
            return arguments[index]
        }
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument == "--help" || argument == "-h" {
                parsed.wantsHelp = true
            } else {
                let (name, inline) = split(argument)
                if name == "--config" {
                    parsed.configPath = try value(for: name, inline: inline)
                } else {
                    let spec = try lookup(name)
                    if spec.takesValue {
                        parsed.settings.append((spec, .text(try value(for: name, inline: inline))))
                    } else {
                        // A switch takes its value inline; `--qrcode-retry false` would make "false" an input.
                        if inline == nil, index + 1 < arguments.count, ["true", "false"].contains(arguments[index + 1]) {
                            throw FrameProbeError("INVALID_ARGUMENT", "\(name) is a switch: write \(name)=\(arguments[index + 1]) (a file named \(arguments[index + 1]) is ./\(arguments[index + 1]))")
                        }
                        parsed.settings.append((spec, .text(inline ?? "true")))
                    }
                }
            }
            index += 1
        }
        return parsed
    }

    /// `--flag=value` and a short flag with its value attached (`-j1`, `-ofile.jsonl`).
    private func split(_ argument: String) -> (String, String?) {
        if !argument.hasPrefix("--"), argument.count > 2 {
            return (String(argument.prefix(2)), String(argument.dropFirst(2)))
        }
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private func lookup(_ name: String) throws(FrameProbeError) -> OptionSpec {
        if name.hasPrefix("--"), let spec = specs.first(where: { "--\($0.flag)" == name }) { return spec }
        if name.count == 2, let short = name.last, let spec = specs.first(where: { $0.shortFlag == short }) { return spec }
        let known = specs.map(\.flag) + ["config", "help"]
        let hint = Suggestion.hint(for: String(name.drop(while: { $0 == "-" })), in: known, prefix: "--")
        throw FrameProbeError("INVALID_ARGUMENT", "unknown option \(name)\(hint)")
    }

    /// Help for the options, one line each, generated from the table.
    func optionsHelp() -> String {
        let lines = specs.map { ($0.synopsis, $0.helpLine) } + [("--config FILE.json", "settings as JSON (the seeds' camelCase keys); flags win"),
                                                            ("-h, --help", "show this help")]
        let width = (lines.map(\.0.count).max() ?? 0) + 2
        return lines.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n")
    }
}
