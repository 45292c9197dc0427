import Foundation
import FrameProbe
import Testing
import TestSupport

// Stages written outside the library module, in a test target that sees only its public API (no @testable import):
// each is one type with its options and events, registered with one call; one hands a typed finding to the other,
// and declares a reported value that every report format then shows. This is what the README's "Adding a stage"
// promises; nothing under Sources/ names these stages.

/// The finding the motion stage hands to later stages: `analysis[MotionScore.self]`.
struct MotionScore: AnalysisFinding {
    var value: Double
}

/// How much the picture changed since the previous analysed frame: the mean absolute difference of the gray
/// frames, sampled every `step` pixels, as a fraction of the full range.
struct MotionScoreStage: Stage {
    static let descriptor = StageDescriptor(
        MotionScoreStage.self, name: "motionScore", summary: "how much the picture changed since the previous analysed frame",
        provides: [Finding(MotionScore.self)], emits: [MotionMeasured.self],
        options: [
            .int("motion-step", "motionStep", "PX", "sample every Nth pixel across and down", invalid: "INVALID_MOTION_STEP",
                 \Options.step, bounds: .atLeast(1)),
            .number("still-below", "stillBelow", "FRACTION", "a frame that changed by less than this is still", invalid: "INVALID_STILL_BELOW",
                    \Options.stillBelow, bounds: .within(0...1)),
        ],
        report: MotionReport.self)

    struct Options: StageOptions {
        var step = 8
        var stillBelow = 0.0005
        init() {}
    }

    private let step: Int
    private var previous: [UInt8]?

    init(options: Options, context: StageContext) {
        step = options.step
    }

    mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        let gray = try analysis.gray(of: frame)
        var samples: [UInt8] = []
        for y in stride(from: 0, to: gray.height, by: step) {
            for x in stride(from: 0, to: gray.width, by: step) { samples.append(gray[x, y]) }
        }
        if let previous, previous.count == samples.count {
            let total = zip(previous, samples).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            let motion = Double(total) / Double(samples.count) / 255
            analysis[MotionScore.self] = MotionScore(value: motion)
            emit(MotionMeasured(motion: motion))
        }
        previous = samples
    }
}

/// `motionMeasured`: the custom stage's event, with its schema; the report reads it back from JSON Lines too.
struct MotionMeasured: ReadableEvent {
    static let eventName = "motionMeasured"
    /// Its one field, declared once: the schema, the JSON it writes and what the report reads back come from it.
    static let motionField = EventField<Double>.number("motion", .unit, decimals: 6)
    static let schema = EventSchema(.frame, [motionField.property])
    let motion: Double
    var fields: [(String, JSONValue)] { [Self.motionField.json(motion)] }

    init(motion: Double) { self.motion = motion }
    init?(reading fields: EventFields) {
        guard let motion = Self.motionField.read(fields) else { return nil }
        self.motion = motion
    }
}

/// What the motion stage reports: the motion per frame (plotted, with its statistics), the share of still frames,
/// and when the picture stood still (below `--still-below`).
struct MotionReport: ReportPart {
    var motion: ScoreStats?
    var stillFrames = 0
    var measuredFrames = 0
    private var reading = Transient(Reading())

    struct Reading: Sendable {
        var sum = ScoreAccumulator()
        var stillBelow = MotionScoreStage.Options().stillBelow
    }

    enum CodingKeys: String, CodingKey { case motion, stillFrames, measuredFrames }
    typealias Total = MotionReport

    init() {}
    init(options: AnalysisOptions) { reading.value.stillBelow = options[MotionScoreStage.Options.self].stillBelow }

    static let notMeasured = "no motion was measured (run without the motionScore stage?)"
    static let values = [
        ReportedValue(MotionMeasured.motionField.name, range: 0...0.05, help: "mean gray change since the previous analysed frame", plot: "motion",
                      color: "#e8590c", references: [ReferenceLine(MotionScoreStage.Options().stillBelow, "still")]),
    ]
    static let conditions = [ReportedCondition("still", label: "still", color: "#868e96", plot: "motion", missingReason: notMeasured)]
    static let gateFields = GateField.statistics("motion", missing: notMeasured) + [GateField("stillRatio", missing: notMeasured)]
    static let reads: [any ReadableEvent.Type] = [MotionMeasured.self]
    static let frameEvents = reads
    static let columns = [ReportColumn("motion (mean)")]

    mutating func read(_ event: Event, frame: inout FrameValues) {
        guard let measured = event.as(MotionMeasured.self) else { return }
        let still = measured.motion < reading.value.stillBelow
        frame.values["motion"] = measured.motion
        frame.conditions["still"] = still
        reading.value.sum.add(measured.motion)
        measuredFrames += 1
        if still { stillFrames += 1 }
    }

    mutating func finish(_ input: InputCounts) { motion = reading.value.sum.stats }

    func fields(_ input: InputCounts) -> [String: Double] { Self.fields(of: self, input) }

