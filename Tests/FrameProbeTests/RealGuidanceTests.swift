import Foundation
import Testing

/// Guidance's defaults on real people. They were tuned on the generated approach footage (a still photo moved
/// into the oval); these clips (`video/` of the test-data folder, whole or their first 4 s, provenance in
/// TestVideos/MANIFEST.tsv) were not used to choose them. The head the oval is matched against adds a forehead of half the
/// landmarks' height (face proportions, not a fitted number); these clips are what showed it was missing.
struct RealGuidanceTests {
    /// `driving_d3-4s.mp4` and the like: the first 4 s of `video/driving_d3.mp4`; other names are whole clips in `video/`.
    static func clip(_ name: String) -> String {
        name.hasSuffix("-4s.mp4") ? TestData.firstSeconds(4, of: "video/" + name.replacingOccurrences(of: "-4s", with: ""))
            : TestData.path("video/" + name)
    }

    static func acquire(_ path: String) -> (result: Shell.Result, states: [String]) {
        let result = Shell.frameprobe(["acquire", "--output-dir", Fixtures.temporaryDirectory().path, path])
        return (result, result.events(named: "faceInfo").compactMap { $0.string("state") })
    }

    /// A 512×512 talking-head crop: the face is wider than the oval, so the only instruction is to get further away.
    @Test(.needsTestData) func aTightCropIsTooClose() {
        let run = Self.acquire(Self.clip("driving_d3-4s.mp4"))
        #expect(run.result.status == 1)
        #expect(run.states == ["TOO_CLOSE"], "\(run.states)")
        #expect((run.result.events(named: "videoRecordEnded").first?["error"] as? [String: Any])?["key"] as? String == "FACE_NEVER_STABLE")
    }

    /// A whole person in a portrait phone video: the face is far too small for the oval.
    @Test(.needsTestData) func aWholePersonInPortraitIsTooFar() {
        let run = Self.acquire(Self.clip("source_s13.mp4"))
        #expect(run.result.status == 1)
        #expect(run.states == ["TOO_FAR"], "\(run.states)")
    }

    /// The same talking heads padded into a 720×720 frame, head centred as a person would centre it in the oval:
    /// a good position from the first frame, still for a second, then a recorded clip.
    @Test(.needsTestData, arguments: ["driving_d6-4s.mp4", "driving_d3-4s.mp4"])
    func aCentredHeadIsAGoodPositionAndRecords(clip: String) throws {
        let padded = Fixtures.temporaryDirectory().appendingPathComponent("padded.mp4").path
        let make = Shell.run("ffmpeg -nostdin -v error -i \(Shell.quote(Self.clip(clip))) -vf pad=720:720:104:104:color=gray -c:v libx264 -crf 20 -pix_fmt yuv420p \(Shell.quote(padded))")
        #expect(make.status == 0, "\(make.stderr)")
        let run = Self.acquire(padded)
        #expect(run.result.status == 0, "\(clip): \(run.states)")
        #expect(run.states.first == "GOOD_POSITION", "\(clip): \(run.states)")
        let path = try #require(run.result.events(named: "videoRecordEnded").first?.string("videoFilePath"))
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
