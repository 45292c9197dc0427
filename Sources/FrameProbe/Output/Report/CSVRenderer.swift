/// One row per input, one column per field (RFC 4180: CRLF line ends, fields with a comma, quote or line break
/// quoted, quotes doubled), for spreadsheets. A field without a value is an empty cell.
enum CSVRenderer {
    static func render(_ document: ReportDocument) -> String {
        var columns = InputReport.fieldNames.filter { name in document.inputs.contains { $0.fields[name] != nil } }
        if document.baseline != nil { columns += columns.map { Baseline.deltaPrefix + $0 } }
        let header = ["source", "error"] + columns
        let rows = document.inputs.map { input in
            let fields = input.fields
            return [input.source, input.error ?? ""] + columns.map { fields[$0].map { formatted($0, decimals: 6) } ?? "" }
        }
        return ([header] + rows).map { $0.map(quoted).joined(separator: ",") + "\r\n" }.joined()
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { [",", "\"", "\r", "\n"].contains($0) }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
