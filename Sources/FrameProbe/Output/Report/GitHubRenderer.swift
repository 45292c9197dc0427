/// GitHub Actions workflow commands, fitted to what a run shows: GitHub keeps at most 10 error (and 10 warning)
/// annotations per step, so the totals come first, then one `::error` per failed or unreadable input (failed inputs
/// first, its failed gates one per line), at most 10 in all, the last saying how many more the job summary has;
/// a `::warning` per input gone from the baseline; and a `::notice` with the verdict. Messages and properties are
/// escaped as GitHub documents (`%`, CR and LF; also `:` and `,` in properties). The exit code is the report's.
enum GitHubRenderer {
    /// Annotations of one kind GitHub shows per step.
    static let shownPerKind = 10

    static func render(_ document: ReportDocument) -> String {
        var errors: [String] = []
        let failedTotals = document.totalGates.filter { !$0.passed }
        if !failedTotals.isEmpty {
            errors.append(command("error", title: "frameprobe: total", failedTotals.map { "total: \($0.gate) (\($0.outcome))" }.joined(separator: "\n")))
        }
        if document.interrupted == true { errors.append(command("error", title: "frameprobe report interrupted", ReportDocument.interruptionNote)) }
        for input in document.inputsFailedFirst where input.failedSomething {
            let lines = (input.error.map { ["\(input.source): the input failed: \($0)"] } ?? [])
                + input.failedGates(document.parts).map { "\(input.source): \($0)" }
            errors.append(command("error", title: "frameprobe: \(input.source)", lines.joined(separator: "\n")))
        }
        let warnings = (document.baseline?.gone ?? []).map {
            command("warning", title: "frameprobe: \($0)", "\($0) is in the baseline but not in this report")
        }
        return (capped(errors, "error") + capped(warnings, "warning")
                + [command("notice", title: "frameprobe report", document.summary)]).joined(separator: "\n") + "\n"
    }

    /// The first `shownPerKind` annotations, or the first `shownPerKind − 1` and one saying how many more there are.
    static func capped(_ lines: [String], _ kind: String) -> [String] {
        guard lines.count > shownPerKind else { return lines }
        let more = lines.count - (shownPerKind - 1)
        return lines.prefix(shownPerKind - 1) + [command(kind, title: "frameprobe", "\(more) more: see the job summary")]
    }

    static func command(_ kind: String, title: String, _ text: String) -> String { "::\(kind) title=\(property(title))::\(message(text))" }

    static func message(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func property(_ text: String) -> String {
        message(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
