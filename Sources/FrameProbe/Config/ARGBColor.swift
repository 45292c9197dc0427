/// A colour as Yoonit sets it: alpha, red, green, blue, each 0…1 (default (0.4, 1, 1, 1)).
public struct ARGBColor: Sendable, Equatable {
    public var alpha = 0.4, red = 1.0, green = 1.0, blue = 1.0

    public init() {}

    /// Parses "a,r,g,b"; `invalidKey` names the setting in the error.
    public init(parsing text: String, invalidKey: String) throws(FrameProbeError) {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let a = parts[0], let r = parts[1], let g = parts[2], let b = parts[3] else {
            throw FrameProbeError(invalidKey, "a colour is four numbers alpha,red,green,blue, got '\(text)'")
        }
        for component in [a, r, g, b] where !(0...1).contains(component) {
            throw FrameProbeError(invalidKey, "colour components must be within 0…1, got '\(text)'")
        }
        (alpha, red, green, blue) = (a, r, g, b)
    }

    /// "a,r,g,b", as `init(parsing:)` reads it.
    public var description: String { [alpha, red, green, blue].map { OptionValue.number($0).description }.joined(separator: ",") }
}
