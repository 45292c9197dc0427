import Foundation

/// The formats `frameprobe report` writes, and how each renders a report.
public enum ReportFormat: String, Sendable, CaseIterable {
    case json, junit, markdown, html, csv, github

    public var fileExtension: String {
        switch self {
        case .json: "json"
        case .junit: "xml"
        case .markdown: "md"
        case .html: "html"
        case .csv: "csv"
        case .github: "github.txt"
        }
    }

    public func render(_ document: ReportDocument) throws(FrameProbeError) -> Data {
        switch self {
        case .json: try document.json()
        case .junit: Data(JUnitRenderer.render(document).utf8)
        case .markdown: Data(MarkdownRenderer.render(document).utf8)
        case .html: Data(HTMLRenderer.render(document).utf8)
        case .csv: Data(CSVRenderer.render(document).utf8)
        case .github: Data(GitHubRenderer.render(document).utf8)
        }
    }
}

/// Escapes text for XML and HTML (element content and quoted attributes); control characters, which XML 1.0
/// cannot carry, become U+FFFD.
func escapeMarkup(_ text: String) -> String {
    let printable = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
        scalar.value < 0x20 && !["\t", "\n", "\r"].contains(scalar) ? "\u{FFFD}" : scalar
    }))
    return printable.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        .replacingOccurrences(of: "'", with: "&#39;")
}

/// Escapes text for a Markdown table cell: markup characters lose their meaning, HTML is shown as text, and a
/// line break cannot end the row.
func escapeMarkdown(_ text: String) -> String {
    var escaped = ""
    for character in text {
        switch character {
        case "\\", "|", "*", "_", "`", "[", "]", "#", "~", "!": escaped += "\\\(character)"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "&": escaped += "&amp;"
        case "\n", "\r": escaped += " "
        default: escaped.append(character)
        }
    }
    return escaped
}

/// A thumbnail is shown only when it is what frameprobe writes: a base64 JPEG data URL (anything else in a merged
/// report is dropped, never written into the page).
func isJPEGDataURL(_ text: String) -> Bool {
    let prefix = "data:image/jpeg;base64,"
    guard text.hasPrefix(prefix), let bytes = Data(base64Encoded: String(text.dropFirst(prefix.count))) else { return false }
    return bytes.count > 3 && bytes.prefix(3) == Data([0xFF, 0xD8, 0xFF])
}

/// A number as reports show it.
func formatted(_ value: Double?, decimals: Int = 3) -> String {
    guard let value else { return "–" }
    return JSONValue.format(value, decimals: decimals)
}

extension InputReport {
    /// The gates this input failed, as "gate (value)" — and, for a gate on intervals, when they were.
    var failedGates: [String] {
        gates.filter { !$0.passed }.map { result in
            let when = result.field.flatMap(IntervalCondition.of(field:)).flatMap(intervalLine).map { ": \($0)" } ?? ""
            return "\(result.gate) (\(result.outcome))\(when)"
        }
    }

    /// Every condition's intervals, "too dark 1.00–3.03 s; no face 1.00–2.53 s", or nil when none held.
    var intervalSummary: String? {
        let lines = IntervalCondition.allCases.compactMap(intervalLine)
        return lines.isEmpty ? nil : lines.joined(separator: "; ")
    }
}
