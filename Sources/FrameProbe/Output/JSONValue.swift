import Foundation

/// A JSON value with ordered object keys, so every event is written with the same, readable key order.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number written with at most `decimals` digits after the point (trailing zeros trimmed).
    case number(Double, decimals: Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized() == rhs.serialized() }

    /// Compact single-line serialization (valid JSON; non-finite numbers become null).
    public func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .number(let value, let decimals): out += Self.format(value, decimals: decimals)
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20:
                out += String(format: "\\u%04x", control.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue: Encodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value, let decimals):
            var container = encoder.singleValueContainer()
            try container.encode(Double(Self.format(value, decimals: decimals)) ?? value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let fields):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in fields { try container.encode(value, forKey: Key(key)) }
        }
    }
}

extension JSONValue {
    /// Indented serialization (two spaces a level), for documents people read: `frameprobe schema`.
    public func pretty() -> String {
        var out = ""
        writePretty(to: &out, indent: "")
        return out
    }

    private func writePretty(to out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += inner
                item.writePretty(to: &out, indent: inner)
                out += index < items.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let fields) where !fields.isEmpty:
            out += "{\n"
            for (index, (key, value)) in fields.enumerated() {
                out += inner
                Self.writeString(key, to: &out)
                out += ": "
                value.writePretty(to: &out, indent: inner)
                out += index < fields.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        default:
            write(to: &out)
        }
    }
}
