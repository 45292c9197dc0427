import Foundation
import FoundationXML
import Testing
@testable import FrameProbe

/// `frameprobe report` on generated footage with known properties: a dark clip, a blurred clip, a clip without a
/// face, a clip with two QR codes and a good selfie approach.
struct ReportTests {
    static let clips = ["dark.mp4", "blurred.mp4", "pattern.mp4", "qr-two.mp4", "approach-720p.mp4"].map(Fixtures.path)

    /// One report run with every format, shared by the tests that read it.
    static let full: (result: Shell.Result, prefix: String) = {
        let prefix = Fixtures.temporaryDirectory().appendingPathComponent("report").path
        let result = Shell.frameprobe(["report", "-o", prefix, "--format", "json", "--format", "junit", "--format", "markdown",
                                       "--format", "html", "--gate", "faceFrameRatio>=0.9", "--gate", "total.framesAnalysed>=400",
                                       "--jobs", "2"] + clips)
        return (result, prefix)
    }()

    /// The report at `prefix`.json, without the analysis times (wall clock, the one thing that differs between
    /// runs of the same inputs).
    func document(_ prefix: String) throws -> ReportDocument {
        var document = try ReportDocument.read(prefix + ".json")
        for index in document.inputs.indices { document.inputs[index].elapsedSeconds = nil }
        return document
    }

    @Test func everyFieldHasTheValueTheFootageImplies() throws {
        let report = try document(Self.full.prefix)
        #expect(report.inputs.map(\.source) == Self.clips)
        let dark = report.inputs[0], blurred = report.inputs[1], pattern = report.inputs[2], codes = report.inputs[3], selfie = report.inputs[4]
        #expect(dark.framesAnalysed == 90 && dark.fields["tooDarkRatio"] == 1 && (dark.darkness?.min ?? 0) > 0.7)
        #expect(blurred.fields["blurredRatio"] == 1 && (blurred.sharpness?.max ?? 1) < 0.1591 && blurred.fields["tooDarkRatio"] == 0)
        #expect(pattern.framesAnalysed == 50 && pattern.faceFrames == 0 && pattern.faceCounts == ["0": 50] && pattern.thumbnail == nil)
        #expect(pattern.acquisition?.succeeded == false && pattern.acquisition?.failure == "NO_AVAILABLE_QUALITY")
        #expect(codes.qrCodes.map(\.content).sorted() == ["frameprobe:A-1", "frameprobe:B-2"] && codes.qrCodes.allSatisfy { $0.firstSeen == 0 })
        #expect(codes.faceFrames == 30 && codes.faceCounts["0"] == 0 && codes.faceCounts.values.reduce(0, +) == 30)
        #expect(selfie.faceFrames == 150 && selfie.fields["faceFrameRatio"] == 1 && selfie.qrCodes.isEmpty)
        #expect(selfie.acquisition?.succeeded == true && abs((selfie.acquisition?.recordStartPts ?? 0) - 3.0) < 0.05)
        #expect((selfie.headPose["vertical"]?.values.reduce(0, +)) == 150)
        #expect((selfie.thumbnail ?? "").hasPrefix("data:image/jpeg;base64,"))
        #expect(selfie.series.pts.count == 150 && selfie.series.face.allSatisfy { $0 == 1 })
        #expect(report.total.framesAnalysed == 410 && report.total.inputs == 5 && report.total.qrCodeCount == 2)
        #expect(report.total.acquisitionsSucceeded == 1)
    }

    @Test func failingGateExitsThreeAndIsMarkedInEveryFormat() throws {
        let (result, prefix) = Self.full
        #expect(result.status == 3)
        let report = try document(prefix)
        #expect(!report.passed)
        #expect(report.inputs.map { $0.gates.first?.passed } == [true, true, false, true, true])
        #expect(report.totalGates.first?.passed == true)
        let markdown = try String(contentsOfFile: prefix + ".md", encoding: .utf8)
        #expect(markdown.contains("❌ failed") && markdown.contains("❌ faceFrameRatio&gt;=0.9 (got 0)"))
        let html = try String(contentsOfFile: prefix + ".html", encoding: .utf8)
        #expect(html.contains("<li class=\"fail\">✘ <code>faceFrameRatio&gt;=0.9</code> got 0</li>"))
    }

