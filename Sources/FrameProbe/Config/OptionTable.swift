/// One setting: its command-line flag, its config-file key (the seeds' camelCase name), its help, and how it
/// is stored. The argument parser, `--config` loading, `--help` and `frameprobe stages` all read this table.
public struct OptionSpec: Sendable {
    public let flag: String
    public let shortFlag: Character?
    /// Key in `--config` JSON (nested objects flatten to dotted paths: `roi.top`).
    public let configKey: String
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

extension OptionSpec {
    typealias Setting<Value> = WritableKeyPath<AnalysisOptions, Value> & Sendable

    static func int(_ flag: String, _ key: String, _ valueName: String, _ help: String, stage: String? = nil,
                    short: Character? = nil, invalid: String, _ setting: Setting<Int>) -> OptionSpec {
        OptionSpec(flag: flag, shortFlag: short, configKey: key, valueName: valueName, help: help, stage: stage,
                   invalidKey: invalid) { options, value throws(FrameProbeError) in
            options[keyPath: setting] = try value.int(invalid, key)
        }
    }

    static func number(_ flag: String, _ key: String, _ valueName: String, _ help: String, stage: String? = nil,
                       invalid: String, _ setting: Setting<Double>) -> OptionSpec {
        OptionSpec(flag: flag, shortFlag: nil, configKey: key, valueName: valueName, help: help, stage: stage,
                   invalidKey: invalid) { options, value throws(FrameProbeError) in
            options[keyPath: setting] = try value.double(invalid, key)
        }
    }

    static func optionalNumber(_ flag: String, _ key: String, _ valueName: String, _ help: String, invalid: String,
                               _ setting: Setting<Double?>) -> OptionSpec {
        OptionSpec(flag: flag, shortFlag: nil, configKey: key, valueName: valueName, help: help, stage: nil,
                   invalidKey: invalid) { options, value throws(FrameProbeError) in
            options[keyPath: setting] = try value.double(invalid, key)
        }
    }

    static func text(_ flag: String, _ key: String, _ valueName: String, _ help: String, stage: String? = nil,
                     short: Character? = nil, invalid: String, _ setting: Setting<String?>) -> OptionSpec {
        OptionSpec(flag: flag, shortFlag: short, configKey: key, valueName: valueName, help: help, stage: stage,
                   invalidKey: invalid) { options, value throws(FrameProbeError) in
            options[keyPath: setting] = try value.text(invalid, key)
        }
    }

    /// A switch: `--flag` sets it, `--flag=false` clears it; JSON takes true/false.
    static func toggle(_ flag: String, _ key: String, _ help: String, stage: String? = nil, short: Character? = nil,
                       invalid: String, _ setting: Setting<Bool>) -> OptionSpec {
        OptionSpec(flag: flag, shortFlag: short, configKey: key, valueName: nil, help: help, stage: stage,
                   invalidKey: invalid) { options, value throws(FrameProbeError) in
            options[keyPath: setting] = try value.bool(invalid, key)
        }
    }

    /// A colour "alpha,red,green,blue" (JSON: a list of four numbers).
    static func color(_ flag: String, _ key: String, _ help: String, invalid: String, _ setting: Setting<ARGBColor>) -> OptionSpec {
        OptionSpec(flag: flag, shortFlag: nil, configKey: key, valueName: "A,R,G,B", help: help, stage: "capture",
                   invalidKey: invalid) { options, value throws(FrameProbeError) in
            options[keyPath: setting] = try ARGBColor(parsing: try value.text(invalid, key), invalidKey: invalid)
        }
    }

