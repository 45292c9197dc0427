import CFFmpeg
import Foundation

/// What Yoonit's `startCaptureType` selects.
public enum CaptureType: String, Sendable, CaseIterable {
    case face, frame, qrcode, none
}

/// Every setting of an analysis run, with the seeds' defaults. Filled from `--config` then the command line
/// (see `OptionTable`), then checked by `validate()`.
public struct AnalysisOptions: Sendable {
    /// What to capture (Yoonit's `startCaptureType`); with the flags below it selects the stages of a run.
    public var captureType: CaptureType = .face
    public var saveImageCaptured = false
    /// Emit `frameQuality` for every analysed frame.
    public var frameQuality = false
    /// Decode QR codes alongside face analysis (capture type `qrcode` decodes them alone).
    public var qrcode = false
    /// Measure the primary face's ISO/IEC 29794-5 components (`--face-image-quality`).
    public var faceImageQuality = false
    /// Every stage's own settings, by options type (`options[FaceDetectionStage.Options.self].detectEvery`).
    public var stageOptions = StageOptionsStore()
    /// Where images and clips go (`--output-dir`; implies saving captured images).
    public var outputDirectory: String?
    /// Replace existing output files (`-y/--overwrite`, ffmpeg's convention); otherwise they are kept and the
    /// input that would replace one fails with `OUTPUT_EXISTS`.
    public var overwrite = false
    /// Explicit stage list (`--stages`); nil derives it from the capture type and flags.
    public var stages: [String]?
    public var decode = DecodeOptions()

    /// JSON Lines destination (`-o`; nil = standard output).
    public var outputPath: String?
    /// Whether a directory walk may follow links out of the folder it was given (off: as `find` without -L).
    public var followLinks = false
    /// The file `-o` names; nil for standard output (no `-o`, or `-o -`, as everywhere in frameprobe).
    public var outputFile: String? { outputPath == "-" ? nil : outputPath }
    /// Inputs analysed in parallel.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    public var progress: ProgressMode = .auto
    /// `--resume`: continue the output an earlier run of this command left (see `ResumeLedger`).
    public var resume: ResumeMode = .off
    /// The settings a `RunRecord` keeps (`RunRecord.settings`), filled by the command-line parser.
    public var recordedSettings: [String] = []
    /// `--shard K/N`: this machine's share of the inputs (nil: all, unless the environment names a shard).
    public var shard: String?
    /// `--shard-count N`, with `JOB_COMPLETION_INDEX`.
    public var shardCount: Int?
    /// Report formats and gates (`frameprobe report`).
    public var reportFormats: [ReportFormat] = []
    public var gates: [String] = []
    public var mergeReports = false
    /// `--interval-min-duration`, `--interval-merge-gap` (SPEC §7.1).
    public var intervals = IntervalSettings()
    /// `--fiq-threshold`: a face whose unifiedQuality is below it is the `lowFaceImageQuality` condition.
    public var fiqThreshold = 50.0
    /// `--baseline OLD.json`: an earlier JSON report to give `delta.` fields against (SPEC §7.2).
    public var baselinePath: String?
    /// Whether a delta gate passes on an input the baseline does not have.
    public var baselineNewInputs: BaselineNewInputs = .fail

    public enum BaselineNewInputs: String, Sendable, CaseIterable { case fail, pass }

    /// Whether a run continues an earlier one's output: `strict` (`--resume`) refuses an output another run
    /// started or an input that changed since; `redoChanged` (`--resume=redo-changed`) analyses those again.
    public enum ResumeMode: String, Sendable, CaseIterable {
        case off, strict, redoChanged = "redo-changed"

        init(_ value: OptionValue) throws(FrameProbeError) {
            switch value {
            case .text("redo-changed"): self = .redoChanged
            case .text("strict"): self = .strict
            default:
                do throws(FrameProbeError) { self = try value.bool("INVALID_RESUME", "resume") ? .strict : .off } catch {
                    throw FrameProbeError("INVALID_RESUME", "--resume takes no value, =redo-changed or =false, got \(value.description)")
                }
            }
        }
    }

