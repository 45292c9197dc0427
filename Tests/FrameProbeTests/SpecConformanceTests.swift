import Foundation
import Testing
@testable import FrameProbe

/// The seeds' and SPEC's remaining details, each of which main got wrong once: deterministic results, gates that
/// never pass on missing data, Yoonit's out-of-frame rule, the strings, the session config, the schema.
struct SpecConformanceTests {
    /// Every line with `elapsedSeconds` taken out: what must be byte-identical between runs.
    static func comparable(_ result: Shell.Result) -> [String] {
        result.stdout.split(separator: "\n").map {
            $0.replacingOccurrences(of: #""elapsedSeconds":[0-9.]+"#, with: "", options: .regularExpression)
        }
    }

    /// SPEC §10 Determinism: the QR second passes are budgeted in pixels, so two busy loops holding both cores
    /// change nothing — not the codes, not a byte of the events — and neither does --jobs.
    @Test func theSameInputGivesTheSameEventsUnderLoadAndAnyJobs() {
        let clips = ["qr-lowcontrast.mp4", "qr-blurred.mp4", "qr-small.mp4"].map(Fixtures.path)
        let arguments = ["analyze", "--capture-type", "qrcode", "--qrcode-every-frame", "--jobs", "1"] + clips
        let idle = Shell.frameprobe(arguments)
        #expect(idle.status == 0, "\(idle.stderr)")
        #expect(idle.events(named: "qrCodeScanned").count >= 60, "\(idle.events(named: "qrCodeScanned").count) codes")
        let loaded = Shell.run("""
            for i in 1 2; do ( while :; do :; done ) > /dev/null 2>&1 & loops="$loops $!"; done; \
            $FP \(arguments.map(Shell.quote).joined(separator: " ")); status=$?; kill -KILL $loops; exit $status
            """)
        #expect(loaded.status == 0)
        #expect(Self.comparable(loaded) == Self.comparable(idle))
        let parallel = Shell.frameprobe(["analyze", "--capture-type", "qrcode", "--qrcode-every-frame", "--jobs", "3"] + clips)
        #expect(Self.comparable(parallel) == Self.comparable(idle))
    }

    /// SPEC §7: a ratio over no scored frames has no value, and its gate fails and says why.
    @Test func aGateNeverPassesOnMissingData() throws {
        let dir = Fixtures.temporaryDirectory()
        let events = dir.appendingPathComponent("faces.jsonl").path
        #expect(Shell.frameprobe(["analyze", "-o", events, Fixtures.path("selfie.mp4")]).status == 0)
        let prefix = dir.appendingPathComponent("r").path
        let result = Shell.frameprobe(["report", "-f", "json,junit,markdown", "-o", prefix, "--gate", "blurredRatio<=0.1",
                                       "--gate", "faceFrameRatio>=0.5", events])
        #expect(result.status == 3, "\(result.stderr)")
        let report = try JSONDecoder().decode(ReportDocument.self, from: Data(contentsOf: URL(fileURLWithPath: prefix + ".json")))
        let gates = try #require(report.inputs.first?.gates)
        #expect(gates.map(\.passed) == [false, true])
        #expect(gates[0].value == nil && gates[0].reason?.contains("frameQuality") == true, "\(gates[0])")
        let markdown = try String(contentsOfFile: prefix + ".md", encoding: .utf8)
        #expect(markdown.contains("no value: no frame was scored"))
        // JUnit's time is the analysis time the JSONL recorded, not 0.
        let junit = try String(contentsOfFile: prefix + ".xml", encoding: .utf8)
        let time = junit.range(of: #"classname="[^"]*selfie.mp4" name="input" time="([0-9.]+)""#, options: .regularExpression).map { String(junit[$0]) }
        let seconds = time.flatMap { $0.split(separator: "\"").last.flatMap { Double($0) } } ?? 0
        #expect(seconds > 0, "\(time ?? "no testcase")")
        // The totals have no acquisition start: such a gate is refused, not silently passed.
        let refused = Shell.frameprobe(["report", "--gate", "total.acquisitionStartPts<=1", events])
        #expect(refused.status == 2 && refused.stderr.contains("INVALID_GATE"))
    }

    /// SPEC §4.2 (Yoonit's isOutOfTheScreen): an enlarged box with any edge outside the frame is invalid, with no
    /// message; inside the frame it is valid.
    @Test func aBoxPartlyOutsideTheFrameIsInvalid() {
        var options = RegionCheck.Options()
        options.detectionLeftSize = 0.5
        let check = RegionCheck(options: options)
        // Centre 60, half width 50: enlarged left = 60 − 1.5·50 = −15.
        #expect(check.check(Box(x: 10, y: 100, width: 100, height: 100), frameWidth: 640, frameHeight: 480) == .invalid(message: nil))
        #expect(check.check(Box(x: 40, y: 100, width: 100, height: 100), frameWidth: 640, frameHeight: 480)
                == .valid(Box(x: 15, y: 100, width: 125, height: 100)))
        let plain = RegionCheck(options: RegionCheck.Options())
        #expect(plain.check(Box(x: 600, y: 100, width: 50, height: 50), frameWidth: 640, frameHeight: 480) == .invalid(message: nil))
        #expect(plain.check(Box(x: 10, y: 440, width: 50, height: 50), frameWidth: 640, frameHeight: 480) == .invalid(message: nil))
    }

    @Test func stringsOverridesAndUnknownKeys() throws {
        let strings = try HonestExitTests.write("title.strings", """
            "unissey_video_capture_title" = "Recording for %d s";
            "unissey_instruction_get_closerr" = "typo";
            """)
        let result = Shell.frameprobe(["acquire", "--strings", strings, "--output-dir", Fixtures.temporaryDirectory().path,
                                       Fixtures.path("approach-720p.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.events(named: "cameraReady").first?.string("title") == "Recording for 1 s")
        let notice = result.events(named: "notice").first { $0.string("key") == "UNKNOWN_STRING_KEYS" }
        #expect(notice?.string("message")?.contains("unissey_instruction_get_closerr") == true)
    }

    /// acquire into a folder it cannot write: OUTPUT_UNWRITABLE is the outcome (not followed by a false
    /// FACE_NEVER_STABLE), and the faces guidance followed are counted.
    @Test func acquireIntoAnUnwritableFolder() throws {
        let blocked = Fixtures.temporaryDirectory().appendingPathComponent("file")
        try Data("not a folder".utf8).write(to: blocked)
        let result = Shell.frameprobe(["acquire", "--output-dir", blocked.path, Fixtures.path("approach-720p.mp4")])
        #expect(result.status == 1)
        let keys = result.events.compactMap { event -> String? in
            if event.string("event") == "error" { return event.string("key") }
            return (event["error"] as? [String: Any])?["key"] as? String
        }
        #expect(keys == ["OUTPUT_UNWRITABLE"], "\(keys)")
        #expect((result.events(named: "inputClosed").first?.int("faceFrames") ?? 0) > 30)
    }

    @Test func sessionConfigNullsAndTheSeedsPresetSpelling() throws {
        let nulls = try HonestExitTests.write("nulls.json", #"{"recordingConfig": {"recordingDurationMs": null, "qualities": null}}"#)
        let result = Shell.frameprobe(["acquire", "--session-config", nulls, "--preset", "selfieFast", "--output-dir",
                                       Fixtures.temporaryDirectory().path, Fixtures.path("approach-720p.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        let ready = try #require(result.events(named: "cameraReady").first)
        #expect(ready.string("preset") == "selfie-fast" && ready.int("recordingDurationMs") == 1000 && ready.string("quality") == "sd")
        let bad = try HonestExitTests.write("bad.json", #"{"recordingConfig": {"qualities": ["4k"]}}"#)
        let refused = Shell.frameprobe(["acquire", "--session-config", bad, Fixtures.path("approach-720p.mp4")])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("unknown quality \"4k\"") && !refused.stderr.contains("FrameProbe."), "\(refused.stderr)")
    }

    /// A QR code's message names the code; a config colour may be a JSON list of four numbers; the colour
    /// options are listed under the stage that draws them.
    @Test func qrMessagesColourListsAndStageOptions() throws {
        let result = Shell.frameprobe(["analyze", "--capture-type", "qrcode", "--roi-left-offset", "0.9", Fixtures.path("qr-two.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        let messages = result.events(named: "message")
        #expect(!messages.isEmpty && messages.allSatisfy { $0.string("message") == "INVALID_OUT_OF_ROI" && $0.string("content") != nil })
        #expect(Shell.validateAgainstSchema(result.stdout).status == 0)
        let config = try HonestExitTests.write("colour.json", #"{"detectionBoxColor": [1, 0, 0.5, 1], "annotate": true}"#)
        let coloured = Shell.frameprobe(["analyze", "--config", config, "--output-dir", Fixtures.temporaryDirectory().path,
                                         "--number-of-images", "1", Fixtures.path("portrait.jpg")])
        #expect(coloured.status == 0, "\(coloured.stderr)")
        #expect(coloured.events(named: "imageCaptured").count == 1)
        let stages = Shell.frameprobe(["stages"])
        #expect(stages.status == 0 && stages.stdout.contains("--detection-box-color"))
    }

    /// The committed schema is what `frameprobe schema` generates from the stages' payload types, so a changed or
    /// new event cannot leave it behind; and it defines every event the registry's stages and the runner emit.
    @Test func theCommittedSchemaIsTheGeneratedOne() throws {
        let committed = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("schema/events.schema.json"), encoding: .utf8)
        let generated = Shell.frameprobe(["schema"])
        #expect(generated.status == 0)
        #expect(generated.stdout == committed, "schema/events.schema.json is stale: run `frameprobe schema > schema/events.schema.json`")
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(committed.utf8)) as? [String: Any])
        let defined = Set((schema["$defs"] as? [String: Any] ?? [:]).keys)
        let emitted = Set((StageRegistry.builtIn.descriptors.flatMap(\.emits) + SchemaDocument.runnerPayloads).map { $0.eventName })
        #expect(emitted.count >= 20 && emitted == defined, "defined but not emitted, or emitted but not defined: \(emitted.symmetricDifference(defined).sorted())")
    }
}
