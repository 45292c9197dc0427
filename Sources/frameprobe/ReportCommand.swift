import FrameProbe
import Foundation

/// `frameprobe report INPUT...`: analyse media (or read `analyze` JSON Lines, or merge shard reports) and write
/// quality reports with pass/fail gates.
struct ReportCommand: Command {
    static let name = "report"
    static let usage = "[options] INPUT..."
    static let summary = "quality report (JSON, JUnit XML, Markdown, HTML, CSV, GitHub commands) with pass/fail gates; --merge for shards"
    static let otherUsages = ["--merge SHARD.json... [options]"]
    static let description = """
        Writes a quality report per input and in total: frames, face presence, face counts, head-pose labels,
        darkness / lightness / sharpness and the share of frames too dark / too light / blurred, QR codes, and
        whether `acquire` would succeed. INPUT is media (analysed now) or .jsonl files written by `analyze`.
        Also when each condition held (intervals), and with --baseline OLD.json the change against an earlier report.
        Files: PREFIX.json, PREFIX.xml (JUnit), PREFIX.md, PREFIX.html, PREFIX.csv, PREFIX.github.txt (GitHub
        workflow commands) (-o PREFIX, default frameprobe-report; -o - writes the one format asked for to standard output).
        Gates (--gate, repeatable): [total.][delta.]FIELD OP NUMBER, OP one of >= <= > < == !=; FIELD is a number the
        report gives per input (faceFrameRatio, blurredRatio, darknessMean, longestDarkInterval, …), total. tests the
        totals and delta. the change against --baseline.
        Exit: 0 all gates passed, 1 an input failed, 2 invalid usage, 3 a gate failed.
        """
    /// Analyze's options (its -o described as report's prefix), then the report's own.
    static let options = AnalyzeCommand.options.map { row in
        row.flag == "output" ? row.described("prefix of the report files: PREFIX.json, PREFIX.md, … (default frameprobe-report); - writes the one format asked for to standard output",
                                              valueName: "PREFIX") : row
    } + OptionTable.report

    let options: AnalysisOptions
    let arguments: [String]
    let gates: [Gate]
    let paths: [String]
    let inputs: RunInputs
    let baseline: Baseline?
    /// Where `--resume` keeps the finished inputs' reports (`ReportJournal`).
    let journalPath: String?

    init(_ parsed: ParsedArguments) throws(FrameProbeError) {
        var options = try parsed.analysisOptions()
        arguments = try parsed.inputs()
        if options.reportFormats.isEmpty { options.reportFormats = [.json] }
        if options.outputPath == "-" && options.reportFormats.count > 1 {
            throw FrameProbeError("INVALID_OUTPUT", "-o - writes one format to standard output; \(options.reportFormats.count) were asked for")
        }
        var gates: [Gate] = []
        for expression in options.gates { gates.append(try Gate(parsing: expression)) }
        self.gates = gates
        paths = Self.reportPaths(options)
        inputs = try RunInputs(arguments, options: options)
        baseline = try options.baselinePath.map { path throws(FrameProbeError) in
            try Baseline.read(path, newInputsPass: options.baselineNewInputs == .pass)
        }
        for path in paths { try inputs.refuseAsOutput(path) }
        if options.resume != .off {
            guard let prefix = Self.reportPrefix(options), !options.mergeReports else {
                throw FrameProbeError("INVALID_RESUME", "--resume continues a report's analysis, kept beside its files: give -o PREFIX (not -o -, not --merge)")
            }
            journalPath = prefix + ".resume.jsonl"
            try inputs.refuseAsOutput(journalPath!)
        } else {
            journalPath = nil
        }
        self.options = options
    }

