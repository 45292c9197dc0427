/// One analysis step run on every analysed frame of an input. A stage keeps its own state across frames.
///
/// A stage carries everything about itself: its `descriptor` (name, summary, the findings it needs and provides,
/// its option rows bound to `Options`, its event payload types) and its logic. Adding one to the CLI is one line
/// in `StageRegistry.builtIn`; a library user adds one with `StageRegistry.registering(_:)`.
public protocol Stage: Sendable {
    /// The stage's settings (`NoOptions` when it has none).
    associatedtype Options: StageOptions = NoOptions

    static var descriptor: StageDescriptor { get }

    /// A fresh stage for one input.
    init(options: Options, context: StageContext) throws(FrameProbeError)
    /// The input is open, before its first frame (acquisition announces itself here).
    mutating func begin(emit: Emit) throws(FrameProbeError)
    /// Analyses one frame: reads earlier stages' findings from `analysis`, adds its own, and emits events.
    mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError)
    /// End of input: flush pending transitions and counters.
    mutating func finish(emit: Emit)
    /// True once the stage has done all it will do and the input need not be analysed further (a recording
    /// that ended, `--stop-at-end-capture` after the last image).
    var endsInput: Bool { get }
}

extension Stage {
    public mutating func begin(emit: Emit) throws(FrameProbeError) {}
    public mutating func finish(emit: Emit) {}
    public var endsInput: Bool { false }
}

/// An ordered list of stages run over each frame.
public struct Pipeline: Sendable {
    public private(set) var stages: [any Stage]
    /// Where the pipeline splits: the stages from each of these indices on may run on a thread of their own, behind
    /// the ones before (which must not depend on what later stages found in earlier frames). Ascending, each inside
    /// the pipeline.
    public var splitIndices: [Int]

    public init(stages: [any Stage], splitIndices: [Int] = []) {
        self.stages = stages
        self.splitIndices = Array(Set(splitIndices.filter { $0 > 0 && $0 < stages.count })).sorted()
    }

    /// The pipeline cut at its split points: one pipeline per thread, in order (just itself without a split point).
    public func segments() -> [Pipeline] {
        let bounds = [0] + splitIndices + [stages.count]
        return zip(bounds, bounds.dropFirst()).map { Pipeline(stages: Array(stages[$0..<$1])) }
    }
    /// Runs every stage on `frame`, in order, and returns what they found.
    public mutating func process(_ frame: Frame, emit: Emit) throws(FrameProbeError) -> FrameAnalysis {
        var analysis = FrameAnalysis()
        try process(frame, &analysis, emit: emit)
        return analysis
    }

    /// Runs every stage on `frame`, continuing what earlier stages (another pipeline's) found.
    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        for index in stages.indices {
            try stages[index].process(frame, &analysis, emit: emit)
        }
    }

    public mutating func begin(emit: Emit) throws(FrameProbeError) {
        for index in stages.indices { try stages[index].begin(emit: emit) }
    }

    public mutating func finish(emit: Emit) {
        for index in stages.indices { stages[index].finish(emit: emit) }
    }

    /// A stage asked to end the input.
    public var endsInput: Bool { stages.contains { $0.endsInput } }
}
