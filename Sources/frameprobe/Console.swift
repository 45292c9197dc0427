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
    /// Standard output: every write checked (a reader that left is quiet; any other failure is reported).
    static let standardOutput = JSONLWriter()

    /// Standard input and error, when closed (`<&-`, `2>&-`), get /dev/null in their place, so no file opened later
    /// takes their descriptor (progress lines would land in it); writes to stderr then go nowhere, quietly.
    /// (Standard output's own writer does the same for descriptor 1, and remembers that it was closed.)
    static func holdClosedInputAndError() {
        for descriptor in [STDIN_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", O_RDWR)
            guard null >= 0, null != descriptor else { continue }
            dup2(null, descriptor)
            close(null)
        }
    }

    static func printError(_ text: String) {
        let bytes = Array("frameprobe: \(text)\n".utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Prints `text` (help, `stages`, `--version`) and gives the exit code: `success`, or 1 with
    /// `OUTPUT_UNWRITABLE` on stderr when standard output could not take it (SPEC §10).
    static func printOut(_ text: String, success: Int32 = ExitCode.success) -> Int32 {
        standardOutput.write(text: text + "\n")
        return outputStatus(of: standardOutput) ?? success
    }

    /// 1 (with the reason on stderr) when `writer` failed; nil when all went out or the reader merely left.
    static func outputStatus(of writer: JSONLWriter) -> Int32? {
        guard let failure = writer.failure else { return nil }
        printError("\(failure.key): \(failure.message)")
        return ExitCode.inputFailed
    }

    /// An invalid command line or configuration: an `error` event on the output and a stderr line, exit 2.
    static func usageFailure(_ error: FrameProbeError, writer: JSONLWriter = standardOutput) -> Int32 {
        writer.write(Event(source: "", Failure(error)))
        printError("\(error.key): \(error.message)")
        return ExitCode.invalidUsage
    }

    /// A failure of the run's own output (`OUTPUT_EXISTS`, `OUTPUT_UNWRITABLE` on `-o` or a report file): a stderr
    /// line, exit 1.
    static func outputFailure(_ error: FrameProbeError) -> Int32 {
        printError("\(error.key): \(error.message)")
        return ExitCode.inputFailed
    }
}
