import FrameProbe
import Foundation

/// Exit codes of SPEC §1.
enum ExitCode {
    static let success: Int32 = 0
    static let inputFailed: Int32 = 1
    static let invalidUsage: Int32 = 2
    static let gateFailed: Int32 = 3
}

enum Console {
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data("frameprobe: \(text)\n".utf8))
    }

    /// An invalid command line or configuration: an `error` event on the output and a stderr line, exit 2.
    static func usageFailure(_ error: FrameProbeError, writer: JSONLWriter = JSONLWriter()) -> Int32 {
        writer.write(Event(source: "", body: .error(error)))
        printError("\(error.key): \(error.message)")
        return ExitCode.invalidUsage
    }
}
