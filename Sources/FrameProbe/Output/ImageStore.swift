import Foundation

/// Writes an input's images and clips into its own folder under `--output-dir` (see `OutputLayout`), each file
/// whole or not at all, never replacing an existing file without `overwrite` (`OutputFile`).
public struct ImageStore: Sendable {
    public let directory: URL
    public let overwrite: Bool

    /// `root` is `--output-dir`; `folder` is the input's folder name from `OutputLayout`.
    public init(root: URL, folder: String, overwrite: Bool = false) {
        directory = root.appendingPathComponent(folder, isDirectory: true)
        self.overwrite = overwrite
    }

    /// The path a file named `name` gets.
    public func path(of name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `bytes` as `name` and returns the final path.
    public func write(_ bytes: [UInt8], name: String) throws(FrameProbeError) -> String {
        try OutputFile.write(bytes, to: path(of: name), overwrite: overwrite)
    }
}
