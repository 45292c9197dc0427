import Dispatch
import FrameProbe
import Foundation

/// SIGINT/SIGTERM raise the run's stop signal (the run then flushes what it has and exits 130/143);
/// SIGPIPE is ignored so that a closed reader shows up as EPIPE on write and the run ends quietly.
final class Signals: @unchecked Sendable {
    let stop = StopSignal()
    private let lock = NSLock()
    private var received: Int32?
    private var sources: [any DispatchSourceSignal] = []

    init() {
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                lock.withLock { if received == nil { received = number } }
                stop.raise()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The exit code an interruption asks for (130 for SIGINT, 143 for SIGTERM), or nil.
    var interruptionExitCode: Int32? {
        lock.withLock { received.map { 128 + $0 } }
    }
}
