/// One setting: its command-line flag, its config-file key (the seeds' camelCase name), its help, and how it
/// is stored. The argument parser, `--config` loading, `--help` and `frameprobe stages` all read this table.
public struct OptionSpec: Sendable {
    public let flag: String
    public let shortFlag: Character?
    /// Key in `--config` JSON (nested objects flatten to dotted paths: `roi.top`); nil = command line only.
    public let configKey: String?
    /// Placeholder of the value in help; nil for a switch that takes no value.
    public let valueName: String?
    public let help: String
    /// The stage the option configures, for `frameprobe stages`; nil for input/output options.
    public let stage: String?
    /// Error key when the value does not parse.
    public let invalidKey: String
    public let apply: @Sendable (inout AnalysisOptions, OptionValue) throws(FrameProbeError) -> Void

    public var takesValue: Bool { valueName != nil }
    /// How the option reads in help: `-o, --output FILE`.
    public var synopsis: String {
        (shortFlag.map { "-\($0), " } ?? "") + "--\(flag)" + (valueName.map { " \($0)" } ?? "")
    }
}

/// The options of `frameprobe analyze` (and of the commands that analyse: `report`, `acquire`).
public enum OptionTable {
    public static let analyze: [OptionSpec] = input + output + capture + quality

    public static func spec(flag: String) -> OptionSpec? { analyze.first { $0.flag == flag } }
    public static func spec(short: Character) -> OptionSpec? { analyze.first { $0.shortFlag == short } }
    public static func spec(configKey: String) -> OptionSpec? { analyze.first { $0.configKey == configKey } }

    static let input: [OptionSpec] = [
        OptionSpec(flag: "input-format", shortFlag: nil, configKey: "inputFormat", valueName: "NAME",
                   help: "libavformat input format or device (rawvideo, nut, v4l2, …); default: probed",
                   stage: nil, invalidKey: "INVALID_INPUT_FORMAT") { options, value throws(FrameProbeError) in
            options.decode.inputFormat = try value.text("INVALID_INPUT_FORMAT", "inputFormat")
        },
        OptionSpec(flag: "video-size", shortFlag: nil, configKey: "videoSize", valueName: "WxH",
                   help: "raw frames: frame size", stage: nil, invalidKey: "INVALID_RAW_VIDEO") { options, value throws(FrameProbeError) in
            options.decode.videoSize = try value.text("INVALID_RAW_VIDEO", "videoSize")
        },
        OptionSpec(flag: "pixel-format", shortFlag: nil, configKey: "pixelFormat", valueName: "FMT",
                   help: "raw frames: bgr24, rgb24, gray, yuv420p …", stage: nil, invalidKey: "INVALID_RAW_VIDEO") { options, value throws(FrameProbeError) in
            options.decode.pixelFormat = try value.text("INVALID_RAW_VIDEO", "pixelFormat")
        },
        OptionSpec(flag: "frame-rate", shortFlag: nil, configKey: "frameRate", valueName: "R",
                   help: "raw frames: frames per second (default 25)", stage: nil, invalidKey: "INVALID_RAW_VIDEO") { options, value throws(FrameProbeError) in
            options.decode.frameRate = try value.text("INVALID_RAW_VIDEO", "frameRate")
        },
        OptionSpec(flag: "start", shortFlag: nil, configKey: "start", valueName: "SECONDS",
                   help: "analyse from this media time", stage: nil, invalidKey: "INVALID_START") { options, value throws(FrameProbeError) in
            options.decode.start = try value.double("INVALID_START", "start")
        },
        OptionSpec(flag: "duration", shortFlag: nil, configKey: "duration", valueName: "SECONDS",
                   help: "analyse this much media time", stage: nil, invalidKey: "INVALID_DURATION") { options, value throws(FrameProbeError) in
            options.decode.duration = try value.double("INVALID_DURATION", "duration")
        },
        OptionSpec(flag: "sample-every", shortFlag: nil, configKey: "sampleEvery", valueName: "N",
                   help: "analyse every Nth decoded frame (default 1)", stage: nil, invalidKey: "INVALID_SAMPLE_EVERY") { options, value throws(FrameProbeError) in
            options.decode.sampleEvery = try value.int("INVALID_SAMPLE_EVERY", "sampleEvery")
        },
        OptionSpec(flag: "max-pixels", shortFlag: nil, configKey: "maxPixels", valueName: "N",
                   help: "refuse frames with more pixels (default 67108864 = 8192×8192)", stage: nil,
                   invalidKey: "INVALID_MAX_PIXELS") { options, value throws(FrameProbeError) in
            options.decode.maxPixels = try value.int("INVALID_MAX_PIXELS", "maxPixels")
        },
    ]