    public enum ProgressMode: String, Sendable, CaseIterable { case auto, always, never }

    /// The shard to run: `--shard`, else the environment's (Kubernetes Indexed Job, Slurm array), else nil.
    public func resolvedShard(environment: [String: String] = ProcessInfo.processInfo.environment) throws(FrameProbeError) -> Shard? {
        if let shard { return try Shard(parsing: shard) }
        return try Shard.fromEnvironment(environment, countHint: shardCount)
    }

    public init() {}

    /// A stage's settings.
    public subscript<Options: StageOptions>(_ type: Options.Type) -> Options {
        get { stageOptions[type] }
        set { stageOptions[type] = newValue }
    }

    /// The guided-acquisition settings (`frameprobe acquire`; read by the guidance, recording and check stages).
    public var acquisition: AcquisitionOptions {
        get { self[AcquisitionOptions.self] }
        set { self[AcquisitionOptions.self] = newValue }
    }

    /// Whether captured images are written (explicitly, or because an output directory was given).
    public var savesImages: Bool { saveImageCaptured || outputDirectory != nil }
    /// Where images and clips go: `--output-dir`, default `./frameprobe-output`.
    public var outputFolder: String { outputDirectory ?? "frameprobe-output" }

    /// What libavformat's `video_size` takes: `WxH` or an abbreviation (`hd720`, `vga` …), within the pixel budget
    /// (`--max-pixels`) and 16384 a side — a bigger raw frame could never be analysed.
    func isFrameSize(_ text: String) -> Bool {
        var width: Int32 = 0, height: Int32 = 0
        return av_parse_video_size(&width, &height, text) >= 0 && (1...16384).contains(width) && (1...16384).contains(height)
            && Int(width) * Int(height) <= decode.maxPixels
    }

    /// What libavformat's `framerate` takes: a positive rate (`30`, `29.97`, `30000/1001`, `ntsc`) of at most 1000.
    static func isFrameRate(_ text: String) -> Bool {
        var rate = AVRational()
        return av_parse_video_rate(&rate, text) >= 0 && rate.num > 0 && rate.den > 0 && Double(rate.num) / Double(rate.den) <= 1000
    }

    /// Checks the run's own values (the stages' are checked by their descriptors); the error carries the SPEC key.
    public func validate() throws(FrameProbeError) {
        // A year of media time bounds every time computation (libav* counts microseconds in 64 bits).
        let year = 366.0 * 86_400
        if decode.start < 0 || decode.start > year { throw FrameProbeError("INVALID_START", "start must be 0 s … \(Int(year)) s") }
        if let duration = decode.duration, duration <= 0 || duration > year {
            throw FrameProbeError("INVALID_DURATION", "duration must be more than 0 s and at most \(Int(year)) s")
        }
        if let size = decode.videoSize, !isFrameSize(size) {
            throw FrameProbeError("INVALID_RAW_VIDEO", "--video-size takes WxH (e.g. 1280x720) or a name such as hd720, at most 16384 a side and --max-pixels in all, got '\(size)'")
        }
        if let rate = decode.frameRate, !Self.isFrameRate(rate) {
            throw FrameProbeError("INVALID_RAW_VIDEO", "--frame-rate takes a positive rate of at most 1000 (30, 29.97, 30000/1001), got '\(rate)'")
        }
        if outputDirectory?.isEmpty == true { throw FrameProbeError("INVALID_OUTPUT_DIR", "--output-dir '' names no folder (write --output-dir . for this one)") }
        if outputPath?.isEmpty == true { throw FrameProbeError("INVALID_OUTPUT", "-o '' names no file (write -o - for standard output)") }
        if decode.inputFormat == "rawvideo" && (decode.videoSize == nil || decode.pixelFormat == nil) {
            throw FrameProbeError("INVALID_RAW_VIDEO", "--input-format rawvideo needs --video-size WxH and --pixel-format")
        }
    }
}
