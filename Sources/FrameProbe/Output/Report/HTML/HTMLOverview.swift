/// The top of the HTML page: the configured gates (numbered, with how many inputs failed each), the totals' gates,
/// the baseline's added and gone inputs, and one row per input, failed first, with a ✔/✘ per gate and a link to
/// its card.
enum HTMLOverview {
    static func render(_ document: ReportDocument, _ ordered: [InputReport]) -> String {
        let perInput = document.gates.filter { !$0.hasPrefix("total.") }
        var markup = "<section class=\"overview\"><h2>Gates</h2>"
        if perInput.isEmpty && document.totalGates.isEmpty {
            markup += "<p>No gates configured (<code>--gate FIELD OP NUMBER</code>).</p>"
        } else {
            markup += "<ol class=\"gatelist\">" + perInput.enumerated().map { number, gate in
                let failed = document.inputs.filter { $0.gates.indices.contains(number) && !$0.gates[number].passed }.count
                return "<li class=\"\(failed == 0 ? "pass" : "fail")\"><code>\(escapeMarkup(gate))</code> — "
                    + (failed == 0 ? "passed on every input" : "failed on \(failed) of \(counted(document.inputs.count, "input"))") + "</li>"
            }.joined() + "</ol>"
            if !document.totalGates.isEmpty {
                markup += "<p>On the totals:</p><ul class=\"gates\">" + document.totalGates.map { HTMLRenderer.gateItem($0) }.joined() + "</ul>"
            }
        }
        if let baseline = document.baseline {
            let added = baseline.added.isEmpty ? "" : "; new inputs: " + baseline.added.map(escapeMarkup).joined(separator: ", ")
            let gone = baseline.gone.isEmpty ? "" : "; <span class=\"fail\">gone</span>: " + baseline.gone.map(escapeMarkup).joined(separator: ", ")
            markup += "<p>Against the baseline <code>\(escapeMarkup(baseline.path))</code>"
                + (added.isEmpty && gone.isEmpty ? ": the same inputs" : added + gone) + ".</p>"
        }
        return markup + "<h2>Inputs</h2>" + table(document, ordered, gateCount: perInput.count) + "</section>"
    }

    /// Input, verdict, a ✔/✘ per gate (numbered as above), the headline numbers and, with a baseline, their change.
    static func table(_ document: ReportDocument, _ ordered: [InputReport], gateCount: Int) -> String {
        let headlines = document.parts.types.flatMap { $0.headlines }
        let withDelta = document.baseline != nil
        var header = "<tr><th>input</th><th>result</th>" + (0..<gateCount).map { "<th class=\"g\" title=\"gate \($0 + 1)\">\($0 + 1)</th>" }.joined()
        header += headlines.map { "<th class=\"n wide\">\(escapeMarkup($0.label))</th>" }.joined()
        if withDelta { header += "<th class=\"wide\">vs baseline</th>" }
        let rows = ordered.map { input -> String in
            let fields = input.fields
            let failed = input.gates.filter { !$0.passed }.count
            let verdict = input.error != nil ? "<span class=\"fail\">✘ error</span>"
                : failed > 0 ? "<span class=\"fail\">✘ \(failed)</span>"
                : input.gates.isEmpty ? "–" : "<span class=\"pass\">✔</span>"
            var row = "<tr><td><a href=\"#\(HTMLCard.anchor(input))\">\(escapeMarkup(input.source))</a></td><td>\(verdict)</td>"
            row += (0..<gateCount).map { number in
                guard input.gates.indices.contains(number) else { return "<td class=\"g\">–</td>" }
                let result = input.gates[number]
                return "<td class=\"g \(result.passed ? "pass" : "fail")\" title=\"\(escapeMarkup(result.gate + ": " + result.outcome))\">\(result.passed ? "✔" : "✘")</td>"
            }.joined()
            row += headlines.map { "<td class=\"n wide\">\(percent(fields[$0.field]))</td>" }.joined()
            if withDelta { row += "<td class=\"wide\">\(escapeMarkup(MarkdownRenderer.change(input.delta, document.parts)))</td>" }
            return row + "</tr>"
        }
        return "<table class=\"ov\">\(header)</tr>\(rows.joined())</table>"
    }
}
