/// A setting's raw value, from the command line (text) or a JSON config file (text, number, bool or a list of
/// texts and numbers — which only list and colour options take).
public enum OptionValue: Sendable {
    case text(String)
    case number(Double)
    case bool(Bool)
    case list([String])

    /// The largest magnitude a whole-number setting takes, however it arrives (JSON numbers past 2^53 are not
    /// exact, and every count and duration here is far below it): 10^15.
    static let wholeNumberLimit = 1_000_000_000_000_000

    /// The value as a setting reads (`5`, `a,b`, `true`): a number from JSON and the same number typed read alike.
    public var settingText: String {
        switch self {
        case .text(let text): text
        case .list(let items): items.joined(separator: ",")
        default: description
        }
    }

    var description: String {
        switch self {
        case .text(let text): "'\(text)'"
        case .number(let number): number.rounded() == number && abs(number) < Double(Self.wholeNumberLimit) ? String(Int(number)) : String(number)
        case .bool(let bool): String(bool)
        case .list(let items): "[" + items.joined(separator: ", ") + "]"
        }
    }

    func int(_ invalidKey: String, _ name: String) throws(FrameProbeError) -> Int {
        switch self {
        case .number(let number) where number.rounded() == number && abs(number) < Double(Self.wholeNumberLimit): return Int(number)
        case .text(let text):
            if let value = Int(text), value.magnitude < Self.wholeNumberLimit { return value }
            if text.allSatisfy(\.isNumber) || text.dropFirst().allSatisfy(\.isNumber) && text.first == "-" {
                throw FrameProbeError(invalidKey, "\(name) is out of range: \(text)")
            }
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
        case .bool, .list: throw FrameProbeError(invalidKey, "\(name) needs a text value, got \(description)")
        }
    }

    /// The items of a list setting: a JSON list, or comma-separated text (`quality,capture`).
    func items(_ invalidKey: String, _ name: String) throws(FrameProbeError) -> [String] {
        switch self {
        case .list(let items): return items
        case .text(let text): return text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        case .number, .bool: throw FrameProbeError(invalidKey, "\(name) needs a list, got \(description)")
        }
    }
}
