import Foundation
// Testing is there when the tests are built; a release build of the whole package (`swift build -c release`)
// compiles this target without it.
#if canImport(Testing)
import Testing
#endif

/// The test-data folder: real footage from other repositories, kept outside this one (TestVideos/MANIFEST.tsv lists
/// it; Scripts/testdata verifies and fetches it). Found as Scripts/lib/testdata.sh finds it: `FRAMEPROBE_TEST_DATA`
/// when set, otherwise `../shared/devdata` beside the checkout. Without it, tests that need it are skipped with the
/// reason; under CI (`CI` set) they run and fail, so a green CI run always includes them.
public enum TestData {
    /// The folder, or nil with the reason it was not found.
    public static let located: (folder: URL?, reason: String) = {
        let environment = ProcessInfo.processInfo.environment
        if let named = environment["FRAMEPROBE_TEST_DATA"], !named.isEmpty {
            return isFolder(named) ? (URL(fileURLWithPath: named), "")
                : (nil, "FRAMEPROBE_TEST_DATA=\(named) is not a folder")
        }
        let beside = Fixtures.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/devdata")
        return isFolder(beside.path) ? (beside, "")
            : (nil, "no test-data folder: FRAMEPROBE_TEST_DATA is unset and \(beside.standardized.path) does not exist")
    }()

    /// Under CI a missing folder is an error, not a skip.
    public static let underCI = !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty

    /// Whether tests that need the folder run: it is there, or CI wants them to fail loudly without it.
    public static var runsRealFootageTests: Bool { located.folder != nil || underCI }

    /// The folder; records a failure (naming the reason) when it is missing.
    public static var folder: URL {
        if let folder = located.folder { return folder }
        recordTestFailure("real footage needed: \(located.reason)")
        return URL(fileURLWithPath: "/nonexistent-frameprobe-test-data")
    }

    /// A file or folder in it, by its path in the folder (`video/driving_d6.mp4`).
    public static func url(_ relative: String) -> URL { folder.appendingPathComponent(relative) }
    public static func path(_ relative: String) -> String { url(relative).path }

    /// The first `seconds` of a clip in the folder, video only, stream-copied (`ffmpeg -t S -an -c copy`) into
    /// `.build/testdata-fixtures`, cached by the source's sha256: the frames are the original's, bit for bit.
    public static func firstSeconds(_ seconds: Int, of relative: String) -> String {
        let source = path(relative)
        let hash = Shell.run("sha256sum < \(Shell.quote(source)) | cut -c1-16")
        guard hash.status == 0, !hash.stdout.isEmpty else {
            recordTestFailure("cannot read \(source): \(hash.stderr)")
            return source
        }
        let name = "\(hash.stdout.trimmingCharacters(in: .whitespacesAndNewlines))-first\(seconds)s-" + (relative as NSString).lastPathComponent
        let fixture = fixtures.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: fixture) { return fixture }
        // Written under a unique name and renamed, so tests making the same fixture at once never see half of it.
        let part = fixture + ".part-\(UUID().uuidString).mp4"
        let cut = Shell.run("mkdir -p \(Shell.quote(fixtures.path)) && ffmpeg -nostdin -v error -y -i \(Shell.quote(source)) -t \(seconds) -an -c copy \(Shell.quote(part)) && mv -f \(Shell.quote(part)) \(Shell.quote(fixture))")
        if cut.status != 0 {
            try? FileManager.default.removeItem(atPath: part)
            recordTestFailure("cutting the first \(seconds) s of \(source) failed: \(cut.stderr)")
        }
        return fixture
    }

    public static let fixtures = Fixtures.packageRoot.appendingPathComponent(".build/testdata-fixtures")

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

#if canImport(Testing)
extension Trait where Self == ConditionTrait {
    /// For tests and suites that read real footage from the test-data folder: skipped with the reason without it
    /// (outside CI).
    public static var needsTestData: Self {
        .enabled(if: TestData.runsRealFootageTests, Comment(rawValue: TestData.located.reason))
    }
}
#endif
