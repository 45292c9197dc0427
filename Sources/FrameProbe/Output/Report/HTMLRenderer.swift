/// One self-contained HTML page: per input the best face crop, inline SVG plots over time (face presence, head
/// angles, darkness / lightness / sharpness) and the gate results. No script, no external resource.
enum HTMLRenderer {
    static func render(_ document: ReportDocument) -> String {
        let sections = document.inputs.map { section($0, document.parts) }.joined(separator: "\n")
        let totalGates = document.totalGates.map(gateItem).joined()
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>frameprobe report</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2330;background:#f6f7f9}
            h1{font-size:22px} section{background:#fff;border-radius:8px;padding:16px;margin:16px 0;box-shadow:0 1px 3px #0002}
            .head{display:flex;gap:16px;align-items:flex-start} .thumb{width:120px;height:120px;object-fit:cover;border-radius:6px;background:#dde}
            table{border-collapse:collapse} td,th{padding:2px 10px 2px 0;text-align:left} .pass{color:#17803d} .fail{color:#c0262d}
            svg{background:#fbfbfd;border:1px solid #e3e5ea;margin:6px 8px 0 0} .legend{font-size:11px;fill:#556}
            </style></head><body>
            <h1>frameprobe report — <span class="\(document.passed ? "pass" : "fail")">\(document.verdict)</span></h1>
            \(document.interrupted == true ? "<p class=\"fail\"><b>Interrupted:</b> \(ReportDocument.interruptionNote).</p>" : "")
            <p>\(summary(document)).</p>
            \(totalGates.isEmpty ? "" : "<ul class=\"gates\">\(totalGates)</ul>")
            \(sections)
            </body></html>

            """
    }

    static func section(_ input: InputReport, _ parts: ReportPartTypes) -> String {
        let fields = input.fields
        let picture = input.parts.lazy.compactMap { $0.htmlImage }.first ?? "<div class=\"thumb\" title=\"no face\"></div>"
        let rows: [(label: String, html: String)] = [("frames analysed", "\(input.framesAnalysed) of \(input.framesDecoded)")]
            + input.parts.flatMap { $0.htmlRows(fields) } + [("when", escapeMarkup(input.intervalSummary(parts) ?? "–"))]
            + (input.error.map { [("error", escapeMarkup($0))] } ?? [])
        let table = rows.map { "<tr><th>\($0.label)</th><td>\($0.html)</td></tr>" }.joined()
        return """
            <section><div class="head">\(picture)<div><h2>\(escapeMarkup(input.source))</h2><table>\(table)</table>
            <ul class="gates">\(input.gates.map(gateItem).joined())</ul></div></div>\(plots(input, parts))</section>
            """
    }

    /// One plot per plot title the parts' values name, in their order, with the intervals of the conditions that
    /// shade it; a plot whose values were never measured is left out.
    static func plots(_ input: InputReport, _ parts: ReportPartTypes) -> String {
        let series = input.series
        var titles: [String] = []
        for value in parts.types.flatMap { $0.values } where !titles.contains(value.plot) { titles.append(value.plot) }
        return titles.compactMap { title -> String? in
            let values = parts.types.flatMap { $0.values }.filter { $0.plot == title }
            let lines = values.compactMap { value in series.columns[value.name].map { (value.label, value.color, $0) } }
            guard let first = values.first, !lines.isEmpty else { return nil }
            let bands = parts.conditions.filter { $0.plot == title }.compactMap { condition in input.intervals?[condition.name].map { (condition, $0) } }
            return plot(title, series.pts, lines, range: (first.range.lowerBound, first.range.upperBound), bands: bands)
        }.joined()
    }

    static func gateItem(_ result: GateResult) -> String {
        "<li class=\"\(result.passed ? "pass" : "fail")\">\(result.passed ? "✔" : "✘") \(escapeMarkup(result.gate)) (\(escapeMarkup(result.outcome)))</li>"
    }

    /// A line plot of several series over time, as inline SVG, with the intervals of `bands` shaded behind.
    static func plot(_ title: String, _ times: [Double], _ lines: [(String, String, [Double?])], range: (Double, Double),
                     bands: [(ReportedCondition, [[Double]])] = []) -> String {
        let width = 360.0, height = 120.0, pad = 18.0
        let start = times.first ?? 0, end = max(times.last ?? 1, start + 1e-6)
        func x(_ t: Double) -> Double { pad + (t - start) / (end - start) * (width - 2 * pad) }
        func y(_ v: Double) -> Double { height - pad - (min(max(v, range.0), range.1) - range.0) / (range.1 - range.0) * (height - 2 * pad) }
        var paths = ""
        for (condition, intervals) in bands {
            for interval in intervals where interval.count == 2 {
                let left = x(min(max(interval[0], start), end)), right = x(min(max(interval[1], start), end))
                paths += "<rect class=\"band\" x=\"\(formatted(left, decimals: 1))\" y=\"\(pad)\" width=\"\(formatted(max(right - left, 1), decimals: 1))\" "
                    + "height=\"\(height - 2 * pad)\" fill=\"\(condition.color)\" fill-opacity=\"0.15\"><title>\(condition.label) "
                    + "\(formatted(interval[0], decimals: 2))–\(formatted(interval[1], decimals: 2)) s</title></rect>"
            }
        }
        for (name, color, values) in lines {
            var segments: [String] = []
            var current: [String] = []
            for (t, value) in zip(times, values) {
                if let value { current.append("\(formatted(x(t), decimals: 1)),\(formatted(y(value), decimals: 1))") }
                else if !current.isEmpty { segments.append(current.joined(separator: " ")); current = [] }
            }
            if !current.isEmpty { segments.append(current.joined(separator: " ")) }
            paths += segments.map { "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\"\($0)\"><title>\(name)</title></polyline>" }.joined()
        }
        let legend = lines.enumerated().map { index, line in
            "<text class=\"legend\" x=\"\(formatted(pad + Double(index) * 80, decimals: 0))\" y=\"12\" style=\"fill:\(line.1)\">\(escapeMarkup(line.0))</text>"
        }.joined()
        return """
            <svg class="plot" role="img" aria-label="\(escapeMarkup(title))" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))">\
            <title>\(escapeMarkup(title))</title><line x1="\(pad)" y1="\(height - pad)" x2="\(width - pad)" y2="\(height - pad)" stroke="#ccd"/>\
            \(legend)\(paths)<text class="legend" x="\(pad)" y="\(height - 4)">\(escapeMarkup(title))</text>\
            <text class="legend" x="\(width - pad - 40)" y="\(height - 4)">\(formatted(end - start, decimals: 1)) s</text></svg>
            """
    }

    /// "2 inputs, 222 frames analysed; of the frames: blurred 100 %, dark 11.7 %, face 77.9 %" (the parts' headlines).
    static func summary(_ document: ReportDocument) -> String {
        let totals = document.total.fields
        let headlines = document.parts.types.flatMap { $0.headlines }.compactMap { headline in
            totals[headline.field].map { "\(headline.label) \(percent($0))" }
        }
        return "\(counted(document.total.inputs, "input")), \(counted(document.total.framesAnalysed, "frame")) analysed"
            + (headlines.isEmpty ? "" : "; of the frames: " + headlines.joined(separator: ", "))
    }

}
