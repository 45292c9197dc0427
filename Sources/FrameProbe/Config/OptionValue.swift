/// A setting's raw value, from the command line (text) or a JSON config file (text, number or bool).
public enum OptionValue: Sendable {
    case text(String)
    case number(Double)
    case bool(Bool)

    var description: String {
        switch self {
        case .text(let text): "'\(text)'"
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .bool(let bool): String(bool)
        }
    }

    func int(_ invalidKey: String, _ name: String) throws(FrameProbeError) -> Int {
        switch self {
        case .number(let number) where number.rounded() == number && abs(number) < 1e15: return Int(number)
        case .text(let text): if let value = Int(text) { return value }
        default: break
        }
        throw FrameProbeError(invalidKey, "\(name) needs a whole number, got \(description)")
    }

    func double(_ invalidKey: String, _ name: String) throws(FrameProbeError) -> Double {
        switch self {
        case .number(let number) where number.isFinite: return number
        case .text(let text): if let value = Double(text), value.isFinite { return value }
        default: break
        }
        throw FrameProbeError(invalidKey, "\(name) needs a number, got \(description)")
    }

    func bool(_ invalidKey: String, _ name: String) throws(FrameProbeError) -> Bool {
        switch self {
        case .bool(let value): return value
        case .text("true"), .text("1"), .text("yes"): return true
        case .text("false"), .text("0"), .text("no"): return false
        default: throw FrameProbeError(invalidKey, "\(name) needs true or false, got \(description)")
        }
    }

    func text(_ invalidKey: String, _ name: String) throws(FrameProbeError) -> String {
        switch self {
        case .text(let text): return text
        case .number: return description
        case .bool: throw FrameProbeError(invalidKey, "\(name) needs a text value, got \(description)")
        }
    }
}
