/// One input's card in the HTML page: open when it failed, collapsed (`<details>`) when it passed. It holds the
/// input's numbers with their change against the baseline, its gates (failed ones with when), and — when
/// `detailed` — its face crop and plots; where there is nothing to show, a sentence says why.
struct HTMLCard {
    let input: InputReport
    let document: ReportDocument
    let detailed: Bool

    /// The card's id, which the overview links to.
    static func anchor(_ input: InputReport) -> String { "input-\(input.index)" }

    func render() -> String {
        let failed = input.failedSomething
        let mark = input.error != nil ? "✘ error" : failed ? "✘" : input.gates.isEmpty ? "" : "✔"
        let title = "<h3><span class=\"\(failed ? "fail" : "pass")\">\(mark)</span> \(escapeMarkup(input.source))</h3>"
        let picture = detailed ? input.parts.lazy.compactMap { $0.htmlImage }.first : nil
        let body = "<div class=\"head\">\(picture ?? "")\(numbers())</div>\(gates())\(detailed ? plots() : "")"
        let id = Self.anchor(input)
        return failed
            ? "<section class=\"card\" id=\"\(id)\">\(title)\(body)</section>"
            : "<details class=\"card\" id=\"\(id)\"><summary>\(title)</summary>\(body)</details>"
    }

    /// The core's rows and every part's, with a Δ column against the baseline.
    func numbers() -> String {
        let fields = input.fields
        var rows = [ReportRow("frames analysed", "\(input.framesAnalysed) of \(input.framesDecoded)", fields: ["framesAnalysed"])]
        rows += input.parts.flatMap { $0.htmlRows(fields) }
        if let when = input.intervalSummary(document.parts) { rows.append(ReportRow("when", escapeMarkup(when))) }
        if let error = input.error { rows.append(ReportRow("error", "<span class=\"fail\">\(escapeMarkup(error))</span>")) }
        // A Δ column only when something changed; otherwise a row says "unchanged" or "new input".
        let changed = (input.delta ?? [:]).values.contains { abs($0) >= 0.0005 }
        if document.baseline != nil && !changed { rows.append(ReportRow("vs baseline", input.delta == nil ? "new input" : "unchanged")) }
        let withDelta = document.baseline != nil && changed
        let cells = rows.map { row -> String in
            let delta = withDelta ? "<td class=\"delta\">\(row.fields.map { HTMLRenderer.delta(input.delta?[$0], ratio: row.ratio) }.filter { !$0.isEmpty }.joined(separator: " / "))</td>" : ""
            return "<tr><th>\(escapeMarkup(row.label))</th><td>\(row.html)</td>\(delta)</tr>"
        }
        let header = withDelta ? "<tr><th></th><th></th><th class=\"delta\">Δ vs baseline</th></tr>" : ""
        return "<table class=\"numbers\">\(header)\(cells.joined())</table>"
    }

    /// The failed gates with when their conditions held, then (with plots) the passed ones.
    func gates() -> String {
        guard !input.gates.isEmpty else { return "" }
        let failed = input.gates.filter { !$0.passed }.map { result in
            let condition = result.field.flatMap { field in document.parts.conditions.first { $0.fields.contains(field) } }
            return HTMLRenderer.gateItem(result, when: condition.flatMap(input.intervalLine))
        }
        // A card without plots leaves its passed gates to the overview's ✔.
        let passed = detailed ? input.gates.filter(\.passed).map { HTMLRenderer.gateItem($0) } : []
        return failed.isEmpty && passed.isEmpty ? "" : "<ul class=\"gates\">\(failed.joined())\(passed.joined())</ul>"
    }

    /// One plot per plot title the parts' values name, in their order, for the values this input has; a sentence
    /// instead when there is nothing to draw over time.
    func plots() -> String {
        let series = input.series
        if series.pts.count < 2 {
            let why = input.framesAnalysed == 0 ? "no frame was analysed" : "one frame (a still image) has no course over time; its numbers are above"
            return "<p class=\"note\">No plots: \(why).</p>"
        }
        let allValues = document.parts.types.flatMap { $0.values }
        var titles: [String] = []
        for value in allValues where !titles.contains(value.plot) { titles.append(value.plot) }
        let extra = input.parts.reduce(into: [String: [ReferenceLine]]()) { references, part in
            references.merge(part.plotReferences) { $0 + $1 }
        }
        let old = document.baselineSeries[input.matchKey]
        let figures = titles.compactMap { title -> String? in
            let values = allValues.filter { $0.plot == title }
            // A value never measured on this input (head angles without a face) draws nothing: left out.
            let lines = values.compactMap { value in
                series.columns[value.name].flatMap { $0.contains { $0 != nil } ? HTMLPlot.Line(value: value, points: $0) : nil }
            }
            guard !lines.isEmpty else { return nil }
            let bands = document.parts.conditions.filter { $0.plot == title }.compactMap { condition in
                input.intervals?[condition.name].map { HTMLPlot.Band(condition: condition, intervals: $0) }
            }
            let baseline = old.map { old in
                (times: old.pts, lines: values.compactMap { value in old.columns[value.name].map { HTMLPlot.Line(value: value, points: $0) } })
            }
            return HTMLPlot(title: title, values: values, times: series.pts, lines: lines, bands: bands,
                            runReferences: values.flatMap { extra[$0.name] ?? [] }, gateReferences: values.flatMap(gateBounds),
                            baseline: baseline.flatMap { $0.lines.isEmpty ? nil : $0 }).svg()
        }
        return figures.isEmpty ? "<p class=\"note\">No plots: no per-frame value was measured.</p>" : "<div class=\"plots\">\(figures.joined())</div>"
    }

    /// The bounds of this input's gates on the statistics of `value` (`sharpnessMean>=0.2`: a line at 0.2), or on
    /// the field that is its mean (`faceFrameRatio>=0.9` on face presence).
    func gateBounds(on value: ReportedValue) -> [ReferenceLine] {
        document.gates.compactMap { expression -> ReferenceLine? in
            guard let gate = try? Gate(parsing: expression, parts: document.parts), !gate.total, !gate.isDelta,
                  gate.field == value.meanField || ScoreStats.fieldSuffixes.contains(where: { gate.field == value.name + $0 }) else { return nil }
            return ReferenceLine(gate.threshold, "gate \(gate.expression)")
        }
    }
}
