import Foundation

/// Writes status lines (progress, acquisition instructions) to standard error. A status line must never end a run:
/// the first write that fails (stderr closed, full, or a pipe whose reader left) stops the drawing, and the run goes
/// on. Plain `write(2)`: Foundation's `FileHandle.write` traps on such errors.
public final class StatusLineWriter {
    public private(set) var stopped = false

    public init() {}

    public func write(_ text: String) {
        guard !stopped else { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                stopped = true
                return
            }
        }
    }
}
