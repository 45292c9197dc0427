/// Unissey's video qualities: a quality's number is the frame's short side.
public enum VideoQuality: String, Sendable, CaseIterable, Codable {
    case lowest, sd, hd, fhd, uhd, highest

    /// The short side this quality records at; nil for `highest` (the input's own).
    public var shortSide: Int? {
        switch self {
        case .lowest: 144
        case .sd: 480
        case .hd: 720
        case .fhd: 1080
        case .uhd: 2160
        case .highest: nil
        }
    }

    /// The clip size for an input of `width` × `height`: short side = this quality (never upscaled), aspect kept,
    /// even sides (H.264's 4:2:0). Nil when the input is too small for it.
    public func clipSize(forWidth width: Int, height: Int) -> (width: Int, height: Int)? {
        let short = min(width, height), long = max(width, height)
        let target = shortSide ?? short
        guard target <= short, target > 0 else { return nil }
        let scaledLong = Int((Double(long) * Double(target) / Double(short) / 2).rounded()) * 2
        let even = target / 2 * 2
        return width >= height ? (scaledLong, even) : (even, scaledLong)
    }
}

/// Unissey's acquisition presets.
public enum AcquisitionPreset: String, Sendable, CaseIterable {
    case selfieFast = "selfie-fast"
    case selfieSubstantial = "selfie-substantial"

    /// Our spelling, or the seed's (`selfieFast`, `selfieSubstantial`).
    public init?(rawValue: String) {
        switch rawValue {
        case "selfie-fast", "selfieFast": self = .selfieFast
        case "selfie-substantial", "selfieSubstantial": self = .selfieSubstantial
        default: return nil
        }
    }

    public var recordingDurationMs: Int { self == .selfieFast ? 1000 : 3000 }

    /// In order of preference.
    public var qualities: [VideoQuality] { self == .selfieFast ? [.sd, .hd] : [.hd, .fhd] }
}
