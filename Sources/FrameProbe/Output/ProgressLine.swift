import Foundation

/// A one-line progress display on standard error: inputs done / total, frames analysed, frames per second, time
/// left. Fed the events as they are written (on one thread).
public final class ProgressLine {
    private let total: Int
    private let started = Date()
    private var inputsDone = 0
    private var framesDone = 0
    /// Frames seen so far of inputs still running (their frame events carry the index).
    private var latestFrame: [String: Int] = [:]
    private var lastDraw = Date.distantPast

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
        do {
            switch event.payload {
            case let closed as InputClosed:
                inputsDone += 1
                framesDone += closed.summary.framesAnalysed
                latestFrame[event.source] = nil
            case is InputSkipped:
                inputsDone += 1
            default:
                if let frame = event.frame { latestFrame[event.source] = frame + 1 }
            }
            let now = Date()
            guard now.timeIntervalSince(lastDraw) > 0.2 || inputsDone == total else { return }
            lastDraw = now
            let frames = framesDone + latestFrame.values.reduce(0, +)
            let elapsed = max(now.timeIntervalSince(started), 0.001)
            let rate = Double(frames) / elapsed
            // Time left, assuming the remaining inputs take as long as the finished ones did on average.
            let left = inputsDone > 0 && inputsDone < total ? String(format: "  ETA %.0f s", elapsed / Double(inputsDone) * Double(total - inputsDone)) : ""
            let line = String(format: "\r\u{1B}[2K%d/%d inputs  %d frames  %.1f fps", inputsDone, total, frames, rate) + left
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    public func end() { FileHandle.standardError.write(Data("\n".utf8)) }
}