    static func total(_ parts: [MotionReport]) -> MotionReport {
        var total = MotionReport()
        total.motion = ScoreStats(combining: parts.compactMap(\.motion))
        total.stillFrames = parts.reduce(0) { $0 + $1.stillFrames }
        total.measuredFrames = parts.reduce(0) { $0 + $1.measuredFrames }
        return total
    }

    static func fields(of total: MotionReport, _ input: InputCounts) -> [String: Double] {
        guard let motion = total.motion, total.measuredFrames > 0 else { return [:] }
        return motion.fields(named: "motion").merging(["stillRatio": Double(total.stillFrames) / Double(total.measuredFrames)]) { $1 }
    }

    func cells(_ fields: [String: Double]) -> [String] { [ReportText.number(motion?.mean, decimals: 4)] }
    static func totalCells(_ total: MotionReport, _ fields: [String: Double], inputs: Int) -> [String] {
        [ReportText.number(total.motion?.mean, decimals: 4)]
    }
    func htmlRows(_ fields: [String: Double]) -> [ReportRow] { [ReportRow("still", ReportText.percent(fields["stillRatio"]), fields: ["stillRatio"], ratio: true)] }
}

/// Reads the motion stage's finding: a `stillFrame` event on each frame that changed by less than `--still-below`.
struct StillnessStage: Stage {
    static let descriptor = StageDescriptor(
        StillnessStage.self, name: "stillness", summary: "marks the frames where the picture barely changed",
        requires: [Finding(MotionScore.self)], emits: [StillFrame.self])

    private let stillBelow: Double

    init(options: NoOptions, context: StageContext) { stillBelow = context.options[MotionScoreStage.Options.self].stillBelow }

    mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        guard let motion = analysis[MotionScore.self], motion.value < stillBelow else { return }
        emit(StillFrame(motion: motion.value))
    }
}

/// `stillFrame`: a frame that barely changed.
struct StillFrame: EventPayload {
    static let eventName = "stillFrame"
    static let schema = EventSchema(.frame, [.init("motion", .unit)])
    let motion: Double
    var fields: [(String, JSONValue)] { [("motion", .number(motion, decimals: 6))] }
}

struct CustomStageTests {
    let registry = StageRegistry.builtIn.registering(MotionScoreStage.self).registering(StillnessStage.self)

    /// Runs `stages` over `path` with `InputRunner`, as the CLI does, and returns the events.
    func events(of path: String, options: AnalysisOptions) throws -> [Event] {
        let runner = InputRunner(options: options, stages: try registry.resolve(options))
        var events: [Event] = []
        let item = try #require(InputDiscovery.expand([path]).first)
        #expect(runner.run(item, stop: StopSignal()) { events.append($0) })
        return events
    }

