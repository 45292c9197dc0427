import Synchronization

/// A flag raised once to stop a run early (SIGINT/SIGTERM, or the reader of the output went away).
public final class StopSignal: Sendable {
    private let raised = Atomic(false)
    /// Run once when the signal is raised (on the raising thread: they must not block).
    private let handlers = Mutex<[@Sendable () -> Void]>([])

    public init() {}

    public var isRaised: Bool { raised.load(ordering: .acquiring) }

    public func raise() {
        guard raised.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        for handler in handlers.withLock({ $0 }) { handler() }
    }

    /// Calls `handler` when the signal is raised (at once when it already is).
    public func onRaise(_ handler: @escaping @Sendable () -> Void) {
        let now = handlers.withLock { handlers -> Bool in
            if isRaised { return true }
            handlers.append(handler)
            return false
        }
        if now { handler() }
    }
}
