import FrameProbe
import Foundation
import Testing

/// `--resume`: a batch cut short anywhere (between inputs, inside one, inside a line) continues to exactly the
/// output an uninterrupted run writes; a finished one is left alone; another run's output or a changed input is
/// refused. And `report --merge` checks that its parts are one run's shards.
@Suite struct ResumeTests {
    static let clips = ["clean.mp4", "dark.mp4", "blurred.mp4", "qr-two.mp4"].map(Fixtures.path)
    static let analysis = ["--frame-quality", "--qrcode", "--jobs", "2"]

    /// The output of one uninterrupted run, shared by the tests.
    static let whole: String = {
        let folder = NothingLostTests.Folder()
        let path = folder.file("whole.jsonl")
        let result = Shell.frameprobe(["analyze"] + analysis + ["-o", path] + clips)
        return result.status == 0 ? ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "") : "analyze failed: \(result.stderr)"
    }()

    /// Output with the one field that differs between runs (time taken) set to 0.
    static func timeless(_ text: String) -> String {
        text.replacingOccurrences(of: #""elapsedSeconds":[0-9.e+-]+"#, with: "\"elapsedSeconds\":0", options: .regularExpression)
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// Where a cut leaves the file: after the first input's inputClosed line (between inputs), halfway through the
    /// second input's lines (inside an input), and halfway through a line of the third.
    static func cuts(of text: String) -> [(name: String, bytes: Int)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.utf8.count + 1 }
        let ends = lines.indices.map { lines[...$0].reduce(0, +) }
        let closed = text.split(separator: "\n").enumerated().filter { $0.element.contains("\"event\":\"inputClosed\"") }.map(\.offset)
        guard closed.count >= 3 else { return [] }
        let midSecond = (closed[0] + closed[1]) / 2
        let thirdLine = (closed[1] + closed[2]) / 2
        return [("between inputs", ends[closed[0]]), ("inside an input", ends[midSecond]),
                ("inside a line", ends[thirdLine - 1] + lines[thirdLine] / 2), ("inside the first line", 20)]
    }

    @Test func aCutBatchResumesToTheOutputOfOneRun() throws {
        let whole = Self.whole
        try #require(whole.hasPrefix("{\"event\":\"runStarted\""), "\(whole.prefix(300))")
        let cuts = Self.cuts(of: whole)
        try #require(cuts.count == 4)
        let folder = NothingLostTests.Folder()
        for cut in cuts {
            let path = folder.file("cut.jsonl")
            try Data(whole.utf8.prefix(cut.bytes)).write(to: URL(fileURLWithPath: path))
            let resumed = Shell.frameprobe(["analyze"] + Self.analysis + ["-o", path, "--resume"] + Self.clips)
            #expect(resumed.status == 0, "\(cut.name): \(resumed.stderr)")
            #expect(Self.timeless(Self.read(path)) == Self.timeless(whole), "\(cut.name)")
        }
    }

    /// A run killed by SIGKILL wherever it was (once it has written some lines) resumes to the same output.
    @Test func aKilledBatchResumesToTheOutputOfOneRun() throws {
        let folder = NothingLostTests.Folder()
        let path = folder.file("killed.jsonl")
        let arguments = (Self.analysis + ["-o", path] + Self.clips).map(Shell.quote).joined(separator: " ")
        let killed = Shell.run("""
            "$FP" analyze \(arguments) & pid=$!
            for _ in $(seq 2400); do [ "$(wc -l < \(Shell.quote(path)) 2>/dev/null || echo 0)" -ge 60 ] && break; sleep 0.02; done
            kill -KILL $pid; wait $pid; echo "exit $?"
            """)
        #expect(killed.stdout.hasSuffix("exit 137\n"), "\(killed.stdout) \(killed.stderr)")
        #expect(Self.read(path).split(separator: "\n").count >= 60)
        let resumed = Shell.frameprobe(["analyze"] + Self.analysis + ["-o", path, "--resume"] + Self.clips)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(Self.timeless(Self.read(path)) == Self.timeless(Self.whole))
    }

    /// A finished run resumed does nothing: the file stays byte for byte, and the exit status is the first run's
    /// (1: an input failed).
    @Test func aFinishedRunIsLeftAloneAndKeepsItsStatus() throws {
        let folder = NothingLostTests.Folder()
        let path = folder.file("done.jsonl")
        let inputs = [Fixtures.path("clean.mp4"), folder.file("missing.mp4")]
        let first = Shell.frameprobe(["analyze", "-o", path] + inputs)
        #expect(first.status == 1)
        let before = Self.read(path)
        #expect(before.contains("\"key\":\"INPUT_UNREADABLE\"") || before.contains("\"event\":\"error\""))
        let again = Shell.frameprobe(["analyze", "-o", path, "--resume"] + inputs)
        #expect(again.status == 1, "\(again.stderr)")
        #expect(Self.read(path) == before)
    }

    /// Another run's output, or an input changed since, is refused with the reason and the file untouched;
    /// `--resume=redo-changed` analyses the changed input again.
    @Test func anotherRunOrAChangedInputIsRefused() throws {
        let folder = NothingLostTests.Folder()
        let clip = folder.file("clip.mp4"), other = folder.file("other.mp4"), path = folder.file("events.jsonl")
        try FileManager.default.copyItem(atPath: Fixtures.path("clean.mp4"), toPath: clip)
        try FileManager.default.copyItem(atPath: Fixtures.path("dark.mp4"), toPath: other)
        #expect(Shell.frameprobe(["analyze", "--frame-quality", "-o", path, clip, other]).status == 0)
        let before = Self.read(path)

        let settings = Shell.frameprobe(["analyze", "--frame-quality", "--sample-every", "2", "-o", path, "--resume", clip, other])
        #expect(settings.status == 2 && settings.stderr.contains("RESUME_MISMATCH") && settings.stderr.contains("--sample-every=2 here"), "\(settings.stderr)")
        let inputs = Shell.frameprobe(["analyze", "--frame-quality", "-o", path, "--resume", clip])
        #expect(inputs.status == 2 && inputs.stderr.contains("inputs differ"), "\(inputs.stderr)")
        #expect(Self.read(path) == before)

        try FileManager.default.removeItem(atPath: clip)
        try FileManager.default.copyItem(atPath: Fixtures.path("blurred.mp4"), toPath: clip)
        let changed = Shell.frameprobe(["analyze", "--frame-quality", "-o", path, "--resume", clip, other])
        #expect(changed.status == 2 && changed.stderr.contains("\(clip) changed"), "\(changed.stderr)")
        #expect(Self.read(path) == before)

        let redone = Shell.frameprobe(["analyze", "--frame-quality", "-o", path, "--resume=redo-changed", clip, other])
        #expect(redone.status == 0, "\(redone.stderr)")
        let fresh = folder.file("fresh.jsonl")
        #expect(Shell.frameprobe(["analyze", "--frame-quality", "-o", fresh, clip, other]).status == 0)
        #expect(Self.timeless(Self.read(path)) == Self.timeless(Self.read(fresh)))

        let notOurs = folder.file("notes.jsonl")
        try Data("{\"note\": 1}\n".utf8).write(to: URL(fileURLWithPath: notOurs))
        let refused = Shell.frameprobe(["analyze", "-o", notOurs, "--resume", clip])
        #expect(refused.status == 2 && refused.stderr.contains("INVALID_RESUME"), "\(refused.stderr)")
        #expect(Self.read(notOurs) == "{\"note\": 1}\n")
        #expect(Shell.frameprobe(["analyze", "--resume", clip]).stderr.contains("give -o FILE"))
    }

    /// `report --resume` keeps each finished input's report in PREFIX.resume.jsonl; cut after its first input (as
    /// a kill leaves it), it resumes to the report one run gives.
    @Test func aCutReportResumesToTheReportOfOneRun() throws {
        let folder = NothingLostTests.Folder()
        let prefix = folder.file("report"), wholePrefix = folder.file("whole")
        let gates = ["--gate", "total.framesAnalysed>=100000"]  // fails: the exit status (3) is kept too
        let whole = Shell.frameprobe(["report", "-f", "json", "-o", wholePrefix, "--resume"] + gates + Self.clips)
        #expect(whole.status == 3, "\(whole.stderr)")
        let journal = Self.read(wholePrefix + ".resume.jsonl").split(separator: "\n")
        #expect(journal.count == 1 + Self.clips.count && journal.dropFirst().allSatisfy { $0.hasPrefix("{\"event\":\"inputReport\"") })
        // The journal as a kill after the first input leaves it: the second input's line cut in half.
        let cut = journal.prefix(2).joined(separator: "\n") + "\n" + journal[2].prefix(journal[2].count / 2)
        try Data(cut.utf8).write(to: URL(fileURLWithPath: prefix + ".resume.jsonl"))
        let resumed = Shell.frameprobe(["report", "-f", "json", "-o", prefix, "--resume"] + gates + Self.clips)
        #expect(resumed.status == 3, "\(resumed.stderr)")
        func document(_ prefix: String) throws -> ReportDocument {
            var document = try ReportDocument.read(prefix + ".json")
            for index in document.inputs.indices { document.inputs[index].elapsedSeconds = nil }
            return document
        }
        #expect(try document(prefix) == (try document(wholePrefix)))
        let again = Shell.frameprobe(["report", "-f", "json", "-o", prefix, "--resume"] + gates + Self.clips)
        #expect(again.status == 3, "\(again.stderr)")
        #expect(try document(prefix) == (try document(wholePrefix)))
    }

    /// Shards of one run merge; a missing shard fails the merged report and says which; a shard given twice or one
    /// from another run (other settings) is refused, naming the part.
    @Test func theMergeChecksItsShards() throws {
        let folder = NothingLostTests.Folder()
        func shard(_ index: Int, _ extra: [String] = [], name: String? = nil) -> String {
            let prefix = folder.file(name ?? "s\(index)")
            let result = Shell.frameprobe(["report", "-f", "json", "-o", prefix, "--shard", "\(index)/3"] + extra + Self.clips)
            #expect(result.status == 0, "\(result.stderr)")
            return prefix + ".json"
        }
        let parts = (0..<3).map { shard($0) }
        let report = try ReportDocument.read(parts[1])
        #expect(report.run?.shard == (try Shard(index: 1, count: 3)) && report.run?.inputs.count == 1 && report.run?.allInputCount == 4)

        let all = Shell.frameprobe(["report", "--merge", "-f", "json", "-o", folder.file("all")] + parts)
        #expect(all.status == 0, "\(all.stderr)")
        let merged = try ReportDocument.read(folder.file("all") + ".json")
        #expect(merged.inputs.count == 4 && merged.shards?.map(\.shard) == ["0/3", "1/3", "2/3"] && merged.passed)

        let two = Shell.frameprobe(["report", "--merge", "-f", "json", "-f", "markdown", "-o", folder.file("two"), parts[0], parts[2]])
        #expect(two.status == 3, "\(two.stderr)")
        let partial = try ReportDocument.read(folder.file("two") + ".json")
        #expect(!partial.passed && partial.totalGates.contains { $0.reason == "shard 1/3 is missing: its 1 of the run's 4 inputs are not in the report" },
                "\(partial.totalGates)")
        #expect(Self.read(folder.file("two") + ".md").contains("shard 1/3 is missing"))

        let twice = Shell.frameprobe(["report", "--merge", "-f", "json", "-o", folder.file("twice"), parts[0], parts[1], parts[1]])
        #expect(twice.status == 2 && twice.stderr.contains("are both shard 1/3"), "\(twice.stderr)")
        let stranger = shard(2, ["--frame-quality"], name: "other")
        let other = Shell.frameprobe(["report", "--merge", "-f", "json", "-o", folder.file("other-run"), parts[0], parts[1], stranger])
        #expect(other.status == 2 && other.stderr.contains("\(stranger) is not a shard of the run") && other.stderr.contains("--frame-quality"),
                "\(other.stderr)")
    }
}
