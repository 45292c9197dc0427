import Foundation

/// Writes an input's images as `DIR/<input-stem>/<name>`, atomically: a temporary file in the same directory,
/// then a rename, so a reader never sees a partial image and an interruption leaves no partial file.
public struct ImageStore: Sendable {
    public let directory: URL

    /// `root` is `--output-dir`; `source` is the input as given (its file stem names the sub-directory).
    public init(root: URL, source: String) {
        directory = root.appendingPathComponent(Self.stem(of: source), isDirectory: true)
    }

    /// A file-system-safe stem: the input's name without extension, `stdin` for `-`, characters outside
    /// letters, digits, `-`, `_` and `.` replaced by `_`.
    public static func stem(of source: String) -> String {
        if source == "-" { return "stdin" }
        let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        let safe = String(name.unicodeScalars.map { scalar -> Character in
            let allowed = CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar)
            return allowed ? Character(scalar) : "_"
        })
        let trimmed = safe.trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return trimmed.isEmpty ? "input" : trimmed
    }

    /// Writes `bytes` as `name` and returns the final path.
    public func write(_ bytes: [UInt8], name: String) throws(FrameProbeError) -> String {
        let target = directory.appendingPathComponent(name)
        let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: temporary)
            if rename(temporary.path, target.path) != 0 {
                throw FrameProbeError("OUTPUT_UNWRITABLE", "cannot rename into \(target.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            if let known = error as? FrameProbeError { throw known }
            throw FrameProbeError("OUTPUT_UNWRITABLE", "cannot write \(target.path): \(error.localizedDescription)")
        }
        return target.path
    }
}
