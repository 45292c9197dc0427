/// A compact Markdown table for a CI job summary: inputs that failed first (with `--baseline`, a column of what
/// changed), the first 50 in the table and the rest in a collapsed section, so that a thousand inputs stay far
/// within GitHub's 1 MiB job-summary limit; then when the conditions held.
enum MarkdownRenderer {
    /// Rows shown before the collapsed section.
    static let openRows = 50

    static func render(_ document: ReportDocument) -> String {
        var lines = ["## frameprobe report \(document.passed ? "✅" : "❌") \(document.verdict)", ""]
        if document.interrupted == true { lines += ["**Interrupted:** \(ReportDocument.interruptionNote).", ""] }
        if let baseline = document.baseline {
            lines.append("Against `\(escapeMarkdown(baseline.path))`: " + [
                baseline.added.isEmpty ? nil : "new inputs: " + baseline.added.map(escapeMarkdown).joined(separator: ", "),
                baseline.gone.isEmpty ? nil : "gone: " + baseline.gone.map(escapeMarkdown).joined(separator: ", "),
            ].compactMap { $0 }.joined(separator: "; ").ifEmpty("the same inputs"))
            lines.append("")
        }
        // Regressions first: inputs that failed or failed a gate, then the others, each group in input order.
        let ordered = document.inputs.filter(\.failedSomething) + document.inputs.filter { !$0.failedSomething }
        let withDelta = document.baseline != nil
        lines += table(Array(ordered.prefix(openRows)), withDelta: withDelta)
        lines.append(totalRow(document, withDelta: withDelta))
        if ordered.count > openRows {
            lines += ["", "<details><summary>\(ordered.count - openRows) more inputs</summary>", ""]
            lines += table(Array(ordered.dropFirst(openRows)), withDelta: withDelta)
            lines += ["", "</details>"]
        }
        let intervals = ordered.compactMap { input in input.intervalSummary.map { "- \(escapeMarkdown(input.source)): \(escapeMarkdown($0))" } }
        if !intervals.isEmpty {
            lines += ["", "**When** (intervals of at least the minimum duration):", ""] + intervals.prefix(openRows)
            if intervals.count > openRows {
                lines += ["", "<details><summary>\(intervals.count - openRows) more</summary>", ""] + intervals.dropFirst(openRows) + ["", "</details>"]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func table(_ inputs: [InputReport], withDelta: Bool) -> [String] {
        var lines = ["| input | frames | face | blurred | too dark | too light | sharpness (mean) | QR codes | acquire | gates |"
            + (withDelta ? " vs baseline |" : ""), "|---|---:|---:|---:|---:|---:|---:|---:|---|---|" + (withDelta ? "---|" : "")]
        for input in inputs {
            let fields = input.fields
            let acquire = input.acquisition.map { $0.succeeded ? "✅ at \(formatted($0.recordStartPts, decimals: 2)) s" : "❌ \(escapeMarkdown($0.failure ?? ""))" } ?? "–"
            let gates = input.error.map { "❌ \(escapeMarkdown($0))" }
                ?? (input.failedGates.isEmpty ? (input.gates.isEmpty ? "–" : "✅") : "❌ " + escapeMarkdown(input.failedGates.joined(separator: ", ")))
            var cells = [escapeMarkdown(input.source), "\(input.framesAnalysed)", percent(fields["faceFrameRatio"]),
                         percent(fields["blurredRatio"]), percent(fields["tooDarkRatio"]), percent(fields["tooLightRatio"]),
                         formatted(input.sharpness?.mean), "\(input.qrCodes.count)", acquire, gates]
            if withDelta { cells.append(change(input.delta)) }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    static func totalRow(_ document: ReportDocument, withDelta: Bool) -> String {
        let totals = document.total.fields
        let gates = document.totalGates.isEmpty ? "–" : document.totalGates.map {
            "\($0.passed ? "✅" : "❌") \(escapeMarkdown($0.gate))\($0.passed ? "" : " (" + escapeMarkdown($0.outcome) + ")")"
        }.joined(separator: ", ")
        return "| **total** | \(document.total.framesAnalysed) | \(percent(totals["faceFrameRatio"])) | \(percent(totals["blurredRatio"])) | "
            + "\(percent(totals["tooDarkRatio"])) | \(percent(totals["tooLightRatio"])) | \(formatted(document.total.sharpness?.mean)) | "
            + "\(document.total.qrCodeCount) | \(document.total.acquisitionsSucceeded)/\(document.total.inputs) | \(gates) |"
            + (withDelta ? " \(change(document.total.delta)) |" : "")
    }

    /// The changes that matter most in a row: face, blurred and too-dark shares, in percentage points.
    static func change(_ delta: [String: Double]?) -> String {
        guard let delta else { return "new" }
        let parts = [("face", "faceFrameRatio"), ("blurred", "blurredRatio"), ("dark", "tooDarkRatio")].compactMap { label, field in
            delta[field].map { "\(label) \($0 >= 0 ? "+" : "−")\(formatted(abs($0) * 100, decimals: 1)) pp" }
        }
        return parts.isEmpty ? "–" : parts.joined(separator: ", ")
    }

    static func percent(_ value: Double?) -> String {
        guard let value else { return "–" }
        return "\(formatted(value * 100, decimals: 1)) %"
    }
}

extension InputReport {
    /// The input failed, or failed a gate.
    var failedSomething: Bool { error != nil || gates.contains { !$0.passed } }
}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
