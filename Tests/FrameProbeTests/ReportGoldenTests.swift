import Foundation
import Testing

/// Every built-in report format on two real clips, against the files `Tests/FrameProbeTests/Golden/` holds: what
/// frameprobe wrote before the report machinery was made generic (commit 3254de9), so any change a refactor makes to
/// what users read shows here. The clips: the first 4 s of `video/driving_d6.mp4` (a talking head) and the first 4 s
/// of `video/source_s13.mp4` darkened from 1 s to 2 s and blurred from 2.5 s to 3.5 s (stored losslessly, so the
/// pixels analysed are the filters' output whatever x264 build encodes them: a lossy encode changed with Debian's
/// ffmpeg 5.1.9 update and moved darkness in the sixth decimal). What depends on the machine is blanked before comparing: wall times, and the
/// face thumbnails (crops of footage from other repositories, which this repository does not carry).
/// `FRAMEPROBE_UPDATE_GOLDEN=1` rewrites the files instead (review the diff: only deliberate additions belong there).
@Suite(.needsTestData, .serialized)
struct ReportGoldenTests {
    static let golden = Fixtures.packageRoot.appendingPathComponent("Tests/FrameProbeTests/Golden")
    static let formats = ["json", "xml", "md", "html", "csv", "github.txt"]

    /// The two clips in a folder of their own, under short names (reports name inputs as given).
    static let clips: URL = {
        let folder = Fixtures.temporaryDirectory()
        let talking = TestData.firstSeconds(4, of: "video/driving_d6.mp4")
        let edited = Shell.run("""
            cd \(Shell.quote(folder.path)) && ln -s \(Shell.quote(talking)) talking.mp4 && \
            ffmpeg -nostdin -v error -y -t 4 -i \(Shell.quote(TestData.path("video/source_s13.mp4"))) -an \
            -vf "eq=brightness=-0.7:enable='between(t,1,2)',boxblur=8:enable='between(t,2.5,3.5)'" \
            -c:v libx264 -qp 0 -preset ultrafast -pix_fmt yuv420p edited.mp4
            """)
        if edited.status != 0 { Issue.record(Comment(rawValue: "making the edited clip failed: \(edited.stderr)")) }
        return folder
    }()

    /// `report` on both clips with a gate per input and one on the totals (`--baseline` when given), every format.
    static func report(baseline: String? = nil, prefix: String) -> Shell.Result {
        Shell.run("cd \(Shell.quote(clips.path)) && $FP report talking.mp4 edited.mp4 -f json,junit,markdown,html,csv,github "
                  + "-o \(Shell.quote(prefix)) --gate 'faceFrameRatio>=0.9' --gate 'total.blurredRatio<=0.05' -j 2"
                  + (baseline.map { " --baseline \(Shell.quote($0))" } ?? ""))
    }

    /// The machine-dependent parts blanked: wall times (JSON `elapsedSeconds`, JUnit `time`) and thumbnails.
    static func normalized(_ text: String) -> String {
        var text = text
        for (pattern, replacement) in [
            (#""elapsedSeconds" : [0-9.e+-]+"#, #""elapsedSeconds" : 0"#),
            (#"time="[0-9.]+""#, #"time="0""#),
            (#"data:image/jpeg;base64,[A-Za-z0-9+/=]+"#, "data:image/jpeg;base64,THUMBNAIL"),
        ] {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }

    @Test func everyFormatIsWhatItWas() throws {
        let prefix = Fixtures.temporaryDirectory().appendingPathComponent("report").path
        let run = Self.report(prefix: prefix)
        #expect(run.status == 3, "a per-input gate and the total gate fail: \(run.stderr)")
        let update = ProcessInfo.processInfo.environment["FRAMEPROBE_UPDATE_GOLDEN"] == "1"
        for format in Self.formats {
            let written = try String(contentsOfFile: "\(prefix).\(format)", encoding: .utf8)
            let file = Self.golden.appendingPathComponent("report.\(format)")
            if update {
                try FileManager.default.createDirectory(at: Self.golden, withIntermediateDirectories: true)
                try Data(Self.normalized(written).utf8).write(to: file)
                continue
            }
            let expected = try String(contentsOf: file, encoding: .utf8)
            let lines = (Self.normalized(written).components(separatedBy: "\n"), expected.components(separatedBy: "\n"))
            let firstDifference = zip(lines.0, lines.1).enumerated().first { $0.element.0 != $0.element.1 }
            #expect(lines.0 == lines.1, "report.\(format) differs from the golden file\(firstDifference.map { " at line \($0.offset + 1): \($0.element.0) ≠ \($0.element.1)" } ?? " in length")")
        }
        // The golden files hold real values, not empty reports: the edits show as intervals, the gates fail.
        let markdown = try String(contentsOf: Self.golden.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("edited.mp4: too dark 1.00–2.04 s"))
        #expect(markdown.contains("- edited.mp4: ❌ faceFrameRatio&gt;=0.9 (got 0.53)"))
    }

    /// A JSON report written before the report machinery was made generic (`baseline-3254de9.json`: 3254de9's
    /// report of these clips, byte for byte but for the blanked wall times and thumbnails) still loads as
    /// `--baseline`: the same clips against it change by nothing, and every field the old report has gets its delta.
    @Test func aReportFromBeforeLoadsAsBaseline() throws {
        let baseline = Self.golden.appendingPathComponent("baseline-3254de9.json").path
        let prefix = Fixtures.temporaryDirectory().appendingPathComponent("against").path
        let run = Self.report(baseline: baseline, prefix: prefix)
        #expect(run.status == 3, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(prefix).json"))) as? [String: Any])
        let inputs = try #require(report["inputs"] as? [[String: Any]])
        #expect(inputs.count == 2)
        // talking.mp4 is the same bytes (a stream copy), so nothing changes. 3254de9's edited.mp4 was a lossy encode
        // by the x264 of its day, so its pixels differ from today's lossless one by the codec's error: every field
        // still gets its delta, within what that error moves (a frame's worth of a ratio or an interval).
        let tolerance: [String: Double] = ["faceFrameRatio": 0.03, "darknessMean": 0.005, "sharpnessMin": 0.01, "tooDarkRatio": 0.03,
                                           "blurredRatio": 0.03, "faceImageQualityMean": 3, "darkSeconds": 0.1, "noFaceSeconds": 0.1,
                                           "fiq.headSize.mean": 3, "acquisitionSucceeded": 0]
        for input in inputs {
            let source = input["source"] as? String ?? ""
            let delta = try #require(input["delta"] as? [String: Double], "\(source)")
            for (field, allowed) in tolerance.sorted(by: { $0.key < $1.key }) {
                let change = try #require(delta[field], "\(source): delta.\(field) is missing")
                #expect(abs(change) <= (source == "talking.mp4" ? 0 : allowed), "\(source): delta.\(field) = \(change)")
            }
        }
        let comparison = try #require(report["baseline"] as? [String: Any])
        #expect((comparison["added"] as? [String]) == [] && (comparison["gone"] as? [String]) == [])
    }
}
