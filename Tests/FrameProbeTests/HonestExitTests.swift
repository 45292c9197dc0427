import Foundation
import Testing

/// SPEC §10: no trap from any number or file, side files regular and capped, signals end a blocked run, damaged
/// or odd inputs are errors (never a silent exit 0), and the report's inputs are checked like any input.
struct HonestExitTests {
    static func write(_ name: String, _ text: String) throws -> String {
        let url = Fixtures.temporaryDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Exit 2 with the key on stderr (never a trap: exit 132/134 or a crash report).
    func expectRefused(_ result: Shell.Result, key: String, _ what: String) {
        #expect(result.status == 2, "\(what): exit \(result.status) \(result.stderr.prefix(300))")
        #expect(result.stderr.contains("frameprobe: \(key): "), "\(what): \(result.stderr.prefix(300))")
    }

    @Test func numbersThatDoNotFitAreInvalidSettings() throws {
        let image = Fixtures.path("portrait.jpg")
        let config = try Self.write("huge.json", #"{"numberOfImages": 1e308}"#)
        expectRefused(Shell.frameprobe(["analyze", "--config", config, image]), key: "INVALID_NUMBER_OF_IMAGES", "numberOfImages 1e308")
        expectRefused(Shell.frameprobe(["analyze", "--start", "1e13", image]), key: "INVALID_START", "--start 1e13")
        expectRefused(Shell.frameprobe(["analyze", "--duration", "1e300", image]), key: "INVALID_DURATION", "--duration 1e300")
        let session = try Self.write("still.json", #"{"guidance": {"stillMs": 1e308}}"#)
        expectRefused(Shell.frameprobe(["acquire", "--session-config", session, Fixtures.path("selfie.mp4")]),
                      key: "INVALID_SESSION_CONFIG", "stillMs 1e308")
        expectRefused(Shell.run("SLURM_ARRAY_TASK_ID=9223372036854775807 SLURM_ARRAY_TASK_MIN=-1 SLURM_ARRAY_TASK_COUNT=2 $FP analyze \(Shell.quote(image))"),
                      key: "INVALID_SHARD", "SLURM_ARRAY_TASK_ID overflow")
        expectRefused(Shell.run("JOB_COMPLETION_INDEX=abc $FP analyze --shard-count 2 \(Shell.quote(image))"),
                      key: "INVALID_SHARD", "JOB_COMPLETION_INDEX=abc")
        expectRefused(Shell.run("$FP analyze --input-format rawvideo --video-size abc --pixel-format gray - < /dev/null"),
                      key: "INVALID_RAW_VIDEO", "--video-size abc")
        let attached = Shell.frameprobe(["analyze", "-j1", "--capture-type", "none", image])
        #expect(attached.status == 0 && attached.events(named: "inputClosed").count == 1, "-j1: \(attached.stderr)")
    }

    /// /dev/zero, a FIFO and an oversized file as side files: refused at once, never read without end.
    @Test func sideFilesMustBeRegularAndSmall() throws {
        let image = Fixtures.path("portrait.jpg")
        let big = Fixtures.temporaryDirectory().appendingPathComponent("big.json")
        #expect(Shell.run("head -c 2000000 /dev/zero | tr '\\0' ' ' > \(Shell.quote(big.path))").status == 0)
        for (flag, key) in [("--config", "INVALID_CONFIG"), ("--session-config", "INVALID_SESSION_CONFIG"), ("--strings", "INVALID_STRINGS")] {
            let command = flag == "--config" ? "analyze" : "acquire"
            expectRefused(Shell.frameprobe([command, flag, "/dev/zero", image]), key: key, "\(flag) /dev/zero")
            expectRefused(Shell.frameprobe([command, flag, big.path, image]), key: key, "\(flag) 2 MB")
        }
        let fifo = Fixtures.temporaryDirectory().appendingPathComponent("config.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        expectRefused(Shell.frameprobe(["analyze", "--config", fifo, image]), key: "INVALID_CONFIG", "--config FIFO")
        expectRefused(Shell.frameprobe(["report", "--merge", "/dev/zero"]), key: "INVALID_REPORT", "--merge /dev/zero")
        let zero = Fixtures.temporaryDirectory().appendingPathComponent("zero.jsonl").path
        #expect(symlink("/dev/zero", zero) == 0)
        let lines = Shell.frameprobe(["report", "-f", "json", "-o", "-", zero, Fixtures.path("portrait.jpg")])
        #expect(lines.status == 1, "a .jsonl that is /dev/zero is a failed input: \(lines.stderr)")
        #expect(lines.stdout.contains("is not a regular file"))
    }

    /// A pipe nobody reads and a FIFO with no reader: SIGTERM / SIGINT still end the run (the promise is 2 s; the
    /// bound here is 5× that, so a loaded machine cannot fail it) with 143 / 130.
    @Test(arguments: [("pipe", "TERM", 143), ("fifo", "INT", 130)])
    func signalsEndARunWhateverBlocks(blocked: String, signal: String, expected: Int) throws {
        let dir = Fixtures.temporaryDirectory()
        let fifo = dir.appendingPathComponent("events.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let clip = Shell.quote(Fixtures.path("approach-720p.mp4"))
        let state = Shell.quote(dir.path)
        let run = "$FP analyze --capture-type none --frame-quality \(clip) \(clip)"
        let start = blocked == "pipe"
            ? "{ \(run) & echo $! > \(state)/pid; wait $!; echo $? > \(state)/status; } | sleep 30 > /dev/null 2>&1 & reader=$!"
            : "{ \(run) -o \(Shell.quote(fifo)) & echo $! > \(state)/pid; wait $!; echo $? > \(state)/status; } > /dev/null 2>&1 & reader=$!"
        let result = Shell.run("""
            \(start)
            sleep 2; kill -\(signal) $(cat \(state)/pid)
            for i in $(seq 100); do [ -s \(state)/status ] && break; sleep 0.1; done
            cat \(state)/status 2>/dev/null || echo STILL_RUNNING; kill -KILL $reader 2>/dev/null; true
            """)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(expected)", "\(blocked): \(result.stdout)")
    }

    @Test func aDirectoryWalkSkipsFIFOsAndAnalysesOddNames() throws {
        let dir = Fixtures.temporaryDirectory()
        #expect(mkfifo(dir.appendingPathComponent("a.mp4").path, 0o600) == 0)
        let make = Shell.run("cp \(Shell.quote(Fixtures.path("portrait.jpg"))) \(Shell.quote(dir.path))/$'caf\\xe9.jpg'")
        #expect(make.status == 0, "\(make.stderr)")
        let walked = Shell.frameprobe(["analyze", "--capture-type", "none", "--frame-quality", dir.path])
        #expect(walked.status == 0, "\(walked.stderr)")
        #expect(walked.events(named: "skipped").first?.string("reason")?.contains("not a regular file") == true)
        let source = try #require(walked.events(named: "inputOpened").first?.string("source"))
        #expect(source.hasSuffix("caf\u{FFFD}.jpg"), "\(source)")
        #expect(walked.events(named: "frameQuality").count == 1)
        let named = Shell.run("$FP analyze --capture-type frame --output-dir \(Shell.quote(dir.path))/out \(Shell.quote(dir.path))/$'caf\\xe9.jpg'")
        #expect(named.status == 0, "\(named.stderr)")
        let saved = try #require(named.events(named: "imageCaptured").first?.string("imagePath"))
        #expect(saved.hasSuffix("/out/caf_.jpg/frame-0001.jpg") && FileManager.default.fileExists(atPath: saved), "\(saved)")
    }

    @Test func aTruncatedFileIsAnErrorWithWhatWasAnalysedKept() throws {
        let dir = Fixtures.temporaryDirectory()
        let make = Shell.run("""
            cd \(Shell.quote(dir.path)) && \
            ffmpeg -nostdin -v error -f lavfi -i testsrc2=size=640x360:rate=30:duration=20 -c:v libx264 -pix_fmt yuv420p -movflags +faststart whole.mp4 && \
            head -c 1000000 whole.mp4 > cut.mp4
            """)
        #expect(make.status == 0, "\(make.stderr)")
        let result = Shell.frameprobe(["analyze", "--capture-type", "none", "--frame-quality",
                                       dir.appendingPathComponent("cut.mp4").path, dir.appendingPathComponent("whole.mp4").path])
        #expect(result.status == 1)
        let error = try #require(result.events(named: "error").first)
        #expect(error.string("key") == "DECODE_ERROR" && error.string("source")?.hasSuffix("cut.mp4") == true, "\(error)")
        let analysed = result.events(named: "frameQuality").filter { $0.string("source")?.hasSuffix("cut.mp4") == true }.count
        #expect(analysed > 100 && analysed < 600, "\(analysed) frames of the cut file")
        #expect(result.events(named: "frameQuality").count == analysed + 600, "the whole file still ran, without error")
    }

    /// 320×240 then 640×360 in one stream, with a budget between: the second part is FRAME_TOO_LARGE, not
    /// "corrupt packets" with exit 0.
    @Test func aFrameOverTheBudgetMidStreamIsAnError() throws {
        let result = Shell.frameprobe(["analyze", "--capture-type", "none", "--frame-quality", "--max-pixels", "100000",
                                       Fixtures.resizingStream()])
        #expect(result.status == 1)
        #expect(result.events(named: "error").first?.string("key") == "FRAME_TOO_LARGE", "\(result.events(named: "error"))")
        #expect(result.events(named: "frameQuality").count == 25)
    }

    /// Two clips whose timestamps both start at 0, concatenated: the capture gate counts the footage's own time,
    /// so a 0.5 s gate saves 4 images over 2 s — not 2 (stuck after the jump back).
    @Test func theCaptureGateSurvivesTimestampsGoingBack() throws {
        let dir = Fixtures.temporaryDirectory()
        let make = Shell.run("""
            cd \(Shell.quote(dir.path)) && \
            ffmpeg -nostdin -v error -f lavfi -i testsrc2=size=320x240:rate=25:duration=1 -c:v libx264 -pix_fmt yuv420p -f mpegts a.ts && \
            cp a.ts b.ts && cat a.ts b.ts > joined.ts
            """)
        #expect(make.status == 0, "\(make.stderr)")
        let result = Shell.frameprobe(["analyze", "--capture-type", "frame", "--time-between-images", "500", "--output-dir",
                                       dir.appendingPathComponent("out").path, dir.appendingPathComponent("joined.ts").path])
        #expect(result.status == 0, "\(result.stderr)")
        let pts = result.events(named: "imageCaptured").compactMap { $0.double("pts") }
        #expect(pts.count == 4, "\(pts)")
        #expect(pts.contains { $0 < 0.1 } && pts.filter { $0 < 0.1 }.count == 2, "one image at each clip's start: \(pts)")
    }

    @Test func reportsEscapeDataAndCheckTheirInputs() throws {
        let dir = Fixtures.temporaryDirectory()
        let base = dir.appendingPathComponent("base").path
        #expect(Shell.frameprobe(["report", "-f", "json", "-o", base, Fixtures.path("portrait.jpg")]).status == 0)
        // A merged report whose data carries markup: none of it reaches the page as markup.
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: base + ".json"))) as? [String: Any])
        var inputs = try #require(document["inputs"] as? [[String: Any]])
        inputs[0]["thumbnail"] = "\"><img src=x onerror=alert(1)>"
        inputs[0]["source"] = "<script>alert(1)</script>|*x*"
        document["inputs"] = inputs
        let evil = dir.appendingPathComponent("evil.json").path
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: evil))
        let page = Shell.frameprobe(["report", "--merge", "-f", "html", "-o", "-", evil])
        #expect(page.status == 0, "\(page.stderr)")
        #expect(!page.stdout.contains("<img src=x") && !page.stdout.contains("<script>"))
        #expect(page.stdout.contains("&lt;script&gt;"))
        let markdown = Shell.frameprobe(["report", "--merge", "-f", "markdown", "-o", "-", evil])
        #expect(!markdown.stdout.contains("<script>") && markdown.stdout.contains("\\|\\*x\\*"), "\(markdown.stdout)")

