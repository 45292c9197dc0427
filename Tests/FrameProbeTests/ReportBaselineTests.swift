import Foundation
import Testing
@testable import FrameProbe

/// Against the last run (SPEC §7.2), and the formats for spreadsheets and GitHub: a clip degraded between two
/// runs, an identical rerun, inputs added and gone, an old report without a field, --merge; csv read back by
/// Python's csv module; workflow commands escaped; a thousand inputs in Markdown; progress on stderr.
struct ReportBaselineTests {
    static let source = TestData.firstSeconds(4, of: "video/driving_d6.mp4")

    /// A folder with `clip.mp4` (the real clip) and `other.mp4` (a generated selfie), and the baseline report on it.
    static func baseline() -> (dir: URL, report: String) {
        let dir = Fixtures.temporaryDirectory()
        _ = Shell.run("cp \(Shell.quote(source)) \(Shell.quote(dir.appendingPathComponent("clip.mp4").path)) && cp \(Shell.quote(Fixtures.path("selfie.mp4"))) \(Shell.quote(dir.appendingPathComponent("other.mp4").path))")
        let report = dir.appendingPathComponent("main").path
        _ = Shell.frameprobe(["report", "-o", report, dir.appendingPathComponent("clip.mp4").path, dir.appendingPathComponent("other.mp4").path])
        return (dir, report + ".json")
    }

    @Test(.needsTestData) func aDegradedClipGivesDeltasOfTheRightSignAndSizeAndFailsItsGate() throws {
        let (dir, old) = Self.baseline()
        let clip = dir.appendingPathComponent("clip.mp4").path
        // Darken the whole clip and blur it: the same input, worse footage.
        let worse = dir.appendingPathComponent("worse.mp4").path
        #expect(Shell.run("ffmpeg -nostdin -v error -y -i \(Shell.quote(clip)) -vf \"eq=brightness=-0.55,gblur=sigma=3\" -c:v libx264 -crf 18 \(Shell.quote(worse)) && mv \(Shell.quote(worse)) \(Shell.quote(clip))").status == 0)
        let prefix = dir.appendingPathComponent("change").path
        let result = Shell.frameprobe(["report", "-o", prefix, "-f", "json", "-f", "markdown", "--baseline", old,
                                       "--gate", "delta.tooDarkRatio<=0.05", "--gate", "total.delta.faceFrameRatio>=-0.1",
                                       clip, dir.appendingPathComponent("other.mp4").path])
        #expect(result.status == 3, "\(result.stderr)")
        let document = try ReportDocument.read(prefix + ".json")
        let degraded = document.inputs[0], same = document.inputs[1]
        #expect((degraded.delta?["tooDarkRatio"] ?? 0) > 0.9, "\(degraded.delta ?? [:])")   // was never dark, now always
        #expect((degraded.delta?["darknessMean"] ?? 0) > 0.2 && (degraded.delta?["sharpnessMean"] ?? 0) < 0)
        #expect((degraded.delta?["faceFrameRatio"] ?? 0) < -0.5)   // the darkened, blurred face is mostly lost
        #expect(degraded.gates[0].passed == false && same.gates[0].passed == true && same.delta?["tooDarkRatio"] == 0)
        #expect(document.totalGates.first?.passed == false && (document.total.delta?["faceFrameRatio"] ?? 0) < -0.1)
        // Markdown: the regression first, with what changed.
        let markdown = try String(contentsOfFile: prefix + ".md", encoding: .utf8)
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| /") }
        #expect(rows.first?.contains("clip.mp4") == true && rows.first?.contains("dark +") == true, "\(markdown)")
    }

    @Test(.needsTestData) func anIdenticalRerunHasZeroDeltasAndPasses() throws {
        let (dir, old) = Self.baseline()
        let inputs = ["clip.mp4", "other.mp4"].map { dir.appendingPathComponent($0).path }
        let prefix = dir.appendingPathComponent("again").path
        let result = Shell.frameprobe(["report", "-o", prefix, "--baseline", old, "--gate", "delta.faceFrameRatio>=0",
                                       "--gate", "delta.framesAnalysed==0"] + inputs)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try ReportDocument.read(prefix + ".json")
        for input in document.inputs {
            let delta = try #require(input.delta)
            #expect(delta.count > 10 && delta.values.allSatisfy { $0 == 0 }, "\(delta)")
        }
        #expect(document.baseline?.added == [] && document.baseline?.gone == [])
    }

    @Test(.needsTestData) func newAndGoneInputsAndAnOlderBaselineWithoutAField() throws {
        let (dir, old) = Self.baseline()
        let clip = dir.appendingPathComponent("clip.mp4").path
        let fresh = dir.appendingPathComponent("fresh.mp4").path
        _ = Shell.run("cp \(Shell.quote(Fixtures.path("dark.mp4"))) \(Shell.quote(fresh))")
        let prefix = dir.appendingPathComponent("mixed").path
        let gate = ["--gate", "delta.faceFrameRatio>=-0.5"]
        let failing = Shell.frameprobe(["report", "-o", prefix, "--baseline", old] + gate + [clip, fresh])
        #expect(failing.status == 3)
        let document = try ReportDocument.read(prefix + ".json")
        #expect(document.baseline?.added == [fresh] && document.baseline?.gone == [dir.appendingPathComponent("other.mp4").path])
        #expect(document.inputs[1].gates[0].passed == false && document.inputs[1].gates[0].reason == "the input is not in the baseline")
        let passing = Shell.frameprobe(["report", "-o", prefix, "-y", "--baseline", old, "--baseline-new-inputs", "pass"] + gate + [clip, fresh])
        #expect(passing.status == 0, "\(passing.stderr)")

        // A baseline from a version without quality ratios or intervals: those deltas have no value and their
        // gates fail and say why — no crash.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: old))) as? [String: Any])
        var inputs = try #require(object["inputs"] as? [[String: Any]])
        for index in inputs.indices { inputs[index]["intervals"] = nil; inputs[index]["scoredFrames"] = nil }
        object["inputs"] = inputs
        let older = dir.appendingPathComponent("older.json")
        try JSONSerialization.data(withJSONObject: object).write(to: older)
        let result = Shell.frameprobe(["report", "-o", prefix, "-y", "--baseline", older.path, "--gate", "delta.blurredRatio<=0",
                                       "--gate", "delta.darkSeconds<=0", "--gate", "delta.framesAnalysed==0", clip])
        #expect(result.status == 3)
        let gates = try #require(try ReportDocument.read(prefix + ".json").inputs.first?.gates)
        #expect(gates.map(\.passed) == [false, false, true])
        #expect(gates[0].value == nil && gates[0].reason?.contains("no value for blurredRatio") == true)
    }

