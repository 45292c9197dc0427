/// JUnit XML as CI servers read it: one testsuite, one testcase per input; a failed gate is a `<failure>`, a failed
/// input an `<error>`; gates on the totals form one more testcase.
enum JUnitRenderer {
    static func render(_ document: ReportDocument) -> String {
        var cases: [String] = []
        var failures = 0, errors = 0
        for input in document.inputs {
            var body = ""
            if let error = input.error {
                errors += 1
                body += "\n      <error message=\"\(escapeMarkup(error))\" type=\"input\"/>"
            }
            let failed = input.failedGates(document.parts)
            if !failed.isEmpty {
                failures += 1
                body += "\n      <failure message=\"\(escapeMarkup("gates failed: " + failed.joined(separator: "; ")))\" type=\"gate\">"
                    + escapeMarkup(failed.joined(separator: "\n")) + "</failure>"
            }
            let fields = input.fields
            let summary = (document.parts.types.flatMap { $0.headlines }.map { "\($0.field) \(formatted(fields[$0.field]))" } + ["frames \(input.framesAnalysed)"])
                .joined(separator: ", ")
            body += "\n      <system-out>\(escapeMarkup(summary))</system-out>"
            cases.append("    <testcase classname=\"frameprobe.report\" name=\"\(escapeMarkup(input.source))\" time=\"\(formatted(input.elapsedSeconds ?? 0))\">\(body)\n    </testcase>")
        }
        if !document.totalGates.isEmpty {
            let failed = document.totalGates.filter { !$0.passed }.map { "\($0.gate) (\($0.outcome))" }
            var body = ""
            if !failed.isEmpty {
                failures += 1
                body = "\n      <failure message=\"\(escapeMarkup("gates failed: " + failed.joined(separator: "; ")))\" type=\"gate\"/>\n    "
            }
            cases.append("    <testcase classname=\"frameprobe.report\" name=\"total\" time=\"0\">\(body)</testcase>")
        }
        if document.interrupted == true {
            errors += 1
            cases.append("    <testcase classname=\"frameprobe.report\" name=\"run\" time=\"0\">\n      <error message=\"interrupted: \(escapeMarkup(ReportDocument.interruptionNote))\" type=\"interrupted\"/>\n    </testcase>")
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="frameprobe" tests="\(cases.count)" failures="\(failures)" errors="\(errors)">
              <testsuite name="frameprobe report" tests="\(cases.count)" failures="\(failures)" errors="\(errors)" skipped="0">
            \(cases.joined(separator: "\n"))
              </testsuite>
            </testsuites>

            """
    }
}