    /// One of a closed set of names (a `RawRepresentable` enum).
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ flag: String, _ key: String, _ help: String, stage: String? = nil, invalid: String, _ setting: Setting<Choice>
    ) -> OptionSpec where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        return OptionSpec(flag: flag, shortFlag: nil, configKey: key, valueName: names.joined(separator: "|"), help: help,
                          stage: stage, invalidKey: invalid) { options, value throws(FrameProbeError) in
            let text = try value.text(invalid, key)
            guard let choice = Choice(rawValue: text) else {
                throw FrameProbeError(invalid, "\(key) must be one of \(names.joined(separator: ", ")), got '\(text)'")
            }
            options[keyPath: setting] = choice
        }
    }
}

/// The options of `frameprobe analyze` (and of the commands that analyse: `report`, `acquire`).
public enum OptionTable {
    public static let analyze: [OptionSpec] = input + output + capture + quality + faces + codes + region + annotation

    public static func spec(configKey: String) -> OptionSpec? { (analyze + acquire).first { $0.configKey == configKey } }

    /// What `acquire` takes of the output options.
    public static let acquisitionOutput: [OptionSpec] = output.filter { ["output", "output-dir", "overwrite", "progress"].contains($0.flag) }
    /// What `acquire` takes of the face options.
    public static let faceFinding: [OptionSpec] = faces.filter { ["min-face-size", "detect-every"].contains($0.flag) }

    public static let input: [OptionSpec] = [
        .text("input-format", "inputFormat", "NAME", "libavformat input format or device (rawvideo, nut, v4l2, …); default: probed",
              invalid: "INVALID_INPUT_FORMAT", \.decode.inputFormat),
        .text("video-size", "videoSize", "WxH", "raw frames: frame size", invalid: "INVALID_RAW_VIDEO", \.decode.videoSize),
        .text("pixel-format", "pixelFormat", "FMT", "raw frames: bgr24, rgb24, gray, yuv420p …",
              invalid: "INVALID_RAW_VIDEO", \.decode.pixelFormat),
        .text("frame-rate", "frameRate", "R", "raw frames: frames per second (default 25)", invalid: "INVALID_RAW_VIDEO", \.decode.frameRate),
        .number("start", "start", "SECONDS", "analyse from this media time", invalid: "INVALID_START", \.decode.start),
        .optionalNumber("duration", "duration", "SECONDS", "analyse this much media time", invalid: "INVALID_DURATION", \.decode.duration),
        .int("sample-every", "sampleEvery", "N", "analyse every Nth decoded frame (default 1)",
             invalid: "INVALID_SAMPLE_EVERY", \.decode.sampleEvery),
        .int("max-pixels", "maxPixels", "N", "refuse frames with more pixels (default 67108864 = 8192×8192)",
             invalid: "INVALID_MAX_PIXELS", \.decode.maxPixels),
    ]

    public static let output: [OptionSpec] = [
        .text("output", "output", "FILE", "write the JSON Lines here (default: standard output)", short: "o",
              invalid: "INVALID_OUTPUT", \.outputPath),
        .text("output-dir", "outputDir", "DIR", "save captured images under DIR/<input folder>/: its path relative to the inputs' common folder (implies --save-image-captured)",
              stage: "capture", invalid: "INVALID_OUTPUT_DIR", \.outputDirectory),
        .toggle("overwrite", "overwrite", "replace existing output files (otherwise an input that would replace one fails with OUTPUT_EXISTS)",
                short: "y", invalid: "INVALID_OVERWRITE", \.overwrite),
        .int("jobs", "jobs", "N", "inputs analysed in parallel (default: all cores); output stays in input order",
             short: "j", invalid: "INVALID_JOBS", \.jobs),
        .choice("progress", "progress", "progress line on stderr (auto: when stderr is a terminal)",
                invalid: "INVALID_PROGRESS", \.progress),
        .text("shard", "shard", "K/N", "take shard K (from 0) of N of the sorted inputs (default: from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID)",
              invalid: "INVALID_SHARD", \.shard),
        OptionSpec(flag: "shard-count", shortFlag: nil, configKey: "shardCount", valueName: "N",
                   help: "number of shards, with JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's completions)", stage: nil,
                   invalidKey: "INVALID_SHARD") { options, value throws(FrameProbeError) in
            options.shardCount = try value.int("INVALID_SHARD", "shardCount")
        },
        OptionSpec(flag: "stages", shortFlag: nil, configKey: "stages", valueName: "LIST",
                   help: "run exactly these stages, in this order (see `frameprobe stages`)", stage: nil,
                   invalidKey: "INVALID_STAGES") { options, value throws(FrameProbeError) in
            options.stages = try value.text("INVALID_STAGES", "stages").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        },
    ]

