import FrameProbe
import Foundation

/// `frameprobe report INPUT...`: analyse media (or read `analyze` JSON Lines, or merge shard reports) and write
/// quality reports with pass/fail gates.
enum ReportCommand {
    static let parser = ArgumentParser(specs: OptionTable.analyze + OptionTable.report)

    static let help = """
        Usage: frameprobe report [options] INPUT...
               frameprobe report --merge SHARD.json... [options]

        Writes a quality report per input and in total: frames, face presence, face counts, head-pose labels,
        darkness / lightness / sharpness and the share of frames too dark / too light / blurred, QR codes, and
        whether `acquire` would succeed. INPUT is media (analysed now) or .jsonl files written by `analyze`.
        Files: PREFIX.json, PREFIX.xml (JUnit), PREFIX.md, PREFIX.html (-o PREFIX, default frameprobe-report;
        -o - writes the one format asked for to standard output).
        Exit: 0 all gates passed, 1 an input failed, 2 invalid usage, 3 a gate failed.

        Options:
        \(parser.optionsHelp())
        """

    static func run(_ arguments: [String], signals: Signals) -> Int32 {
        let parsed: ParsedArguments
        var options: AnalysisOptions
        let gates: [Gate]
        do throws(FrameProbeError) {
            guard let command = try parser.parseCommand(arguments, help: help) else { return ExitCode.success }
            (parsed, options) = command
            if options.reportFormats.isEmpty { options.reportFormats = [.json] }
            if options.outputPath == "-" && options.reportFormats.count > 1 {
                throw FrameProbeError("INVALID_OUTPUT", "-o - writes one format to standard output; \(options.reportFormats.count) were asked for")
            }
            var parsedGates: [Gate] = []
            for expression in options.gates { parsedGates.append(try Gate(parsing: expression)) }
            gates = parsedGates
        } catch {
            return Console.usageFailure(error)
        }

        let document: ReportDocument
        var inputsFailed = false
        do throws(FrameProbeError) {
            if options.mergeReports {
                var parts: [ReportDocument] = []
                for path in parsed.positionals { parts.append(try ReportDocument.read(path)) }
                document = try ReportDocument(merging: parts, gates: gates.isEmpty ? nil : gates)
            } else {
                let inputs = try analyse(parsed.positionals, options: options, signals: signals)
                document = ReportDocument(inputs: inputs, gates: gates)
            }
            inputsFailed = document.total.failedInputs > 0
            try write(document, options: options)
        } catch {
            return Console.usageFailure(error)
        }
        if let code = signals.interruptionExitCode { return code }
        if !document.passed { return ExitCode.gateFailed }
        return inputsFailed ? ExitCode.inputFailed : ExitCode.success
    }

    /// Media inputs are analysed with the report's stages (this machine's shard of them); `.jsonl` files are read.
    static func analyse(_ arguments: [String], options: AnalysisOptions, signals: Signals) throws(FrameProbeError) -> [InputReport] {
        let isJSONLines = { (path: String) in path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") }
        var options = options
        if options.stages == nil { options.stages = StageRegistry.reportStages }
        let stages = try StageRegistry.resolve(options)
        let media = try AnalysisCommand.shardedItems(arguments.filter { !isJSONLines($0) }, options: options)
        let aggregator = LockedAggregator()
        let progress = ProgressLine.isWanted(options.progress) ? ProgressLine(totalInputs: media.count) : nil
        let batch = BatchRunner(runner: InputRunner(options: options, stages: stages), jobs: options.jobs)
        let positions = media.map(\.position)
        _ = signals.runInterruptibly(writer: JSONLWriter(), grace: 2) {
            batch.run(media.map(\.item), stop: signals.stop) { event, index in
                progress?.observe(event)
                aggregator.consume(event, index: positions[index])
            }
        }
        progress?.end()
        var reports = aggregator.finish()
        var next = (positions.max() ?? -1) + 1
        for path in arguments where isJSONLines(path) {
            let lines = ReportAggregator()
            let text = String(decoding: try FileContents.read(path, errorKey: "INPUT_UNREADABLE"), as: UTF8.self)
            for line in text.split(separator: "\n") {
                if let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] { lines.consume(object) }
            }
            for var report in lines.finish() {
                report.index = next
                next += 1
                reports.append(report)
            }
        }
        return reports
    }

    static func write(_ document: ReportDocument, options: AnalysisOptions) throws(FrameProbeError) {
        let prefix = options.outputPath ?? "frameprobe-report"
        var written: [String] = []
        for format in options.reportFormats {
            let data = format.render(document)
            if prefix == "-" {
                FileHandle.standardOutput.write(data)
                continue
            }
            let path = "\(prefix).\(format.fileExtension)"
            do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw FrameProbeError("OUTPUT_UNWRITABLE", "cannot write \(path): \(error.localizedDescription)")
            }
            written.append(path)
        }
        let verdict = document.passed ? "all gates passed" : "gates FAILED"
        if !written.isEmpty { Console.printError("report: \(written.joined(separator: ", ")) — \(document.total.inputs) inputs, \(verdict)") }
    }
}

/// The aggregator behind a lock: batch workers hand it events one at a time.
final class LockedAggregator: @unchecked Sendable {
    private let lock = NSLock()
    private let aggregator = ReportAggregator()

    func consume(_ event: Event, index: Int) { lock.withLock { aggregator.consume(event, index: index) } }
    func finish() -> [InputReport] { lock.withLock { aggregator.finish() } }
}
