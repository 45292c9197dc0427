/// Settings of `frameprobe acquire`: the preset, the session config and the strings.
public struct AcquisitionOptions: StageOptions {
    public var preset: AcquisitionPreset = .selfieFast
    public var session = SessionConfig()
    public var language = LocalizedStrings.languageFromEnvironment()
    /// Keys from `--strings FILE.strings`, over the built-in table.
    public var stringOverrides: [String: String] = [:]

    public init() {}

    public var strings: LocalizedStrings { LocalizedStrings(language: language, overrides: stringOverrides) }

    public var recordingDurationMs: Int { session.recordingDurationMs ?? preset.recordingDurationMs }
    public var qualities: [VideoQuality] { session.qualities ?? preset.qualities }
    public var guidance: GuidanceOptions { session.guidance }
}

extension AnalysisOptions {
    /// `acquire`'s settings before its config file and flags: it expects one face (`--max-faces 1`). Guidance wants
    /// one and says `MULTIPLE_FACES` otherwise; a second face that comes into view is found by the safety scan
    /// (`FaceDetectionStage.safetyScanFactor`) and followed from then on, so that answer stands while it stays.
    public static var acquisitionDefaults: AnalysisOptions {
        var options = AnalysisOptions()
        options[FaceDetectionStage.Options.self].maxFaces = 1
        return options
    }
}
