/// GitHub Actions workflow commands: an `::error` line per failed gate and input (and per failed total gate), a
/// `::warning` per failed input, and a `::notice` with the verdict — escaped as GitHub documents (`%`, CR and LF
/// in messages; also `:` and `,` in properties). The exit code is the report's, unchanged.
enum GitHubRenderer {
    static func render(_ document: ReportDocument) -> String {
        var lines: [String] = []
        for input in document.inputs {
            if let error = input.error {
                lines.append("::warning title=\(property("frameprobe: input failed"))::\(message("\(input.source): \(error)"))")
            }
            for failed in input.failedGates(document.parts) {
                lines.append("::error title=\(property("frameprobe gate \(input.source)"))::\(message("\(input.source): \(failed)"))")
            }
        }
        for result in document.totalGates where !result.passed {
            lines.append("::error title=\(property("frameprobe gate total"))::\(message("total: \(result.gate) (\(result.outcome))"))")
        }
        if document.interrupted == true {
            lines.append("::error title=frameprobe report interrupted::\(message(ReportDocument.interruptionNote))")
        }
        lines.append("::notice title=frameprobe report::\(message(document.summary))")
        return lines.joined(separator: "\n") + "\n"
    }

    static func message(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func property(_ text: String) -> String {
        message(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
