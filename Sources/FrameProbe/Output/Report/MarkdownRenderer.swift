/// A compact Markdown table for a CI job summary: the configured gates with how many inputs failed each; inputs
/// that failed first, with a ❌ count (with `--baseline`, a column of what changed), the first 50 in the table and
/// the rest in a collapsed section, so that a thousand inputs stay far within GitHub's 1 MiB job-summary limit;
/// then the failed gates input by input, and when the conditions held.
enum MarkdownRenderer {
    /// Rows shown before the collapsed section.
    static let openRows = 50

    static func render(_ document: ReportDocument) -> String {
        var lines = ["## frameprobe report \(document.passed ? "✅" : "❌") \(document.verdict)", ""]
        if document.interrupted == true { lines += ["**Interrupted:** \(ReportDocument.interruptionNote).", ""] }
        lines += [gatesLine(document), ""]
        if let baseline = document.baseline {
            lines.append("Against `\(escapeMarkdown(baseline.path))`: " + [
                baseline.added.isEmpty ? nil : "new inputs: " + baseline.added.map(escapeMarkdown).joined(separator: ", "),
                baseline.gone.isEmpty ? nil : "gone: " + baseline.gone.map(escapeMarkdown).joined(separator: ", "),
            ].compactMap { $0 }.joined(separator: "; ").ifEmpty("the same inputs"))
            lines.append("")
        }
        let ordered = document.inputsFailedFirst
        let shown = document.parts.types.filter { $0.isShown(in: document.inputs) }
        let parts = ReportPartTypes(shown)
        let withDelta = document.baseline != nil
        lines += table(Array(ordered.prefix(openRows)), parts, withDelta: withDelta)
        lines.append(totalRow(document, parts, withDelta: withDelta))
        if ordered.count > openRows {
            lines += ["", "<details><summary>\(counted(ordered.count - openRows, "more input"))</summary>", ""]
            lines += table(Array(ordered.dropFirst(openRows)), parts, withDelta: withDelta)
            lines += ["", "</details>"]
        }
        let failed = ordered.filter(\.failedSomething).map { input in
            "- \(escapeMarkdown(input.source)): " + ((input.error.map { ["❌ \($0)"] } ?? []) + input.failedGates(document.parts).map { "❌ " + $0 })
                .map(escapeMarkdown).joined(separator: "; ")
        }
        if !failed.isEmpty {
            lines += ["", "**Failed**:", ""] + failed.prefix(openRows)
            if failed.count > openRows {
                lines += ["", "<details><summary>\(failed.count - openRows) more</summary>", ""] + failed.dropFirst(openRows) + ["", "</details>"]
            }
        }
        let intervals = ordered.compactMap { input in
            input.intervalSummary(document.parts).map { "- \(escapeMarkdown(input.source)): \(escapeMarkdown($0))" }
        }
        if !intervals.isEmpty {
            lines += ["", "**When** (intervals of at least the minimum duration):", ""] + intervals.prefix(openRows)
            if intervals.count > openRows {
                lines += ["", "<details><summary>\(intervals.count - openRows) more</summary>", ""] + intervals.dropFirst(openRows) + ["", "</details>"]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The table: the input and its frames, each part's columns, the gates (and the change against the baseline).
    static func table(_ inputs: [InputReport], _ parts: ReportPartTypes, withDelta: Bool) -> [String] {
        let columns = parts.types.flatMap { $0.columns }
        var lines = ["| " + (["input", "frames"] + columns.map(\.header) + ["gates"] + (withDelta ? ["vs baseline"] : [])).joined(separator: " | ") + " |",
                     "|---|---:|" + columns.map { $0.numeric ? "---:|" : "---|" }.joined() + "---|" + (withDelta ? "---|" : "")]
        for input in inputs {
            let fields = input.fields
            let failedCount = input.gates.filter { !$0.passed }.count
            let gates = input.error != nil ? "❌ error" : failedCount > 0 ? "❌ \(failedCount)" : input.gates.isEmpty ? "–" : "✅"
            let shownParts = input.parts.filter { part in parts.types.contains { $0 == type(of: part) } }
            var cells = [escapeMarkdown(input.source), "\(input.framesAnalysed)"] + shownParts.flatMap { $0.cells(fields) } + [gates]
            if withDelta { cells.append(change(input.delta, parts)) }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// "Gates: `faceFrameRatio>=0.9` ❌ 1 of 2 inputs, `total.blurredRatio<=0.05` ❌ (got 1)", or that none was configured.
    static func gatesLine(_ document: ReportDocument) -> String {
        let perInput = document.gates.filter { !$0.hasPrefix("total.") }
        let items = perInput.enumerated().map { number, gate in
            let failed = document.inputs.filter { $0.gates.indices.contains(number) && !$0.gates[number].passed }.count
            return "`\(gate)` " + (failed == 0 ? "✅" : "❌ \(failed) of \(counted(document.inputs.count, "input"))")
        } + document.totalGates.map { result in
            "`\(result.gate)` " + (result.passed ? "✅" : "❌ (\(escapeMarkdown(result.outcome)))")
        }
        return items.isEmpty ? "No gates configured." : "Gates: " + items.joined(separator: ", ")
    }

    static func totalRow(_ document: ReportDocument, _ parts: ReportPartTypes, withDelta: Bool) -> String {
        let totals = document.total.fields
        let failedCount = document.totalGates.filter { !$0.passed }.count
        let gates = document.totalGates.isEmpty ? "–" : failedCount > 0 ? "❌ \(failedCount)" : "✅"
        let cells = ["**total**", "\(document.total.framesAnalysed)"]
            + document.total.sections.filter { section in parts.types.contains { $0 == section.part } }
                .flatMap { $0.part.totalCells($0, totals, inputs: document.total.inputs) } + [gates]
            + (withDelta ? [change(document.total.delta, document.parts)] : [])
        return "| " + cells.joined(separator: " | ") + " |"
    }

    /// The changes that matter most in a row: the parts' headline ratios, in percentage points; a change that
    /// rounds to 0.0 pp is left out ("unchanged" when nothing is left).
    static func change(_ delta: [String: Double]?, _ parts: ReportPartTypes) -> String {
        guard let delta else { return "new" }
        let compared = parts.types.flatMap { $0.headlines }.compactMap { headline in delta[headline.field].map { (headline.label, $0) } }
        let changes = compared.filter { abs($0.1) * 100 >= 0.05 }.map { label, change in
            "\(label) \(change >= 0 ? "+" : "−")\(formatted(abs(change) * 100, decimals: 1)) pp"
        }
        return compared.isEmpty ? "–" : changes.isEmpty ? "unchanged" : changes.joined(separator: ", ")
    }
}

extension InputReport {
    /// The input failed, or failed a gate.
    var failedSomething: Bool { error != nil || gates.contains { !$0.passed } }
}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
