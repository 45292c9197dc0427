/// The option groups no stage owns: how inputs are read, where output goes, how a run is spread, and the report's.
/// The commands put them together with the options of the stages they run.
public enum OptionTable {
    /// What `acquire` takes of the output options.
    public static var acquisitionOutput: [OptionSpec] { output.filter { ["output", "output-dir", "overwrite", "progress"].contains($0.flag) } }

    public static let input: [OptionSpec] = [
        .text("input-format", "inputFormat", "NAME", "libavformat input format or device (rawvideo, nut, v4l2, …); default: probed",
              invalid: "INVALID_INPUT_FORMAT", \AnalysisOptions.decode.inputFormat),
        .text("video-size", "videoSize", "WxH", "raw frames: frame size", invalid: "INVALID_RAW_VIDEO", \AnalysisOptions.decode.videoSize),
        .text("pixel-format", "pixelFormat", "FMT", "raw frames: bgr24, rgb24, gray, yuv420p …",
              invalid: "INVALID_RAW_VIDEO", \AnalysisOptions.decode.pixelFormat),
        .text("frame-rate", "frameRate", "R", "raw frames: frames per second (default 25)", invalid: "INVALID_RAW_VIDEO", \AnalysisOptions.decode.frameRate),
        .number("start", "start", "SECONDS", "analyse from this media time", invalid: "INVALID_START", \AnalysisOptions.decode.start),
        .optionalNumber("duration", "duration", "SECONDS", "analyse this much media time", invalid: "INVALID_DURATION", \AnalysisOptions.decode.duration),
        .int("sample-every", "sampleEvery", "N", "analyse every Nth decoded frame (default 1)",
             invalid: "INVALID_SAMPLE_EVERY", \AnalysisOptions.decode.sampleEvery, bounds: .within(1...1_000_000)),
        .int("max-pixels", "maxPixels", "N", "refuse frames with more pixels (default 67108864 = 8192×8192)",
             invalid: "INVALID_MAX_PIXELS", \AnalysisOptions.decode.maxPixels, bounds: .within(1...1_073_741_824)),
        .toggle("follow-links", "followLinks", "let a directory walk follow symbolic links out of the folder it was given",
                invalid: "INVALID_FOLLOW_LINKS", \AnalysisOptions.followLinks),
    ]

    public static let output: [OptionSpec] = [
        .text("output", "output", "FILE", "write the JSON Lines here (default: standard output)", short: "o",
              invalid: "INVALID_OUTPUT", \AnalysisOptions.outputPath),
        .text("output-dir", "outputDir", "DIR", "save captured images under DIR/<input folder>/: its path relative to the inputs' common folder (implies --save-image-captured)",
              invalid: "INVALID_OUTPUT_DIR", \AnalysisOptions.outputDirectory),
        .toggle("overwrite", "overwrite", "replace existing output files (otherwise an input that would replace one fails with OUTPUT_EXISTS)",
                short: "y", invalid: "INVALID_OVERWRITE", \AnalysisOptions.overwrite),
        .int("jobs", "jobs", "N", "inputs analysed in parallel (default: all cores); output stays in input order",
             short: "j", invalid: "INVALID_JOBS", \AnalysisOptions.jobs, bounds: .within(1...1024)),
        .choice("progress", "progress", "progress line on stderr (auto: when stderr is a terminal)",
                invalid: "INVALID_PROGRESS", \AnalysisOptions.progress),
        .bound("resume", "resume", nil, "continue the output (-o FILE, or a report's -o PREFIX) an earlier run of the same command left: keep the inputs it finished, drop a cut one, analyse the rest; =redo-changed analyses inputs changed since again instead of refusing",
               short: nil, invalid: "INVALID_RESUME", \AnalysisOptions.resume, shownDefault: { _ in nil },
               parse: { value throws(FrameProbeError) in try AnalysisOptions.ResumeMode(value) }),
        .text("shard", "shard", "K/N", "take shard K (from 0) of N of the sorted inputs (default: from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID)",
              invalid: "INVALID_SHARD", \AnalysisOptions.shard),
        .bound("shard-count", "shardCount", "N", "number of shards, with JOB_COMPLETION_INDEX (a Kubernetes Indexed Job's completions)",
               short: nil, invalid: "INVALID_SHARD", \AnalysisOptions.shardCount, shownDefault: { _ in nil },
               parse: { value throws(FrameProbeError) in try value.int("INVALID_SHARD", "shardCount") }),
        .list("stages", "stages", "LIST", "run exactly these stages, in this order (see `frameprobe stages`)", invalid: "INVALID_STAGES",
              \AnalysisOptions.stages) { $0 },
    ]

}

extension OptionTable {
    /// The options only `frameprobe report` takes.
    public static let report: [OptionSpec] = [
        .toggle("merge", "merge", "the inputs are JSON reports (shards) to combine into one", invalid: "INVALID_MERGE", \AnalysisOptions.mergeReports),
        .number("interval-min-duration", "intervalMinDuration", "SECONDS", "intervals shorter than this are left out (after merging)",
                invalid: "INVALID_INTERVAL", \AnalysisOptions.intervals.minDuration, bounds: .within(0...86_400)),
        .number("interval-merge-gap", "intervalMergeGap", "SECONDS", "intervals closer than this are merged into one",
                invalid: "INVALID_INTERVAL", \AnalysisOptions.intervals.mergeGap, bounds: .within(0...86_400)),
        .number("fiq-threshold", "fiqThreshold", "SCORE", "face image quality (unifiedQuality) below this is an interval of lowFaceImageQuality",
                invalid: "INVALID_FIQ_THRESHOLD", \AnalysisOptions.fiqThreshold, bounds: .within(0...100)),
        .text("baseline", "baseline", "OLD.json", "an earlier JSON report: adds delta.FIELD = new − old per input and in total",
              invalid: "INVALID_BASELINE", \AnalysisOptions.baselinePath),
        .choice("baseline-new-inputs", "baselineNewInputs", "whether a delta gate passes on an input the baseline lacks",
                invalid: "INVALID_BASELINE", \AnalysisOptions.baselineNewInputs),
        OptionSpec(flag: "format", shortFlag: "f", configKey: "formats", valueName: ReportFormat.allCases.map(\.rawValue).joined(separator: "|"),
                   help: "a report format (repeatable; default json)", invalidKey: "INVALID_FORMAT") { options, value throws(FrameProbeError) in
            for name in try value.items("INVALID_FORMAT", "format") {
                guard let format = ReportFormat(named: String(name)) else {
                    throw FrameProbeError("INVALID_FORMAT", "unknown format '\(name)'\(Suggestion.hint(for: String(name), in: ReportFormat.allCases.map(\.rawValue)))")
                }
                if !options.reportFormats.contains(format) { options.reportFormats.append(format) }
            }
        },
        OptionSpec(flag: "gate", shortFlag: "g", configKey: "gates", valueName: "EXPR",
                   help: "a quality gate, e.g. \"faceFrameRatio>=0.9\" or \"total.blurredRatio<=0.1\" (repeatable)",
                   invalidKey: "INVALID_GATE") { options, value throws(FrameProbeError) in
            // A gate has no comma: "a,b" is two gates, as is a config list ("gates": ["a", "b"]); an empty one is an error.
            for expression in try value.items("INVALID_GATE", "gate") {
                _ = try Gate(parsing: expression)
                options.gates.append(expression)
            }
        },
    ]
}
