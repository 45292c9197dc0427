import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import FrameProbe

/// The reports as CI readers meet them, on the two real clips of `ReportGoldenTests` (a talking head; a clip
/// darkened, blurred and faceless at known times) with failing gates, face image quality and a `--baseline` (the
/// report 3254de9 wrote of the same clips): the HTML page in headless Chromium at a wide screen's 1400 px and a
/// phone's 420 px, its size at 60 and 1,000 inputs, GitHub's annotations and JUnit against its schema.
@Suite(.needsTestData, .serialized)
struct ReportPageTests {
    static let gates = ["faceFrameRatio>=0.9", "sharpnessMean>=0.1", "faceImageQualityMin>=30", "total.blurredRatio<=0.05"]

    static let report: (prefix: String, result: Shell.Result) = {
        let prefix = Fixtures.temporaryDirectory().appendingPathComponent("page").path
        let baseline = ReportGoldenTests.golden.appendingPathComponent("baseline-3254de9.json").path
        let result = Shell.run("cd \(Shell.quote(ReportGoldenTests.clips.path)) && $FP report talking.mp4 edited.mp4 -f json,junit,html,github "
                               + "--face-image-quality -o \(Shell.quote(prefix)) -j 2 --baseline \(Shell.quote(baseline)) "
                               + gates.map { "--gate \(Shell.quote($0))" }.joined(separator: " "))
        return (prefix, result)
    }()

    /// What a script in the page measured in Chromium at `width` px: the elements wider than their card, and per
    /// plot its y and x tick texts, its threshold lines and its baseline series.
    struct Layout: Decodable {
        let width: Int
        let overflow: [String]
        let plots: [Plot]

        struct Plot: Decodable {
            let label: String
            let yTicks: [String]
            let xTicks: [String]
            let references: Int
            let baseline: Int
        }
    }

    static let probe = """
        <script>
        document.querySelectorAll('details').forEach(d => d.open = true);
        const overflow = [];
        for (const card of document.querySelectorAll('.card, .overview')) {
          const box = card.getBoundingClientRect();
          if (card.scrollWidth > card.clientWidth + 1) overflow.push('scroll ' + (card.id || card.className));
          for (const el of card.querySelectorAll('*')) {
            const r = el.getBoundingClientRect();
            if (r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1)) overflow.push(el.tagName + ' in ' + (card.id || card.className));
          }
        }
        if (document.documentElement.scrollWidth > window.innerWidth) overflow.push('page ' + document.documentElement.scrollWidth);
        const plots = [...document.querySelectorAll('svg.plot')].map(svg => ({
          label: svg.getAttribute('aria-label'),
          yTicks: [...svg.querySelectorAll('text.ytick')].map(t => t.textContent),
          xTicks: [...svg.querySelectorAll('text.xtick')].map(t => t.textContent),
          references: svg.querySelectorAll('line.ref, line.gate, line.zero').length,
          baseline: svg.querySelectorAll('path.baseline').length }));
        const out = document.createElement('pre');
        out.id = 'layout';
        out.textContent = JSON.stringify({ width: window.innerWidth, overflow: overflow.slice(0, 20), plots });
        document.body.appendChild(out);
        </script>
        """

