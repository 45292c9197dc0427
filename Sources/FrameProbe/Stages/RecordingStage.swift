import Foundation

/// Unissey's recording: announces the camera, waits for guidance's go-ahead, then encodes the next
/// `recordingDurationMs` of frames into a clip at the first available quality, reporting progress, and ends with
/// the session response (clip path + metadata) — or with an error and no clip.
///
/// An input that none of the qualities fits (a small recorded selfie: a 464×848 phone clip is below sd's 480) is
/// still guided, so its user learns how the face was placed: a `notice` says at once that no clip will be made,
/// and the session ends with `NO_AVAILABLE_QUALITY` when guidance gives the go-ahead (or when the input ends).
public struct RecordingStage: Stage {
    public static let descriptor = StageDescriptor(
        RecordingStage.self, name: "recording", summary: "records the preset's clip once guidance says go; the session response",
        requires: [.recordingCue],
        emits: [CameraReady.self, Notice.self, VideoCaptureStarted.self, VideoRecordStarted.self, VideoRecordProgress.self, VideoRecordEnded.self],
        options: [
            .choice("preset", "preset", "acquisition preset", invalid: "INVALID_PRESET", \AcquisitionOptions.preset),
            .bound("session-config", "sessionConfig", "FILE.json", "Unissey SessionConfig: recordingConfig, uiConfig, guidance", short: nil,
                   invalid: "INVALID_SESSION_CONFIG", \AcquisitionOptions.session, shownDefault: { _ in nil },
                   parse: { value throws(FrameProbeError) in try SessionConfig(contentsOf: try value.text("INVALID_SESSION_CONFIG", "sessionConfig")) }),
        ],
        selection: StageSelection(acquire: true, optionsIn: [.acquire]))

    private let options: AcquisitionOptions
    private let source: String
    private let info: InputInfo
    private let clipPath: String
    private let overwrite: Bool
    /// The quality and length of the clip once the input is open — or why no clip can be made of it (no quality
    /// fits it); nil before.
    private var planned: Result<RecordingPlan, FrameProbeError>?
    private var plan: RecordingPlan? { try? planned?.get() }
    private var refusal: FrameProbeError? {
        if case .failure(let error) = planned { error } else { nil }
    }
    private var encoder: ClipEncoder?
    private var recording: RecordingLog?
    private var ended = false

    public init(options: AcquisitionOptions, context: StageContext) throws(FrameProbeError) {
        guard let info = context.info else { throw FrameProbeError("UNSUPPORTED_INPUT", "recording needs an opened input") }
        self.options = options
        source = context.source
        self.info = info
        clipPath = context.imageStore.path(of: "selfie.mp4")
        overwrite = context.options.overwrite
    }

    public var endsInput: Bool { ended }

    public mutating func begin(emit: Emit) throws(FrameProbeError) {
        do throws(FrameProbeError) {
            planned = .success(try RecordingPlan(options: options, info: info))
        } catch {
            planned = .failure(error)
        }
        if plan != nil { try OutputFile.checkReplaceable(clipPath, overwrite: overwrite) }
        let seconds = Int((Double(options.recordingDurationMs) / 1000).rounded())
        emit(CameraReady(width: info.width, height: info.height, fps: info.fps, preset: options.preset.rawValue,
                         recordingDurationMs: options.recordingDurationMs, quality: plan?.quality.rawValue,
                         title: options.strings.captureTitle(seconds: seconds)))
        if let refusal {
            emit(Notice(key: refusal.key, message: "\(refusal.message): guidance runs, but no clip will be recorded "
                        + "(a session config with \"qualities\": [\"highest\"] records at the input's own size)"))
        }
        if !options.session.uiKeys.isEmpty {
            emit(Notice(key: "UI_CONFIG_NOT_APPLICABLE",
                         message: "uiConfig (\(options.session.uiKeys.joined(separator: ", "))) has no effect without a screen"))
        }
        emit(VideoCaptureStarted())
    }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        guard !ended else { return }
        if let refusal, analysis.recordingCue != nil {
            ended = true
            emit(VideoRecordEnded.failure(FrameProbeError(refusal.key, "guidance gave the go-ahead at \(String(format: "%.3f", frame.pts)) s, but \(refusal.message)")))
            return
        }
        guard let plan else { return }
        if encoder == nil, let cue = analysis.recordingCue {
            do {
                encoder = try ClipEncoder(path: clipPath, width: plan.clipSize.width, height: plan.clipSize.height, fps: info.fps,
                                          overwrite: overwrite)
            } catch {
                ended = true  // the error is the outcome: no "face never stable" after it
                throw error
            }
            recording = RecordingLog(cue: cue, startPts: frame.pts, startTime: frame.time)
            emit(VideoRecordStarted(quality: plan.quality.rawValue, width: plan.clipSize.width, height: plan.clipSize.height))
        }
        guard let encoder, var log = recording else { return }
        let offset = frame.time - log.startTime
        do {
            try encoder.append(frame.image, at: offset)
        } catch {
            encoder.abandon()
            self.encoder = nil
            ended = true
            throw error
        }
        log.record(frame, analysis, quality: try analysis.wholeFrameQuality(of: frame))
        let step = Int((plan.progress(at: offset) * 10 + 1e-9).rounded(.down))
        if step > log.progressStep {
            log.progressStep = step
            emit(VideoRecordProgress(progress: Double(step) / 10))
        }
        recording = log
        guard plan.completes(at: offset) else { return }
        try encoder.finish()
        self.encoder = nil
        ended = true
        let metadata = log.metadata(source: source, info: info, options: options, quality: plan.quality, clipSize: plan.clipSize,
                                    codec: encoder.codecName, endPts: frame.pts)
        emit(VideoRecordEnded.success(videoFilePath: clipPath, metadata: metadata))
    }

    public mutating func finish(emit: Emit) {
        guard !ended else { return }
        ended = true
        if let refusal {
            emit(VideoRecordEnded.failure(FrameProbeError(refusal.key, "\(refusal.message) (and the face never held a good position still)")))
            return
        }
        encoder?.abandon()
        emit(VideoRecordEnded.failure(RecordingPlan.endedEarly(recordingStarted: encoder != nil, options: options)))
        encoder = nil
    }
}

