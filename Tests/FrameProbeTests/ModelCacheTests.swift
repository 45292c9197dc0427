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

    /// The cache files' names, as a first run in a private folder makes them.
    static let cacheNames: [String] = {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = Shell.run("FRAMEPROBE_CACHE_DIR=\(Shell.quote(folder.path)) \"$FP\" analyze --face-contours \(Shell.quote(photo))")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }()

    /// Links planted in the cache folder — at the temporary names the cache once used (`NAME.tmp.PID`, the PID known
    /// by exec-ing frameprobe from the shell that planted them) and at the cache files themselves — never make the
    /// cache write through them: their target is untouched and the cache is made beside them.
    @Test func plantedLinksAreNeverFollowed() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache"), victim = folder.appendingPathComponent("victim").path
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        #expect(Self.cacheNames.count == 2, "\(Self.cacheNames)")
        let plant = Self.cacheNames.map { name in "ln -s \(Shell.quote(victim)) \(Shell.quote(cache.path))/\(name).tmp.$$" }.joined(separator: "; ")
        let run = Shell.run("bash -c \(Shell.quote("\(plant); exec env FRAMEPROBE_CACHE_DIR=\(Shell.quote(cache.path)) \"$0\" analyze --face-contours \(Shell.quote(Self.photo))")) \"$FP\"")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        for name in Self.cacheNames {
            let link = cache.appendingPathComponent(name).path
            try? FileManager.default.removeItem(atPath: link)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        }
        #expect(try events(cache: cache.path) == (try events(cache: "")))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        let made = try Self.cacheNames.map { try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent($0).path)[.type] as? FileAttributeType }
        #expect(made == [.typeRegular, .typeRegular])
    }

    /// A FIFO at the cache path is no cache: the run does not wait on it (it used to hang) and gives the same events.
    @Test func aFIFOAtTheCachePathIsNotRead() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in Self.cacheNames { #expect(mkfifo(folder.appendingPathComponent(name).path, 0o600) == 0) }
        let result = Shell.run("FRAMEPROBE_CACHE_DIR=\(Shell.quote(folder.path)) timeout 120 \"$FP\" analyze --face-contours \(Shell.quote(Self.photo))")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.events(named: "faceDetected").count == 1)
    }

    /// A folder others may write to is used only with the sticky bit (as /tmp); a missing home is never created.
    @Test func aFolderOthersCanWriteToIsUsedOnlyWhenSticky() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (mode, used) in [(0o777, false), (0o775, false), (0o1777, true), (0o755, true)] {
            let cache = folder.appendingPathComponent("cache-\(String(mode, radix: 8))")
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            #expect(chmod(cache.path, mode_t(mode)) == 0)
            _ = try events(cache: cache.path)
            #expect(!(try FileManager.default.contentsOfDirectory(atPath: cache.path)).isEmpty == used, "mode \(String(mode, radix: 8))")
        }
        let home = folder.appendingPathComponent("no-such-home").path
        let result = Shell.run("env -u FRAMEPROBE_CACHE_DIR -u XDG_CACHE_HOME HOME=\(Shell.quote(home)) \"$FP\" analyze \(Shell.quote(Self.photo))")
        #expect(result.status == 0 && !FileManager.default.fileExists(atPath: home))
    }
}
