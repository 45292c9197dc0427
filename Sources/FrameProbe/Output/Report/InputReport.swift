/// A QR code an input showed, and when it was first seen.
public struct CodeFinding: Codable, Sendable, Equatable {
    public var content: String
    public var firstSeen: Double
}

/// What a report says about one input; every number a gate can test is in `fields`.
public struct InputReport: Codable, Sendable, Equatable {
    /// Position in the full, unsharded input list (keeps merged shard reports in the single-run order).
    public var index: Int
    public var source: String
    /// The input's name as raw bytes (hex) when it is not UTF-8: its `source` shows the invalid bytes as U+FFFD, so
    /// two such names can print alike. Nil for every other name.
    public var sourceBytes: String?
    /// What identifies the input when reports are compared (`--baseline`) or combined (`--merge`).
    public var matchKey: String { sourceBytes.map { "bytes:" + $0 } ?? source }
    /// `KEY: message` when the input failed.
    public var error: String?
    /// Why the input was not analysed to its end (interrupted, events cut short): it fails every gate, saying so.
    public var incomplete: String?
    public var framesDecoded = 0
    public var framesAnalysed = 0
    public var faceFrames = 0
    /// Analysed frames by number of faces found ("0", "1", "2" …).
    public var faceCounts: [String: Int] = [:]
    /// Frames by head-pose label, per axis (vertical / horizontal / tilt).
    public var headPose: [String: [String: Int]] = [:]
    public var darkness: ScoreStats?
    public var lightness: ScoreStats?
    public var sharpness: ScoreStats?
    public var tooDarkFrames = 0
    public var tooLightFrames = 0
    public var blurredFrames = 0
    /// Frames with quality scores (`frameQuality` events): what the too dark / too light / blurred ratios are
    /// over. Optional so that reports written before it existed still merge.
    public var scoredFrames: Int?
    /// Wall time the analysis took (`inputClosed.elapsedSeconds`), for JUnit's `time`.
    public var elapsedSeconds: Double?
    public var qrCodes: [CodeFinding] = []
    public var acquisition: AcquisitionCheck?
    /// The best face crop, as a `data:image/jpeg;base64,…` URI.
    public var thumbnail: String?
    public var series = Series()
    /// Per condition (`IntervalCondition`) with data, its `[start, end]` media-time intervals; nil in reports
    /// written before intervals existed.
    public var intervals: [String: [[Double]]]?
    /// Face image quality score statistics per component and `unifiedQuality` (with `--face-image-quality`).
    public var faceImageQuality: [String: ScoreStats]?
    /// New − old for every field both this report and `--baseline` have (nil: no baseline, or an input it lacks).
    public var delta: [String: Double]?
    public var gates: [GateResult] = []

    public init(index: Int, source: String) {
        self.index = index
        self.source = source
    }

    /// The largest count a report holds for one input (a million hours at 300 fps): a million inputs of it still
    /// sum within 64 bits. Counts read back beyond it, or below 0, are damaged data.
    public static let countLimit = 1_000_000_000_000

    /// The first field of a report read back whose value cannot be right (a count out of 0…countLimit, a score
    /// that is not a finite number), or nil.
    var fieldOutOfRange: String? {
        let counts: [(String, Int?)] = [("index", index), ("framesDecoded", framesDecoded), ("framesAnalysed", framesAnalysed),
                                        ("faceFrames", faceFrames), ("tooDarkFrames", tooDarkFrames), ("tooLightFrames", tooLightFrames),
                                        ("blurredFrames", blurredFrames), ("scoredFrames", scoredFrames)]
            + faceCounts.map { ("faceCounts.\($0.key)", $0.value) }
        if let (name, _) = counts.first(where: { !(0...Self.countLimit).contains($0.1 ?? 0) }) { return name }
        let stats: [(String, ScoreStats?)] = [("darkness", darkness), ("lightness", lightness), ("sharpness", sharpness)]
            + (faceImageQuality ?? [:]).map { ("faceImageQuality.\($0.key)", $0.value) }
        if let (name, _) = stats.first(where: { $0.1.map { !$0.isPlausible } ?? false }) { return name }
        if let (name, _) = fields.first(where: { !$0.value.isFinite }) { return name }
        return nil
    }