    /// The page in an iframe `width` px wide (headless Chromium's window is at least 500 px wide), the probe run
    /// inside it and its result copied out to the page Chromium dumps.
    static func layout(at width: Int) throws -> Layout {
        let page = try String(contentsOfFile: report.prefix + ".html", encoding: .utf8)
        let folder = Fixtures.temporaryDirectory()
        try Data(page.replacingOccurrences(of: "</body>", with: probe + "</body>").utf8).write(to: folder.appendingPathComponent("probed.html"))
        let frame = """
            <html><body><iframe id="page" src="probed.html" style="width:\(width)px;height:1000px;border:0"></iframe><script>
            window.addEventListener('load', () => {
              const out = document.createElement('pre');
              out.id = 'layout';
              out.textContent = document.getElementById('page').contentDocument.getElementById('layout').textContent;
              document.body.appendChild(out);
            });
            </script></body></html>
            """
        try Data(frame.utf8).write(to: folder.appendingPathComponent("frame.html"))
        let browser = "chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --allow-file-access-from-files"
        let dom = Shell.run("\(browser) --window-size=\(width + 100),1100 --dump-dom \(Shell.quote("file://" + folder.appendingPathComponent("frame.html").path)) 2>/dev/null")
        let json = try #require(dom.stdout.range(of: "<pre id=\"layout\">").flatMap { start in
            dom.stdout.range(of: "</pre>", range: start.upperBound..<dom.stdout.endIndex).map { String(dom.stdout[start.upperBound..<$0.lowerBound]) }
        }, "the probe ran: \(dom.status) \(dom.stdout.prefix(300))")
        let text = json.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Layout.self, from: Data(text.utf8))
    }

    @Test(arguments: [1400, 420]) func thePageFitsAndEveryPlotHasAxesThresholdsAndTheBaseline(width: Int) throws {
        #expect(Self.report.result.status == 3, "the gates fail: \(Self.report.result.stderr)")
        let layout = try Self.layout(at: width)
        #expect(layout.width == width)
        #expect(layout.overflow.isEmpty, "wider than their card at \(width) px: \(layout.overflow)")
        // Both clips have the quality, face and head-angle plots, and face image quality was measured on both.
        #expect(layout.plots.count == 8, "\(layout.plots.map(\.label))")
        for plot in layout.plots {
            #expect((3...5).contains(plot.yTicks.count), "\(plot.label): y ticks \(plot.yTicks)")
            #expect(plot.xTicks.first == "0 s" && plot.xTicks.count >= 3 && plot.xTicks.allSatisfy { $0.hasSuffix(" s") }, "\(plot.label): \(plot.xTicks)")
            // Declared thresholds, the 0° line, and the gate bounds (faceFrameRatio>=0.9 on face presence, its mean).
            #expect(plot.references >= 1, "\(plot.label) has a threshold, gate or 0 line")
            #expect(plot.baseline >= 1, "\(plot.label) shows the baseline's series")
        }
        let angles = try #require(layout.plots.first { $0.label == "head angles (°)" })
        #expect(angles.yTicks == ["-60°", "-30°", "0°", "30°", "60°"])
    }

    /// What the page says beyond its plots: the overview's gate columns linking to the cards, the gate bounds and
    /// the threshold drawn, tooltips with time and value, named angles, the lowest face image quality components.
    @Test func thePageNamesWhatItDraws() throws {
        let page = try String(contentsOfFile: Self.report.prefix + ".html", encoding: .utf8)
        let document = try ReportDocument.read(Self.report.prefix + ".json")
        #expect(page.contains("<meta name=\"viewport\""))
        for input in document.inputs { #expect(page.contains("<a href=\"#input-\(input.index)\">") && page.contains("id=\"input-\(input.index)\"")) }
        #expect(page.contains("<code>faceFrameRatio&gt;=0.9</code> — failed on 1 of 2 inputs"))
        #expect(page.contains("<title>gate sharpnessMean&gt;=0.1: 0.1</title>"))
        #expect(page.contains("<title>gate faceFrameRatio&gt;=0.9: 0.9</title>"))
        #expect(page.contains("<title>--fiq-threshold: 50</title>"))
        #expect(page.range(of: #"<title>t = \d+\.?\d* s · darkness [0-9.]+ · lightness [0-9.]+ · sharpness [0-9.]+</title>"#, options: .regularExpression) != nil)
        #expect(page.contains("pitch (X)") && page.contains("yaw (Y)") && page.contains("roll (Z)"))
        let talking = try #require(document.inputs.first { $0.source == "talking.mp4" })
        let lowest = try #require(talking[FaceImageQualityReport.self]?.lowestComponents(by: \.min).first)
        let gate = try #require(talking.gates.first { $0.gate == "faceImageQualityMin>=30" })
        #expect(gate.note?.hasPrefix("lowest: \(lowest.name) \(formatted(lowest.stats.min, decimals: 1))") == true, "\(gate)")
        #expect(page.contains(escapeMarkup(gate.outcome)))
    }

    /// Inputs made from the two real ones, `count` in all, half of them failing a gate.
    static func many(_ count: Int) throws -> ReportDocument {
        let real = try ReportDocument.read(report.prefix + ".json").inputs
        let inputs = (0..<count).map { index in
            var input = real[index % real.count]
            input.index = index
            input.source = "clip\(index)-\(input.source)"
            return input
        }
        return ReportDocument(inputs: inputs, gates: try gates.map { try Gate(parsing: $0) })
    }

    /// A thousand inputs make a page under 3 MB (the size is printed for the README and the note).
    @Test func aThousandInputsStayUnderThreeMegabytes() throws {
        for count in [60, 1000] {
            let page = try ReportFormat.html.render(try Self.many(count))
            print("report page: \(count) inputs, \(page.count) bytes")
            #expect(page.count < 3_000_000, "\(count) inputs: \(page.count) bytes")
            #expect(String(decoding: page, as: UTF8.self).components(separatedBy: "class=\"card\"").count - 1 == count, "a card per input")
        }
    }

    /// GitHub: the totals first, one error per failed input with its gates on separate lines, at most ten errors
    /// (the last one saying how many more), gone inputs as warnings, every line a well-formed workflow command.
    @Test func githubKeepsWithinItsTenAnnotations() throws {
        var document = try Self.many(14)
        let gone = Baseline(path: "old.json", document: try Self.many(16), newInputsPass: false)
        document = ReportDocument(inputs: document.inputs, gates: try Self.gates.map { try Gate(parsing: $0) }, baseline: gone)
        let lines = String(decoding: try ReportFormat.github.render(document), as: UTF8.self).split(separator: "\n").map(String.init)
        let command = #"^::(error|warning|notice) title=[^:,\r\n]*::[^\r\n]*$"#
        for line in lines { #expect(line.range(of: command, options: .regularExpression) != nil, "not a workflow command: \(line)") }
        let errors = lines.filter { $0.hasPrefix("::error") }, warnings = lines.filter { $0.hasPrefix("::warning") }
        #expect(errors.count == 10)
        #expect(errors.first?.contains("::total: total.blurredRatio<=0.05 (got 1") == true)
        #expect(errors.last?.hasSuffix("::6 more: see the job summary") == true, "14 inputs and the total: 9 shown, 6 more")
        #expect(errors[1].contains("%0A"), "one error per input, its failed gates one per line: \(errors[1])")
        #expect(warnings.count == 2 && warnings.allSatisfy { $0.contains("is in the baseline but not in this report") })
        #expect(lines.last?.hasPrefix("::notice title=frameprobe report::14 inputs, gates FAILED") == true)
    }

    /// JUnit: valid against the Ant/Jenkins schema, a testcase per input and gate, the gates and baseline as
    /// properties, never an error and a failure in one testcase.
    @Test func junitIsValidAndHasATestcasePerGate() throws {
        let path = Self.report.prefix + ".xml"
        let schema = Fixtures.packageRoot.appendingPathComponent("Tests/FrameProbeTests/Schemas/junit.xsd").path
        let check = Shell.run("xmllint --noout --schema \(Shell.quote(schema)) \(Shell.quote(path))")
        #expect(check.status == 0, "\(check.stderr)")
        let xml = try XMLDocument(contentsOf: URL(fileURLWithPath: path))
        let suite = try #require(xml.rootElement()?.elements(forName: "testsuite").first)
        let properties = suite.elements(forName: "properties").first?.elements(forName: "property") ?? []
        #expect(properties.filter { $0.attribute(forName: "name")?.stringValue == "gate" }.compactMap { $0.attribute(forName: "value")?.stringValue } == Self.gates)
        #expect(properties.contains { $0.attribute(forName: "name")?.stringValue == "baseline" })
        let cases = suite.elements(forName: "testcase")
        // Per input: its own testcase and one per input gate; one for the total gate.
        #expect(cases.count == 9)
        let edited: [String] = cases.filter { $0.attribute(forName: "classname")?.stringValue == "edited.mp4" }.compactMap { $0.attribute(forName: "name")?.stringValue }
        let expected: [String] = ["input"] + Self.gates.dropLast()
        #expect(edited == expected)
        for testcase in cases { #expect(testcase.elements(forName: "error").isEmpty || testcase.elements(forName: "failure").isEmpty) }
        let failed = cases.filter { !$0.elements(forName: "failure").isEmpty }
        #expect(Int(suite.attribute(forName: "failures")?.stringValue ?? "") == failed.count)
        #expect(failed.allSatisfy { !($0.elements(forName: "failure").first?.stringValue ?? "").isEmpty }, "every failure has its text")
    }
}
