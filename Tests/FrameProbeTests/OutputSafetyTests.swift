import Foundation
import Testing

/// SPEC §10 Output safety: every input gets its own folder, nothing existing is replaced without -y, files are
/// created exclusively, an output is never an input, and a write that fails is an error — never a green exit.
/// Each test counts and hashes the files, so a lost or replaced file fails it.
struct OutputSafetyTests {
    /// Every regular file under `root` (relative path → SHA-1 of its bytes).
    static func files(under root: URL) -> [String: String] {
        let listing = Shell.run("cd \(Shell.quote(root.path)) && find . -type f -print0 | sort -z | xargs -0 -r sha1sum")
        var result: [String: String] = [:]
        for line in listing.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { result[String(parts[1].trimmingCharacters(in: .whitespaces).dropFirst(2))] = String(parts[0]) }
        }
        return result
    }

    static func hash(_ path: String) -> String {
        String(Shell.run("sha1sum \(Shell.quote(path))").stdout.prefix(40))
    }

    /// A work folder holding `a/x.jpg`, `b/x.jpg` (the same photo) and `clip.mp4` + `clip.mov`.
    static func sameStems() throws -> URL {
        let dir = Fixtures.temporaryDirectory()
        let make = Shell.run("""
            cd \(Shell.quote(dir.path)) && mkdir a b && cp \(Shell.quote(Fixtures.path("portrait.jpg"))) a/x.jpg && \
            cp a/x.jpg b/x.jpg && cp \(Shell.quote(Fixtures.path("clean.mp4"))) clip.mp4 && cp clip.mp4 clip.mov
            """)
        #expect(make.status == 0, "\(make.stderr)")
        return dir
    }

    @Test func inputsWithTheSameStemNeverShareAFolder() throws {
        let dir = try Self.sameStems()
        let out = dir.appendingPathComponent("out")
        let inputs = ["a/x.jpg", "b/x.jpg", "clip.mp4", "clip.mov", "a/x.jpg"].map { dir.appendingPathComponent($0).path }
        let result = Shell.frameprobe(["analyze", "--capture-type", "frame", "--number-of-images", "1", "--output-dir", out.path] + inputs)
        #expect(result.status == 0, "\(result.stderr)")
        let captured = result.events(named: "imageCaptured").compactMap { $0.string("imagePath") }
        #expect(captured.count == 5)
        #expect(Set(captured).count == 5, "\(captured)")
        let files = Self.files(under: out)
        #expect(Set(files.keys) == ["a/x.jpg/frame-0001.jpg", "b/x.jpg/frame-0001.jpg", "clip.mp4/frame-0001.jpg",
                                    "clip.mov/frame-0001.jpg", "a/x.jpg~2/frame-0001.jpg"], "\(files.keys.sorted())")
        // The same photo twice and the same clip in two containers: equal bytes, separate files.
        #expect(files["a/x.jpg/frame-0001.jpg"] == files["b/x.jpg/frame-0001.jpg"])
    }

    @Test func aRerunKeepsEveryFileUnlessOverwriteIsGiven() throws {
        let dir = try Self.sameStems()
        let out = dir.appendingPathComponent("out")
        let inputs = ["a/x.jpg", "b/x.jpg"].map { dir.appendingPathComponent($0).path }
        let arguments = ["analyze", "--capture-type", "frame", "--output-dir", out.path] + inputs
        #expect(Shell.frameprobe(arguments).status == 0)
        // Mark one saved image, then run again: it must survive, and both inputs say why they stopped.
        let marked = out.appendingPathComponent("a/x.jpg/frame-0001.jpg")
        try Data("mine".utf8).write(to: marked)
        let before = Self.files(under: out)
        let again = Shell.frameprobe(arguments)
        #expect(again.status == 1)
        #expect(again.events(named: "error").compactMap { $0.string("key") } == ["OUTPUT_EXISTS", "OUTPUT_EXISTS"])
        #expect(Self.files(under: out) == before)
        #expect(try String(contentsOf: marked, encoding: .utf8) == "mine")
        let forced = Shell.frameprobe(["analyze", "-y"] + arguments.dropFirst())
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Data(contentsOf: marked).prefix(2) == Data([0xFF, 0xD8]))
        #expect(Self.files(under: out).count == 2)
    }

    @Test func twoProcessesIntoOneFolderNeverClobberEachOther() throws {
        let dir = try Self.sameStems()
        let out = dir.appendingPathComponent("out").path
        let input = dir.appendingPathComponent("clip.mp4").path
        let result = Shell.run("""
            cd \(Shell.quote(dir.path)) || exit 9; $FP analyze --capture-type frame --time-between-images 0 --output-dir \(Shell.quote(out)) \(Shell.quote(input)) > one.jsonl 2>/dev/null & \
            $FP analyze --capture-type frame --time-between-images 0 --output-dir \(Shell.quote(out)) \(Shell.quote(input)) > two.jsonl 2>/dev/null; \
            second=$?; wait $!; first=$?; echo "$first $second"; cat one.jsonl two.jsonl
            """)
        let statuses = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let captured = result.events(named: "imageCaptured").compactMap { $0.string("imagePath") }
        let refused = result.events(named: "error").filter { $0.string("key") == "OUTPUT_EXISTS" }
        // Each frame's image was published by exactly one process; a process that met another's file stopped
        // with OUTPUT_EXISTS (exit 1), and every image either reports is on disk.
        #expect(Set(captured).count == captured.count, "an image reported twice: \(captured.count)")
        #expect(captured.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        #expect(Self.files(under: URL(fileURLWithPath: out)).count == captured.count)
        #expect(statuses == "0 1" || statuses == "1 0" || statuses == "1 1", "\(statuses)")
        #expect(!refused.isEmpty)
    }

    @Test func anInputInsideTheOutputFolderIsNeverOverwritten() throws {
        let out = Fixtures.temporaryDirectory()
        let input = out.appendingPathComponent("frame-0001/frame-0001.jpg")
        try FileManager.default.createDirectory(at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.path("portrait.jpg"), toPath: input.path)
        let before = Self.hash(input.path)
        let result = Shell.frameprobe(["analyze", "--capture-type", "frame", "--output-dir", out.path, input.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.hash(input.path) == before)
        #expect(Self.files(under: out).count == 2)
    }

    @Test func acquireNeverReplacesAClip() throws {
        let out = Fixtures.temporaryDirectory()
        let arguments = ["acquire", "--output-dir", out.path, Fixtures.path("approach-720p.mp4")]
        let first = Shell.frameprobe(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let clip = try #require(first.events(named: "videoRecordEnded").first?.string("videoFilePath"))
        #expect(clip.hasSuffix("approach-720p.mp4/selfie.mp4"))
        let before = Self.hash(clip)
        let second = Shell.frameprobe(arguments)
        #expect(second.status == 1)
        #expect(second.events(named: "error").first?.string("key") == "OUTPUT_EXISTS")
        #expect(Self.hash(clip) == before)
        #expect(Self.files(under: out).count == 1)
    }

    @Test func anOutputThatIsAnInputIsRefusedBeforeAnythingRuns() throws {
        let dir = try Self.sameStems()
        let clip = dir.appendingPathComponent("clip.mp4").path
        let before = Self.hash(clip)
        for arguments in [["analyze", "-o", clip, clip], ["analyze", "-y", "-o", clip, clip],
                          ["report", "-y", "-o", dir.appendingPathComponent("clip").path, "-f", "json,html", dir.appendingPathComponent("clip.html").path, clip]] {
            if arguments[0] == "report" { try Data("x".utf8).write(to: dir.appendingPathComponent("clip.html")) }
            let result = Shell.frameprobe(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("INVALID_OUTPUT"))
        }
        #expect(Self.hash(clip) == before)
    }

    @Test func anExistingEventsFileIsKeptWithoutOverwrite() throws {
        let dir = Fixtures.temporaryDirectory()
        let output = dir.appendingPathComponent("events.jsonl").path
        try Data("earlier run\n".utf8).write(to: URL(fileURLWithPath: output))
        let refused = Shell.frameprobe(["analyze", "-o", output, Fixtures.path("portrait.jpg")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("OUTPUT_EXISTS"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "earlier run\n")
        let replaced = Shell.frameprobe(["analyze", "--overwrite", "-o", output, Fixtures.path("portrait.jpg")])
        #expect(replaced.status == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("\"inputClosed\""))
    }

    /// A full device, a file-size limit, a closed stdout: exit 1 and OUTPUT_UNWRITABLE on stderr, and what
    /// was written is whole lines.
    @Test func aFailedWriteIsAnErrorNeverAGreenExit() throws {
        let dir = Fixtures.temporaryDirectory()
        let inputs = [Fixtures.path("clean.mp4"), Fixtures.path("selfie.mp4")].map(Shell.quote).joined(separator: " ")
        let quality = "--capture-type none --frame-quality"
        for (name, command) in [
            ("stdout /dev/full", "$FP analyze \(quality) \(inputs) > /dev/full"),
            ("-o /dev/full", "$FP analyze \(quality) -o /dev/full \(inputs)"),
            ("stdout closed", "$FP analyze \(quality) \(inputs) >&-"),
            ("-o over ulimit -f", "ulimit -f 8; $FP analyze \(quality) -o \(Shell.quote(dir.path))/limited.jsonl \(inputs)"),
            ("stdout over ulimit -f", "ulimit -f 8; $FP analyze \(quality) \(inputs) > \(Shell.quote(dir.path))/redirected.jsonl"),
            ("stages", "$FP stages > /dev/full"), ("help", "$FP analyze --help > /dev/full"), ("version", "$FP --version > /dev/full"),
            ("report to stdout", "$FP report -f markdown -o - \(Shell.quote(Fixtures.path("portrait.jpg"))) > /dev/full"),
            ("report file over ulimit -f", "ulimit -f 1; $FP report -f html -o \(Shell.quote(dir.path))/big \(Fixtures.path("selfie.mp4"))"),
        ] {
            let result = Shell.run(command)
            #expect(result.status == 1, "\(name): exit \(result.status)")
            #expect(result.stderr.contains("frameprobe: OUTPUT_UNWRITABLE"), "\(name): \(result.stderr)")
        }
        for name in ["limited.jsonl", "redirected.jsonl"] {
            let text = try String(contentsOfFile: dir.appendingPathComponent(name).path, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(text.count > 1000 && text.count <= 8192, "\(name): \(text.count) bytes")
            #expect(text.hasSuffix("\n"), "\(name) ends in a cut line")
            #expect(lines.dropLast().allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("big.html").path))
        #expect(Self.files(under: dir).keys.allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test func aReaderThatLeavesIsStillQuiet() {
        let result = Shell.run("$FP analyze --capture-type none --frame-quality \(Shell.quote(Fixtures.path("clean.mp4"))) | head -2")
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.events(named: "inputOpened").count == 1)
    }
}
