import Foundation

/// An event `report` reads back from `analyze`'s JSON Lines: the line's fields made into the same typed payload a
/// live run hands the report, so each line is decoded once and the report reads one kind of value.
public protocol ReadableEvent: EventPayload {
    /// The payload from a line's fields; nil when a field the report needs is missing or of the wrong type.
    init?(reading fields: EventFields)
    /// Its fields that count things: read back, each must be a whole number in 0…`InputReport.countLimit`.
    static var countFields: Set<String> { get }
}

extension ReadableEvent {
    public static var countFields: Set<String> { [] }
}

/// One JSON Lines event's fields, as parsed: typed reads that give nil for a missing or mistyped field.
public struct EventFields {
    public let object: [String: Any]

    public init(_ object: [String: Any]) { self.object = object }

    public func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
    public func integer(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }
    public func string(_ key: String) -> String? { object[key] as? String }
    public func bool(_ key: String) -> Bool? { object[key] as? Bool }
    /// A nested object's fields.
    public func nested(_ key: String) -> EventFields? { (object[key] as? [String: Any]).map(EventFields.init) }
    public var keys: Dictionary<String, Any>.Keys { object.keys }

    /// The largest magnitude of any other number read back (a media time of 30 000 years, a score, a coordinate).
    static let magnitudeLimit = 1e12

    /// The first field (by name, the same every run) whose number cannot be right: a count (`frame`, or one of
    /// `counts`) that is not a whole number in 0…countLimit, another number that is not finite within ±magnitudeLimit.
    func implausibleField(counts: Set<String>) -> String? {
        object.compactMap { key, value -> String? in
            // Objects, lists and text first: asking a Swift dictionary whether it is an NSNumber bridges it whole.
            if value is String || value is [String: Any] || value is [Any] { return nil }
            guard let number = (value as? NSNumber)?.doubleValue else { return nil }  // (booleans too: 0 and 1 fit every range)
            let plausible = key == "frame" || counts.contains(key)
                ? number.rounded() == number && (0...Double(InputReport.countLimit)).contains(number)
                : number.isFinite && abs(number) <= Self.magnitudeLimit
            return plausible ? nil : key
        }.min()
    }
}
