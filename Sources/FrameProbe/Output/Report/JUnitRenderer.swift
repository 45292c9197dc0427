/// JUnit XML as CI servers read it (the Ant/Jenkins shape, `Tests/FrameProbeTests/Schemas/junit.xsd`): one
/// testsuite with the gates and the baseline as `<properties>`; per input a testcase `input` (its `<error>` when it
/// could not be read, its numbers as `<system-out>`) and a testcase per gate (`classname` the input, `name` the
/// gate, a `<failure>` when it failed), so trend views follow each gate; a testcase per gate on the totals.
enum JUnitRenderer {
    static func render(_ document: ReportDocument) -> String {
        var cases: [String] = []
        var failures = 0, errors = 0
        for input in document.inputs {
            let fields = input.fields
            let summary = (document.parts.types.flatMap { $0.headlines }.map { "\($0.field) \(formatted(fields[$0.field]))" } + ["frames \(input.framesAnalysed)"])
                .joined(separator: ", ")
            var body = ""
            if let error = input.error {
                errors += 1
                body += "\n      <error message=\"\(escapeMarkup(error))\" type=\"input\"/>"
            }
            body += "\n      <system-out>\(escapeMarkup(summary))</system-out>\n    "
            cases.append(testcase(input.source, "input", time: input.elapsedSeconds ?? 0, body))
            let failedLines = input.failedGates(document.parts)
            var failedIndex = 0
            for result in input.gates {
                guard !result.passed else { cases.append(testcase(input.source, result.gate, "")); continue }
                failures += 1
                let text = failedLines.indices.contains(failedIndex) ? failedLines[failedIndex] : result.outcome
                failedIndex += 1
                cases.append(testcase(input.source, result.gate, failure(result.outcome, text)))
            }
        }
        for result in document.totalGates {
            if !result.passed { failures += 1 }
            cases.append(testcase("total", result.gate, result.passed ? "" : failure(result.outcome, "total: \(result.gate) (\(result.outcome))")))
        }
        if document.interrupted == true {
            errors += 1
            cases.append(testcase("run", "interrupted", "\n      <error message=\"interrupted: \(escapeMarkup(ReportDocument.interruptionNote))\" type=\"interrupted\"/>\n    "))
        }
        let properties = document.gates.map { property("gate", $0) }
            + (document.baseline.map { [property("baseline", $0.path), property("baselineNewInputs", $0.newInputsPass ? "pass" : "fail")] } ?? [])
        let time = formatted(document.inputs.reduce(0) { $0 + ($1.elapsedSeconds ?? 0) })
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="frameprobe" tests="\(cases.count)" failures="\(failures)" errors="\(errors)" time="\(time)">
              <testsuite name="frameprobe report" tests="\(cases.count)" failures="\(failures)" errors="\(errors)" skipped="0" time="\(time)">
            \(properties.isEmpty ? "" : "    <properties>\n" + properties.joined(separator: "\n") + "\n    </properties>\n")\(cases.joined(separator: "\n"))
              </testsuite>
            </testsuites>

            """
    }

    static func testcase(_ classname: String, _ name: String, time: Double = 0, _ body: String) -> String {
        "    <testcase classname=\"\(escapeMarkup(classname))\" name=\"\(escapeMarkup(name))\" time=\"\(formatted(time))\">\(body)</testcase>"
    }

    static func failure(_ message: String, _ text: String) -> String {
        "\n      <failure message=\"\(escapeMarkup(message))\" type=\"gate\">\(escapeMarkup(text))</failure>\n    "
    }

    static func property(_ name: String, _ value: String) -> String {
        "      <property name=\"\(escapeMarkup(name))\" value=\"\(escapeMarkup(value))\"/>"
    }
}
