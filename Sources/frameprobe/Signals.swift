import Dispatch
import FrameProbe
import Foundation

/// SIGINT/SIGTERM raise the run's stop signal: inputs stop between frames, what was done is written, and the run
/// exits 130/143. Whatever blocks — an output pipe nobody reads, a FIFO with no reader, a silent input — the
/// process ends within `grace` seconds of the signal: a watchdog then removes the temporary files being written
/// and exits (complete lines are all that was written: the writer writes whole lines or, on a file, takes a cut
/// one back). SIGPIPE is ignored so that a closed reader shows up as EPIPE on write and the run ends quietly;
/// SIGXFSZ so that an exceeded file-size limit is a write error.
final class Signals: @unchecked Sendable {  // `received` is guarded by `lock`; the sources are only set in init
    let stop = StopSignal()
    private let grace: TimeInterval
    private let lock = NSLock()
    private var received: Int32?
    private var sources: [any DispatchSourceSignal] = []

    init(grace: TimeInterval = 1.5) {
        self.grace = grace
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in self.receive(number) }
            source.resume()
            sources.append(source)
        }
    }

    private func receive(_ number: Int32) {
        let first = lock.withLock { () -> Bool in
            guard received == nil else { return false }
            received = number
            return true
        }
        stop.raise()
        guard first else { return }
        let watchdog = Thread { [grace] in
            Thread.sleep(forTimeInterval: grace)
            TemporaryFiles.removeAll()
            _exit(128 + number)
        }
        watchdog.name = "frameprobe.watchdog"
        watchdog.start()
    }

    /// The exit code an interruption asks for (130 for SIGINT, 143 for SIGTERM), or nil.
    var interruptionExitCode: Int32? {
        lock.withLock { received.map { 128 + $0 } }
    }
}