    /// Marks the input incomplete: a failed input (`INCOMPLETE: why`) whose gates all fail with that reason.
    public mutating func markIncomplete(_ reason: String) {
        incomplete = reason
        if error == nil { error = "INCOMPLETE: \(reason)" }
    }

    /// The numbers gates test, by name. A field without a value is absent: a ratio over no frames (the quality
    /// ratios when no frame was scored), an acquisition that was not checked.
    public var fields: [String: Double] {
        var fields: [String: Double] = [
            "failed": error == nil ? 0 : 1,
            "framesDecoded": Double(framesDecoded), "framesAnalysed": Double(framesAnalysed),
            "faceFrames": Double(faceFrames), "qrCodeCount": Double(qrCodes.count),
        ]
        if framesAnalysed > 0 { fields["faceFrameRatio"] = Double(faceFrames) / Double(framesAnalysed) }
        if let scoredFrames, scoredFrames > 0 {
            fields["tooDarkRatio"] = Double(tooDarkFrames) / Double(scoredFrames)
            fields["tooLightRatio"] = Double(tooLightFrames) / Double(scoredFrames)
            fields["blurredRatio"] = Double(blurredFrames) / Double(scoredFrames)
        }
        fields.merge(ScoreStats.fields(darkness: darkness, lightness: lightness, sharpness: sharpness)) { $1 }
        if let acquisition {
            fields["acquisitionSucceeded"] = acquisition.succeeded ? 1 : 0
            if let start = acquisition.recordStartPts { fields["acquisitionStartPts"] = start }
        }
        return fields.merging(intervalFields) { $1 }.merging(Self.faceImageQualityFields(faceImageQuality)) { $1 }
            .merging(Self.prefixed(delta)) { $1 }
    }

    /// `faceImageQualityMean`/`Min` (of `unifiedQuality`) and `fiq.COMPONENT.mean`/`.min`.
    static func faceImageQualityFields(_ stats: [String: ScoreStats]?) -> [String: Double] {
        var fields: [String: Double] = [:]
        for (name, stat) in stats ?? [:] {
            if name == "unifiedQuality" {
                fields["faceImageQualityMean"] = stat.mean
                fields["faceImageQualityMin"] = stat.min
            } else {
                fields["fiq.\(name).mean"] = stat.mean
                fields["fiq.\(name).min"] = stat.min
            }
        }
        return fields
    }

    /// `delta` as `delta.FIELD` fields.
    static func prefixed(_ delta: [String: Double]?) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: (delta ?? [:]).map { (Baseline.deltaPrefix + $0.key, $0.value) })
    }

    /// Every field name a gate may use.
    public static let fieldNames = ["failed", "framesDecoded", "framesAnalysed", "faceFrames", "faceFrameRatio", "tooDarkRatio",
                                    "tooLightRatio", "blurredRatio", "qrCodeCount", "darknessMean", "darknessMin", "darknessMax",
                                    "lightnessMean", "lightnessMin", "lightnessMax", "sharpnessMean", "sharpnessMin", "sharpnessMax",
                                    "acquisitionSucceeded", "acquisitionStartPts", "faceImageQualityMean", "faceImageQualityMin"]
        + IntervalCondition.allCases.flatMap(\.fields) + FaceImageQuality.componentNames.flatMap { ["fiq.\($0).mean", "fiq.\($0).min"] }
}

/// The report's totals over all inputs.
public struct ReportTotals: Codable, Sendable, Equatable {
    public var inputs = 0
    public var failedInputs = 0
    public var framesDecoded = 0
    public var framesAnalysed = 0
    public var faceFrames = 0
    public var darkness: ScoreStats?
    public var lightness: ScoreStats?
    public var sharpness: ScoreStats?
    public var tooDarkFrames = 0
    public var tooLightFrames = 0
    public var blurredFrames = 0
    public var scoredFrames: Int?
    public var qrCodeCount = 0
    /// Inputs whose acquisition would succeed — per input 0 or 1 (`acquisitionSucceeded`), here their count.
    public var acquisitionsSucceeded = 0
    /// Inputs whose acquisition was checked (none: the totals' `acquisitionSucceeded` has no value).
    public var acquisitionsChecked: Int?
    /// The interval fields over all inputs that have them: seconds and counts summed, the longest the longest.
    public var intervalFields: [String: Double]?
    /// New − old for the totals' fields, against `--baseline`.
    public var delta: [String: Double]?
    /// Face image quality score statistics over all inputs, per component and `unifiedQuality`.
    public var faceImageQuality: [String: ScoreStats]?

