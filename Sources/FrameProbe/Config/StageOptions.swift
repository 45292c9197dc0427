/// A stage's settings: a value type whose property initialisers are the defaults. Its option rows (in the
/// stage's descriptor) bind flags and config keys to its properties by key path and check their ranges;
/// `validate()` adds the rules that span several properties.
public protocol StageOptions: OptionRoot {
    init()
    func validate() throws(FrameProbeError)
}

extension StageOptions {
    public func validate() throws(FrameProbeError) {}
}

/// For a stage without settings.
public struct NoOptions: StageOptions {
    public init() {}
}

/// Every stage's settings of one run, one value per options type (a type absent here has its defaults). Stages
/// that share settings (the face-region and QR stages share `RegionCheck.Options`) read the same value.
public struct StageOptionsStore: Sendable {
    private var values: [ObjectIdentifier: any StageOptions] = [:]

    public init() {}

    public subscript<Options: StageOptions>(_ type: Options.Type) -> Options {
        get { values[ObjectIdentifier(type)] as? Options ?? Options() }
        set { values[ObjectIdentifier(type)] = newValue }
    }
}
