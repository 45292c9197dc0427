import FrameProbe
import Foundation

let signals = Signals()
// Standard output is checked (and, when closed, its descriptor held) before any file is opened.
_ = Console.standardOutput
exit(CommandTable.run(Array(CommandLine.arguments.dropFirst()), signals: signals))
