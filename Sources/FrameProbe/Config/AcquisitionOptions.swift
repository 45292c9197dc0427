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