    static let output: [OptionSpec] = [
        OptionSpec(flag: "output", shortFlag: "o", configKey: "output", valueName: "FILE",
                   help: "write the JSON Lines here (default: standard output)", stage: nil, invalidKey: "INVALID_OUTPUT") { options, value throws(FrameProbeError) in
            options.outputPath = try value.text("INVALID_OUTPUT", "output")
        },
        OptionSpec(flag: "output-dir", shortFlag: nil, configKey: "outputDir", valueName: "DIR",
                   help: "save captured images under DIR/<input-stem>/ (implies --save-image-captured)", stage: "capture",
                   invalidKey: "INVALID_OUTPUT_DIR") { options, value throws(FrameProbeError) in
            options.outputDirectory = try value.text("INVALID_OUTPUT_DIR", "outputDir")
        },
        OptionSpec(flag: "jobs", shortFlag: "j", configKey: "jobs", valueName: "N",
                   help: "inputs analysed in parallel (default: all cores); output stays in input order", stage: nil,
                   invalidKey: "INVALID_JOBS") { options, value throws(FrameProbeError) in
            options.jobs = try value.int("INVALID_JOBS", "jobs")
        },
        OptionSpec(flag: "progress", shortFlag: nil, configKey: "progress", valueName: "auto|always|never",
                   help: "progress line on stderr (auto: when stderr is a terminal)", stage: nil, invalidKey: "INVALID_PROGRESS") { options, value throws(FrameProbeError) in
            let text = try value.text("INVALID_PROGRESS", "progress")
            guard let mode = AnalysisOptions.ProgressMode(rawValue: text) else {
                throw FrameProbeError("INVALID_PROGRESS", "progress must be auto, always or never, got '\(text)'")
            }
            options.progress = mode
        },
        OptionSpec(flag: "stages", shortFlag: nil, configKey: "stages", valueName: "LIST",
                   help: "run exactly these stages, in this order (see `frameprobe stages`)", stage: nil,
                   invalidKey: "INVALID_STAGES") { options, value throws(FrameProbeError) in
            options.stages = try value.text("INVALID_STAGES", "stages").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        },
    ]

    static let capture: [OptionSpec] = [
        OptionSpec(flag: "capture-type", shortFlag: nil, configKey: "captureType", valueName: "face|frame|qrcode|none",
                   help: "what to capture (default face)", stage: "capture", invalidKey: "INVALID_CAPTURE_TYPE") { options, value throws(FrameProbeError) in
            let text = try value.text("INVALID_CAPTURE_TYPE", "captureType")
            guard let type = CaptureType(rawValue: text) else {
                throw FrameProbeError("INVALID_CAPTURE_TYPE", "captureType must be face, frame, qrcode or none, got '\(text)'")
            }
            options.captureType = type
        },
        OptionSpec(flag: "number-of-images", shortFlag: nil, configKey: "numberOfImages", valueName: "N",
                   help: "images to save per input, then endCapture (0 = unlimited)", stage: "capture",
                   invalidKey: "INVALID_NUMBER_OF_IMAGES") { options, value throws(FrameProbeError) in
            options.numberOfImages = try value.int("INVALID_NUMBER_OF_IMAGES", "numberOfImages")
        },
        OptionSpec(flag: "time-between-images", shortFlag: nil, configKey: "timeBetweenImages", valueName: "MS",
                   help: "minimum media time between saved images (default 1000)", stage: "capture",
                   invalidKey: "INVALID_TIME_BETWEEN_IMAGES") { options, value throws(FrameProbeError) in
            options.timeBetweenImages = try value.int("INVALID_TIME_BETWEEN_IMAGES", "timeBetweenImages")
        },
        OptionSpec(flag: "output-image-width", shortFlag: nil, configKey: "outputImageWidth", valueName: "PX",
                   help: "saved image width (default 200)", stage: "capture", invalidKey: "INVALID_OUTPUT_IMAGE_WIDTH") { options, value throws(FrameProbeError) in
            options.outputImageWidth = try value.int("INVALID_OUTPUT_IMAGE_WIDTH", "outputImageWidth")
        },
        OptionSpec(flag: "output-image-height", shortFlag: nil, configKey: "outputImageHeight", valueName: "PX",
                   help: "saved image height (default 200)", stage: "capture", invalidKey: "INVALID_OUTPUT_IMAGE_HEIGHT") { options, value throws(FrameProbeError) in
            options.outputImageHeight = try value.int("INVALID_OUTPUT_IMAGE_HEIGHT", "outputImageHeight")
        },
        OptionSpec(flag: "save-image-captured", shortFlag: nil, configKey: "saveImageCaptured", valueName: nil,
                   help: "save captured images (to --output-dir, default ./frameprobe-output)", stage: "capture",
                   invalidKey: "INVALID_SAVE_IMAGE_CAPTURED") { options, value throws(FrameProbeError) in
            options.saveImageCaptured = try value.bool("INVALID_SAVE_IMAGE_CAPTURED", "saveImageCaptured")
        },
        OptionSpec(flag: "keep-aspect", shortFlag: nil, configKey: "keepAspect", valueName: nil,
                   help: "letterbox saved images instead of stretching them", stage: "capture",
                   invalidKey: "INVALID_KEEP_ASPECT") { options, value throws(FrameProbeError) in
            options.keepAspect = try value.bool("INVALID_KEEP_ASPECT", "keepAspect")
        },
        OptionSpec(flag: "stop-at-end-capture", shortFlag: nil, configKey: "stopAtEndCapture", valueName: nil,
                   help: "stop analysing an input once numberOfImages are saved", stage: "capture",
                   invalidKey: "INVALID_STOP_AT_END_CAPTURE") { options, value throws(FrameProbeError) in
            options.stopAtEndCapture = try value.bool("INVALID_STOP_AT_END_CAPTURE", "stopAtEndCapture")
        },
    ]

    static let quality: [OptionSpec] = [
        OptionSpec(flag: "frame-quality", shortFlag: nil, configKey: "frameQuality", valueName: nil,
                   help: "emit frameQuality (darkness, lightness, sharpness of the whole frame) per analysed frame",
                   stage: "quality", invalidKey: "INVALID_FRAME_QUALITY") { options, value throws(FrameProbeError) in
            options.frameQuality = try value.bool("INVALID_FRAME_QUALITY", "frameQuality")
        },
    ]
}
