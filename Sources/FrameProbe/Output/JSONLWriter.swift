import Foundation
import Synchronization

/// Writes events as JSON Lines to a file descriptor: one `write` loop per complete line, under a lock, so
/// lines are never interleaved. When the reader has gone (EPIPE, as with `| head -1`) it says so quietly; any
/// other failure (disk full, file-size limit, I/O error) is kept as `failure` — and, on a file, the cut line is
/// taken back, so what stays is whole lines.
public final class JSONLWriter: Sendable {
    private struct State {
        var stopped = false
        var readerLeft = false
        var failure: FrameProbeError?
        /// Where the next line starts, on a seekable output (nil on a pipe or terminal): counted, not asked for per line.
        var position: off_t?
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Held while a line is written, so lines are never interleaved.
    private let state: Mutex<State>

    /// Standard output. When it is closed (`>&-`), /dev/null holds its place — so no file opened later takes
    /// descriptor 1 and receives events — and the writer has failed from the start.
    public init() {
        descriptor = STDOUT_FILENO
        ownsDescriptor = false
        var initial = State(position: Self.seekablePosition(STDOUT_FILENO))
        if fcntl(STDOUT_FILENO, F_GETFD) == -1 && errno == EBADF {
            _ = open("/dev/null", O_WRONLY)
            initial.stopped = true
            initial.failure = FrameProbeError("OUTPUT_UNWRITABLE", "standard output is closed")
        }
        state = Mutex(initial)
    }

    /// A file. An existing regular file (or a link to one) is replaced only with `overwrite` (`OUTPUT_EXISTS`
    /// otherwise); a new one is created exclusively; a FIFO or a device is written as it is.
    public init(path: String, overwrite: Bool) throws(FrameProbeError) {
        var status = stat()
        let exists = stat(path, &status) == 0
        let regular = exists && (status.st_mode & S_IFMT) == S_IFREG
        if regular && !overwrite {
            throw OutputFile.refusal(path)
        }
        let mode = regular ? O_TRUNC : (exists ? 0 : O_CREAT | O_EXCL)
        let fd = open(path, O_WRONLY | O_CLOEXEC | mode, 0o644)
        guard fd >= 0 else {
            throw FrameProbeError("OUTPUT_UNWRITABLE", "cannot open \(path) for writing: \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        ownsDescriptor = true
        state = Mutex(State(position: Self.seekablePosition(fd)))
    }

    /// A file `--resume` continues: its first `keeping` bytes stay (what `ResumeLedger` kept), the rest is cut, and
    /// lines are added after them.
    public init(resuming path: String, keeping: Int64) throws(FrameProbeError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw FrameProbeError("OUTPUT_UNWRITABLE", "cannot open \(path) for writing: \(String(cString: strerror(errno)))")
        }
        guard ftruncate(fd, off_t(keeping)) == 0, lseek(fd, off_t(keeping), SEEK_SET) == off_t(keeping) else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FrameProbeError("OUTPUT_UNWRITABLE", "cannot cut \(path) back to what it kept: \(reason)")
        }
        descriptor = fd
        ownsDescriptor = true
        state = Mutex(State(position: off_t(keeping)))
    }

    private static func seekablePosition(_ descriptor: Int32) -> off_t? {
        let offset = lseek(descriptor, 0, SEEK_CUR)
        return offset >= 0 ? offset : nil
    }

    deinit { if ownsDescriptor { close(descriptor) } }

    /// True once the reader closed its end (EPIPE): nothing more is written, quietly.
    public var readerGone: Bool { state.withLock { $0.readerLeft } }

    /// The write failure that stopped the output (nil when all went out, or the reader merely left).
    public var failure: FrameProbeError? { state.withLock { $0.failure } }

    /// Writes one event as one line; returns false when nothing more can be written.
    @discardableResult
    public func write(_ event: Event) -> Bool {
        write(line: event.json.serialized())
    }

    @discardableResult
    public func write(line: String) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return write(bytes: bytes)
    }

    /// Writes text that is not an event (help, `stages`, a report to standard output), with the same checks.
    @discardableResult
    public func write(text: String) -> Bool { write(bytes: Array(text.utf8)) }

    private func write(bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    state.stopped = true
                    if errno == EPIPE {
                        state.readerLeft = true
                    } else {
                        state.failure = FrameProbeError("OUTPUT_UNWRITABLE", "writing the output failed: \(String(cString: strerror(errno)))")
                        if offset > 0, let lineStart = state.position { _ = ftruncate(descriptor, lineStart) }
                    }
                    return false
                }
                offset += written
            }
            state.position? += off_t(bytes.count)
            return true
        }
    }
}