    @Test func passingGatesExitZero() {
        let result = Shell.frameprobe(["report", "-o", "-", "--capture-type", "frame", "--gate", "framesAnalysed>=1",
                                       "--gate", "total.inputs==2", Fixtures.path("qr-two.mp4"), Fixtures.path("portrait.jpg")])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"passed\" : true"))
    }

    @Test func badGatesAreUsageErrors() {
        let result = Shell.frameprobe(["report", "--gate", "faceFrameRation>=0.9", Fixtures.path("portrait.jpg")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean 'faceFrameRatio'"))
        #expect(Shell.frameprobe(["report", "--gate", "blurredRatio=<0.1", Fixtures.path("portrait.jpg")]).status == 2)
    }

    /// The JUnit file has the shape CI servers read: testsuites › testsuite › testcase, counts that add up, per input
    /// a testcase of its own and one per gate (classname the input), a failure naming the gate on the clip without a face.
    @Test func junitHasTheCommonShape() throws {
        let xml = try XMLDocument(contentsOf: URL(fileURLWithPath: Self.full.prefix + ".xml"))
        let root = try #require(xml.rootElement())
        #expect(root.name == "testsuites")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == 1)
        let cases = suites[0].elements(forName: "testcase")
        // 5 inputs × (input, faceFrameRatio>=0.9) and total.framesAnalysed>=400.
        #expect(cases.count == 11)
        #expect(suites[0].attribute(forName: "tests")?.stringValue == "11")
        #expect(suites[0].attribute(forName: "failures")?.stringValue == "1")
        let classnames = Set(cases.compactMap { $0.attribute(forName: "classname")?.stringValue })
        #expect(classnames == Set(Self.clips + ["total"]))
        let failed = cases.filter { !$0.elements(forName: "failure").isEmpty }
        #expect(failed.map { $0.attribute(forName: "classname")?.stringValue } == [Fixtures.path("pattern.mp4")])
        #expect(failed.map { $0.attribute(forName: "name")?.stringValue } == ["faceFrameRatio>=0.9"])
        #expect(failed.first?.elements(forName: "failure").first?.stringValue?.contains("faceFrameRatio>=0.9 (got 0)") == true)
    }

    /// The HTML page in a real browser: it renders without network, has its plots, and is not blank.
    @Test func htmlRendersInHeadlessChromium() throws {
        let page = "file://" + Self.full.prefix + ".html"
        let shot = Fixtures.temporaryDirectory().appendingPathComponent("report.png").path
        let browser = "chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars"
        let dom = Shell.run("\(browser) --dump-dom \(Shell.quote(page)) 2>/dev/null")
        #expect(dom.status == 0)
        // Quality and face plots per input, head angles for each input with a face (not pattern.mp4), and face
        // image quality for each input with a measured face.
        let measured = try document(Self.full.prefix).inputs.filter { $0.faceImageQuality != nil }.count
        #expect(measured == 4)
        #expect(dom.stdout.components(separatedBy: "<svg class=\"plot\"").count - 1 == 10 + 4 + measured)
        #expect(dom.stdout.components(separatedBy: "<path stroke=").count > 15)
        #expect(dom.stdout.contains("<img class=\"thumb\""))
        let capture = Shell.run("\(browser) --window-size=1200,1400 --screenshot=\(Shell.quote(shot)) \(Shell.quote(page)) 2>&1")
        #expect(capture.status == 0 && FileManager.default.fileExists(atPath: shot), "\(capture.stdout)")
        // Not blank: the screenshot's luma spans dark text and a light page.
        let stats = Shell.run("ffmpeg -nostdin -v error -i \(Shell.quote(shot)) -vf signalstats,metadata=print:file=- -f null - | grep -E 'YMIN|YMAX'")
        let values = stats.stdout.split(separator: "\n").compactMap { Double($0.split(separator: "=").last ?? "") }
        #expect(values.count == 2 && (values.max() ?? 0) - (values.min() ?? 0) > 150, "\(stats.stdout)")
    }

    @Test func jobsDoNotChangeTheReport() throws {
        let prefix = Fixtures.temporaryDirectory().appendingPathComponent("one").path
        _ = Shell.frameprobe(["report", "-o", prefix, "--jobs", "1", "--gate", "faceFrameRatio>=0.9", "--gate", "total.framesAnalysed>=400"] + Self.clips)
        #expect(try document(prefix) == (try document(Self.full.prefix)))
    }

    /// Three machines' shards, merged, are the report one run gives (with --shard, Kubernetes' and Slurm's variables).
    @Test func threeShardsMergedEqualOneRun() throws {
        let dir = Fixtures.temporaryDirectory()
        let gates = ["--gate", "faceFrameRatio>=0.9", "--gate", "total.framesAnalysed>=400"]
        let clips = Self.clips.map(Shell.quote).joined(separator: " ")
        let shard0 = Shell.frameprobe(["report", "-o", dir.appendingPathComponent("s0").path, "--shard", "0/3"] + gates + Self.clips)
        let shard1 = Shell.run("JOB_COMPLETION_INDEX=1 $FP report -o \(Shell.quote(dir.appendingPathComponent("s1").path)) --shard-count 3 \(gates.map(Shell.quote).joined(separator: " ")) \(clips)")
        let shard2 = Shell.run("SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 $FP report -o \(Shell.quote(dir.appendingPathComponent("s2").path)) \(gates.map(Shell.quote).joined(separator: " ")) \(clips)")
        let parts = try ["s0", "s1", "s2"].map { try document(dir.appendingPathComponent($0).path) }
        // SPEC §8: shards are taken of the list sorted by source (approach, blurred, dark, pattern, qr-two), and the
        // positions stay those of the command line.
        #expect(parts.map { $0.inputs.map(\.index) } == [[2, 4], [1, 3], [0]])
        let reversed = Shell.frameprobe(["report", "-o", dir.appendingPathComponent("r0").path, "--shard", "0/3"] + Self.clips.reversed())
        #expect(reversed.status == 0, "\(reversed.stderr)")
        #expect(try document(dir.appendingPathComponent("r0").path).inputs.map(\.source).sorted() == parts[0].inputs.map(\.source).sorted())
        // Each shard's totals are its own (below 400 frames); the merged report evaluates the gates again.
        #expect([shard0.status, shard1.status, shard2.status] == [3, 3, 3])
        let merged = Shell.frameprobe(["report", "--merge", "-o", dir.appendingPathComponent("merged").path] + ["s0", "s1", "s2"].map { dir.appendingPathComponent($0 + ".json").path })
        #expect(merged.status == 3)
        // The same report, but for what says how it was made: one run's record, or the shards merged.
        var mergedDocument = try document(dir.appendingPathComponent("merged").path), single = try document(Self.full.prefix)
        #expect(mergedDocument.shards?.map(\.shard) == ["0/3", "1/3", "2/3"] && single.shards == nil)
        #expect(mergedDocument.run?.allInputsDigest == single.run?.allInputsDigest && mergedDocument.run?.settings == single.run?.settings)
        #expect(mergedDocument.run?.inputs == single.run?.inputs.sorted())
        (mergedDocument.run, mergedDocument.shards, single.run) = (nil, nil, nil)
        #expect(mergedDocument == single)
    }

    /// `analyze` JSON Lines read back give the same numbers as analysing the media in the report.
    @Test func reportFromAnalyzeJSONLines() throws {
        let dir = Fixtures.temporaryDirectory()
        let jsonl = dir.appendingPathComponent("events.jsonl").path
        let analyzed = Shell.frameprobe(["analyze", "--frame-quality", "--qrcode", "-o", jsonl, Fixtures.path("qr-two.mp4"), Fixtures.path("dark.mp4")])
        #expect(analyzed.status == 0)
        let fromLines = try {
            _ = Shell.frameprobe(["report", "-o", dir.appendingPathComponent("lines").path, jsonl])
            return try document(dir.appendingPathComponent("lines").path)
        }()
        let live = try document(Self.full.prefix)
        #expect(fromLines.inputs.map(\.source) == [Fixtures.path("qr-two.mp4"), Fixtures.path("dark.mp4")])
        for (read, analysed) in zip(fromLines.inputs, [live.inputs[3], live.inputs[0]]) {
            #expect(read.framesAnalysed == analysed.framesAnalysed && read.faceFrames == analysed.faceFrames)
            // The JSON Lines carry scores to 4 decimals.
            #expect(abs((read.darkness?.mean ?? -1) - (analysed.darkness?.mean ?? 1)) < 1e-4)
            #expect(abs((read.sharpness?.max ?? -1) - (analysed.sharpness?.max ?? 1)) < 1e-4)
            #expect(read.qrCodes == analysed.qrCodes && read.tooDarkFrames == analysed.tooDarkFrames)
            #expect(read.acquisition == nil)
        }
    }
}
