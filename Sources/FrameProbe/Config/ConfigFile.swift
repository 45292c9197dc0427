import Foundation

/// Reads `--config FILE.json`: a JSON object whose keys are the seeds' camelCase setting names; nested objects
/// flatten to dotted keys (`{"roi": {"top": 0.1}}` sets `roi.top`).
public enum ConfigFile {
    /// Applies the file's settings to `options`; returns them, in the order applied. Unknown keys are errors with a
    /// suggestion.
    @discardableResult
    public static func apply(contentsOf path: String, to options: inout AnalysisOptions, specs: [OptionSpec]) throws(FrameProbeError)
        -> [(OptionSpec, OptionValue)] {
        let data = try FileContents.read(path, errorKey: "INVALID_CONFIG")
        let document: ConfigJSON
        do { document = try JSONDecoder().decode(ConfigJSON.self, from: data) } catch {
            throw FrameProbeError("INVALID_CONFIG", "config file \(path) is not valid JSON")
        }
        guard case .object(let object) = document else {
            throw FrameProbeError("INVALID_CONFIG", "config file \(path) is not a JSON object")
        }
        if let repeated = DuplicateJSONKeys.first(in: data) {
            throw FrameProbeError("INVALID_CONFIG", "config key '\(repeated)' is given twice in \(path)")
        }
        return try apply(object, to: &options, specs: specs)
    }

    @discardableResult
    static func apply(_ object: [String: ConfigJSON], to options: inout AnalysisOptions, specs: [OptionSpec]) throws(FrameProbeError)
        -> [(OptionSpec, OptionValue)] {
        var applied: [(OptionSpec, OptionValue)] = []
        for (key, value) in try flatten(object).sorted(by: { $0.key < $1.key }) {
            guard let spec = specs.first(where: { $0.configKey == key }) else {
                let known = specs.map(\.configKey)
                throw FrameProbeError("INVALID_CONFIG", "unknown config key '\(key)'\(Suggestion.hint(for: key, in: known))")
            }
            guard let optionValue = value.optionValue else {
                throw FrameProbeError(spec.invalidKey, "config key '\(key)' has an unsupported value")
            }
            try spec.set(optionValue, in: &options)
            applied.append((spec, optionValue))
        }
        return applied
    }

    /// Nested objects as dotted keys. A key given both ways (`"roi.top"` and `"roi": {"top": …}`) is an error, as is
    /// an empty object (it sets nothing, which is never what was meant).
    private static func flatten(_ object: [String: ConfigJSON], prefix: String = "") throws(FrameProbeError) -> [String: ConfigJSON] {
        var flat: [String: ConfigJSON] = [:]
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            let entries: [String: ConfigJSON]
            if case .object(let nested) = value {
                guard !nested.isEmpty else { throw FrameProbeError("INVALID_CONFIG", "config key '\(path)' is an empty object") }
                entries = try flatten(nested, prefix: path)
            } else {
                entries = [path: value]
            }
            for (entry, entryValue) in entries {
                guard flat[entry] == nil else {
                    throw FrameProbeError("INVALID_CONFIG", "config key '\(entry)' is given twice (as a dotted key and in a nested object)")
                }
                flat[entry] = entryValue
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

    /// The setting's value (`"stages": ["quality", "capture"]` is a list).
    var optionValue: OptionValue? {
        switch self {
        case .bool(let value): .bool(value)
        case .number(let value): .number(value)
        case .text(let value): .text(value)
        case .list(let items):
            // Texts and numbers (a colour is four numbers); anything else makes the list unsupported. Only list
            // and colour options take a list: `{"sampleEvery": [2]}` is refused, not read as 2.
            items.allSatisfy({ if case .text = $0 { true } else if case .number = $0 { true } else { false } })
                ? .list(items.map { item in
                    if case .text(let text) = item { return text }
                    return item.optionValue?.description ?? ""
                })
                : nil
        case .object, .null: nil
        }
    }
}
