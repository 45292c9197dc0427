/// One setting: its command-line flag, its config-file key (the seeds' camelCase name), its help, the value it
/// is bound to (a field of `AnalysisOptions` or of a stage's `Options`, by key path), its bounds and the error key
/// when a value is refused. The argument parser, `--config`, validation, `--help` and `frameprobe stages` all
/// read these rows: a stage declares its rows in its descriptor, a command the rows it owns.
public struct OptionSpec: Sendable {
    public let flag: String
    public let shortFlag: Character?
    /// Key in `--config` JSON (nested objects flatten to dotted paths: `roi.top`).
    public let configKey: String
    /// Placeholder of the value in help; nil for a switch that takes no value.
    public internal(set) var valueName: String?
    public internal(set) var help: String
    /// The stage the option configures (set by its descriptor); nil for a command's own options.
    public internal(set) var stage: String?
    /// Error key when the value does not parse or is out of bounds.
    public let invalidKey: String
    /// The default as help shows it, read from the bound value's type (nil: not shown).
    public let defaultText: String?
    let apply: @Sendable (inout AnalysisOptions, OptionValue) throws(FrameProbeError) -> Void
    let check: @Sendable (AnalysisOptions) throws(FrameProbeError) -> Void

    public init(flag: String, shortFlag: Character? = nil, configKey: String, valueName: String?, help: String,
                invalidKey: String, defaultText: String? = nil,
                apply: @escaping @Sendable (inout AnalysisOptions, OptionValue) throws(FrameProbeError) -> Void,
                check: @escaping @Sendable (AnalysisOptions) throws(FrameProbeError) -> Void = { _ in }) {
        self.flag = flag
        self.shortFlag = shortFlag
        self.configKey = configKey
        self.valueName = valueName
        self.help = help
        self.invalidKey = invalidKey
        self.defaultText = help.contains("default") ? nil : defaultText
        self.apply = apply
        self.check = check
    }

    public var takesValue: Bool { valueName != nil }
    /// How the option reads in help: `-o, --output FILE`.
    public var synopsis: String {
        (shortFlag.map { "-\($0), " } ?? "") + "--\(flag)" + (valueName.map { " \($0)" } ?? "")
    }
    /// The help line, with the default when there is one worth showing.
    /// The same option, described for another command (report's `-o` is a prefix, analyze's a file).
    public func described(_ help: String, valueName: String? = nil) -> OptionSpec {
        var row = self
        row.help = help
        if let valueName { row.valueName = valueName }
        return row
    }

    public var helpLine: String { help + (defaultText.map { " (default \($0))" } ?? "") }

    /// Sets the option from a command-line or config value.
    public func set(_ value: OptionValue, in options: inout AnalysisOptions) throws(FrameProbeError) { try apply(&options, value) }

    /// Checks the value `options` holds for this option against its bounds.
    public func validate(_ options: AnalysisOptions) throws(FrameProbeError) { try check(options) }
}

/// What an option row can be bound to: `AnalysisOptions` itself (a command's options) or a stage's `Options`
/// (kept in `AnalysisOptions.stageOptions`).
public protocol OptionRoot: Sendable {
    static func read(_ options: AnalysisOptions) -> Self
    static func update(_ options: inout AnalysisOptions, _ change: (inout Self) -> Void)
}

extension AnalysisOptions: OptionRoot {
    public static func read(_ options: AnalysisOptions) -> AnalysisOptions { options }
    public static func update(_ options: inout AnalysisOptions, _ change: (inout AnalysisOptions) -> Void) { change(&options) }
}

extension StageOptions {
    public static func read(_ options: AnalysisOptions) -> Self { options.stageOptions[Self.self] }
    public static func update(_ options: inout AnalysisOptions, _ change: (inout Self) -> Void) { change(&options.stageOptions[Self.self]) }
}

extension OptionSpec {
    public typealias Field<Root, Value> = WritableKeyPath<Root, Value> & Sendable

    /// A row that parses its value with `parse`, stores it at `field` and checks it with `check`.
    static func bound<Root: OptionRoot, Value>(
        _ flag: String, _ key: String, _ valueName: String?, _ help: String, short: Character?, invalid: String,
        _ field: Field<Root, Value>, shownDefault: (Value) -> String?,
        parse: @escaping @Sendable (OptionValue) throws(FrameProbeError) -> Value,
        check: @escaping @Sendable (Value) throws(FrameProbeError) -> Void = { _ in }
    ) -> OptionSpec {
        OptionSpec(flag: flag, shortFlag: short, configKey: key, valueName: valueName, help: help, invalidKey: invalid,
                   defaultText: shownDefault(Root.read(AnalysisOptions())[keyPath: field]),
                   apply: { options, value throws(FrameProbeError) in
                       let parsed = try parse(value)
                       Root.update(&options) { $0[keyPath: field] = parsed }
                   },
                   check: { options throws(FrameProbeError) in try check(Root.read(options)[keyPath: field]) })
    }

