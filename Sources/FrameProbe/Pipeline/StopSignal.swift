import Foundation

/// A flag raised once to stop a run early (SIGINT/SIGTERM, or the reader of the output went away).
public final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    public init() {}

    public var isRaised: Bool { lock.withLock { raised } }

    public func raise() { lock.withLock { raised = true } }
}
