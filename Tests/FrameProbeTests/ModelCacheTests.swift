import Foundation
import Testing

/// The parsed-model cache (FRAMEPROBE_CACHE_DIR): made on first use, used after, never changing a result, and a
/// damaged or unwritable cache only costs the slow load.
struct ModelCacheTests {
    static let photo = FaceFixtures.photo("Tom_Cruise_avp_2014_4.jpg")

    /// The run's events without the clock's field, with landmarks (so any change in the predictor shows).
    func events(cache: String) throws -> [String] {
        let result = Shell.run("FRAMEPROBE_CACHE_DIR=\(Shell.quote(cache)) \"$FP\" analyze --face-contours \(Shell.quote(Self.photo))")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.events.map { event -> String in
            var event = event
            event["elapsedSeconds"] = nil
            return String(decoding: try! JSONSerialization.data(withJSONObject: event, options: .sortedKeys), as: UTF8.self)
        }
        #expect(lines.contains { $0.contains("\"contours\"") }, "no landmarks in \(lines)")
        return lines
    }

    func cacheFiles(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func theCacheIsMadeOnceAndChangesNothing() throws {
        let folder = Fixtures.temporaryDirectory().appendingPathComponent("cache")
        let uncached = try events(cache: "")
        let first = try events(cache: folder.path)
        let files = cacheFiles(folder)
        #expect(files.count == 2 && files[0].hasPrefix("frontal_face_detector-") && files[1].hasPrefix("shape_predictor-"), "\(files)")
        let predictor = folder.appendingPathComponent(files.last ?? "")
        let made = try Data(contentsOf: predictor)
        #expect(made.count > 50_000_000)
        let second = try events(cache: folder.path)
        #expect(first == uncached && second == uncached)
        #expect(cacheFiles(folder) == files)  // used, not made again under another name

        // A flipped byte in the middle, then a cut: each time the model is read from dlib's file again, the results
        // stay the same and a whole cache is left for the next run.
        var damaged = made
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: predictor)
        #expect(try events(cache: folder.path) == uncached)
        #expect(try Data(contentsOf: predictor) == made)
        try made.prefix(made.count / 3).write(to: predictor)
        #expect(try events(cache: folder.path) == uncached)
        #expect(try Data(contentsOf: predictor) == made)
    }

    @Test func anUnusableCacheFolderIsNotAnError() throws {
        let file = Fixtures.temporaryDirectory().appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        #expect(try events(cache: file.path + "/cache") == (try events(cache: "")))
    }
}
