import Foundation

/// The part types a report is made of, in registry order: what the aggregator fills, what a report's JSON is read
/// back with, and where gate fields, columns and plots come from.
public struct ReportPartTypes: Sendable, Equatable {
    public let types: [any ReportPart.Type]

    public init(_ types: [any ReportPart.Type]) {
        var seen: Set<ObjectIdentifier> = []
        self.types = types.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// The built-in stages' parts.
    public static let builtIn = StageRegistry.builtIn.reportParts

    /// Every input gate field, in order: the report's own, then each part's with its conditions' interval fields.
    public var fieldNames: [String] {
        InputReport.coreFields + types.flatMap { type in type.gateFields.map(\.name) + type.conditions.flatMap(\.fields) }
    }

    /// The gate fields the totals have.
    public var totalFieldNames: [String] {
        ReportTotals.coreFields + types.flatMap { type in type.gateFields.filter(\.onTotals).map(\.name) + type.conditions.flatMap(\.fields) }
    }

    public var conditions: [ReportedCondition] { types.flatMap { $0.conditions } }

    /// The event types parts read back from JSON Lines, by event name.
    var readable: [String: any ReadableEvent.Type] {
        var byName: [String: any ReadableEvent.Type] = [:]
        for type in types.flatMap { $0.reads } where byName[type.eventName] == nil { byName[type.eventName] = type }
        return byName
    }

    /// Fresh parts for a new input.
    func fresh(_ options: AnalysisOptions) -> [any ReportPart] { types.map { $0.init(options: options) } }

    /// Why `field` can have no value, from the declaration that names it.
    func missingReason(_ field: String) -> String? {
        for type in types {
            if let declared = type.gateFields.first(where: { $0.name == field }) { return declared.missingReason }
            if let condition = type.conditions.first(where: { $0.fields.contains(field) }) { return condition.missingReason }
        }
        return nil
    }

    public static func == (a: ReportPartTypes, b: ReportPartTypes) -> Bool {
        a.types.map { ObjectIdentifier($0) } == b.types.map { ObjectIdentifier($0) }
    }

    /// A decoder that reads reports (and input reports) with these parts.
    public func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[Self.userInfoKey] = self
        return decoder
    }

    /// How a report's JSON is read back with these parts (a decoder's `userInfo`).
    static let userInfoKey = CodingUserInfoKey(rawValue: "frameprobe.reportParts")!

    static func of(_ decoder: any Decoder) -> ReportPartTypes { decoder.userInfo[userInfoKey] as? ReportPartTypes ?? .builtIn }
}

extension StageRegistry {
    /// The report parts of the registered stages, in registry order.
    public var reportParts: ReportPartTypes { ReportPartTypes(descriptors.compactMap(\.report)) }
}

/// A part's section of the totals, with the part it belongs to.
struct TotalSection: Sendable {
    let part: any ReportPart.Type
    let value: any Sendable
}

extension ReportPart {
    func isEqual(to other: any ReportPart) -> Bool { (other as? Self) == self }

    /// Some input's part has data: its columns are shown.
    static func isShown(in inputs: [InputReport]) -> Bool { inputs.contains { $0[Self.self]?.hasData ?? false } }

    static func decodePart(from decoder: any Decoder) throws -> any ReportPart { try Self(from: decoder) }

    static func totalSection(of inputs: [InputReport]) -> TotalSection {
        TotalSection(part: Self.self, value: total(inputs.compactMap { $0[Self.self] }))
    }

    static func decodeTotal(from decoder: any Decoder) throws -> TotalSection { TotalSection(part: Self.self, value: try Total(from: decoder)) }

    static func encodeTotal(_ section: TotalSection, to encoder: any Encoder) throws { try (section.value as? Total)?.encode(to: encoder) }

    static func totalsEqual(_ a: TotalSection, _ b: TotalSection) -> Bool { (a.value as? Total) == (b.value as? Total) }

    static func totalFields(_ section: TotalSection, _ counts: InputCounts) -> [String: Double] {
        (section.value as? Total).map { fields(of: $0, counts) } ?? [:]
    }

    static func totalGateNote(_ section: TotalSection, _ field: String) -> String? {
        (section.value as? Total).flatMap { gateNote(field, of: $0) }
    }

    static func totalCells(_ section: TotalSection, _ fields: [String: Double], inputs: Int) -> [String] {
        guard let total = section.value as? Total else { return columns.map { _ in "–" } }
        return totalCells(total, fields, inputs: inputs)
    }
}