    public static func int<Root: OptionRoot>(_ flag: String, _ key: String, _ valueName: String, _ help: String, short: Character? = nil,
                                             invalid: String, _ field: Field<Root, Int>, bounds: OptionBounds) -> OptionSpec {
        bound(flag, key, valueName, help, short: short, invalid: invalid, field, shownDefault: { String($0) },
              parse: { value throws(FrameProbeError) in try value.int(invalid, key) },
              check: { value throws(FrameProbeError) in try checked(Double(value), bounds, key, invalid) })
    }

    public static func number<Root: OptionRoot>(_ flag: String, _ key: String, _ valueName: String, _ help: String,
                                                invalid: String, _ field: Field<Root, Double>, bounds: OptionBounds? = nil) -> OptionSpec {
        bound(flag, key, valueName, help, short: nil, invalid: invalid, field, shownDefault: { OptionValue.number($0).description },
              parse: { value throws(FrameProbeError) in try value.double(invalid, key) },
              check: { value throws(FrameProbeError) in try checked(value, bounds, key, invalid) })
    }

    public static func optionalNumber<Root: OptionRoot>(_ flag: String, _ key: String, _ valueName: String, _ help: String,
                                                        invalid: String, _ field: Field<Root, Double?>) -> OptionSpec {
        bound(flag, key, valueName, help, short: nil, invalid: invalid, field, shownDefault: { _ in nil },
              parse: { value throws(FrameProbeError) in try value.double(invalid, key) })
    }

    public static func text<Root: OptionRoot>(_ flag: String, _ key: String, _ valueName: String, _ help: String, short: Character? = nil,
                                              invalid: String, _ field: Field<Root, String?>) -> OptionSpec {
        bound(flag, key, valueName, help, short: short, invalid: invalid, field, shownDefault: { _ in nil },
              parse: { value throws(FrameProbeError) in try value.text(invalid, key) })
    }

    /// A comma-separated list (JSON: a list of strings), trimmed; `lowercased` for names that ignore case.
    public static func list<Root: OptionRoot, Value>(_ flag: String, _ key: String, _ valueName: String, _ help: String, invalid: String,
                                                     lowercased: Bool = false, _ field: Field<Root, Value>,
                                                     wrap: @escaping @Sendable ([String]) -> Value) -> OptionSpec {
        bound(flag, key, valueName, help, short: nil, invalid: invalid, field, shownDefault: { _ in nil },
              parse: { value throws(FrameProbeError) in
                  // An empty item (`''`, `a,,b`) is a mistake, not something to drop; so is a name given twice.
                  let items = try value.items(invalid, key).map { $0.trimmingCharacters(in: .whitespaces) }
                  guard !items.contains(where: \.isEmpty) else {
                      throw FrameProbeError(invalid, "\(key) needs a comma-separated list without empty items, got \(value.description)")
                  }
                  let names = items.map { lowercased ? $0.lowercased() : $0 }
                  if let repeated = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) })?.element {
                      throw FrameProbeError(invalid, "\(key) names '\(repeated)' twice")
                  }
                  return wrap(names)
              })
    }

    /// A switch: `--flag` sets it, `--flag=false` clears it; JSON takes true/false.
    public static func toggle<Root: OptionRoot>(_ flag: String, _ key: String, _ help: String, short: Character? = nil,
                                                invalid: String, _ field: Field<Root, Bool>) -> OptionSpec {
        bound(flag, key, nil, help, short: short, invalid: invalid, field, shownDefault: { $0 ? "true" : nil },
              parse: { value throws(FrameProbeError) in try value.bool(invalid, key) })
    }

    /// A colour "alpha,red,green,blue" (JSON: a list of four numbers).
    public static func color<Root: OptionRoot>(_ flag: String, _ key: String, _ help: String, invalid: String,
                                               _ field: Field<Root, ARGBColor>) -> OptionSpec {
        bound(flag, key, "A,R,G,B", help, short: nil, invalid: invalid, field, shownDefault: { $0.description },
              parse: { value throws(FrameProbeError) in
                  try ARGBColor(parsing: try value.items(invalid, key).joined(separator: ","), invalidKey: invalid)
              })
    }

    /// One of a closed set of names (a `RawRepresentable` enum).
    public static func choice<Root: OptionRoot, Choice: RawRepresentable & CaseIterable & Sendable>(
        _ flag: String, _ key: String, _ help: String, invalid: String, _ field: Field<Root, Choice>
    ) -> OptionSpec where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        return bound(flag, key, names.joined(separator: "|"), help, short: nil, invalid: invalid, field, shownDefault: { $0.rawValue },
                     parse: { value throws(FrameProbeError) in
                         let text = try value.text(invalid, key)
                         guard let choice = Choice(rawValue: text) else {
                             throw FrameProbeError(invalid, "\(key) must be one of \(names.joined(separator: ", ")), got '\(text)'")
                         }
                         return choice
                     })
    }

    private static func checked(_ value: Double, _ bounds: OptionBounds?, _ key: String, _ invalid: String) throws(FrameProbeError) {
        guard let bounds, !bounds.contains(value) else { return }
        throw FrameProbeError(invalid, "\(key) must be \(bounds.text), got \(OptionValue.number(value).description)")
    }
}
