import FrameProbe
import Foundation

/// `frameprobe acquire INPUT`: Unissey-style guided selfie acquisition.
struct AcquireCommand: Command {
    static let name = "acquire"
    static let usage = "[options] INPUT"
    static let summary = "guided selfie acquisition: instructions, then a recorded clip + session response"
    static let description = """
        Guides a face into the oval, waits until it holds still for one second, then records the preset's
        clip (H.264 MP4) under --output-dir and ends with the session response (videoFilePath, metadata).
        INPUT is one recorded file, - for a stream on standard input, or a live URL/device.
        """
    /// Input, its output options, and the settings of the stages it runs that offer them here (the face image
    /// quality stage always runs here: its switch is analyze's).
    static let options = OptionTable.input + OptionTable.acquisitionOutput + StageRegistry.builtIn.options(offeredIn: .acquire)

    let analysis: AnalysisRun

    init(_ parsed: ParsedArguments) throws(FrameProbeError) {
        var options = try parsed.analysisOptions(defaults: .acquisitionDefaults)
        let inputs = try parsed.inputs()
        guard inputs.count == 1 else {
            throw FrameProbeError("INVALID_ARGUMENT", "acquire takes exactly one input, got \(inputs.count)")
        }
        options.stages = nil  // acquire runs the stages that select themselves for it (a config's "stages" is analyze's)
        options.jobs = 1
        analysis = try AnalysisRun(command: .acquire, options: options, arguments: inputs)
    }

    func run(signals: Signals) -> Int32 {
        let status = ProgressLine.isWanted(analysis.options.progress) ? AcquisitionStatusLine() : nil
        return analysis.run(signals: signals, observe: status.map { status in { status.observe($0) } })
    }
}

/// The one-line status of a live acquisition on a terminal: the current instruction, then the recording progress.
final class AcquisitionStatusLine {
    private let output = StatusLineWriter()

    func observe(_ event: Event) {
        let text: String?
        switch event.payload {
        case let info as FaceInfo: text = info.text
        case is VideoRecordStarted: text = "● recording 0 %"
        case let step as VideoRecordProgress: text = "● recording \(Int((step.progress * 100).rounded())) %"
        case VideoRecordEnded.success(let path, _) as VideoRecordEnded: text = "✓ \(path)\n"
        case VideoRecordEnded.failure(let error) as VideoRecordEnded: text = "✗ \(error.key): \(error.message)\n"
        default: text = nil
        }
        guard let text else { return }
        output.write("\r\u{1B}[2K\(text)")
    }
}
