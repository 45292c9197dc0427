/// A compact Markdown table for a CI job summary.
enum MarkdownRenderer {
    static func render(_ document: ReportDocument) -> String {
        var lines = ["## frameprobe report \(document.passed ? "✅ passed" : "❌ failed")", ""]
        lines.append("| input | frames | face | blurred | too dark | too light | sharpness (mean) | QR codes | acquire | gates |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
        for input in document.inputs {
            let fields = input.fields
            let acquire = input.acquisition.map { $0.succeeded ? "✅ at \(formatted($0.recordStartPts, decimals: 2)) s" : "❌ \(escapeMarkdown($0.failure ?? ""))" } ?? "–"
            let gates = input.error.map { "❌ \(escapeMarkdown($0))" }
                ?? (input.failedGates.isEmpty ? (input.gates.isEmpty ? "–" : "✅") : "❌ " + escapeMarkdown(input.failedGates.joined(separator: ", ")))
            let cells = [escapeMarkdown(input.source), "\(input.framesAnalysed)", percent(fields["faceFrameRatio"]),
                         percent(fields["blurredRatio"]), percent(fields["tooDarkRatio"]), percent(fields["tooLightRatio"]),
                         formatted(input.sharpness?.mean), "\(input.qrCodes.count)", acquire, gates]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        let totals = document.total.fields
        lines.append("| **total** | \(document.total.framesAnalysed) | \(percent(totals["faceFrameRatio"])) | \(percent(totals["blurredRatio"])) | "
            + "\(percent(totals["tooDarkRatio"])) | \(percent(totals["tooLightRatio"])) | \(formatted(document.total.sharpness?.mean)) | "
            + "\(document.total.qrCodeCount) | \(document.total.acquisitionsSucceeded)/\(document.total.inputs) | "
            + (document.totalGates.isEmpty ? "–" : document.totalGates.map { "\($0.passed ? "✅" : "❌") \(escapeMarkdown($0.gate))\($0.passed ? "" : " (" + escapeMarkdown($0.outcome) + ")")" }.joined(separator: ", ")) + " |")
        return lines.joined(separator: "\n") + "\n"
    }

    static func percent(_ value: Double?) -> String {
        guard let value else { return "–" }
        return "\(formatted(value * 100, decimals: 1)) %"
    }
}
