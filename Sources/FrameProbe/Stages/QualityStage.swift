/// `--frame-quality`: darkness, lightness and sharpness of every analysed whole frame (no mask).
public struct QualityStage: Stage {
    public init() {}

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: (Event.Body) -> Void) throws(FrameProbeError) {
        emit(.frameQuality(try analysis.wholeFrameQuality(of: frame)))
    }
}
