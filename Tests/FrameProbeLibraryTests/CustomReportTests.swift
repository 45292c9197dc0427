import Foundation
import FrameProbe
import Testing
import TestSupport

/// The motion stage's reported value (`MotionReport`, declared in CustomStageTests.swift) through every part of the
/// report, with only the public API: its statistics in the JSON, a gate on it, the intervals of its condition, its
/// Markdown and CSV columns and its HTML plot — on real footage (a talking head, `video/driving_d6.mp4`) and a still
/// picture made from one of its frames. Nothing here was tuned: the still limit is the stage's default.
@Suite(.needsTestData, .serialized)
struct CustomReportTests {
    static let registry = StageRegistry.builtIn.registering(MotionScoreStage.self).registering(StillnessStage.self)

    static let clips: [String] = {
        let still = Fixtures.temporaryDirectory().appendingPathComponent("still.mp4").path
        let frame = TestData.path("real-frames/driving_d6-36-eyes-open-nosmile.jpg")
        let made = Shell.run("ffmpeg -nostdin -v error -y -loop 1 -i \(Shell.quote(frame)) -t 2 -r 10 -pix_fmt yuv420p \(Shell.quote(still))")
        if made.status != 0 { Issue.record(Comment(rawValue: "making the still clip failed: \(made.stderr)")) }
        return [TestData.firstSeconds(4, of: "video/driving_d6.mp4"), still]
    }()

    static let options: AnalysisOptions = {
        var options = AnalysisOptions()
        options.stages = ["quality", "motionScore", "stillness"]
        return options
    }()

    /// Every event of both clips, in input order, as a run gives them.
    static let events: [[Event]] = {
        guard let stages = try? registry.resolve(options) else { return [] }
        let runner = InputRunner(options: options, stages: stages)
        return clips.map { clip in
            var events: [Event] = []
            for item in InputDiscovery.expand([clip]) { _ = runner.run(item, stop: StopSignal()) { events.append($0) } }
            return events
        }
    }()

    /// The report of both clips with the registry's parts, the given gates.
    static func document(_ gates: [String]) throws -> ReportDocument {
        let aggregator = ReportAggregator(options: options, parts: registry.reportParts)
        for (index, events) in events.enumerated() { for event in events { aggregator.consume(event, index: index) } }
        let parsed = try gates.map { try Gate(parsing: $0, parts: registry.reportParts) }
        return ReportDocument(inputs: aggregator.finish(), gates: parsed, parts: registry.reportParts)
    }

    static func rendered(_ format: ReportFormat, _ document: ReportDocument) throws -> String {
        String(decoding: try format.render(document), as: UTF8.self)
    }

    @Test func itsStatisticsIntervalsAndGatesAreInTheReportsJSON() throws {
        let document = try Self.document(["motionMean>=0.002", "stillRatio<=0.5"])
        #expect(!document.passed)
        let json = try #require(try JSONSerialization.jsonObject(with: try ReportFormat.json.render(document)) as? [String: Any])
        let inputs = try #require(json["inputs"] as? [[String: Any]])
        #expect(inputs.count == 2)
        let talking = inputs[0], still = inputs[1]
        let moving = try #require(talking["motion"] as? [String: Double]), standing = try #require(still["motion"] as? [String: Double])
        // One motion per analysed frame after the first: 121 on the talking head, 19 on the still clip.
        #expect(moving["count"] == 121 && standing["count"] == 19)
        #expect((moving["mean"] ?? 0) > 0.002 && (standing["max"] ?? 1) < 0.0005, "\(moving) \(standing)")
        #expect(still["stillFrames"] as? Int == 19 && still["measuredFrames"] as? Int == 19)
        // The still clip is still from its second frame (the first has nothing to compare with) to its end.
        let intervals = try #require(still["intervals"] as? [String: [[Double]]])
        #expect(intervals["still"] == [[0.1, 2.0]], "\(intervals)")
        // The talking head pauses: still for two stretches (measured), far from all of its 4.17 s.
        #expect((talking["intervals"] as? [String: [[Double]]])?["still"] == [[0.633, 2.267], [2.633, 3.867]])
        // Each gate fails where it should, with its value.
        let gates = try #require(still["gates"] as? [[String: Any]])
        #expect(gates.map { $0["passed"] as? Bool } == [false, false])
        #expect(gates.last?["value"] as? Double == 1)
        #expect(((talking["gates"] as? [[String: Any]])?.map { $0["passed"] as? Bool }) == [true, true])
        // The totals combine the parts: counts summed, the mean weighted.
        let total = try #require(json["total"] as? [String: Any])
        #expect((total["motion"] as? [String: Double])?["count"] == 140 && total["stillFrames"] as? Int == 19 + (talking["stillFrames"] as? Int ?? -99))
    }

