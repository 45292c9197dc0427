import FrameProbe
import Foundation

// Closed standard descriptors are held (/dev/null) before anything opens a file or a descriptor of its own, so
// nothing later takes their numbers; standard output is checked here too.
Console.holdClosedInputAndError()
_ = Console.standardOutput
let signals = Signals()
exit(CommandTable.run(Array(CommandLine.arguments.dropFirst()), signals: signals))