    static let capture: [OptionSpec] = [
        .choice("capture-type", "captureType", "what to capture (default face)", stage: "capture",
                invalid: "INVALID_CAPTURE_TYPE", \.captureType),
        .int("number-of-images", "numberOfImages", "N", "images to save per input, then endCapture (0 = unlimited)",
             stage: "capture", invalid: "INVALID_NUMBER_OF_IMAGES", \.numberOfImages),
        .int("time-between-images", "timeBetweenImages", "MS", "minimum media time between saved images (default 1000)",
             stage: "capture", invalid: "INVALID_TIME_BETWEEN_IMAGES", \.timeBetweenImages),
        .int("output-image-width", "outputImageWidth", "PX", "saved image width (default 200)",
             stage: "capture", invalid: "INVALID_OUTPUT_IMAGE_WIDTH", \.outputImageWidth),
        .int("output-image-height", "outputImageHeight", "PX", "saved image height (default 200)",
             stage: "capture", invalid: "INVALID_OUTPUT_IMAGE_HEIGHT", \.outputImageHeight),
        .toggle("save-image-captured", "saveImageCaptured", "save captured images (to --output-dir, default ./frameprobe-output)",
                stage: "capture", invalid: "INVALID_SAVE_IMAGE_CAPTURED", \.saveImageCaptured),
        .toggle("keep-aspect", "keepAspect", "letterbox saved images instead of stretching them",
                stage: "capture", invalid: "INVALID_KEEP_ASPECT", \.keepAspect),
        .toggle("stop-at-end-capture", "stopAtEndCapture", "stop analysing an input once numberOfImages are saved",
                stage: "capture", invalid: "INVALID_STOP_AT_END_CAPTURE", \.stopAtEndCapture),
    ]

    static let quality: [OptionSpec] = [
        .toggle("frame-quality", "frameQuality", "emit frameQuality (darkness, lightness, sharpness of the whole frame) per analysed frame",
                stage: "quality", invalid: "INVALID_FRAME_QUALITY", \.frameQuality),
    ]
}

extension OptionTable {
    public static let faces: [OptionSpec] = [
        .number("min-face-size", "minFaceSize", "FRACTION", "smallest face to find, as a fraction of the frame width (default 0.1)",
                stage: "faceDetection", invalid: "INVALID_MIN_FACE_SIZE", \.minFaceSize),
        .int("detect-every", "detectEvery", "N", "scan the whole frame for faces every Nth analysed frame, following known faces in between (default 10)",
             stage: "faceDetection", invalid: "INVALID_DETECT_EVERY", \.detectEvery),
        .toggle("face-contours", "faceContours", "add the named landmark groups to faceDetected",
                stage: "faceRegion", invalid: "INVALID_FACE_CONTOURS", \.faceContours),
        .toggle("face-quality", "faceQuality", "add the face crop's darkness/lightness/sharpness to faceDetected",
                stage: "faceRegion", invalid: "INVALID_FACE_QUALITY", \.faceQuality),
    ]

