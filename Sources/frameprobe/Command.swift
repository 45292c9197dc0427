import FrameProbe

/// A subcommand: its name, help texts and options, a check of its command line (`init`, exit 2 on error) and its
/// work (`run`). `CommandTable` lists them; dispatch, `frameprobe --help` and each command's `--help` come from it.
protocol Command {
    static var name: String { get }
    /// What follows the name in the usage line (`[options] INPUT...`).
    static var usage: String { get }
    /// Other forms of the command, each a usage line of its own.
    static var otherUsages: [String] { get }
    /// One line for `frameprobe --help`.
    static var summary: String { get }
    /// The paragraphs of `frameprobe NAME --help`, after the usage line.
    static var description: String { get }
    /// The options it takes (the parser, `--config` and its help read them).
    static var options: [OptionSpec] { get }

    /// Checks the parsed command line and keeps what `run` needs; an error is a usage error (exit 2).
    init(_ parsed: ParsedArguments) throws(FrameProbeError)
    /// Does the work; returns the exit code.
    func run(signals: Signals) -> Int32
}

extension Command {
    static var otherUsages: [String] { [] }

    static var parser: ArgumentParser { ArgumentParser(specs: options) }

    /// `frameprobe NAME --help`, generated from the above.
    static var help: String {
        let forms = ([usage] + otherUsages).map { "frameprobe \(name) \($0)" }
        var text = "Usage: " + forms.joined(separator: "\n       ") + "\n\n" + description
        if !options.isEmpty { text += "\n\nOptions:\n\(parser.optionsHelp())" }
        return text
    }

    /// Parses `arguments`, shows the help when asked, checks and runs.
    static func main(_ arguments: [String], signals: Signals) -> Int32 {
        let command: Self
        do throws(FrameProbeError) {
            let parsed = try parser.parse(arguments)
            if parsed.wantsHelp { return Console.printOut(help) }
            command = try Self(parsed)
        } catch {
            return Console.usageFailure(error)
        }
        return command.run(signals: signals)
    }
}

/// Every command, in the order `frameprobe --help` lists them.
enum CommandTable {
    static var all: [any Command.Type] {
        [AnalyzeCommand.self, AcquireCommand.self, ReportCommand.self, StagesCommand.self, SchemaCommand.self, CompletionsCommand.self,
         ManPageCommand.self]
    }

    static var usage: String {
        let width = (all.map { "\($0.name) \($0.usage)".count }.max() ?? 0) + 3
        let lines = all.map { command in
            "  " + "\(command.name) \(command.usage)".padding(toLength: width, withPad: " ", startingAt: 0) + command.summary
        }
        return """
            Usage: frameprobe COMMAND [options]

            Commands:
            \(lines.joined(separator: "\n"))

            frameprobe --version prints the versions of frameprobe, FFmpeg, OpenCV, dlib and zbar.
            frameprobe COMMAND --help shows a command's options.
            """
    }

    /// Runs the command `arguments` name; the exit code.
    static func run(_ arguments: [String], signals: Signals) -> Int32 {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case "--version", "-V", "version":
            return Console.printOut(Versions.summary)
        case "--help", "-h", "help", nil:
            return Console.printOut(usage, success: arguments.isEmpty ? ExitCode.invalidUsage : ExitCode.success)
        case let name?:
            guard let command = all.first(where: { $0.name == name }) else {
                return Console.usageFailure(FrameProbeError(
                    "INVALID_ARGUMENT", "unknown command '\(name)'\(Suggestion.hint(for: name, in: all.map { $0.name }))"))
            }
            return command.main(rest, signals: signals)
        }
    }
}
