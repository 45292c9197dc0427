/// One row per input, one column per field and one per gate (`gate faceFrameRatio>=0.9`: pass or fail), then a
/// `(total)` row with the totals' fields and the gates on them (RFC 4180: CRLF line ends, fields with a comma, quote or line break
/// quoted, quotes doubled), for spreadsheets. A field without a value is an empty cell. Text cells (source, error)
/// that a spreadsheet would run as a formula are neutralised (OWASP's CSV-injection advice); number cells are ours.
enum CSVRenderer {
    static func render(_ document: ReportDocument) -> String {
        var columns = document.parts.fieldNames.filter { name in document.inputs.contains { $0.fields[name] != nil } }
        if document.baseline != nil { columns += columns.map { Baseline.deltaPrefix + $0 } }
        let perInput = document.gates.filter { !$0.hasPrefix("total.") }, onTotals = document.totalGates.map(\.gate)
        let header = ["source", "error"] + columns + (perInput + onTotals).map { "gate " + $0 }
        func cells(_ fields: [String: Double]) -> [String] { columns.map { fields[$0].map { formatted($0, decimals: 6) } ?? "" } }
        func verdicts(_ results: [GateResult]) -> [String] { results.map { $0.passed ? "pass" : "fail" } }
        let rows = document.inputs.map { input in
            [neutralised(input.source), neutralised(input.error ?? "")] + cells(input.fields)
                + verdicts(input.gates) + Array(repeating: "", count: max(0, perInput.count - input.gates.count) + onTotals.count)
        }
        let totals = ["(total)", ""] + cells(document.total.fields) + Array(repeating: "", count: perInput.count) + verdicts(document.totalGates)
        // A report written on a signal says so in a last row (a CSV has no other place for it).
        let interruption = document.interrupted == true
            ? [["(interrupted)", "INTERRUPTED: " + ReportDocument.interruptionNote] + Array(repeating: "", count: header.count - 2)] : []
        return ([header] + rows + [totals] + interruption).map { $0.map(quoted).joined(separator: ",") + "\r\n" }.joined()
    }

    /// A leading `=`, `+`, `-`, `@`, tab or CR makes a spreadsheet read the cell as a formula: an apostrophe before
    /// it makes it text (and is not shown).
    static func neutralised(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
        return "'" + text
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { [",", "\"", "\r", "\n"].contains($0) }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