    static let region: [OptionSpec] = [
        .number("detection-top-size", "detectionTopSize", "FRACTION", "enlarge (+) or shrink (−) the box's top side",
                stage: "faceRegion", invalid: "INVALID_DETECTION_TOP_SIZE", \.region.detectionTopSize),
        .number("detection-right-size", "detectionRightSize", "FRACTION", "enlarge (+) or shrink (−) the box's right side",
                stage: "faceRegion", invalid: "INVALID_DETECTION_RIGHT_SIZE", \.region.detectionRightSize),
        .number("detection-bottom-size", "detectionBottomSize", "FRACTION", "enlarge (+) or shrink (−) the box's bottom side",
                stage: "faceRegion", invalid: "INVALID_DETECTION_BOTTOM_SIZE", \.region.detectionBottomSize),
        .number("detection-left-size", "detectionLeftSize", "FRACTION", "enlarge (+) or shrink (−) the box's left side",
                stage: "faceRegion", invalid: "INVALID_DETECTION_LEFT_SIZE", \.region.detectionLeftSize),
        .number("detection-min-size", "detectionMinSize", "FRACTION", "minimum box width / frame (or ROI) width (default 0)",
                stage: "faceRegion", invalid: "INVALID_MINIMUM_SIZE", \.region.detectionMinSize),
        .number("detection-max-size", "detectionMaxSize", "FRACTION", "maximum box width / frame width (default 1)",
                stage: "faceRegion", invalid: "INVALID_MAXIMUM_SIZE", \.region.detectionMaxSize),
        .toggle("roi", "roi", "turn the region of interest on (also on with any offset)",
                stage: "faceRegion", invalid: "INVALID_ROI", \.region.roi),
        .number("roi-top-offset", "roi.top", "FRACTION", "region of interest: distance from the top",
                stage: "faceRegion", invalid: "INVALID_ROI_TOP_OFFSET", \.region.roiTopOffset),
        .number("roi-right-offset", "roi.right", "FRACTION", "region of interest: distance from the right",
                stage: "faceRegion", invalid: "INVALID_ROI_RIGHT_OFFSET", \.region.roiRightOffset),
        .number("roi-bottom-offset", "roi.bottom", "FRACTION", "region of interest: distance from the bottom",
                stage: "faceRegion", invalid: "INVALID_ROI_BOTTOM_OFFSET", \.region.roiBottomOffset),
        .number("roi-left-offset", "roi.left", "FRACTION", "region of interest: distance from the left",
                stage: "faceRegion", invalid: "INVALID_ROI_LEFT_OFFSET", \.region.roiLeftOffset),
    ]

    static let annotation: [OptionSpec] = [
        .toggle("annotate", "annotate", "with each saved image, save the frame with the box, contours and ROI drawn",
                stage: "capture", invalid: "INVALID_ANNOTATE", \.annotate),
        .color("detection-box-color", "detectionBoxColor", "box colour (default 0.4,1,1,1)",
               invalid: "INVALID_DETECTION_BOX_COLOR", \.detectionBoxColor),
        .color("face-contours-color", "faceContoursColor", "contours colour (default 0.4,1,1,1)",
               invalid: "INVALID_FACE_CONTOURS_COLOR", \.faceContoursColor),
        .color("roi-color", "roiColor", "ROI colour (default 0.4,1,1,1)", invalid: "INVALID_ROI_COLOR", \.roiColor),
    ]

