import CFFmpeg
import Foundation

/// What Yoonit's `startCaptureType` selects.
public enum CaptureType: String, Sendable, CaseIterable {
    case face, frame, qrcode, none
}

/// Every setting of an analysis run, with the seeds' defaults. Filled from `--config` then the command line
/// (see `OptionTable`), then checked by `validate()`.
public struct AnalysisOptions: Sendable {
    public var captureType: CaptureType = .face
    /// Images to save per input; 0 = unlimited.
    public var numberOfImages = 0
    /// Minimum media time between two saved images, in milliseconds.
    public var timeBetweenImages = 1000
    public var outputImageWidth = 200
    public var outputImageHeight = 200
    public var saveImageCaptured = false
    /// Letterbox saved images instead of stretching them to the output size.
    public var keepAspect = false
    public var stopAtEndCapture = false
    /// Emit `frameQuality` for every analysed frame.
    public var frameQuality = false

    /// Smallest face to find, as a fraction of the frame width (sets the detection scale).
    public var minFaceSize = 0.1
    /// Scan the whole frame for faces every Nth analysed frame, following known faces in between.
    public var detectEvery = 10
    /// Add the named landmark groups to `faceDetected`.
    public var faceContours = false
    /// Add the face crop's quality to `faceDetected`.
    public var faceQuality = false
    /// Decode QR codes alongside face analysis (capture type `qrcode` decodes them alone).
    public var qrcode = false
    public var symbologies = ["qrcode"]
    public var qrcodeForgetMs = 1000
    public var qrcodeEveryFrame = false
    public var qrcodeRetry = true
    public var qrcodeRetryMegapixels = 16.0
    /// Detection-box enlargement, region of interest, minimum and maximum sizes.
    public var region = RegionCheck.Options()
    /// Save, next to each captured image, the frame with the box, contours and ROI drawn.
    public var annotate = false
    public var detectionBoxColor = ARGBColor()
    public var faceContoursColor = ARGBColor()
    public var roiColor = ARGBColor()
    /// Where images and clips go (`--output-dir`; implies saving captured images).
    public var outputDirectory: String?
    /// Replace existing output files (`-y/--overwrite`, ffmpeg's convention); otherwise they are kept and the
    /// input that would replace one fails with `OUTPUT_EXISTS`.
    public var overwrite = false
    /// Explicit stage list (`--stages`); nil derives it from the capture type and flags.
    public var stages: [String]?
    public var decode = DecodeOptions()
    /// Guided acquisition (`frameprobe acquire`).
    public var acquisition = AcquisitionOptions()

    /// JSON Lines destination (`-o`; nil = standard output).
    public var outputPath: String?
    /// Inputs analysed in parallel.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    public var progress: ProgressMode = .auto
    /// `--shard K/N`: this machine's share of the inputs (nil: all, unless the environment names a shard).
    public var shard: String?
    /// `--shard-count N`, with `JOB_COMPLETION_INDEX`.
    public var shardCount: Int?
    /// Report formats and gates (`frameprobe report`).
    public var reportFormats: [ReportFormat] = []
    public var gates: [String] = []
    public var mergeReports = false

    public enum ProgressMode: String, Sendable, CaseIterable { case auto, always, never }

    /// The shard to run: `--shard`, else the environment's (Kubernetes Indexed Job, Slurm array), else nil.
    public func resolvedShard(environment: [String: String] = ProcessInfo.processInfo.environment) throws(FrameProbeError) -> Shard? {
        if let shard { return try Shard(parsing: shard) }
        return try Shard.fromEnvironment(environment, countHint: shardCount)
    }

    public init() {}

    /// Whether captured images are written (explicitly, or because an output directory was given).
    public var savesImages: Bool { saveImageCaptured || outputDirectory != nil }

    /// What libavformat's `video_size` takes: `WxH` or an abbreviation (`hd720`, `vga` …).
    static func isFrameSize(_ text: String) -> Bool {
        var width: Int32 = 0, height: Int32 = 0
        return av_parse_video_size(&width, &height, text) >= 0 && width > 0 && height > 0
    }

    /// Checks every value before anything runs; the error carries the SPEC key (exit 2).
    public func validate() throws(FrameProbeError) {
        try CaptureStage.Options(self).validate()
        try FaceDetectionStage.Options(self).validate()
        try region.validate()
        try QRCodeStage.Options(self).validate()
        if decode.sampleEvery < 1 { throw FrameProbeError("INVALID_SAMPLE_EVERY", "sampleEvery must be 1 or more") }
        // A year of media time bounds every time computation (libav* counts microseconds in 64 bits).
        let year = 366.0 * 86_400
        if decode.start < 0 || decode.start > year { throw FrameProbeError("INVALID_START", "start must be 0 s … \(Int(year)) s") }
        if let duration = decode.duration, duration <= 0 || duration > year {
            throw FrameProbeError("INVALID_DURATION", "duration must be more than 0 s and at most \(Int(year)) s")
        }
        if let size = decode.videoSize, !Self.isFrameSize(size) {
            throw FrameProbeError("INVALID_RAW_VIDEO", "--video-size takes WxH (e.g. 1280x720) or a name such as hd720, got '\(size)'")
        }
        if decode.maxPixels < 1 { throw FrameProbeError("INVALID_MAX_PIXELS", "maxPixels must be positive") }
        if jobs < 1 { throw FrameProbeError("INVALID_JOBS", "jobs must be 1 or more") }
        if decode.inputFormat == "rawvideo" && (decode.videoSize == nil || decode.pixelFormat == nil) {
            throw FrameProbeError("INVALID_RAW_VIDEO", "--input-format rawvideo needs --video-size WxH and --pixel-format")
        }
    }
}