    @Test(.needsTestData) func mergedReportsTakeABaselineToo() throws {
        let (dir, old) = Self.baseline()
        let inputs = ["clip.mp4", "other.mp4"].map { dir.appendingPathComponent($0).path }
        let shards = (0..<2).map { dir.appendingPathComponent("shard\($0)").path }
        for (index, shard) in shards.enumerated() { _ = Shell.frameprobe(["report", "-o", shard, "--shard", "\(index)/2"] + inputs) }
        let prefix = dir.appendingPathComponent("merged").path
        let result = Shell.frameprobe(["report", "--merge", "-o", prefix, "--baseline", old, "--gate", "delta.faceFrameRatio==0"]
                                      + shards.map { $0 + ".json" })
        #expect(result.status == 0, "\(result.stderr)")
        let document = try ReportDocument.read(prefix + ".json")
        #expect(document.inputs.count == 2 && document.inputs.allSatisfy { $0.delta?["framesAnalysed"] == 0 })
    }

    @Test func csvOpensAsATableAndGithubCommandsAreEscaped() throws {
        let dir = Fixtures.temporaryDirectory()
        let odd = dir.appendingPathComponent("a, \"b\" 100%.mp4").path
        _ = Shell.run("cp \(Shell.quote(Fixtures.path("pattern.mp4"))) \(Shell.quote(odd))")
        let prefix = dir.appendingPathComponent("formats").path
        let result = Shell.frameprobe(["report", "-o", prefix, "-f", "csv", "-f", "github", "--gate", "faceFrameRatio>=0.5",
                                       odd, Fixtures.path("selfie.mp4")])
        #expect(result.status == 3)
        let parsed = Shell.run("/usr/bin/python3 -c 'import csv,sys; rows=list(csv.reader(open(sys.argv[1], newline=\"\"))); print(len(rows), len(set(map(len, rows))), rows[1][0], rows[0].index(\"faceFrameRatio\"), rows[1][rows[0].index(\"faceFrameRatio\")], rows[2][rows[0].index(\"faceFrameRatio\")])' \(Shell.quote(prefix + ".csv"))")
        // Two inputs and the totals row, every row as wide as the header.
        #expect(parsed.stdout.hasPrefix("4 1 \(odd) "), "\(parsed.stdout) \(parsed.stderr)")
        #expect(parsed.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(" 0 1"))
        let github = try String(contentsOfFile: prefix + ".github.txt", encoding: .utf8)
        let errors = github.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("title=frameprobe%3A \(dir.path)/a%2C \"b\" 100%25.mp4::") == true, "\(github)")
        #expect(errors.first?.contains("faceFrameRatio>=0.5 (got 0)") == true)
        #expect(github.contains("::notice title=frameprobe report::2 inputs, gates FAILED"))
    }

    /// A thousand inputs: the first 50 rows in the table, the rest collapsed, failures first; far within GitHub's
    /// 1 MiB job-summary limit.
    @Test func aThousandInputsFitAJobSummary() throws {
        let inputs = (0..<1000).map { index in
            var input = InputReport(index: index, source: "/data/clips/camera-\(index).mp4")
            input.framesAnalysed = 300
            input.faceFrames = index % 7 == 0 ? 100 : 300
            return input
        }
        let document = ReportDocument(inputs: inputs, gates: [try Gate(parsing: "faceFrameRatio>=0.9")])
        let markdown = MarkdownRenderer.render(document)
        #expect(markdown.utf8.count < 1_048_576 / 4)
        let beforeDetails = try #require(markdown.components(separatedBy: "<details>").first)
        #expect(beforeDetails.components(separatedBy: "\n| /data/").count - 1 == 50)
        #expect(markdown.contains("<details><summary>950 more inputs</summary>"))
        // The 143 failing inputs (every 7th) come first.
        #expect(beforeDetails.components(separatedBy: " | ❌ 1 |").count - 1 == 50)
        // Under the table, the failed gates of the first 50 failing inputs, the other 93 collapsed.
        #expect(markdown.components(separatedBy: "\n- /data/clips/camera-").count - 1 == 143)
        #expect(markdown.contains("<details><summary>93 more</summary>"))
    }

    @Test func progressCountsFramesWithoutFrameEvents() {
        let result = Shell.run("$FP analyze --progress always --capture-type none \(Shell.quote(Fixtures.path("selfie.mp4"))) \(Shell.quote(Fixtures.path("dark.mp4"))) > /dev/null")
        #expect(result.status == 0)
        let last = result.stderr.components(separatedBy: "\r").last ?? ""
        #expect(last.contains("2/2 inputs  180 frames"), "\(result.stderr.suffix(200))")
        #expect(result.stderr.components(separatedBy: "\r").count > 2)
    }
}
