import Foundation

/// The generated test footage (TestVideos/generate, into .build/testvideos) and the package's paths.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let directory: URL = {
        let out = packageRoot.appendingPathComponent(".build/testvideos")
        let result = Shell.run("\(packageRoot.path)/TestVideos/generate \(Shell.quote(out.path))")
        precondition(result.status == 0, "TestVideos/generate failed: \(result.stderr)")
        return out
    }()

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frameprobe-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
