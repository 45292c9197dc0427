import Foundation

/// Writes events as JSON Lines to a file descriptor: one `write` loop per complete line, under a lock, so
/// lines are never interleaved or cut. When the reader has gone (EPIPE, as with `| head -1`) it says so
/// instead of failing loudly.
public final class JSONLWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let lock = NSLock()
    private var closedByReader = false

    /// Standard output.
    public init() {
        descriptor = STDOUT_FILENO
        ownsDescriptor = false
    }

    /// A file (created or truncated).
    public init(path: String) throws(FrameProbeError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw FrameProbeError("OUTPUT_UNWRITABLE", "cannot open \(path) for writing: \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        ownsDescriptor = true
    }

    deinit { if ownsDescriptor { close(descriptor) } }

    /// True once the reader closed its end; nothing more is written.
    public var readerGone: Bool { lock.withLock { closedByReader } }

    /// Refuses every later line (the process is about to exit): what was written stays whole.
    public func seal() { lock.withLock { closedByReader = true } }

    /// Writes one event as one line; returns false when the reader is gone.
    @discardableResult
    public func write(_ event: Event) -> Bool {
        write(line: event.json.serialized())
    }

    @discardableResult
    public func write(line: String) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return lock.withLock {
            guard !closedByReader else { return false }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    closedByReader = true
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
