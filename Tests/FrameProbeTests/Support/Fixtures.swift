import Foundation
import Testing

/// The generated test footage (TestVideos/generate, into .build/testvideos) and the package's paths.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The footage folder, and why generating it failed (nil when it worked).
    static let generated: (directory: URL, failure: String?) = {
        let out = packageRoot.appendingPathComponent(".build/testvideos")
        let result = Shell.run("\(packageRoot.path)/TestVideos/generate \(Shell.quote(out.path))")
        return (out, result.status == 0 ? nil : "TestVideos/generate failed (exit \(result.status)): \(result.stderr)")
    }()

    /// The footage folder. When the generator failed, the test asking for it fails (and says why) — not the
    /// whole test process.
    static var directory: URL {
        if let failure = generated.failure { Issue.record(Comment(rawValue: failure)) }
        return generated.directory
    }

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frameprobe-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
