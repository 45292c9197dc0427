import Foundation

/// Reads `--config FILE.json`: a JSON object whose keys are the seeds' camelCase setting names; nested objects
/// flatten to dotted keys (`{"roi": {"top": 0.1}}` sets `roi.top`).
public enum ConfigFile {
    /// Applies the file's settings to `options`. Unknown keys are errors with a suggestion.
    public static func apply(contentsOf path: String, to options: inout AnalysisOptions, specs: [OptionSpec]) throws(FrameProbeError) {
        let data = try FileContents.read(path, errorKey: "INVALID_CONFIG")
        let document: ConfigJSON
        do { document = try JSONDecoder().decode(ConfigJSON.self, from: data) } catch {
            throw FrameProbeError("INVALID_CONFIG", "config file \(path) is not valid JSON")
        }
        guard case .object(let object) = document else {
            throw FrameProbeError("INVALID_CONFIG", "config file \(path) is not a JSON object")
        }
        try apply(object, to: &options, specs: specs)
    }

    static func apply(_ object: [String: ConfigJSON], to options: inout AnalysisOptions, specs: [OptionSpec]) throws(FrameProbeError) {
        for (key, value) in flatten(object).sorted(by: { $0.key < $1.key }) {
            guard let spec = specs.first(where: { $0.configKey == key }) else {
                let known = specs.map(\.configKey)
                throw FrameProbeError("INVALID_CONFIG", "unknown config key '\(key)'\(Suggestion.hint(for: key, in: known))")
            }
            guard let optionValue = value.optionValue else {
                throw FrameProbeError(spec.invalidKey, "config key '\(key)' has an unsupported value")
            }
            try spec.set(optionValue, in: &options)
        }
    }

    private static func flatten(_ object: [String: ConfigJSON], prefix: String = "") -> [String: ConfigJSON] {
        var flat: [String: ConfigJSON] = [:]
        for (key, value) in object {
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            if case .object(let nested) = value {
                flat.merge(flatten(nested, prefix: path)) { $1 }
            } else {
                flat[path] = value
            }
        }
        return flat
    }
}

/// A config file's JSON, decoded strictly (JSONDecoder keeps `true` and `1` apart).
enum ConfigJSON: Decodable, Equatable {
    case bool(Bool), number(Double), text(String), list([ConfigJSON]), object([String: ConfigJSON]), null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .text(value) }
        else if let value = try? container.decode([ConfigJSON].self) { self = .list(value) }
        else { self = .object(try container.decode([String: ConfigJSON].self)) }
    }

    /// The value as a user wrote it (for messages: never Swift's description of the enum).
    var shownAsJSON: String {
        switch self {
        case .bool(let value): String(value)
        case .number(let value): OptionValue.number(value).description
        case .text(let value): "\"\(value)\""
        case .list(let items): "[" + items.map(\.shownAsJSON).joined(separator: ", ") + "]"
        case .object: "{…}"
        case .null: "null"
        }
    }

    /// Lists become comma-separated text (`"stages": ["quality", "capture"]`).
    var optionValue: OptionValue? {
        switch self {
        case .bool(let value): .bool(value)
        case .number(let value): .number(value)
        case .text(let value): .text(value)
        case .list(let items):
            // Texts and numbers (a colour is four numbers); anything else makes the list unsupported.
            items.allSatisfy({ if case .text = $0 { true } else if case .number = $0 { true } else { false } })
                ? .text(items.map { item in
                    if case .text(let text) = item { return text }
                    return item.optionValue?.description.trimmingCharacters(in: CharacterSet(charactersIn: "'")) ?? ""
                }.joined(separator: ","))
                : nil
        case .object, .null: nil
        }
    }
}
