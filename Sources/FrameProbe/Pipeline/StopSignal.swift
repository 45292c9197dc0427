import Synchronization

/// A flag raised once to stop a run early (SIGINT/SIGTERM, or the reader of the output went away).
public final class StopSignal: Sendable {
    private let raised = Atomic(false)

    public init() {}

    public var isRaised: Bool { raised.load(ordering: .acquiring) }

    public func raise() { raised.store(true, ordering: .releasing) }
}
