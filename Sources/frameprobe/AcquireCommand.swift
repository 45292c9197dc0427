import FrameProbe
import Foundation

/// `frameprobe acquire INPUT`: Unissey-style guided selfie acquisition.
enum AcquireCommand {
    static let parser = ArgumentParser(specs: OptionTable.acquire)

    static let command = AnalysisCommand(
        parser: parser,
        help: """
            Usage: frameprobe acquire [options] INPUT

            Guides a face into the oval, waits until it holds still for one second, then records the preset's
            clip (H.264 MP4) under --output-dir and ends with the session response (videoFilePath, metadata).
            INPUT is one recorded file, - for a stream on standard input, or a live URL/device.

            Options:
            \(parser.optionsHelp())
            """,
        prepare: { options, inputs throws(FrameProbeError) in
            guard inputs.count == 1 else {
                throw FrameProbeError("INVALID_ARGUMENT", "acquire takes exactly one input, got \(inputs.count)")
            }
            options.stages = StageRegistry.acquisitionStages
            options.jobs = 1
        },
        makeObserver: { options, _ in
            guard ProgressLine.isWanted(options.progress) else { return nil }
            let status = AcquisitionStatusLine()
            return { status.observe($0) }
        })
}

/// The one-line status of a live acquisition on a terminal: the current instruction, then the recording progress.
final class AcquisitionStatusLine {
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
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(text)".utf8))
    }
}
