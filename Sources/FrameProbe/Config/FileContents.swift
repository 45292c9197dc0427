import Foundation
import Synchronization

/// Reads a whole side file (`--config`, `--session-config`, `--strings`, report JSON and JSON Lines inputs):
/// a regular file only — so `/dev/zero`, a FIFO or a device is an error, never an endless read — of at most
/// `limit` bytes (SPEC §10).
public enum FileContents {
    /// Settings files: 1 MiB.
    public static let settingsLimit = 1 << 20
    /// Report JSON and `analyze` JSON Lines: 1 GiB (an hour of 30 fps face events is about 70 MB).
    public static let reportLimit = 1 << 30

    /// Every side file read so far by this process, by device and inode, with the name it was read by.
    private static let filesRead = Mutex<[(device: UInt, inode: UInt, path: String)]>([])

    /// The side file (config, strings, session config, baseline, report input) that `path` names, when one was read:
    /// such a file is never an output of the run, even with `-y` (it would be destroyed by the run that reads it).
    public static func sideFileRead(as path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return filesRead.withLock { files in
            files.first { $0.device == UInt(status.st_dev) && $0.inode == UInt(status.st_ino) }?.path
        }
    }

    public static func read(_ path: String, errorKey: String, limit: Int = settingsLimit) throws(FrameProbeError) -> Data {
        let descriptor = try openRegularFile(path, errorKey: errorKey, limit: limit)
        defer { close(descriptor) }
        var data = Data()
        try readChunks(descriptor, path: path, errorKey: errorKey) { chunk throws(FrameProbeError) in
            data.append(contentsOf: chunk)
            // A file that grows while it is read stops at the limit too.
            guard data.count <= limit else {
                throw FrameProbeError(errorKey, "\(path) is larger than the \(limit >> 20) MiB frameprobe reads from such a file")
            }
        }
        return data
    }

    /// The longest line `forEachLine` takes (a JSON Lines event with a thumbnail is a few hundred KB).
    public static let lineLimit = 64 << 20

    /// Calls `body` with each line of a regular file (without its newline; a last line without one too, unless
    /// `wholeLinesOnly`), reading it in chunks: memory stays flat whatever the file's size. A line over `lineLimit`
    /// is an error.
    public static func forEachLine(_ path: String, errorKey: String, wholeLinesOnly: Bool = false,
                                   _ body: (Data) throws(FrameProbeError) -> Void) throws(FrameProbeError) {
        let descriptor = try openRegularFile(path, errorKey: errorKey, limit: nil)
        defer { close(descriptor) }
        var pending = Data()
        try readChunks(descriptor, path: path, errorKey: errorKey) { chunk throws(FrameProbeError) in
            var start = chunk.startIndex
            while let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
                pending.append(contentsOf: chunk[start..<newline])
                try body(pending)
                pending.removeAll(keepingCapacity: true)
                start = newline + 1
            }
            pending.append(contentsOf: chunk[start...])
            guard pending.count <= lineLimit else {
                throw FrameProbeError(errorKey, "\(path) has a line longer than \(lineLimit >> 20) MiB")
            }
        }
        if !pending.isEmpty && !wholeLinesOnly { try body(pending) }
    }

    /// Opens `path` for reading: a regular file only (of at most `limit` bytes, when given), recorded as read.
    private static func openRegularFile(_ path: String, errorKey: String, limit: Int?) throws(FrameProbeError) -> Int32 {
        // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused just below).
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FrameProbeError(errorKey, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw FrameProbeError(errorKey, "\(path) is not a regular file")
        }
        if let limit, Int(status.st_size) > limit {
            close(descriptor)
            throw FrameProbeError(errorKey, "\(path) is larger than the \(limit >> 20) MiB frameprobe reads from such a file")
        }
        filesRead.withLock { $0.append((UInt(status.st_dev), UInt(status.st_ino), path)) }
        return descriptor
    }

    /// Reads a descriptor to its end in 64 KiB chunks.
    private static func readChunks(_ descriptor: Int32, path: String, errorKey: String,
                                   _ body: (ArraySlice<UInt8>) throws(FrameProbeError) -> Void) throws(FrameProbeError) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw FrameProbeError(errorKey, "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            try body(buffer[0..<count])
        }
    }
}