    func run(signals: Signals) -> Int32 {
        do throws(FrameProbeError) {
            for path in paths { try OutputFile.checkReplaceable(path, overwrite: replacesReports) }
        } catch {
            return Console.outputFailure(error)
        }

        var document: ReportDocument
        do throws(FrameProbeError) {
            if options.mergeReports {
                var parts: [MergePart] = []
                for path in arguments { parts.append(MergePart(path: path, document: try ReportDocument.read(path))) }
                document = try ReportDocument(merging: parts, gates: gates.isEmpty ? nil : gates, baseline: baseline)
                for complaint in document.shards?.compactMap(\.complaint) ?? [] { Console.printError("report --merge: \(complaint)") }
            } else {
                let record = inputs.record(command: Self.name, settings: options.recordedSettings)
                let journal = try journalPath.map { path throws(FrameProbeError) in
                    try ReportJournal(path: path, record: record, items: inputs.items.filter { !Self.isJSONLines($0) }, mode: options.resume)
                }
                if let redone = journal?.redone { Console.printError("--resume=redo-changed: \(redone): analysed again from there") }
                let analysed = try Self.analyse(inputs, options: options, signals: signals, journal: journal)
                try baseline?.checkMatchable(analysed)
                document = ReportDocument(inputs: analysed, gates: gates, baseline: baseline)
                document.run = record
            }
        } catch {
            return error.key.hasPrefix("OUTPUT_") ? Console.outputFailure(error) : Console.usageFailure(error)
        }
        if signals.interruptionExitCode != nil { document.interrupted = true }
        if document.inputs.isEmpty && document.interrupted != true { return Console.outputFailure(RunInputs.nothingFound(arguments)) }
        if let status = Self.write(document, to: paths, options: options) { return status }
        if let code = signals.interruptionExitCode { return code }
        if !document.passed { return ExitCode.gateFailed }
        return document.total.failedInputs > 0 ? ExitCode.inputFailed : ExitCode.success
    }

    /// A `--resume` run replaces its own report files; others only with `-y`.
    var replacesReports: Bool { options.overwrite || options.resume != .off }

    /// Whether an input is `analyze` JSON Lines to read back (not media to analyse); a missing one is media, so
    /// the runner reports it failed like any input.
    static func isJSONLines(_ item: InputItem) -> Bool {
        if case .failed = item { return false }
        return item.source.hasSuffix(".jsonl") || item.source.hasSuffix(".ndjson")
    }

    /// Media inputs are analysed with the report's stages (this machine's shard of them) — those `journal` holds
    /// reports of are taken from it, the others recorded in it as they finish; `.jsonl` files, named or found in a
    /// directory, are read back.
    static func analyse(_ inputs: RunInputs, options: AnalysisOptions, signals: Signals,
                        journal: ReportJournal? = nil) throws(FrameProbeError) -> [InputReport] {
        var options = options
        let stages = try StageRegistry.builtIn.resolve(options, for: .report)
        var media: [(item: InputItem, position: Int, folder: String)] = []
        var lines: [(item: InputItem, position: Int)] = []
        for (index, item) in inputs.items.enumerated() {
            if isJSONLines(item) {
                lines.append((item, inputs.positions[index]))
            } else {
                media.append((item, inputs.positions[index], inputs.folders[index]))
            }
        }
        let kept = journal?.kept ?? []
        media.removeFirst(kept.count)
        // An input analysed again replaces the images and clips its cut run left in its folder.
        if journal != nil { options.overwrite = true }
        let aggregator = ReportAggregator(options: options)
        let progress = ProgressLine.isWanted(options.progress) ? ProgressLine(totalInputs: media.count) : nil
        let batch = BatchRunner(runner: InputRunner(options: options, stages: stages), jobs: options.jobs)
        let positions = media.map(\.position)
        let items = media.map(\.item)
        let advance = progress.map { progress in { (index: Int, frames: Int, time: Double) in
            progress.advance(source: items[index].source, frames: frames, time: time)
        } }
        // Names that are not UTF-8 keep their raw bytes, so that two of them never match each other's baseline.
        let rawNames = Dictionary(uniqueKeysWithValues: media.compactMap { entry -> (Int, String)? in
            guard case .media(_, let location) = entry.item, let bytes = location.filePath,
                  String(validating: bytes, as: UTF8.self) == nil else { return nil }
            return (entry.position, bytes.map { String(format: "%02x", $0) }.joined())
        })
        func named(_ report: InputReport) -> InputReport {
            var report = report
            report.sourceBytes = rawNames[report.index]
            return report
        }
        var fingerprints: [Int: InputFingerprint] = [:]
        let completed = journal.map { journal in { (index: Int) in
            guard let report = aggregator.finishInput() else { return }
            if !journal.record(named(report), fingerprint: fingerprints[index]) { signals.stop.raise() }
        } }
        _ = batch.run(items, folders: media.map(\.folder), stop: signals.stop, progress: advance, completed: completed) { event, index in
            progress?.observe(event)
            if let opened = event.as(InputOpened.self) { fingerprints[index] = opened.fingerprint }
            aggregator.consume(event, index: positions[index])
        }
        progress?.end()
        if let failure = journal?.failure { throw failure }
        return kept + aggregator.finish().map(named) + lines.map { readJSONLines($0.item.source, index: $0.position, options: options) }.flatMap { $0 }
    }

