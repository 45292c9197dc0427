import Foundation
import Testing
@testable import FrameProbe

/// What reports say in words: counts with their plurals, the verdict when no gate was configured, the nearest gate
/// field instead of a list of all, `-f md`, Markdown's natural order, changes that round to nothing, columns of a
/// stage that told nothing, and a JSON file that ends its last line.
struct ReportWordingTests {
    /// Made-up inputs: `frames` analysed, `faces` of them with a face.
    func inputs(_ names: [String], faces: [Int]) -> [InputReport] {
        zip(names, faces).enumerated().map { index, input in
            var report = InputReport(index: index, source: input.0)
            report.framesAnalysed = 100
            report.framesDecoded = 100
            report.faceFrames = input.1
            return report
        }
    }

    @Test func theVerdictCountsInputsGatesAndChecks() throws {
        let one = ReportDocument(inputs: inputs(["a.mp4"], faces: [100]), gates: [])
        #expect(one.summary == "1 input, no gates configured")
        let two = inputs(["a.mp4", "b.mp4"], faces: [100, 40])
        #expect(ReportDocument(inputs: two, gates: [try Gate(parsing: "faceFrames>=10")]).summary == "2 inputs, all 1 gate passed")
        let failing = ReportDocument(inputs: two, gates: [try Gate(parsing: "faceFrameRatio>=0.9"), try Gate(parsing: "total.faceFrames>=100")])
        #expect(failing.summary == "2 inputs, gates FAILED (1 of 3 checks)")
        #expect(GitHubRenderer.render(failing).hasSuffix("::notice title=frameprobe report::2 inputs, gates FAILED (1 of 3 checks)\n"))
        #expect(HTMLRenderer.render(one).contains("<p class=\"summary\">1 input, no gates configured. 100 frames analysed; of the frames: face 100 %.</p>"))
        #expect(HTMLRenderer.render(one).contains("<p>No gates configured"))
        let json = try failing.json()
        #expect(json.last == UInt8(ascii: "\n") && json.dropLast().last == UInt8(ascii: "}"))
    }

    @Test func anUnknownGateFieldGetsTheNearestOneOnly() throws {
        do { _ = try Gate(parsing: "faceFrameRatoi>=0.9"); Issue.record("an unknown field was taken") } catch {
            #expect(error.message == "unknown field 'faceFrameRatoi' in 'faceFrameRatoi>=0.9' (did you mean 'faceFrameRatio'?)")
        }
        do { _ = try Gate(parsing: "total.delta.blurredRatoi<=0.1"); Issue.record("an unknown field was taken") } catch {
            #expect(error.message.hasSuffix("(did you mean 'delta.blurredRatio'?)"), "\(error.message)")
        }
        do { _ = try Gate(parsing: "zzzzzzzzzzzz>=1"); Issue.record("an unknown field was taken") } catch {
            #expect(error.message.contains("`frameprobe report --help` lists the fields") && error.message.count < 120)
        }
    }

    /// A switch whose stage the other settings leave out is a usage error, not silently nothing.
    @Test func aSwitchWithoutItsStageIsRefused() {
        let result = Shell.frameprobe(["analyze", "--capture-type", "none", "--face-image-quality", Fixtures.path("pattern.mp4")])
        #expect(result.status == 2 && result.stdout.contains("INVALID_FACE_IMAGE_QUALITY") && result.stdout.contains("--capture-type none"),
                "\(result.stdout)")
        #expect(Shell.frameprobe(["analyze", "--face-image-quality", "--stages", "quality", Fixtures.path("pattern.mp4")]).status == 0,
                "--stages names the stages itself")
    }

    @Test func formatsAreNamedByTheirExtensionsToo() {
        #expect(ReportFormat(named: "md") == .markdown && ReportFormat(named: "xml") == .junit && ReportFormat(named: "github.txt") == .github)
        #expect(ReportFormat(named: "markdown") == .markdown && ReportFormat(named: "doc") == nil)
        let prefix = Fixtures.temporaryDirectory().appendingPathComponent("r").path
        let result = Shell.frameprobe(["report", "-f", "md", "-o", prefix, Fixtures.path("pattern.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(((try? String(contentsOfFile: prefix + ".md", encoding: .utf8)) ?? "").hasPrefix("## frameprobe report"))
        #expect(result.stderr.hasSuffix("r.md — 1 input, no gates configured\n"), "\(result.stderr)")
    }

    @Test func markdownSortsNamesNaturallyAndLeavesOutWhatSaysNothing() throws {
        let made = inputs(["clip10.mp4", "clip2.mp4", "clip1.mp4"], faces: [90, 95, 99])
        var old = made
        old[0].faceFrames = 50
        let baseline = Baseline(path: "old.json", document: ReportDocument(inputs: old, gates: []), newInputsPass: false)
        let markdown = MarkdownRenderer.render(ReportDocument(inputs: made, gates: [], baseline: baseline))
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| clip") }
        #expect(rows.map { $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces) } == ["clip1.mp4", "clip2.mp4", "clip10.mp4"])
        // clip10 gained 40 pp of face frames; the others are the same as in the baseline.
        #expect(rows[2].hasSuffix("| face +40 pp |") && rows[0].hasSuffix("| unchanged |") && !markdown.contains("+0 pp"), "\(rows)")
        // No acquisition was checked: no acquire column.
        #expect(!markdown.contains("acquire"))
    }
}
