import Foundation

/// Unissey's SessionConfig as JSON: `{"recordingConfig": {"recordingDurationMs": 2000, "qualities": ["hd", "sd"]},
/// "uiConfig": {...}, "guidance": {...}}`. Unknown keys are errors; UI-only keys are accepted (nothing to show here).
public struct SessionConfig: Sendable, Equatable {
    public var recordingDurationMs: Int?
    public var qualities: [VideoQuality]?
    public var guidance = GuidanceOptions()
    /// The `uiConfig` keys that were given (reported once as not applicable).
    public var uiKeys: [String] = []

    public init() {}

    static let uiConfigKeys: Set<String> = ["showInstructions", "showVideoCaptureButton", "showWideWindowPreviewInputsToTheRight"]

    public init(contentsOf path: String) throws(FrameProbeError) {
        try self.init(json: try FileContents.read(path, errorKey: "INVALID_SESSION_CONFIG"))
    }

    public init(json data: Data) throws(FrameProbeError) {
        guard case .object(let root)? = try? JSONDecoder().decode(ConfigJSON.self, from: data) else {
            throw FrameProbeError("INVALID_SESSION_CONFIG", "the session config is not a JSON object")
        }
        if let repeated = DuplicateJSONKeys.first(in: data) {
            throw FrameProbeError("INVALID_SESSION_CONFIG", "session config key '\(repeated)' is given twice")
        }
        try Self.expectKeys(root, ["recordingConfig", "uiConfig", "guidance"], in: "session config")
        if let value = root["recordingConfig"] {
            guard case .object(let recording) = value else { throw Self.invalid("recordingConfig must be an object") }
            try Self.expectKeys(recording, ["recordingDurationMs", "qualities"], in: "recordingConfig")
            // null is the seed's own default ("use the preset's"), as if the key were absent.
            if let duration = recording["recordingDurationMs"], duration != .null {
                // Checked after rounding: 0.4 would otherwise record a clip of 0 ms.
                guard case .number(let ms) = duration, ms.isFinite, (1...600_000).contains(ms.rounded()) else {
                    throw Self.invalid("recordingDurationMs must be 1…600000 (whole milliseconds), got \(duration)")
                }
                recordingDurationMs = Int(ms.rounded())
            }
            if let list = recording["qualities"], list != .null {
                guard case .list(let items) = list, !items.isEmpty else { throw Self.invalid("qualities must be a non-empty list") }
                qualities = try items.map { item throws(FrameProbeError) -> VideoQuality in
                    guard case .text(let name) = item, let quality = VideoQuality(rawValue: name) else {
                        throw Self.invalid("unknown quality \(item.shownAsJSON); known: \(VideoQuality.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    return quality
                }
            }
        }
        if let value = root["uiConfig"] {
            guard case .object(let ui) = value else { throw Self.invalid("uiConfig must be an object") }
            try Self.expectKeys(ui, Self.uiConfigKeys, in: "uiConfig")
            uiKeys = ui.keys.sorted()
        }
        if let value = root["guidance"] {
            guard case .object(let fields) = value else { throw Self.invalid("guidance must be an object") }
            try Self.expectKeys(fields, Set(GuidanceOptions.fields.keys), in: "guidance")
            for (key, item) in fields.sorted(by: { $0.key < $1.key }) {
                guard case .number(let number) = item, let field = GuidanceOptions.fields[key] else {
                    throw Self.invalid("guidance.\(key) must be a number")
                }
                guidance[keyPath: field] = number
            }
            try guidance.validate()
        }
    }

    private static func expectKeys(_ object: [String: ConfigJSON], _ known: Set<String>, in place: String) throws(FrameProbeError) {
        for key in object.keys.sorted() where !known.contains(key) {
            throw invalid("unknown key '\(key)' in \(place)\(Suggestion.hint(for: key, in: known.sorted()))")
        }
    }

    private static func invalid(_ message: String) -> FrameProbeError { FrameProbeError("INVALID_SESSION_CONFIG", message) }
}