    /// The reports in an `analyze` JSON Lines file. A file that cannot be read, or holds no `analyze` output, is
    /// one failed input (the others still count).
    static func readJSONLines(_ path: String, index: Int, options: AnalysisOptions) -> [InputReport] {
        func failed(_ message: String) -> [InputReport] {
            var report = InputReport(index: index, source: path)
            report.error = "INPUT_UNREADABLE: \(message)"
            return [report]
        }
        let lines = ReportAggregator(options: options)
        var analysisEvents = 0
        do throws(FrameProbeError) {
            // Line by line: memory stays flat however long the file is.
            try FileContents.forEachLine(path, errorKey: "INPUT_UNREADABLE") { line in
                guard !line.isEmpty, let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any],
                      lines.consume(jsonObject: object) else { return }
                analysisEvents += 1
            }
        } catch {
            return failed(error.message)
        }
        guard analysisEvents > 0 else { return failed("\(path) holds no frameprobe analyze events") }
        return lines.finish().map { report in
            var report = report
            report.index = index  // several inputs of one file keep their order: the report's sort is stable
            return report
        }
    }

    /// The files the report writes (none for `-o -`): PREFIX.EXT for every format; `-o DIR/` or an existing
    /// directory puts `frameprobe-report.EXT` in it.
    static func reportPaths(_ options: AnalysisOptions) -> [String] {
        guard let prefix = reportPrefix(options) else { return [] }
        return options.reportFormats.map { "\(prefix).\($0.fileExtension)" }
    }

    /// What the report's files are named after (nil for `-o -`).
    static func reportPrefix(_ options: AnalysisOptions) -> String? {
        var prefix = options.outputPath ?? "frameprobe-report"
        if prefix == "-" { return nil }
        var isDirectory: ObjCBool = false
        if prefix.hasSuffix("/") || (FileManager.default.fileExists(atPath: prefix, isDirectory: &isDirectory) && isDirectory.boolValue) {
            prefix = (prefix as NSString).appendingPathComponent("frameprobe-report")
        }
        return prefix
    }

    /// Writes every format; nil when all went out, else the exit code (1, with the reason on stderr).
    static func write(_ document: ReportDocument, to paths: [String], options: AnalysisOptions) -> Int32? {
        if paths.isEmpty, let format = options.reportFormats.first {
            do throws(FrameProbeError) {
                Console.standardOutput.write(text: String(decoding: try format.render(document), as: UTF8.self))
            } catch {
                return Console.outputFailure(error)
            }
            return Console.outputStatus(of: Console.standardOutput)
        }
        for (format, path) in zip(options.reportFormats, paths) {
            do throws(FrameProbeError) {
                try OutputFile.write(Array(format.render(document)), to: path, overwrite: options.overwrite || options.resume != .off)
            } catch {
                return Console.outputFailure(error)
            }
        }
        Console.printError("report: \(paths.joined(separator: ", ")) — \(document.summary)")
        return nil
    }
}
