/// One self-contained HTML page: per input the best face crop, inline SVG plots over time (face presence, head
/// angles, darkness / lightness / sharpness) and the gate results. No script, no external resource.
enum HTMLRenderer {
    static func render(_ document: ReportDocument) -> String {
        let sections = document.inputs.map(section).joined(separator: "\n")
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
            <p>\(document.total.inputs) inputs, \(document.total.framesAnalysed) frames analysed, face on \(percent(document.total.fields["faceFrameRatio"])) of frames.</p>
            \(totalGates.isEmpty ? "" : "<ul class=\"gates\">\(totalGates)</ul>")
            \(sections)
            </body></html>

            """
    }

    static func section(_ input: InputReport) -> String {
        let fields = input.fields
        let thumbnail = input.thumbnail.flatMap { isJPEGDataURL($0) ? "<img class=\"thumb\" alt=\"best face\" src=\"\($0)\">" : nil }
            ?? "<div class=\"thumb\" title=\"no face\"></div>"
        let rows: [(String, String)] = [
            ("frames analysed", "\(input.framesAnalysed) of \(input.framesDecoded)"),
            ("face on", percent(fields["faceFrameRatio"])),
            ("darkness / lightness / sharpness (mean)", "\(formatted(input.darkness?.mean)) / \(formatted(input.lightness?.mean)) / \(formatted(input.sharpness?.mean))"),
            ("too dark / too light / blurred", "\(percent(fields["tooDarkRatio"])) / \(percent(fields["tooLightRatio"])) / \(percent(fields["blurredRatio"]))"),
            ("QR codes", input.qrCodes.isEmpty ? "none" : input.qrCodes.map { "\(escapeMarkup($0.content)) (\(formatted($0.firstSeen, decimals: 2)) s)" }.joined(separator: ", ")),
            ("when", escapeMarkup(input.intervalSummary ?? "–")),
            ("acquire", input.acquisition.map { $0.succeeded ? "would record from \(formatted($0.recordStartPts, decimals: 2)) s" : "would fail: \(escapeMarkup($0.failure ?? ""))" } ?? "not checked"),
        ] + (input.error.map { [("error", escapeMarkup($0))] } ?? [])
        let table = rows.map { "<tr><th>\($0.0)</th><td>\($0.1)</td></tr>" }.joined()
        let series = input.series
        func bands(_ conditions: [IntervalCondition]) -> [(IntervalCondition, [[Double]])] {
            conditions.compactMap { condition in input.intervals?[condition.rawValue].map { (condition, $0) } }
        }
        let plots = [
            plot("face present", series.pts, [("face", "#3c58e8", series.face.map { Double($0) })], range: (0, 1),
                 bands: bands([.noFace, .severalFaces])),
            plot("head angles (°)", series.pts, [("X", "#d9480f", series.headX), ("Y", "#2b8a3e", series.headY), ("Z", "#5f3dc4", series.headZ)],
                 range: (-60, 60), bands: bands([.notFrontal])),
            plot("quality", series.pts, [("darkness", "#343a40", series.darkness), ("lightness", "#f08c00", series.lightness),
                                         ("sharpness", "#1c7ed6", series.sharpness)], range: (0, 1), bands: bands([.dark, .light, .blurred])),
        ].joined() + (series.faceImageQuality.map { values in
            plot("face image quality (unified, 0–100)", series.pts, [("unifiedQuality", "#0b7285", values)], range: (0, 100),
                 bands: bands([.lowFaceImageQuality]))
        } ?? "")
        return """
            <section><div class="head">\(thumbnail)<div><h2>\(escapeMarkup(input.source))</h2><table>\(table)</table>
            <ul class="gates">\(input.gates.map(gateItem).joined())</ul></div></div>\(plots)</section>
            """
    }

    static func gateItem(_ result: GateResult) -> String {
        "<li class=\"\(result.passed ? "pass" : "fail")\">\(result.passed ? "✔" : "✘") \(escapeMarkup(result.gate)) (\(escapeMarkup(result.outcome)))</li>"
    }

    /// The shade of each condition's bands.
    static func shade(_ condition: IntervalCondition) -> String {
        switch condition {
        case .dark: "#343a40"
        case .light: "#f08c00"
        case .blurred: "#1c7ed6"
        case .noFace: "#c0262d"
        case .severalFaces: "#7048e8"
        case .notFrontal: "#d9480f"
        case .lowFaceImageQuality: "#0b7285"
        }
    }

    /// A line plot of several series over time, as inline SVG, with the intervals of `bands` shaded behind.
    static func plot(_ title: String, _ times: [Double], _ lines: [(String, String, [Double?])], range: (Double, Double),
                     bands: [(IntervalCondition, [[Double]])] = []) -> String {
        let width = 360.0, height = 120.0, pad = 18.0
        let start = times.first ?? 0, end = max(times.last ?? 1, start + 1e-6)
        func x(_ t: Double) -> Double { pad + (t - start) / (end - start) * (width - 2 * pad) }
        func y(_ v: Double) -> Double { height - pad - (min(max(v, range.0), range.1) - range.0) / (range.1 - range.0) * (height - 2 * pad) }
        var paths = ""
        for (condition, intervals) in bands {
            for interval in intervals where interval.count == 2 {
                let left = x(min(max(interval[0], start), end)), right = x(min(max(interval[1], start), end))
                paths += "<rect class=\"band\" x=\"\(formatted(left, decimals: 1))\" y=\"\(pad)\" width=\"\(formatted(max(right - left, 1), decimals: 1))\" "
                    + "height=\"\(height - 2 * pad)\" fill=\"\(shade(condition))\" fill-opacity=\"0.15\"><title>\(condition.label) "
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

    static func percent(_ value: Double?) -> String { MarkdownRenderer.percent(value) }
}