    @Test(.needsTestData) func aStageFromOutsideTheModuleRunsOnRealFootageAndItsEventsMatchTheGeneratedSchema() throws {
        var options = AnalysisOptions()
        options.stages = ["quality", "motionScore", "stillness"]
        // Its option is set through its row, as --config and the command line would.
        let row = try #require(registry.descriptor(named: "motionScore")?.options.first)
        #expect(row.flag == "motion-step" && row.defaultText == "8" && row.stage == "motionScore")
        try row.set(.text("0"), in: &options)
        #expect(throws: FrameProbeError.self) { try registry.validate(options) }
        do { try registry.validate(options) } catch { #expect(error.key == "INVALID_MOTION_STEP", "\(error)") }
        // The still limit the report's condition uses is an option too, with its bounds and its own key.
        let stillRow = try #require(registry.descriptor(named: "motionScore")?.options.first { $0.flag == "still-below" })
        var tooHigh = options
        try row.set(.number(4), in: &tooHigh)
        try stillRow.set(.number(2), in: &tooHigh)
        do { try registry.validate(tooHigh) } catch { #expect(error.key == "INVALID_STILL_BELOW", "\(error)") }
        #expect(throws: FrameProbeError.self) { try registry.validate(tooHigh) }
        try row.set(.number(4), in: &options)
        try registry.validate(options)
        #expect(options[MotionScoreStage.Options.self].step == 4)

        // Real footage (a talking head) against a still picture made from one of its frames.
        let still = Fixtures.temporaryDirectory().appendingPathComponent("still.mp4").path
        let frame = TestData.path("real-frames/driving_d6-36-eyes-open-nosmile.jpg")
        #expect(Shell.run("ffmpeg -nostdin -v error -y -loop 1 -i \(Shell.quote(frame)) -t 2 -r 10 -pix_fmt yuv420p \(Shell.quote(still))").status == 0)
        let talking = try events(of: TestData.firstSeconds(4, of: "video/driving_d6.mp4"), options: options)
        let frozen = try events(of: still, options: options)

        func motions(_ events: [Event]) -> [Double] { events.compactMap { $0.as(MotionMeasured.self)?.motion } }
        func analysed(_ events: [Event]) -> Int { events.compactMap { $0.as(InputClosed.self)?.summary.framesAnalysed }.first ?? 0 }
        #expect(analysed(talking) > 100 && motions(talking).count == analysed(talking) - 1)
        #expect(analysed(frozen) == 20 && motions(frozen).count == 19)
        let moving = motions(talking).reduce(0, +) / Double(max(1, motions(talking).count))
        let standing = motions(frozen).reduce(0, +) / Double(max(1, motions(frozen).count))
        #expect(moving > 0.002 && moving < 0.2, "a talking head moves a little (measured 0.005): \(moving)")
        #expect(standing < moving / 20, "a still picture barely changes (measured 7e-6, encoding noise): \(standing) vs \(moving)")
        // The second stage read the first one's finding: every frame of the still picture is still, and the talking
        // head's still frames are exactly its motions under the limit.
        func stills(_ events: [Event]) -> [Double] { events.compactMap { $0.as(StillFrame.self)?.motion } }
        #expect(stills(frozen) == motions(frozen))
        #expect(stills(talking) == motions(talking).filter { $0 < 0.0005 } && stills(talking).count < motions(talking).count / 2,
                "\(stills(talking).count) still frames of \(motions(talking).count)")

        // Every event, the custom one included, validates against the schema generated from this registry.
        let schema = Fixtures.temporaryDirectory().appendingPathComponent("events.schema.json")
        try Data(SchemaDocument.json(stages: registry.descriptors).pretty().utf8).write(to: schema)
        let jsonl = (talking + frozen).map { $0.json.serialized() + "\n" }.joined()
        let validation = Shell.validateAgainstSchema(jsonl, schema: schema.path)
        #expect(validation.status == 0, "\(validation.stdout)")
        #expect(validation.stdout.contains("\(talking.count + frozen.count) lines, 0 invalid"))
        // The built-in schema does not know the event: the check can fail.
        #expect(Shell.validateAgainstSchema(jsonl).status == 1)
    }

    /// A stage whose finding no earlier stage provides is refused before anything runs, naming the stage, the
    /// finding and the stage that would provide it.
    @Test func aStageWhoseFindingIsNotProvidedIsRefused() throws {
        var options = AnalysisOptions()
        options.stages = ["quality", "stillness", "motionScore"]
        #expect(throws: FrameProbeError.self) { try registry.resolve(options) }
        do { _ = try registry.resolve(options) } catch {
            #expect(error.key == "INVALID_STAGES")
            #expect(error.message == "stage 'stillness' needs MotionScore, which motionScore must provide before it", "\(error.message)")
        }
        options.stages = ["stillness"]
        do { _ = try StageRegistry.builtIn.registering(StillnessStage.self).resolve(options) } catch {
            #expect(error.message == "stage 'stillness' needs MotionScore, which no registered stage provides", "\(error.message)")
        }
        options.stages = ["motionScore", "stillness"]
        #expect(try registry.resolve(options).map(\.name) == ["motionScore", "stillness"])
        // Without --stages neither runs: a library user's stage selects itself only when its descriptor says when.
        options.stages = nil
        options.frameQuality = true
        #expect(try registry.resolve(options).map(\.name) == ["quality", "faceDetection", "faceLandmarks", "headPose", "faceExpressions", "faceRegion"])
    }
}

/// A stage that reads the faces: how many there are in each frame.
struct FaceTallyStage: Stage {
    static let descriptor = StageDescriptor(
        FaceTallyStage.self, name: "faceTally", summary: "how many faces each frame has", requires: [.faces], emits: [FacesTallied.self])

    init(options: NoOptions, context: StageContext) {}

    mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        emit(FacesTallied(count: analysis.faces.count))
    }
}

struct FacesTallied: EventPayload {
    static let eventName = "facesTallied"
    static let schema = EventSchema(.frame, [.init("count", .integer(minimum: 0))])
    let count: Int
    var fields: [(String, JSONValue)] { [("count", .int(count))] }
}

struct FaceReadingStageTests {
    /// Between faceDetection and faceLandmarks, a stage that reads the faces sees them on every frame: the detection
    /// stage leaves following to faceLandmarks only when that runs right after it.
    @Test(.needsTestData, arguments: [["faceDetection", "faceTally", "faceLandmarks"], ["faceDetection", "faceLandmarks", "faceTally"]])
    func aStageReadingFacesSeesEveryFrameWherever(stages: [String]) throws {
        let registry = StageRegistry.builtIn.registering(FaceTallyStage.self)
        var options = AnalysisOptions()
        options.stages = stages
        let runner = InputRunner(options: options, stages: try registry.resolve(options))
        let clip = TestData.firstSeconds(4, of: "video/driving_d6.mp4")
        let item = try #require(InputDiscovery.expand([clip]).first)
        var counts: [Int] = []
        #expect(runner.run(item, stop: StopSignal()) { event in
            if let tally = event.as(FacesTallied.self) { counts.append(tally.count) }
        })
        #expect(counts.count == 122)
        #expect(counts.allSatisfy { $0 == 1 }, "frames without a face: \(counts.enumerated().filter { $0.element != 1 }.map(\.offset).prefix(20))")
    }
}
