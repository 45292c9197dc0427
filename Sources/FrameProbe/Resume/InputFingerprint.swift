import Foundation

/// What tells a file input apart from a changed one without reading it whole: its size, its modification time (ns)
/// and a digest of its first MiB. `inputOpened` carries it; `--resume` keeps an input's earlier events only while
/// the file still has the same fingerprint.
public struct InputFingerprint: Sendable, Equatable {
    public let size: Int64
    public let modifiedNanoseconds: Int64
    public let headDigest: String

    /// How much of the file the digest reads.
    static let headLength = 1 << 20

    public init(size: Int64, modifiedNanoseconds: Int64, headDigest: String) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.headDigest = headDigest
    }

    /// The fingerprint of the regular file at `path` (raw bytes of its name); nil for anything else (a FIFO, a
    /// device) or a file that cannot be read — those are not fingerprinted.
    public init?(path: [UInt8]) {
        let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        var digest = Digest()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var remaining = Self.headLength
        while remaining > 0 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, min($0.count, remaining)) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            digest.add(buffer[..<count])
            remaining -= count
        }
        self.init(size: Int64(status.st_size),
                  modifiedNanoseconds: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
                  headDigest: digest.hex)
    }

    public var json: JSONValue {
        .object([("size", .int(Int(size))), ("modifiedNs", .int(Int(modifiedNanoseconds))), ("head", .string(headDigest))])
    }

    /// Reads the `fingerprint` object of an `inputOpened` line.
    public init?(json object: Any?) {
        guard let object = object as? [String: Any], let size = (object["size"] as? NSNumber)?.int64Value,
              let modified = (object["modifiedNs"] as? NSNumber)?.int64Value, let head = object["head"] as? String else { return nil }
        self.init(size: size, modifiedNanoseconds: modified, headDigest: head)
    }

    static let schema = JSONSchema.object([
        .init("size", .integer(minimum: 0)), .init("modifiedNs", .integer()),
        .init("head", .string(minLength: 16, description: "FNV-1a 64 digest of the first MiB, hex")),
    ])
}
