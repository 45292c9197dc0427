import Foundation
import Testing
@testable import FrameProbe

/// When, not only how much (SPEC §7.1): intervals on real footage edited with known segments, their gates, and how
/// each format shows them. The clip (the first 4 s of `video/driving_d6.mp4` in the test-data folder, a real webcam talking head) tuned nothing.
struct ReportIntervalTests {
    static let source = TestData.firstSeconds(4, of: "video/driving_d6.mp4")

    /// The clip darkened from 1 s to 3 s, and the clip with the face hidden (a gray frame) from 1 s to 2.5 s.
    static let edits: (dark: String, faceless: String) = {
        let dir = Fixtures.temporaryDirectory()
        let dark = dir.appendingPathComponent("dark-1-3.mp4").path, faceless = dir.appendingPathComponent("noface-1-2.5.mp4").path
        _ = Shell.run("ffmpeg -nostdin -v error -y -i \(Shell.quote(source)) -vf \"eq=brightness=-0.55:enable='between(t,1,3)'\" -c:v libx264 -crf 18 \(Shell.quote(dark))")
        _ = Shell.run("ffmpeg -nostdin -v error -y -i \(Shell.quote(source)) -vf \"drawbox=x=0:y=0:w=iw:h=ih:color=0x808080:t=fill:enable='between(t,1,2.5)'\" -c:v libx264 -crf 18 \(Shell.quote(faceless))")
        return (dark, faceless)
    }()

    static let report: (result: Shell.Result, prefix: String) = {
        let prefix = Fixtures.temporaryDirectory().appendingPathComponent("intervals").path
        let result = Shell.frameprobe(["report", "-o", prefix, "-f", "json", "-f", "junit", "-f", "markdown", "-f", "html",
                                       "--gate", "longestDarkInterval<=1.0", "--gate", "noFaceSeconds<=2", edits.dark, edits.faceless])
        return (result, prefix)
    }()

    let frame = 1.0 / 30 + 0.002

    @Test(.needsTestData) func intervalsMatchTheEditsWithinOneFrame() throws {
        let (result, prefix) = Self.report
        #expect(result.status == 3, "\(result.stderr)")
        let document = try ReportDocument.read(prefix + ".json")
        let dark = document.inputs[0], faceless = document.inputs[1]
        let darkIntervals = try #require(dark.intervals?["dark"])
        #expect(darkIntervals.count == 1)
        #expect(abs(darkIntervals[0][0] - 1.0) <= frame && abs(darkIntervals[0][1] - 3.0) <= frame, "\(darkIntervals)")
        #expect(faceless.intervals?["dark"]?.isEmpty == true)
        let noFace = try #require(faceless.intervals?["noFace"])
        #expect(noFace.count == 1)
        #expect(abs(noFace[0][0] - 1.0) <= frame && abs(noFace[0][1] - 2.5) <= frame, "\(noFace)")
        // Gates on them: the 2 s dark stretch breaks the 1 s limit; 1.5 s without a face is within 2 s.
        #expect(dark.gates[0].passed == false && abs((dark.gates[0].value ?? 0) - 2.0) <= 2 * frame)
        #expect(faceless.gates[1].passed == true && abs((faceless.gates[1].value ?? 0) - 1.5) <= 2 * frame)
        #expect(faceless.fields["noFaceIntervals"] == 1 && faceless.fields["longestDarkInterval"] == 0)
    }

    @Test(.needsTestData) func everyFormatSaysWhen() throws {
        let prefix = Self.report.prefix
        let junit = try String(contentsOfFile: prefix + ".xml", encoding: .utf8)
        #expect(junit.contains("longestDarkInterval&lt;=1.0 (got 2.0") && junit.contains(": too dark 1.00–3.0"))
        let markdown = try String(contentsOfFile: prefix + ".md", encoding: .utf8)
        #expect(markdown.contains("too dark 1.00–3.0") && markdown.contains("no face 1.00–2.5"))
        // The HTML in a real browser: one shaded band per interval, and a page that is not blank.
        let document = try ReportDocument.read(prefix + ".json")
        let bandCount = document.inputs.flatMap { ($0.intervals ?? [:]).values.flatMap { $0 } }.count
        #expect(bandCount >= 3)
        let browser = "chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars"
        let dom = Shell.run("\(browser) --dump-dom \(Shell.quote("file://" + prefix + ".html")) 2>/dev/null")
        #expect(dom.status == 0)
        #expect(dom.stdout.components(separatedBy: "<rect class=\"band\"").count - 1 == bandCount)
        let shot = Fixtures.temporaryDirectory().appendingPathComponent("bands.png").path
        _ = Shell.run("\(browser) --window-size=1200,900 --screenshot=\(Shell.quote(shot)) \(Shell.quote("file://" + prefix + ".html")) 2>&1")
        let stats = Shell.run("ffmpeg -nostdin -v error -i \(Shell.quote(shot)) -vf signalstats,metadata=print:file=- -f null - | grep -E 'YMIN|YMAX'")
        let values = stats.stdout.split(separator: "\n").compactMap { Double($0.split(separator: "=").last ?? "") }
        #expect(values.count == 2 && (values.max() ?? 0) - (values.min() ?? 0) > 150, "\(stats.stdout)")
    }

    /// One pass, flat memory: gaps shorter than the merge gap join, intervals shorter than the minimum go.
    @Test func trackerMergesAndDropsLikeBlackdetect() {
        var settings = IntervalSettings()
        settings.minDuration = 0.5
        settings.mergeGap = 0.2
        var tracker = IntervalTracker(settings)
        let frames: [(Double, Bool)] = [(0, false), (1.0, true), (1.5, false), (1.6, true), (2.0, false), (3.0, true), (3.2, false),
                                        (5.0, true)]
        for (pts, holds) in frames { tracker.observe(holds, at: pts) }
        // 1.0–1.5 and 1.6–2.0 merge (gap 0.1); 3.0–3.2 is too short; 5.0 runs to the end.
        #expect(tracker.finish(at: 6.0) == [[1.0, 2.0], [5.0, 6.0]])
    }

    @Test(.needsTestData) func gatesOnIntervalsWithoutDataFailAndSayWhy() throws {
        // A JSONL from analyze without --frame-quality has no quality frames: no dark intervals to judge.
        let jsonl = Fixtures.temporaryDirectory().appendingPathComponent("faces.jsonl").path
        #expect(Shell.frameprobe(["analyze", "-o", jsonl, Self.source]).status == 0)
        let prefix = Fixtures.temporaryDirectory().appendingPathComponent("nodata").path
        let result = Shell.frameprobe(["report", "-o", prefix, "--gate", "darkSeconds<=1", "--gate", "noFaceSeconds<=1", jsonl])
        #expect(result.status == 3)
        let input = try #require(try ReportDocument.read(prefix + ".json").inputs.first)
        #expect(input.gates[0].passed == false && input.gates[0].value == nil && input.gates[0].reason?.contains("no frame was scored") == true)
        #expect(input.gates[1].passed == true && input.gates[1].value == 0)
    }
}
