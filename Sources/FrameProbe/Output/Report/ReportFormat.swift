import Foundation

/// The formats `frameprobe report` writes, and how each renders a report.
public enum ReportFormat: String, Sendable, CaseIterable {
    case json, junit, markdown, html

    public var fileExtension: String {
        switch self {
        case .json: "json"
        case .junit: "xml"
        case .markdown: "md"
        case .html: "html"
        }
    }

    public func render(_ document: ReportDocument) -> Data {
        switch self {
        case .json: document.json()
        case .junit: Data(JUnitRenderer.render(document).utf8)
        case .markdown: Data(MarkdownRenderer.render(document).utf8)
        case .html: Data(HTMLRenderer.render(document).utf8)
        }
    }
}

/// Escapes text for XML and HTML.
func escapeMarkup(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}

/// A number as reports show it.
func formatted(_ value: Double?, decimals: Int = 3) -> String {
    guard let value else { return "–" }
    return JSONValue.format(value, decimals: decimals)
}

extension InputReport {
    /// The gates this input failed, as "gate (value)".
    var failedGates: [String] { gates.filter { !$0.passed }.map { "\($0.gate) (got \(formatted($0.value)))" } }
}
