import Foundation

/// One plot of an input's card as inline SVG that scales to its card (a viewBox, no fixed size): a y-axis with
/// 3–5 ticks in the values' unit, x ticks in seconds from 0, gridlines, a line at 0 and dashed reference lines
/// (declared thresholds, gate bounds), the conditions' intervals as shaded bands with a lane each along the top,
/// a faint dashed baseline series, and a tooltip on every stretch of the time axis giving its time and values
/// ("t = 2.40 s · darkness 0.91"), with no script. Its legend is HTML below it, so it wraps on a narrow screen.
struct HTMLPlot {
    /// A series drawn in it.
    struct Line {
        let value: ReportedValue
        let points: [Double?]
    }

    /// A condition's intervals shading it.
    struct Band {
        let condition: ReportedCondition
        let intervals: [[Double]]
    }

    let title: String
    let values: [ReportedValue]
    let times: [Double]
    let lines: [Line]
    let bands: [Band]
    /// Reference lines besides the values' declared ones: thresholds the run was given (`--fiq-threshold`).
    let runReferences: [ReferenceLine]
    /// The bounds of the gates on these values.
    let gateReferences: [ReferenceLine]
    /// The baseline's series for this input, when `--baseline` has it.
    let baseline: (times: [Double], lines: [Line])?

    /// Points drawn per series at most (the report's series hold up to `Series.limit`).
    static let pointLimit = 60
    static let width = 480.0, height = 170.0
    static let left = 46.0, right = 10.0, top = 10.0, bottom = 22.0
    /// The height of one condition's lane along the top.
    static let lane = 4.0

    var unit: String { values.first?.unit ?? "" }
    var range: ClosedRange<Double> { values.first?.range ?? 0...1 }
    /// The time axis: 0 to the last point (of this input or its baseline).
    var end: Double { max(times.last ?? 0, baseline?.times.last ?? 0, 1e-3) }

    func x(_ t: Double) -> Double { Self.left + min(max(t, 0), end) / end * (Self.width - Self.left - Self.right) }
    func y(_ v: Double) -> Double {
        let clamped = min(max(v, range.lowerBound), range.upperBound)
        return Self.height - Self.bottom - (clamped - range.lowerBound) / (range.upperBound - range.lowerBound) * (Self.height - Self.top - Self.bottom)
    }

    func svg() -> String {
        let label = escapeMarkup(title)
        var body = "<svg class=\"plot\" role=\"img\" aria-label=\"\(label)\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\"><title>\(label)</title>"
        body += bandsMarkup() + axesMarkup() + referencesMarkup()
        if let baseline { body += baseline.lines.map { seriesPath($0, times: baseline.times, baseline: true) }.joined() }
        body += lines.map { seriesPath($0, times: times, baseline: false) }.joined() + tooltips() + "</svg>"
        return "<figure><figcaption>\(label)</figcaption>\(body)\(legend())</figure>"
    }

    /// Gridlines and tick labels (y in the values' unit, x in seconds), the gridlines and tick marks one path each.
    func axesMarkup() -> String {
        let bottomY = n(Self.height - Self.bottom), leftX = n(Self.left), rightX = n(Self.width - Self.right)
        let yTicks = Self.ticks(range), xTicks = Self.ticks(0...end, target: 5)
        let grid = yTicks.map { "M\(leftX) \(n(y($0)))H\(rightX)" }.joined()
        let marks = xTicks.map { "M\(n(x($0))) \(bottomY)v3" }.joined()
        let yLabels = yTicks.map { "<text class=\"ytick\" x=\"\(n(Self.left - 4))\" y=\"\(n(y($0)))\">\(formatted($0, decimals: 2))\(escapeMarkup(unit))</text>" }
        let xLabels = xTicks.map { "<text class=\"xtick\" x=\"\(n(x($0)))\" y=\"\(n(Self.height - 6))\">\(formatted($0, decimals: 2)) s</text>" }
        return "<g class=\"axis\"><path class=\"grid\" d=\"\(grid)\"/><path class=\"frame\" d=\"M\(leftX) \(n(Self.top))V\(bottomY)H\(rightX)\(marks)\"/>"
            + yLabels.joined() + xLabels.joined() + "</g>"
    }

    /// Every declared reference line and gate bound within the range, with its class: `zero` (solid), `ref` (a
    /// declared threshold, dashed grey) or `gate` (a gate's bound, dashed red).
    var references: [(line: ReferenceLine, kind: String)] {
        var seen: Set<Double> = []
        let declared = (values.flatMap(\.references) + runReferences).map { ($0, $0.value == 0 ? "zero" : "ref") }
        return (gateReferences.map { ($0, "gate") } + declared).filter { range.contains($0.0.value) && seen.insert($0.0.value).inserted }
    }

    func referencesMarkup() -> String {
        references.map { line, kind in
            let at = n(y(line.value))
            return "<line class=\"\(kind)\" x1=\"\(n(Self.left))\" x2=\"\(n(Self.width - Self.right))\" y1=\"\(at)\" y2=\"\(at)\">"
                + "<title>\(escapeMarkup(line.label)): \(formatted(line.value))\(escapeMarkup(unit))</title></line>"
        }.joined()
    }

