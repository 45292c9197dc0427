import Foundation

/// Reads a whole side file (`--config`, `--session-config`, `--strings`, report JSON and JSON Lines inputs):
/// a regular file only — so `/dev/zero`, a FIFO or a device is an error, never an endless read — of at most
/// `limit` bytes (SPEC §10).
public enum FileContents {
    /// Settings files: 1 MiB.
    public static let settingsLimit = 1 << 20
    /// Report JSON and `analyze` JSON Lines: 1 GiB (an hour of 30 fps face events is about 70 MB).
    public static let reportLimit = 1 << 30

    public static func read(_ path: String, errorKey: String, limit: Int = settingsLimit) throws(FrameProbeError) -> Data {
        // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused just below).
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FrameProbeError(errorKey, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw FrameProbeError(errorKey, "\(path) is not a regular file")
        }
        guard Int(status.st_size) <= limit else {
            throw FrameProbeError(errorKey, "\(path) is larger than the \(limit >> 20) MiB frameprobe reads from such a file")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw FrameProbeError(errorKey, "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            data.append(contentsOf: buffer[0..<count])
            // A file that grows while it is read stops at the limit too.
            guard data.count <= limit else {
                throw FrameProbeError(errorKey, "\(path) is larger than the \(limit >> 20) MiB frameprobe reads from such a file")
            }
        }
    }
}