    /// A gate on a field no input has a value for fails, and says why in the part's words; an unknown field is
    /// refused, suggesting the part's own.
    @Test func aGateOnItSaysWhyItHasNoValue() throws {
        let aggregator = ReportAggregator(options: Self.options, parts: Self.registry.reportParts)
        for event in Self.events[0] where event.as(MotionMeasured.self) == nil { aggregator.consume(event) }
        let gate = try Gate(parsing: "motionMax<=0.1", parts: Self.registry.reportParts)
        let document = ReportDocument(inputs: aggregator.finish(), gates: [gate], parts: Self.registry.reportParts)
        let result = try #require(document.inputs.first?.gates.first)
        #expect(!result.passed && result.outcome == "no value: \(MotionReport.notMeasured)", "\(result.outcome)")
        #expect(throws: FrameProbeError.self) { try Gate(parsing: "motionMax<=0.1") }
        do { _ = try Gate(parsing: "motionMaxx<=0.1", parts: Self.registry.reportParts) } catch {
            #expect(error.key == "INVALID_GATE" && error.message.contains("did you mean 'motionMax'?"), "\(error.message)")
        }
    }

    @Test func itsColumnAndPlotAreInEveryFormat() throws {
        let document = try Self.document(["stillRatio<=0.5"])
        let markdown = try Self.rendered(.markdown, document)
        let header = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| input |") })
        #expect(header.contains("| motion (mean) |"), "\(header)")
        #expect(markdown.contains("still 0.10–2.00 s"), "the When list names the condition")
        let csv = try Self.rendered(.csv, document).components(separatedBy: "\r\n")
        let columns = csv[0].split(separator: ",").map(String.init)
        let mean = try #require(columns.firstIndex(of: "motionMean"))
        #expect(columns.contains("stillSeconds") && columns.contains("stillRatio"))
        let stillRow = csv[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect((Double(stillRow[mean]) ?? 1) < 0.0005, "\(stillRow[mean])")
        let html = try Self.rendered(.html, document)
        #expect(html.components(separatedBy: "aria-label=\"motion\"").count - 1 == 2, "one motion plot per input")
        #expect(html.contains("<title>still 0.1–2 s</title>"), "the still interval shades the plot")
        #expect(html.contains("<th>still</th><td>100 %</td>"))
        let junit = try Self.rendered(.junit, document)
        #expect(junit.contains("<failure"), "the still clip's gate fails in JUnit too")
    }

    /// The same report from the events written as JSON Lines and read back: each line decoded once, into the
    /// custom stage's typed event.
    @Test func itIsReadBackFromJSONLines() throws {
        let live = try Self.document([])
        let aggregator = ReportAggregator(options: Self.options, parts: Self.registry.reportParts)
        for (index, events) in Self.events.enumerated() {
            for event in events {
                let line = Data(event.json.serialized().utf8)
                let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
                #expect(aggregator.consume(jsonObject: object, index: index))
            }
        }
        let read = ReportDocument(inputs: aggregator.finish(), gates: [], parts: Self.registry.reportParts)
        for (back, original) in zip(read.inputs, live.inputs) {
            let a = try #require(back[MotionReport.self]), b = try #require(original[MotionReport.self])
            #expect(a.stillFrames == b.stillFrames && a.measuredFrames == b.measuredFrames)
            #expect(abs((a.motion?.mean ?? -1) - (b.motion?.mean ?? 1)) < 1e-6)
            #expect(back.intervals?["still"] == original.intervals?["still"])
        }
    }
}
