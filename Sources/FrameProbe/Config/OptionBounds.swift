/// The values an option accepts, checked once all settings are applied (so a flag may correct a config value).
public struct OptionBounds: Sendable {
    let lower: Double?
    let lowerIncluded: Bool
    let upper: Double?

    /// `value ≥ lower`.
    public static func atLeast(_ lower: Double) -> OptionBounds { OptionBounds(lower: lower, lowerIncluded: true, upper: nil) }
    /// `lower ≤ value ≤ upper`.
    public static func within(_ range: ClosedRange<Double>) -> OptionBounds {
        OptionBounds(lower: range.lowerBound, lowerIncluded: true, upper: range.upperBound)
    }
    /// `lower < value ≤ upper`.
    public static func above(_ lower: Double, atMost upper: Double) -> OptionBounds {
        OptionBounds(lower: lower, lowerIncluded: false, upper: upper)
    }

    func contains(_ value: Double) -> Bool {
        if let lower, lowerIncluded ? value < lower : value <= lower { return false }
        if let upper, value > upper { return false }
        return true
    }

    /// How the bounds read in a message: "0 or more", "within 0…1", "in (0, 1]".
    var text: String {
        let low = lower.map(OptionValue.number) ?? .number(0)
        switch (lowerIncluded, upper) {
        case (true, nil): return "\(low.description) or more"
        case (true, let upper?): return "within \(low.description)…\(OptionValue.number(upper).description)"
        case (false, let upper?): return "in (\(low.description), \(OptionValue.number(upper).description)]"
        case (false, nil): return "more than \(low.description)"
        }
    }
}