    init(_ inputs: [InputReport]) {
        self.inputs = inputs.count
        failedInputs = inputs.filter { $0.error != nil }.count
        framesDecoded = inputs.reduce(0) { $0 + $1.framesDecoded }
        framesAnalysed = inputs.reduce(0) { $0 + $1.framesAnalysed }
        faceFrames = inputs.reduce(0) { $0 + $1.faceFrames }
        darkness = ScoreStats(combining: inputs.compactMap(\.darkness))
        lightness = ScoreStats(combining: inputs.compactMap(\.lightness))
        sharpness = ScoreStats(combining: inputs.compactMap(\.sharpness))
        tooDarkFrames = inputs.reduce(0) { $0 + $1.tooDarkFrames }
        tooLightFrames = inputs.reduce(0) { $0 + $1.tooLightFrames }
        blurredFrames = inputs.reduce(0) { $0 + $1.blurredFrames }
        scoredFrames = inputs.reduce(0) { $0 + ($1.scoredFrames ?? 0) }
        acquisitionsChecked = inputs.filter { $0.acquisition != nil }.count
        qrCodeCount = inputs.reduce(0) { $0 + $1.qrCodes.count }
        acquisitionsSucceeded = inputs.filter { $0.acquisition?.succeeded == true }.count
        var intervals: [String: Double] = [:]
        for condition in IntervalCondition.allCases {
            let parts = inputs.map(\.intervalFields).filter { $0[condition.secondsField] != nil }
            guard !parts.isEmpty else { continue }
            intervals[condition.secondsField] = parts.reduce(0) { $0 + ($1[condition.secondsField] ?? 0) }
            intervals[condition.countField] = parts.reduce(0) { $0 + ($1[condition.countField] ?? 0) }
            intervals[condition.longestField] = parts.compactMap { $0[condition.longestField] }.max() ?? 0
        }
        intervalFields = intervals
        let measured = inputs.compactMap(\.faceImageQuality)
        let names = Set(measured.flatMap(\.keys))
        faceImageQuality = names.isEmpty ? nil : Dictionary(uniqueKeysWithValues: names.compactMap { name in
            ScoreStats(combining: measured.compactMap { $0[name] }).map { (name, $0) }
        })
    }

    /// The totals' fields: counts summed, ratios over all inputs' frames (absent over none), like `InputReport.fields`.
    public var fields: [String: Double] {
        var fields: [String: Double] = [
            "inputs": Double(inputs), "failedInputs": Double(failedInputs), "failed": Double(failedInputs),
            "framesDecoded": Double(framesDecoded), "framesAnalysed": Double(framesAnalysed), "faceFrames": Double(faceFrames),
            "qrCodeCount": Double(qrCodeCount),
        ]
        if framesAnalysed > 0 { fields["faceFrameRatio"] = Double(faceFrames) / Double(framesAnalysed) }
        if let scoredFrames, scoredFrames > 0 {
            fields["tooDarkRatio"] = Double(tooDarkFrames) / Double(scoredFrames)
            fields["tooLightRatio"] = Double(tooLightFrames) / Double(scoredFrames)
            fields["blurredRatio"] = Double(blurredFrames) / Double(scoredFrames)
        }
        if (acquisitionsChecked ?? 0) > 0 { fields["acquisitionSucceeded"] = Double(acquisitionsSucceeded) }
        return fields.merging(ScoreStats.fields(darkness: darkness, lightness: lightness, sharpness: sharpness)) { $1 }
            .merging(intervalFields ?? [:]) { $1 }.merging(InputReport.faceImageQualityFields(faceImageQuality)) { $1 }
            .merging(InputReport.prefixed(delta)) { $1 }
    }
}
