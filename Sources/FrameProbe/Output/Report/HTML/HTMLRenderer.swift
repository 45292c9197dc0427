/// One self-contained HTML page (no script, no external resource) that reads top-down the way a CI reader needs it:
/// the verdict and the configured gates with how many failed; an overview of every input, failed first, with a
/// ✔/✘ per gate and a link to its card; then the cards, failed ones open and passing ones collapsed. A card has the
/// input's numbers (with their change against `--baseline`), its failed gates, the best face crop and the plots
/// (`HTMLPlot`). It works from a phone's width up to a wide screen.
enum HTMLRenderer {
    /// Cards drawn with plots and face crop, failed inputs first: beyond it a card has its numbers and gates only,
    /// so that a report of a thousand inputs stays a page a browser opens at once (the JSON report has them all).
    static let detailedCards = 25

    static func render(_ document: ReportDocument) -> String {
        let ordered = document.inputsFailedFirst
        let cards = ordered.enumerated().map { position, input in
            HTMLCard(input: input, document: document, detailed: position < detailedCards).render()
        }
        let left = ordered.count > detailedCards
            ? "<p class=\"note\">Plots and face crops are drawn for the first \(detailedCards) inputs above (failed first); "
                + "the report's JSON has every input's series.</p>" : ""
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>frameprobe report — \(document.verdict)</title>
            <style>\(style)</style></head><body><main>
            <h1>frameprobe report — <span class="\(document.passed ? "pass" : "fail")">\(document.verdict)</span></h1>
            \(document.interrupted == true ? "<p class=\"fail\"><b>Interrupted:</b> \(ReportDocument.interruptionNote).</p>" : "")
            <p class="summary">\(escapeMarkup(document.summary)). \(escapeMarkup(summary(document))).</p>
            \(HTMLOverview.render(document, ordered))
            \(cards.joined(separator: "\n"))
            \(left)
            </main></body></html>

            """
    }

    /// "222 frames analysed; of the frames: blurred 100 %, dark 11.7 %, face 77.9 %" (the parts' headlines).
    static func summary(_ document: ReportDocument) -> String {
        let totals = document.total.fields
        let headlines = document.parts.types.flatMap { $0.headlines }.compactMap { headline in
            totals[headline.field].map { "\(headline.label) \(percent($0))" }
        }
        return "\(counted(document.total.framesAnalysed, "frame")) analysed"
            + (headlines.isEmpty ? "" : "; of the frames: " + headlines.joined(separator: ", "))
    }

    static func gateItem(_ result: GateResult, when: String? = nil) -> String {
        "<li class=\"\(result.passed ? "pass" : "fail")\">\(result.passed ? "✔" : "✘") <code>\(escapeMarkup(result.gate))</code> "
            + "\(escapeMarkup(result.outcome))\(when.map { ": " + escapeMarkup($0) } ?? "")</li>"
    }

    /// A change against the baseline: "+2.3 pp" for a ratio, "−0.012" otherwise; "" when there is none.
    static func delta(_ value: Double?, ratio: Bool) -> String {
        guard let value, abs(value) * (ratio ? 100 : 1) >= (ratio ? 0.05 : 0.0005) else { return "" }
        let sign = value > 0 ? "+" : "−"
        return ratio ? "\(sign)\(formatted(abs(value) * 100, decimals: 1)) pp" : "\(sign)\(formatted(abs(value)))"
    }

    static let style = """
        *{box-sizing:border-box}body{font:14px/1.45 system-ui,sans-serif;margin:0;padding:16px;color:#1d2330;background:#f6f7f9}\
        main{max-width:2000px;margin:0 auto}h1{font-size:22px;margin:4px 0 8px}h2{font-size:17px;margin:0 0 8px}\
        h3{font-size:16px;margin:0}.card,.overview{background:#fff;border-radius:8px;padding:14px 16px;margin:14px 0;\
        box-shadow:0 1px 3px #0002;overflow-wrap:break-word;min-width:0}.ov td:first-child,h3{overflow-wrap:anywhere}table{border-collapse:collapse;max-width:100%}\
        td,th{padding:3px 10px 3px 0;text-align:left;vertical-align:top}th{font-weight:600}.pass{color:#17803d}.fail{color:#c0262d}\
        .head{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start;margin-top:8px}.thumb{width:96px;height:96px;\
        object-fit:cover;border-radius:6px}.numbers{flex:1 1 300px}.numbers td{overflow-wrap:anywhere}.numbers th{font-weight:500;color:#445}.delta{color:#556;white-space:nowrap}\
        ul.gates{margin:8px 0;padding-left:18px}ol.gatelist{padding-left:22px;margin:6px 0 12px}\
        .plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,400px),1fr));gap:14px;margin-top:12px}\
        figure{margin:0;min-width:0}figcaption{font-weight:600;font-size:13px;margin-bottom:2px}\
        svg.plot{width:100%;height:auto;display:block;background:#fbfbfd;border:1px solid #e3e5ea;border-radius:4px}\
        svg.plot path{fill:none;stroke-width:1.6;vector-effect:non-scaling-stroke;stroke-linejoin:round}\
        svg.plot path.baseline{stroke-opacity:.4;stroke-dasharray:4 3}.axis text{font-size:11px;fill:#556}\
        .ytick{text-anchor:end;dominant-baseline:middle}.xtick{text-anchor:middle}svg.plot .axis path{fill:none;stroke-width:1;vector-effect:non-scaling-stroke}.axis .grid{stroke:#e8eaef}.axis .frame{stroke:#99a}\
        line.zero{stroke:#556}line.ref{stroke:#868e96;stroke-dasharray:5 4}line.gate{stroke:#c0262d;stroke-dasharray:6 3}\
        .band{fill-opacity:.12}.lane{fill-opacity:.8}.tips rect{fill:transparent;y:\(HTMLPlot.top)px;height:\(HTMLPlot.height - HTMLPlot.top - HTMLPlot.bottom)px}.tips rect:hover{fill:#1d233012}\
        .legend{display:flex;flex-wrap:wrap;gap:2px 12px;font-size:12px;color:#445;margin-top:4px}\
        .legend i{display:inline-block;width:18px;height:0;margin-right:5px;vertical-align:middle;border-top:2px solid}\
        .legend i.box{height:10px;border:0;opacity:.6}.legend i.ref{border-top:2px dashed #868e96}\
        .legend i.gate{border-top:2px dashed #c0262d}.legend i.zero{border-color:#556}.legend i.faint{border-top:2px dashed #99a}\
        .ov td.g,.ov th.g{text-align:center;padding:3px 4px}.ov td.n,.ov th.n{text-align:right}\
        details.card>summary{cursor:pointer;list-style-position:outside;margin-left:14px}details.card>summary h3{display:inline}\
        .note{color:#556;font-style:italic}code{font-size:13px;background:#f0f1f4;padding:0 3px;border-radius:3px}\
        a{color:inherit}@media (max-width:640px){.wide{display:none}body{padding:8px}.card,.overview{padding:12px 10px}}
        """
}
