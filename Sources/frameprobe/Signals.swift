import Dispatch
import FrameProbe
import Foundation
import Synchronization

/// SIGINT/SIGTERM raise the run's stop signal: inputs stop between frames, what was done is written, and the run
/// exits 130/143. Whatever blocks — an output pipe nobody reads, a FIFO with no reader, a silent input — the
/// process ends within `grace` seconds of the signal: a watchdog then removes the temporary files being written
/// and exits (complete lines are all that was written: the writer writes whole lines or, on a file, takes a cut
/// one back). SIGPIPE is ignored so that a closed reader shows up as EPIPE on write and the run ends quietly;
/// SIGXFSZ so that an exceeded file-size limit is a write error.
final class Signals {
    let stop = StopSignal()
    private let interruption = Interruption()
    /// Kept for the process's lifetime: a released source stops delivering.
    private var sources: [any DispatchSourceSignal] = []

    /// The first signal received (0: none), shared with the signal handlers.
    private final class Interruption: Sendable {
        let number = Atomic<Int32>(0)
    }

    init(grace: TimeInterval = 1.5) {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [stop, interruption] in Self.receive(number, stop: stop, interruption: interruption, grace: grace) }
            source.resume()
            sources.append(source)
        }
    }

    private static func receive(_ number: Int32, stop: StopSignal, interruption: Interruption, grace: TimeInterval) {
        let first = interruption.number.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing).exchanged
        stop.raise()
        guard first else { return }
        _ = Worker(name: "frameprobe.watchdog") {
            Thread.sleep(forTimeInterval: grace)
            TemporaryFiles.removeAll()
            _exit(128 + number)
        }
    }

    /// The exit code an interruption asks for (130 for SIGINT, 143 for SIGTERM), or nil.
    var interruptionExitCode: Int32? {
        let number = interruption.number.load(ordering: .acquiring)
        return number == 0 ? nil : 128 + number
    }
}
