/// The rules of a recording, shared by `acquire` (`RecordingStage`) and the report's check
/// (`AcquisitionCheckStage`), so that the report's "would succeed" is what `acquire` does: the first preset
/// quality that fits the input (never upscaled), when the clip is complete, and how acquisition ends without one.
struct RecordingPlan {
    let quality: VideoQuality
    let clipSize: (width: Int, height: Int)
    let durationSeconds: Double
    /// One frame's share of the clip (30 fps when the input does not say).
    let frameDuration: Double

    /// The plan for `info`, or `NO_AVAILABLE_QUALITY`.
    init(options: AcquisitionOptions, info: InputInfo) throws(FrameProbeError) {
        guard let quality = options.qualities.first(where: { $0.clipSize(forWidth: info.width, height: info.height) != nil }),
              let size = quality.clipSize(forWidth: info.width, height: info.height) else {
            let asked = options.qualities.map(\.rawValue).joined(separator: ", ")
            throw FrameProbeError("NO_AVAILABLE_QUALITY", "none of the qualities \(asked) fits a \(info.width)×\(info.height) input (never upscaled)")
        }
        self.quality = quality
        clipSize = size
        durationSeconds = Double(options.recordingDurationMs) / 1000
        frameDuration = info.fps > 0 ? 1 / info.fps : 1.0 / 30
    }

    /// The share of the clip recorded once the frame `offset` seconds (media time) after the first is in.
    func progress(at offset: Double) -> Double { min(1, (offset + frameDuration) / durationSeconds) }

    /// Whether the frame `offset` seconds after the first completes the clip.
    func completes(at offset: Double) -> Bool { offset + frameDuration >= durationSeconds - 1e-6 }

    /// Why an input ended without a clip: recording had started (`INPUT_ENDED`) or never could (`FACE_NEVER_STABLE`).
    static func endedEarly(recordingStarted: Bool, options: AcquisitionOptions) -> FrameProbeError {
        recordingStarted
            ? FrameProbeError("INPUT_ENDED", "the input ended before the \(options.recordingDurationMs) ms recording was complete")
            : FrameProbeError("FACE_NEVER_STABLE", "the face never held a good position still for \(Int(options.guidance.stillMs)) ms before the input ended")
    }
}