        expectRefused(Shell.frameprobe(["report", "--merge", "-o", dir.appendingPathComponent("twice").path, base + ".json", base + ".json"]),
                      key: "INVALID_MERGE", "the same report merged twice")

        // JSON Lines: a folder of them is read; random bytes and a missing file are failed inputs (exit 1).
        let lines = dir.appendingPathComponent("lines")
        try FileManager.default.createDirectory(at: lines, withIntermediateDirectories: true)
        #expect(Shell.frameprobe(["analyze", "-o", lines.appendingPathComponent("a.jsonl").path, Fixtures.path("portrait.jpg")]).status == 0)
        let folder = Shell.frameprobe(["report", "-f", "json", "-o", "-", lines.path])
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect((try JSONSerialization.jsonObject(with: Data(folder.stdout.utf8)) as? [String: Any])?["inputs"].map { ($0 as? [Any])?.count } == 1)
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: lines.appendingPathComponent("noise.jsonl"))
        let noisy = Shell.frameprobe(["report", "-f", "json", "-o", "-", lines.path, dir.appendingPathComponent("missing.jsonl").path])
        #expect(noisy.status == 1, "\(noisy.stderr)")
        let failed = (try JSONSerialization.jsonObject(with: Data(noisy.stdout.utf8)) as? [String: Any])?["total"] as? [String: Any]
        #expect((failed?["failedInputs"] as? NSNumber)?.intValue == 2, "\(failed ?? [:])")

        // Nothing to report on is an error, not "all gates passed".
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = Shell.frameprobe(["report", "-o", dir.appendingPathComponent("none").path, empty.path])
        #expect(none.status == 1 && none.stderr.contains("NO_INPUT"), "\(none.stderr)")
        let nothing = Shell.frameprobe(["analyze", empty.path])
        #expect(nothing.status == 1 && nothing.stderr.contains("NO_INPUT"), "\(nothing.stderr)")

        // -o DIR/ puts the report inside, under its usual name (not a hidden ".json").
        let into = Shell.frameprobe(["report", "-o", lines.path + "/", Fixtures.path("portrait.jpg")])
        #expect(into.status == 0)
        #expect(FileManager.default.fileExists(atPath: lines.appendingPathComponent("frameprobe-report.json").path))
    }
}
