import Foundation
import Synchronization

/// How every output file (image, clip, report) reaches its place (SPEC §10 Output safety): written whole under a
/// temporary name beside the target, then published without replacing anything that is there — unless the user
/// said `-y/--overwrite`. Two processes writing into one directory cannot clobber each other's files: the
/// publication is a hard link, which fails when the name exists, whoever made it.
public enum OutputFile {
    /// Writes `bytes` as `target` (its directory is created); returns `target`.
    @discardableResult
    public static func write(_ bytes: [UInt8], to target: String, overwrite: Bool) throws(FrameProbeError) -> String {
        let temporary = try createTemporary(beside: target)
        defer { TemporaryFiles.remove(temporary.path) }
        var failure: FrameProbeError?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(temporary.descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = FrameProbeError("OUTPUT_UNWRITABLE", "cannot write \(target): \(String(cString: strerror(errno)))")
                    return
                }
                offset += written
            }
        }
        if close(temporary.descriptor) != 0, failure == nil {
            failure = FrameProbeError("OUTPUT_UNWRITABLE", "cannot write \(target): \(String(cString: strerror(errno)))")
        }
        if let failure { throw failure }
        try publish(temporary.path, as: target, overwrite: overwrite)
        return target
    }

    /// A new, empty temporary file beside `target` (created exclusively, registered for removal on interruption).
    public static func createTemporary(beside target: String) throws(FrameProbeError) -> (path: String, descriptor: Int32) {
        let directory = (target as NSString).deletingLastPathComponent
        try createDirectory(directory.isEmpty ? "." : directory)
        // Within the file system's name limit whatever the target's length: ".NAME." + a 36-character UUID + ".tmp".
        let name = OutputLayout.prefix(of: (target as NSString).lastPathComponent, bytes: OutputLayout.nameLimit - 42)
        let path = (directory as NSString).appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
        TemporaryFiles.add(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            TemporaryFiles.remove(path)
            throw FrameProbeError("OUTPUT_UNWRITABLE", "cannot create a file in \(directory.isEmpty ? "." : directory): \(reason)")
        }
        return (path, descriptor)
    }

    /// Moves a finished temporary file to `target`. Without `overwrite`, an existing `target` is left as it is and
    /// the call fails with `OUTPUT_EXISTS`. The temporary file is gone afterwards either way.
    public static func publish(_ temporary: String, as target: String, overwrite: Bool) throws(FrameProbeError) {
        defer { TemporaryFiles.remove(temporary) }
        if overwrite {
            guard rename(temporary, target) == 0 else { throw unwritable(target) }
            return
        }
        if link(temporary, target) == 0 { return }
        switch errno {
        case EEXIST:
            throw refusal(target)
        case EPERM, EXDEV, ENOTSUP, EOPNOTSUPP, EMLINK:
            // A file system without hard links: check, then rename (not atomic against another process).
            var status = stat()
            if lstat(target, &status) == 0 {
                throw refusal(target)
            }
            guard rename(temporary, target) == 0 else { throw unwritable(target) }
        default:
            throw unwritable(target)
        }
    }

    /// Fails with `OUTPUT_EXISTS` when `target` exists and may not be replaced (checked before work starts, so a
    /// long analysis does not end in a refusal).
    public static func checkReplaceable(_ target: String, overwrite: Bool) throws(FrameProbeError) {
        var status = stat()
        guard !overwrite, stat(target, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return }
        throw refusal(target)
    }

    /// `OUTPUT_EXISTS` for `path`.
    public static func refusal(_ path: String) -> FrameProbeError {
        FrameProbeError("OUTPUT_EXISTS", "\(path) exists; frameprobe never replaces a file unless -y/--overwrite is given")
    }

    /// `mkdir -p`, saying which part of the path is in the way (a file where a folder should be) or why the system
    /// refused it — in its own words, not Foundation's ("NSCocoaErrorDomain error 512").
    static func createDirectory(_ directory: String) throws(FrameProbeError) {
        var current = directory.hasPrefix("/") ? "/" : ""
        for part in directory.split(separator: "/") {
            current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + part
            var status = stat()
            if stat(current, &status) == 0 {
                guard (status.st_mode & S_IFMT) == S_IFDIR else {
                    throw FrameProbeError("OUTPUT_UNWRITABLE", "cannot create \(directory): \(current) is a file, not a folder")
                }
                continue
            }
            if mkdir(current, 0o777) != 0 && errno != EEXIST {
                throw FrameProbeError("OUTPUT_UNWRITABLE", "cannot create \(directory): \(current): \(String(cString: strerror(errno)))")
            }
        }
    }

    private static func unwritable(_ target: String) -> FrameProbeError {
        FrameProbeError("OUTPUT_UNWRITABLE", "cannot write \(target): \(String(cString: strerror(errno)))")
    }
}

/// The temporary files being written right now, so that a run ended by a signal while something blocks removes
/// them before it exits (SPEC §10: no temp files left).
public enum TemporaryFiles {
    private static let paths = Mutex<Set<String>>([])

    static func add(_ path: String) { paths.withLock { _ = $0.insert(path) } }

    /// Forgets `path` and removes the file if it is still there.
    static func remove(_ path: String) {
        paths.withLock { _ = $0.remove(path) }
        unlink(path)
    }

    /// Removes every registered file (at a forced exit).
    public static func removeAll() {
        paths.withLock { paths in
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }
}