    /// Each interval shaded over the plot, and again in its condition's own lane along the top (overlapping bands
    /// stay apart there).
    func bandsMarkup() -> String {
        var markup = ""
        for (laneIndex, band) in bands.enumerated() {
            for interval in band.intervals where interval.count == 2 {
                let left = x(interval[0]), width = max(x(interval[1]) - left, 1)
                let tip = "<title>\(escapeMarkup(band.condition.label)) \(formatted(interval[0], decimals: 2))–\(formatted(interval[1], decimals: 2)) s</title>"
                markup += "<rect class=\"band\" x=\"\(n(left))\" y=\"\(n(Self.top))\" width=\"\(n(width))\" height=\"\(n(Self.height - Self.top - Self.bottom))\" "
                    + "fill=\"\(band.condition.color)\">\(tip)</rect>"
                    + "<rect class=\"lane\" x=\"\(n(left))\" y=\"\(n(Self.top + Double(laneIndex) * Self.lane))\" width=\"\(n(width))\" height=\"\(n(Self.lane))\" "
                    + "fill=\"\(band.condition.color)\">\(tip)</rect>"
            }
        }
        return markup
    }

    /// The indices drawn: every point up to `pointLimit`, else an even pick that keeps the last.
    static func picked(_ count: Int) -> [Int] {
        guard count > pointLimit else { return Array(0..<count) }
        let step = Double(count - 1) / Double(pointLimit - 1)
        return (0..<pointLimit).map { Int((Double($0) * step).rounded()) }
    }

    /// The series as one path in whole viewBox units, each point relative to the one before (`M46 80l4 -1 4 0`);
    /// a frame without a value breaks it, and a lone point is a dot.
    func seriesPath(_ line: Line, times: [Double], baseline: Bool) -> String {
        var segments: [[(x: Int, y: Int)]] = [[]]
        for index in Self.picked(min(times.count, line.points.count)) {
            guard let value = line.points[index] else {
                if !(segments.last?.isEmpty ?? true) { segments.append([]) }
                continue
            }
            segments[segments.count - 1].append((Int(x(times[index]).rounded()), Int(y(value).rounded())))
        }
        let path = segments.filter { !$0.isEmpty }.map { points in
            let steps = zip(points, points.dropFirst()).map { "\($1.x - $0.x) \($1.y - $0.y)" }
            return "M\(points[0].x) \(points[0].y)" + (steps.isEmpty ? "h1" : "l" + steps.joined(separator: " "))
        }.joined()
        let style = baseline ? " class=\"baseline\"" : ""
        return path.isEmpty ? "" : "<path\(style) stroke=\"\(line.value.color)\" d=\"\(path)\"/>"
    }

    /// A transparent stretch of the plot per drawn point (from halfway to the previous point to halfway to the
    /// next), titled with its time and every series' value; neighbours that read the same are one stretch.
    func tooltips() -> String {
        let indices = Self.picked(times.count)
        guard !indices.isEmpty else { return "" }
        var stretches: [(from: Double, to: Double, t0: Double, t1: Double, values: String)] = []
        for (position, index) in indices.enumerated() {
            let from = position == 0 ? 0 : (times[indices[position - 1]] + times[index]) / 2
            let to = position == indices.count - 1 ? end : (times[index] + times[indices[position + 1]]) / 2
            let values = lines.map { line in
                "\(line.value.label) " + (index < line.points.count ? line.points[index].map { formatted($0, decimals: line.value.decimals) + line.value.unit } ?? "–" : "–")
            }.joined(separator: " · ")
            if let last = stretches.last, last.values == values { stretches[stretches.count - 1].to = to; stretches[stretches.count - 1].t1 = times[index] }
            else { stretches.append((from, to, times[index], times[index], values)) }
        }
        // Their y and height are the page's CSS (`.tips rect`): the same for every plot.
        return "<g class=\"tips\">" + stretches.map { stretch in
            let when = stretch.t0 == stretch.t1 ? "t = \(formatted(stretch.t0, decimals: 2)) s"
                : "t = \(formatted(stretch.t0, decimals: 2))–\(formatted(stretch.t1, decimals: 2)) s"
            return "<rect x=\"\(n(x(stretch.from)))\" width=\"\(n(max(x(stretch.to) - x(stretch.from), 0.5)))\">"
                + "<title>\(when) · \(escapeMarkup(stretch.values))</title></rect>"
        }.joined() + "</g>"
    }

    /// Series, bands, reference lines and the baseline, each with its mark.
    func legend() -> String {
        var items = lines.map { "<span class=\"key\"><i class=\"line\" style=\"border-color:\($0.value.color)\"></i>\(escapeMarkup($0.value.label))</span>" }
        items += bands.map { "<span class=\"key\"><i class=\"box\" style=\"background:\($0.condition.color)\"></i>\(escapeMarkup($0.condition.label))</span>" }
        // A label that gives its value ("frontal ±12°", "gate sharpnessMean>=0.1") is shown once, as it is.
        var labels: Set<String> = []
        items += references.filter { labels.insert($0.line.label).inserted }.map { line, kind in
            let text = line.label.contains(where: \.isNumber) ? line.label : "\(line.label) \(formatted(line.value))\(unit)"
            return "<span class=\"key\"><i class=\"\(kind)\"></i>\(escapeMarkup(text))</span>"
        }
        if baseline != nil { items.append("<span class=\"key\"><i class=\"faint\"></i>baseline (faint, dashed)</span>") }
        return "<div class=\"legend\">\(items.joined())</div>"
    }

    /// 3–5 round ticks across `range` (steps of 1, 2, 2.5, 3 or 5 times a power of ten).
    static func ticks(_ range: ClosedRange<Double>, target: Int = 4) -> [Double] {
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else { return [range.lowerBound] }
        let raw = span / Double(target)
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1, 2, 2.5, 3, 5, 10].map { $0 * magnitude }.first { $0 >= raw * 0.999 } ?? 10 * magnitude
        let first = (range.lowerBound / step).rounded(.up) * step
        return stride(from: first, through: range.upperBound + step * 1e-6, by: step).map { abs($0) < step * 1e-6 ? 0 : $0 }
    }

    /// A coordinate in the SVG.
    func n(_ value: Double) -> String { formatted(value, decimals: 1) }
}
