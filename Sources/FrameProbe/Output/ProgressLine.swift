import Foundation

/// A one-line progress display on standard error: inputs done / total, frames analysed, frames per second and time
/// left. Fed the events as they are written and, for every pipeline (also one that emits no frame events), how far
/// each input's analysis is (`advance`), on one thread. Time left compares the media time analysed with the inputs'
/// durations (each known once its input opens; inputs not opened yet count as long as the average one).
public final class ProgressLine {
    private let total: Int
    private let started = Date()
    private var inputsDone = 0
    private var framesDone = 0
    /// Inputs running: frames analysed and media time reached.
    private var running: [String: (frames: Int, time: Double)] = [:]
    /// Durations of the inputs that opened, and how many opened.
    private var durations: [String: Double] = [:]
    private var opened = 0
    private var mediaDone = 0.0
    private var lastDraw = Date.distantPast
    private let output = StatusLineWriter()

    public init(totalInputs: Int) { total = totalInputs }

    /// Whether to show progress for `mode` (auto: only when standard error is a terminal).
    public static func isWanted(_ mode: AnalysisOptions.ProgressMode) -> Bool {
        switch mode {
        case .always: true
        case .never: false
        case .auto: isatty(STDERR_FILENO) == 1
        }
    }

    public func observe(_ event: Event) {
        switch event.payload {
        case let openedInput as InputOpened:
            opened += 1
            if let duration = openedInput.info.durationSeconds { durations[event.source] = duration }
        case let closed as InputClosed:
            inputsDone += 1
            framesDone += closed.summary.framesAnalysed
            mediaDone += durations[event.source] ?? running[event.source]?.time ?? 0
            running[event.source] = nil
        case is InputSkipped:
            inputsDone += 1
        default:
            return
        }
        draw()
    }

    /// `source` has analysed `frames` frames, up to media time `time`.
    public func advance(source: String, frames: Int, time: Double) {
        running[source] = (frames, time)
        draw()
    }

    private func draw() {
        let now = Date()
        guard now.timeIntervalSince(lastDraw) > 0.2 || inputsDone == total else { return }
        lastDraw = now
        let frames = framesDone + running.values.reduce(0) { $0 + $1.frames }
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let line = String(format: "\r\u{1B}[2K%d/%d inputs  %d frames  %.1f fps", inputsDone, total, frames, Double(frames) / elapsed)
            + (timeLeft(elapsed: elapsed).map { String(format: "  ETA %.0f s", $0) } ?? "")
        output.write(line)
    }

    /// Elapsed time scaled by the media time still to analyse over the media time analysed; nil until known.
    private func timeLeft(elapsed: Double) -> Double? {
        guard inputsDone < total, !durations.isEmpty else { return nil }
        let known = durations.values.reduce(0, +)
        let media = known + Double(total - opened) * known / Double(durations.count)
        let done = mediaDone + running.values.reduce(0) { $0 + $1.time }
        guard done > 0 else { return nil }
        return max(0, elapsed * (media - done) / done)
    }

    public func end() { output.write("\n") }
}
