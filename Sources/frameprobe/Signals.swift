import Dispatch
import FrameProbe
import Foundation

/// SIGINT/SIGTERM raise the run's stop signal (the run then flushes what it has and exits 130/143);
/// SIGPIPE is ignored so that a closed reader shows up as EPIPE on write and the run ends quietly; SIGXFSZ so that
/// an exceeded file-size limit is a write error.
final class Signals: @unchecked Sendable {
    let stop = StopSignal()
    private let lock = NSLock()
    private var received: Int32?
    private var sources: [any DispatchSourceSignal] = []

    init() {
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit (ulimit -f) or a full disk must fail the write (EFBIG), not kill the process.
        signal(SIGXFSZ, SIG_IGN)
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

    /// Runs `work` on its own thread. After SIGINT/SIGTERM the work gets `grace` seconds to flush what it has
    /// (inputs stop between frames); an input blocked on a silent source (a stalled pipe) cannot stop by itself,
    /// so then the writer is sealed (no half line can follow) and nil is returned.
    func runInterruptibly<Result: Sendable>(writer: JSONLWriter, grace: TimeInterval = 2,
                                             _ work: @escaping @Sendable () -> Result) -> Result? {
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result?
        let thread = Thread {
            result = work()
            finished.signal()
        }
        thread.start()
        var stopSeen: Date?
        while finished.wait(timeout: .now() + 0.1) == .timedOut {
            guard stop.isRaised else { continue }
            let seen = stopSeen ?? Date()
            stopSeen = seen
            if Date().timeIntervalSince(seen) > grace {
                writer.seal()
                return nil
            }
        }
        return result
    }

    /// The exit code an interruption asks for (130 for SIGINT, 143 for SIGTERM), or nil.
    var interruptionExitCode: Int32? {
        lock.withLock { received.map { 128 + $0 } }
    }
}
