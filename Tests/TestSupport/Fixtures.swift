import Foundation
// Testing is there when the tests are built; a release build of the whole package (`swift build -c release`)
// compiles this target without it.
#if canImport(Testing)
import Testing
#endif

/// The generated test footage (TestVideos/generate, into .build/testvideos) and the package's paths.
public enum Fixtures {
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The footage folder, and why generating it failed (nil when it worked).
    public static let generated: (directory: URL, failure: String?) = {
        let out = packageRoot.appendingPathComponent(".build/testvideos")
        let result = Shell.run("\(packageRoot.path)/TestVideos/generate \(Shell.quote(out.path))")
        return (out, result.status == 0 ? nil : "TestVideos/generate failed (exit \(result.status)): \(result.stderr)")
    }()

    /// The footage folder. When the generator failed, the test asking for it fails (and says why) — not the
    /// whole test process.
    public static var directory: URL {
        if let failure = generated.failure { recordTestFailure(failure) }
        return generated.directory
    }

    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A new MPEG-TS file of two 1 s H.264 segments: 320×240, then 640×360 (timestamps continuing).
    public static func resizingStream() -> String {
        let dir = temporaryDirectory()
        let make = Shell.run("""
            cd \(Shell.quote(dir.path)) && \
            ffmpeg -nostdin -v error -f lavfi -i testsrc2=size=320x240:rate=25:duration=1 -c:v libx264 -pix_fmt yuv420p -f mpegts a.ts && \
            ffmpeg -nostdin -v error -f lavfi -i testsrc2=size=640x360:rate=25:duration=1 -c:v libx264 -pix_fmt yuv420p -output_ts_offset 1 -f mpegts b.ts && \
            cat a.ts b.ts > joined.ts
            """)
        if make.status != 0 { recordTestFailure("making the resizing stream failed: \(make.stderr)") }
        return dir.appendingPathComponent("joined.ts").path
    }

    /// A fresh temporary directory for one test, inside this process's own folder, which is removed when the test
    /// process exits — whether its tests passed or failed (tests that can also remove theirs at once do).
    public static func temporaryDirectory() -> URL {
        let url = runFolder.appendingPathComponent("frameprobe-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `frameprobe-tests-PID` in the system's temporary folder, registered for removal at exit.
    public static let runFolder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frameprobe-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Fixtures.runFolder) }
        return url
    }()
}

/// Records a failure of the test that is running (it fails, saying why).
public func recordTestFailure(_ message: String) {
    #if canImport(Testing)
    Issue.record(Comment(rawValue: message))
    #else
    FileHandle.standardError.write(Data((message + "\n").utf8))
    #endif
}
