import Foundation

/// Reads a whole settings file — also from a pipe or a process substitution (`--config <(…)`), which
/// `Data(contentsOf:)` refuses.
public enum FileContents {
    public static func read(_ path: String, errorKey: String) throws(FrameProbeError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FrameProbeError(errorKey, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw FrameProbeError(errorKey, "cannot read \(path): \(error.localizedDescription)")
        }
    }
}