/// What a recording saw, for the session metadata.
struct RecordingLog {
    let cue: RecordingCue
    let startPts: Double
    /// Media-clock time at the start (`Frame.time`), which the clip's timestamps count from.
    let startTime: Double
    var progressStep = 0
    var frames = 0
    var faceFrames = 0
    var faceBoxes: [Box] = []
    var scores: [QualityScores] = []
    /// Per face image quality component (and `unifiedQuality`), its scores over the recorded frames with a face.
    var faceImageQuality: [String: [Double]] = [:]

    init(cue: RecordingCue, startPts: Double, startTime: Double) {
        self.cue = cue
        self.startPts = startPts
        self.startTime = startTime
    }

    mutating func record(_ frame: Frame, _ analysis: FrameAnalysis, quality: QualityScores) {
        frames += 1
        scores.append(quality)
        if let face = analysis.faces.first {
            faceFrames += 1
            faceBoxes.append(face.box)
            if let measured = face.imageQuality {
                for (name, component) in measured.components { faceImageQuality[name, default: []].append(Double(component.score)) }
                faceImageQuality["unifiedQuality", default: []].append(Double(measured.unifiedQuality))
            }
        }
    }

    func metadata(source: String, info: InputInfo, options: AcquisitionOptions, quality: VideoQuality,
                  clipSize: (width: Int, height: Int), codec: String, endPts: Double) -> String {
        func stats(_ values: [Double]) -> JSONValue {
            guard let low = values.min(), let high = values.max() else { return .null }
            return .object([("mean", .number(values.reduce(0, +) / Double(values.count), decimals: 4)),
                            ("min", .number(low, decimals: 4)), ("max", .number(high, decimals: 4))])
        }
        let value: JSONValue = .object([
            ("tool", .string("frameprobe \(Versions.frameprobe)")),
            ("source", .string(source)),
            ("sourceStartPts", .number(startPts, decimals: 3)), ("sourceEndPts", .number(endPts, decimals: 3)),
            ("sourceResolution", .string("\(info.width)x\(info.height)")),
            ("resolution", .string("\(clipSize.width)x\(clipSize.height)")),
            ("fps", .number(info.fps, decimals: 3)), ("codec", .string(codec)),
            ("preset", .string(options.preset.rawValue)), ("quality", .string(quality.rawValue)),
            ("recordingDurationMs", .int(options.recordingDurationMs)), ("frames", .int(frames)),
            ("guidance", .object([
                ("instructions", .array(cue.history.map { .object([("state", .string($0.state)), ("pts", .number($0.pts, decimals: 3))]) })),
                ("stillSince", .number(cue.stillSince, decimals: 3)),
            ])),
            ("face", .object([
                ("framesWithFace", .int(faceFrames)),
                ("x", stats(faceBoxes.map(\.x))), ("y", stats(faceBoxes.map(\.y))),
                ("width", stats(faceBoxes.map(\.width))), ("height", stats(faceBoxes.map(\.height))),
            ])),
            ("imageQuality", .object([
                ("darkness", stats(scores.map(\.darkness))), ("lightness", stats(scores.map(\.lightness))),
                ("sharpness", stats(scores.map(\.sharpness))),
            ])),
            // The ISO/IEC 29794-5 component scores (0–100) over the recorded frames with a face.
            ("faceImageQuality", .object((FaceImageQuality.componentNames + ["unifiedQuality"]).compactMap { name in
                faceImageQuality[name].map { (name, stats($0)) }
            })),
        ])
        return value.serialized()
    }
}
