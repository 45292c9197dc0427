import FrameProbe
import Foundation

let usage = """
    Usage: frameprobe COMMAND [options]

    Commands:
      analyze INPUT...   stream analysis events as JSON Lines
      acquire INPUT      guided selfie acquisition: instructions, then a recorded clip + session response
      report INPUT...    quality report (JSON, JUnit XML, Markdown, HTML) with pass/fail gates; --merge for shards
      stages             list the analysis stages and their options
      schema             the JSON Schema of the events

    frameprobe --version prints the versions of frameprobe, FFmpeg, OpenCV, dlib and zbar.
    frameprobe COMMAND --help shows a command's options.
    """

let signals = Signals()
// Standard output is checked (and, when closed, its descriptor held) before any file is opened.
_ = Console.standardOutput
let arguments = Array(CommandLine.arguments.dropFirst())
let commands = ["analyze", "acquire", "report", "stages", "schema"]

let status: Int32
switch arguments.first {
case "analyze": status = AnalyzeCommand.command.run(Array(arguments.dropFirst()), signals: signals)
case "acquire": status = AcquireCommand.command.run(Array(arguments.dropFirst()), signals: signals)
case "report": status = ReportCommand.run(Array(arguments.dropFirst()), signals: signals)
case "stages": status = StagesCommand.run(Array(arguments.dropFirst()))
case "schema": status = SchemaCommand.run(Array(arguments.dropFirst()))
case "--version", "-V", "version":
    status = Console.printOut(Versions.summary)
case "--help", "-h", "help", nil:
    status = Console.printOut(usage, success: arguments.isEmpty ? ExitCode.invalidUsage : ExitCode.success)
case let other?:
    status = Console.usageFailure(FrameProbeError(
        "INVALID_ARGUMENT", "unknown command '\(other)'\(Suggestion.hint(for: other, in: commands))"))
}
exit(status)
