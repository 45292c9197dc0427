import Foundation

/// The formats `frameprobe report` writes, and how each renders a report.
public enum ReportFormat: String, Sendable, CaseIterable {
    case json, junit, markdown, html, csv, github

    /// The format a name gives: its own name, or its file extension (`md`, `xml`, `github.txt`).
    public init?(named name: String) {
        guard let format = Self(rawValue: name) ?? Self.allCases.first(where: { $0.fileExtension == name }) else { return nil }
        self = format
    }

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

/// "1 input", "2 inputs".
func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

/// A ratio as reports show it: "51 %", "77.9 %"; "–" without a value.
func percent(_ value: Double?) -> String {
    guard let value else { return "–" }
    return "\(formatted(value * 100, decimals: 1)) %"
}

/// How reports write numbers and text, for the cells and rows a report part renders (a library user's too).
public enum ReportText {
    /// A number with at most `decimals` decimals ("0.063"); "–" without a value.
    public static func number(_ value: Double?, decimals: Int = 3) -> String { formatted(value, decimals: decimals) }
    /// A ratio in percent ("77.9 %"); "–" without a value.
    public static func percent(_ value: Double?) -> String { FrameProbe.percent(value) }
    /// Text for a Markdown table cell.
    public static func markdown(_ text: String) -> String { escapeMarkdown(text) }
    /// Text for HTML.
    public static func markup(_ text: String) -> String { escapeMarkup(text) }
}