    static let codes: [OptionSpec] = [
        .toggle("qrcode", "qrcode", "decode QR codes alongside face analysis", stage: "qrcode", invalid: "INVALID_QRCODE", \.qrcode),
        OptionSpec(flag: "symbologies", shortFlag: nil, configKey: "symbologies", valueName: "LIST",
                   help: "barcode types to decode: qrcode, ean13, ean8, upca, code128, … (default qrcode)", stage: "qrcode",
                   invalidKey: "INVALID_SYMBOLOGIES") { options, value throws(FrameProbeError) in
            options.symbologies = try value.text("INVALID_SYMBOLOGIES", "symbologies").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        },
        .int("qrcode-forget-ms", "qrcodeForgetMs", "MS", "report a code again after it was absent this long (default 1000)",
             stage: "qrcode", invalid: "INVALID_QRCODE_FORGET_MS", \.qrcodeForgetMs),
        .toggle("qrcode-every-frame", "qrcodeEveryFrame", "report codes on every analysed frame (Yoonit's behaviour)",
                stage: "qrcode", invalid: "INVALID_QRCODE_EVERY_FRAME", \.qrcodeEveryFrame),
        .toggle("qrcode-retry", "qrcodeRetry", "when nothing is found, try WeChatQRCode, then zbar on sharpened, binarised, upscaled copies (default true)",
                stage: "qrcode", invalid: "INVALID_QRCODE_RETRY", \.qrcodeRetry),
        .number("qrcode-retry-megapixels", "qrcodeRetryMegapixels", "MP",
                "work those second passes may do per frame, in megapixels scanned (default 16: all four on 1080p)",
                stage: "qrcode", invalid: "INVALID_QRCODE_RETRY_MEGAPIXELS", \.qrcodeRetryMegapixels),
    ]

    /// The options only `frameprobe acquire` takes.
    public static let acquire: [OptionSpec] = [
        .choice("preset", "preset", "acquisition preset (default selfie-fast)", stage: "recording", invalid: "INVALID_PRESET",
                \.acquisition.preset),
        OptionSpec(flag: "session-config", shortFlag: nil, configKey: "sessionConfig", valueName: "FILE.json",
                   help: "Unissey SessionConfig: recordingConfig, uiConfig, guidance", stage: "recording",
                   invalidKey: "INVALID_SESSION_CONFIG") { options, value throws(FrameProbeError) in
            options.acquisition.session = try SessionConfig(contentsOf: try value.text("INVALID_SESSION_CONFIG", "sessionConfig"))
        },
        .choice("lang", "lang", "language of the instructions (default from LANG)", stage: "guidance", invalid: "INVALID_LANG",
                \.acquisition.language),
        OptionSpec(flag: "strings", shortFlag: nil, configKey: "strings", valueName: "FILE.strings",
                   help: "override texts with Apple's \"key\" = \"value\"; format", stage: "guidance",
                   invalidKey: "INVALID_STRINGS") { options, value throws(FrameProbeError) in
            options.acquisition.stringOverrides = try StringsFile.parse(contentsOf: try value.text("INVALID_STRINGS", "strings"))
        },
    ]

    /// The options only `frameprobe report` takes.
    public static let report: [OptionSpec] = [
        .toggle("merge", "merge", "the inputs are JSON reports (shards) to combine into one", invalid: "INVALID_MERGE", \.mergeReports),
        OptionSpec(flag: "format", shortFlag: "f", configKey: "formats", valueName: "json|junit|markdown|html",
                   help: "a report format (repeatable; default json)", stage: nil, invalidKey: "INVALID_FORMAT") { options, value throws(FrameProbeError) in
            for name in try value.text("INVALID_FORMAT", "format").split(separator: ",") {
                guard let format = ReportFormat(rawValue: String(name)) else {
                    throw FrameProbeError("INVALID_FORMAT", "unknown format '\(name)'\(Suggestion.hint(for: String(name), in: ReportFormat.allCases.map(\.rawValue)))")
                }
                if !options.reportFormats.contains(format) { options.reportFormats.append(format) }
            }
        },
        OptionSpec(flag: "gate", shortFlag: "g", configKey: "gates", valueName: "EXPR",
                   help: "a quality gate, e.g. \"faceFrameRatio>=0.9\" or \"total.blurredRatio<=0.1\" (repeatable)", stage: nil,
                   invalidKey: "INVALID_GATE") { options, value throws(FrameProbeError) in
            // A gate has no comma, so a config list ("gates": ["a", "b"]) arrives as "a,b".
            for expression in try value.text("INVALID_GATE", "gate").split(separator: ",").map(String.init) {
                _ = try Gate(parsing: expression)
                options.gates.append(expression)
            }
        },
    ]
}
