import FrameProbe

/// `frameprobe completions bash|zsh|fish`: a completion script generated from the command table.
struct CompletionsCommand: Command {
    static let name = "completions"
    static let usage = "bash|zsh|fish"
    static let summary = "a shell completion script"
    static let description = """
        Prints a completion script for bash, zsh or fish, generated from the options of every command: subcommands,
        flags, the values of closed choices (--capture-type …) and files for inputs. For example:
          source <(frameprobe completions bash)
          frameprobe completions zsh > "${fpath[1]}/_frameprobe"
          frameprobe completions fish > ~/.config/fish/completions/frameprobe.fish
        """
    static let options: [OptionSpec] = []

    let script: String

    init(_ parsed: ParsedArguments) throws(FrameProbeError) {
        guard parsed.positionals.count == 1, let script = CompletionScripts.script(for: parsed.positionals[0]) else {
            throw FrameProbeError("INVALID_ARGUMENT", "frameprobe completions takes one shell: bash, zsh or fish")
        }
        self.script = script
    }

    func run(signals: Signals) -> Int32 { Console.printOut(script) }
}

/// `frameprobe manpage`: frameprobe(1) in roff, generated from the command table.
struct ManPageCommand: Command {
    static let name = "manpage"
    static let usage = ""
    static let summary = "the frameprobe(1) manual page, in roff"
    static let description = """
        Prints the manual page: every command and option (the same rows as --help), the events, the exit codes,
        the environment and examples. For example: frameprobe manpage > frameprobe.1 && man -l frameprobe.1
        """
    static let options: [OptionSpec] = []

    init(_ parsed: ParsedArguments) throws(FrameProbeError) { try parsed.expectNoInput(Self.name) }

    func run(signals: Signals) -> Int32 { Console.printOut(ManPage.roff()) }
}
