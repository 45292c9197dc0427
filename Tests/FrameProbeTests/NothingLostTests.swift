import Foundation
import Testing
@testable import FrameProbe

/// "Nothing lost, part 2": what a hostile or careless command line did to a run, each reproduced end to end on the
/// built executable and the generated footage.
struct NothingLostTests {
    /// A fresh folder with a copy of the generated clip, removed when the test ends.
    final class Folder {
        let url = Fixtures.temporaryDirectory()
        var path: String { url.path }
        func file(_ name: String) -> String { url.appendingPathComponent(name).path }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// A progress line on a stderr that fails (full, closed, a reader that left) stops being drawn; the run goes on
    /// and ends as it would have: every event written, exit 0; `acquire` still writes its clip.
    @Test(arguments: ["2>/dev/full", "2>&-", "2>&1 | head -c 1 >/dev/null"])
    func aFailingStderrNeverEndsTheRun(redirect: String) throws {
        let folder = Folder()
        let clip = Fixtures.path("clean.mp4"), events = folder.file("events.jsonl")
        let analyze = Shell.run("\"$FP\" analyze --progress always -o \(Shell.quote(events)) \(Shell.quote(clip)) \(redirect); echo \"exit ${PIPESTATUS[0]}\"")
        #expect(analyze.stdout.hasSuffix("exit 0\n"), "\(analyze.stdout) \(analyze.stderr)")
        #expect(Self.lines(events).count == 1 + 92 && Self.lines(events).last?.contains("\"inputClosed\"") == true)

        let report = Shell.run("\"$FP\" report --progress always -f json -o \(Shell.quote(folder.file("r"))) \(Shell.quote(clip)) \(redirect); echo \"exit ${PIPESTATUS[0]}\"")
        #expect(report.stdout.hasSuffix("exit 0\n"), "\(report.stdout) \(report.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("r.json")))

        let acquire = Shell.run("\"$FP\" acquire --progress always --output-dir \(Shell.quote(folder.file("clips"))) -o \(Shell.quote(folder.file("acquire.jsonl"))) \(Shell.quote(Fixtures.path("approach-720p.mp4"))) \(redirect); echo \"exit ${PIPESTATUS[0]}\"")
        #expect(acquire.stdout.hasSuffix("exit 0\n"), "\(acquire.stdout) \(acquire.stderr)")
        let ended = Self.lines(folder.file("acquire.jsonl")).first { $0.contains("\"videoRecordEnded\"") } ?? ""
        let clipPath = try #require(((try? JSONSerialization.jsonObject(with: Data(ended.utf8))) as? [String: Any])?["videoFilePath"] as? String, "\(ended)")
        #expect(((try? FileManager.default.attributesOfItem(atPath: clipPath)[.size] as? Int) ?? 0) > 10_000)
    }

    /// Whole numbers past what any setting takes are out of range, from the command line and from a config file.
    @Test func hugeNumbersAreRefusedWhicheverWayTheyArrive() throws {
        let folder = Folder()
        let clip = Fixtures.path("clean.mp4")
        for arguments in [["--detect-every", "9223372036854775807"], ["--detect-every", "1000001"], ["--sample-every", "-9223372036854775808"],
                          ["--jobs", "100000"], ["--number-of-images", "99999999999"]] {
            let result = Shell.frameprobe(["analyze"] + arguments + [clip])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.events(named: "error").first?.string("key")?.hasPrefix("INVALID_") == true, "\(arguments): \(result.stdout)")
        }
        let config = folder.file("c.json")
        try Data(#"{"detectEvery": 1e300}"#.utf8).write(to: URL(fileURLWithPath: config))
        let result = Shell.frameprobe(["analyze", "--config", config, clip])
        #expect(result.status == 2 && result.events(named: "error").first?.string("key") == "INVALID_DETECT_EVERY", "\(result.stdout)")
    }

    /// A key given twice (the same object, or dotted and nested), a list or an empty object where one value
    /// belongs: each an error naming the key, every time (these used to change from run to run or pass silently).
    @Test(arguments: [
        (#"{"roi.top": 0.1, "roi": {"top": 5}}"#, "INVALID_CONFIG", "'roi.top'"),
        (#"{"sampleEvery": 2, "sampleEvery": 0}"#, "INVALID_CONFIG", "'sampleEvery'"),
        (#"{"roi": {"top": 0.1, "top": 0.2}}"#, "INVALID_CONFIG", "'roi.top'"),
        (#"{"sampleEvery": [2]}"#, "INVALID_SAMPLE_EVERY", "[2]"),
        (#"{"sampleEvery": {}}"#, "INVALID_CONFIG", "'sampleEvery'"),
    ])
    func configConflictsDuplicatesAndWrongTypesAreErrors(json: String, key: String, named: String) throws {
        let folder = Folder()
        let config = folder.file("c.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: config))
        for _ in 0..<3 {
            let result = Shell.frameprobe(["analyze", "--config", config, Fixtures.path("clean.mp4")])
            let error = result.events(named: "error").first
            #expect(result.status == 2 && error?.string("key") == key, "\(json): \(result.stdout)")
            #expect(error?.string("message")?.contains(named) == true, "\(json): \(error?.string("message") ?? "")")
        }
    }

    /// A file the run reads is never its output, even with -y: the config, the strings, the baseline.
    @Test func sideFilesAreNeverOutputs() throws {
        let folder = Folder()
        let clip = Fixtures.path("clean.mp4")
        let config = folder.file("c.json"), strings = folder.file("s.strings"), baseline = folder.file("b.json")
        try Data(#"{"sampleEvery": 2}"#.utf8).write(to: URL(fileURLWithPath: config))
        try Data(#""TOO_FAR" = "Plus près";"#.utf8).write(to: URL(fileURLWithPath: strings))
        #expect(Shell.frameprobe(["report", "-f", "json", "-o", folder.file("b"), clip]).status == 0)
        let before = try [config, strings, baseline].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let runs: [[String]] = [
            ["analyze", "-y", "--config", config, "-o", config, clip],
            ["acquire", "-y", "--strings", strings, "-o", strings, "--output-dir", folder.file("clips"), clip],
            ["report", "-y", "--baseline", baseline, "-o", folder.file("b"), clip],
        ]
        for arguments in runs {
            let result = Shell.frameprobe(arguments)
            #expect(result.status == 2 && result.events(named: "error").first?.string("key") == "INVALID_OUTPUT", "\(arguments): \(result.stdout) \(result.stderr)")
        }
        #expect(try [config, strings, baseline].map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
    }

    /// Sources that a spreadsheet would run as formulas land in the CSV as text (OWASP: a leading apostrophe).
    @Test func csvCellsNeverStartAFormula() throws {
        let folder = Folder()
        let names = ["=1+2.mp4", "@SUM(1+1)*cmd.mp4", "+3.mp4", "-4.mp4", "=HYPERLINK(\"http:x\").mp4", "plain.mp4"]
        for name in names { #expect(Shell.run("cp \(Shell.quote(Fixtures.path("clean.mp4"))) \(Shell.quote(folder.file(name)))").status == 0) }
        let quotedNames = names.map(Shell.quote).joined(separator: " ")
        let result = Shell.run("cd \(Shell.quote(folder.path)) && \"$FP\" report -f csv -o out -- \(quotedNames)")
        #expect(result.status == 0, "\(result.stderr)")
        let cells = Shell.run("python3 -c 'import csv,sys; [print(row[0]) for row in list(csv.reader(open(sys.argv[1], newline=\"\")))[1:]]' \(Shell.quote(folder.file("out.csv")))")
        let sources = cells.stdout.split(separator: "\n").map(String.init)
        #expect(sources.last == "(total)")
        #expect(Set(sources.dropLast()) == Set(names.map { $0 == "plain.mp4" ? $0 : "'" + $0 }), "\(sources)")
    }

    /// recordingDurationMs is checked after rounding: 0.4 would record nothing.
    @Test func aDurationThatRoundsToZeroIsRefused() throws {
        let folder = Folder()
        let session = folder.file("session.json")
        try Data(#"{"recordingConfig": {"recordingDurationMs": 0.4}}"#.utf8).write(to: URL(fileURLWithPath: session))
        let result = Shell.frameprobe(["acquire", "--session-config", session, "--output-dir", folder.path, Fixtures.path("approach-720p.mp4")])
        #expect(result.status == 2 && result.events(named: "error").first?.string("key") == "INVALID_SESSION_CONFIG", "\(result.stdout)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".mp4") } == [])
    }

    /// Empty lists and names given twice are errors, not silently nothing (or everything twice).
    @Test(arguments: [(["analyze", "--stages", ""], "INVALID_STAGES"), (["analyze", "--frame-quality", "--stages", ""], "INVALID_STAGES"),
                      (["analyze", "--stages", "quality,quality"], "INVALID_STAGES"), (["analyze", "--stages", "quality,,capture"], "INVALID_STAGES"),
                      (["report", "--gate", ""], "INVALID_GATE"), (["report", "--gate", "  "], "INVALID_GATE")])
    func emptyAndRepeatedListsAreErrors(arguments: [String], key: String) {
        let folder = Folder()  // where a report would go, were it not refused
        let result = Shell.run("cd \(Shell.quote(folder.path)) && \"$FP\" \((arguments + [Fixtures.path("clean.mp4")]).map(Shell.quote).joined(separator: " "))")
        #expect(result.status == 2 && result.events(named: "error").first?.string("key") == key, "\(arguments): \(result.stdout)")
    }

    /// `-o -` is standard output for every command, never a file named "-".
    @Test func dashIsStandardOutputEverywhere() throws {
        let folder = Folder()
        let analyze = Shell.run("cd \(Shell.quote(folder.path)) && \"$FP\" analyze -o - \(Shell.quote(Fixtures.path("clean.mp4")))")
        #expect(analyze.status == 0 && analyze.events(named: "inputClosed").count == 1)
        let acquire = Shell.run("cd \(Shell.quote(folder.path)) && \"$FP\" acquire -o - --output-dir clips \(Shell.quote(Fixtures.path("approach-720p.mp4")))")
        #expect(acquire.status == 0 && acquire.events(named: "videoRecordEnded").count == 1, "\(acquire.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("-")))
    }

    /// A walk stays in the folder it was given (a link to / used to walk the whole file system), unless
    /// --follow-links; the run's output folder is never walked, so a second run does not analyse the first one's
    /// captures (nor nest a folder deeper each time); an input inside the output folder is refused.
    @Test func aWalkStaysInItsFolderAndNeverWalksItsOutputFolder() throws {
        let folder = Folder()
        let made = Shell.run("""
            cd \(Shell.quote(folder.path)) && mkdir in outside linked && cp \(Shell.quote(Fixtures.path("clean.mp4"))) in/a.mp4 && \
            cp in/a.mp4 outside/b.mp4 && ln -s / in/root && ln -s ../outside in/out && ln -s a.mp4 in/alias.mp4 && ln -s ../outside linked/out
            """)
        #expect(made.status == 0, "\(made.stderr)")
        func run(_ arguments: String) -> Shell.Result { Shell.run("cd \(Shell.quote(folder.file("in"))) && \"$FP\" analyze \(arguments)") }
        func opened(_ result: Shell.Result) -> [String] { result.events(named: "inputOpened").compactMap { $0.string("source") } }

        let walked = run(".")
        #expect(walked.status == 0 && opened(walked) == ["./a.mp4", "./alias.mp4"], "\(opened(walked))")
        let skipped = Dictionary(uniqueKeysWithValues: walked.events(named: "skipped").compactMap { event in
            event.string("source").map { ($0, event.string("reason") ?? "") }
        })
        #expect(skipped["./root"]?.contains("out of the folder") == true && skipped["./out"]?.contains("--follow-links") == true, "\(skipped)")

        let followed = Shell.run("cd \(Shell.quote(folder.path)) && \"$FP\" analyze --follow-links linked")
        #expect(followed.status == 0 && opened(followed) == ["linked/out/b.mp4"], "\(opened(followed))")

        let first = run("--save-image-captured ."), second = run("-y --save-image-captured .")
        #expect(first.status == 0 && second.status == 0)
        #expect(opened(second) == ["./a.mp4", "./alias.mp4"], "\(opened(second))")
        #expect(second.events(named: "skipped").contains { $0.string("source") == "./frameprobe-output" })
        #expect(!FileManager.default.fileExists(atPath: folder.file("in/frameprobe-output/frameprobe-output")))

        let inside = run("-y --save-image-captured frameprobe-output/a.mp4/face-0001.jpg")
        #expect(inside.status == 2 && inside.events(named: "error").first?.string("key") == "INVALID_OUTPUT", "\(inside.stdout)")
    }

    /// Counts that would overflow a total, negative counts and numbers no report can write, read back from JSON
    /// Lines or merged reports: INVALID_REPORT naming the input and the field, never a trap or an empty report.
    @Test func numbersReadBackAreRangeChecked() throws {
        let folder = Folder()
        let clip = Fixtures.path("clean.mp4"), events = folder.file("events.jsonl")
        #expect(Shell.frameprobe(["analyze", "--frame-quality", "-o", events, clip]).status == 0)
        let lines = Self.lines(events)
        func variant(_ name: String, _ change: (String) -> String) throws -> String {
            let path = folder.file(name)
            try Data((lines.map(change).joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        func replacing(_ field: String, with value: String) -> (String) -> String {
            { line in line.replacingOccurrences(of: #""\#(field)":[-0-9.e+]+"#, with: "\"\(field)\":\(value)", options: .regularExpression) }
        }
        let huge = try variant("huge-1.jsonl", replacing("framesDecoded", with: "9223372036854775807"))
        let huge2 = try variant("huge-2.jsonl", replacing("framesDecoded", with: "9223372036854775807"))
        let negative = try variant("negative.jsonl", replacing("framesAnalysed", with: "-5"))
        let farPts = try variant("pts.jsonl", replacing("pts", with: "1.7e308"))
        let prefix = folder.file("r")
        let result = Shell.frameprobe(["report", "-f", "json", "-o", prefix, huge, huge2, negative, farPts])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try ReportDocument.read(prefix + ".json")
        let errors = report.inputs.map { $0.error ?? "" }
        #expect(errors == ["INVALID_REPORT: inputClosed.framesDecoded is out of range", "INVALID_REPORT: inputClosed.framesDecoded is out of range",
                           "INVALID_REPORT: inputClosed.framesAnalysed is out of range", "INVALID_REPORT: frameQuality.pts is out of range"], "\(errors)")
        #expect(report.total.failedInputs == 4 && report.total.framesDecoded >= 0)

        // A merged part: a count past the limit, then a mean JSON cannot hold once combined.
        let part = try String(contentsOfFile: prefix + ".json", encoding: .utf8)
        let good = folder.file("good.json")
        #expect(Shell.frameprobe(["report", "--frame-quality", "-f", "json", "-o", folder.file("good"), clip]).status == 0)
        let goodText = try String(contentsOfFile: good, encoding: .utf8)
        for (name, text) in [("count", goodText.replacingOccurrences(of: #""count" : \d+"#, with: "\"count\" : 9223372036854775807", options: .regularExpression)),
                             ("mean", goodText.replacingOccurrences(of: #""mean" : [0-9.e-]+"#, with: "\"mean\" : 1e308", options: .regularExpression)),
                             ("frames", part.replacingOccurrences(of: #""framesAnalysed" : \d+"#, with: "\"framesAnalysed\" : -3", options: .regularExpression))] {
            let bad = folder.file("bad-\(name).json")
            try Data(text.utf8).write(to: URL(fileURLWithPath: bad))
            let merged = Shell.frameprobe(["report", "--merge", "-f", "json", "-o", folder.file("merged-\(name)"), bad])
            #expect(merged.status == 2 && merged.stderr.contains("INVALID_REPORT") && merged.stderr.contains("out of range"), "\(name): \(merged.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("merged-\(name).json")))
        }
    }

    /// --jobs past any use starts no more workers than the machine can use: four per core, one per 256 MiB.
    @Test func jobsAreCappedByCoresAndMemory() throws {
        let runner = InputRunner(options: AnalysisOptions(), stages: [])
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(BatchRunner(runner: runner, jobs: 1024).jobs == BatchRunner.workerLimit)
        #expect(BatchRunner.workerLimit <= 4 * cores && BatchRunner.workerLimit >= 1)
        #expect(BatchRunner(runner: runner, jobs: 1).jobs == 1)
    }

    /// --baseline matches inputs by a key unique per input: two names that print alike (not UTF-8, differing only in
    /// their invalid bytes) each get their own deltas; two inputs with one name (`clip.mp4` from two folders) are an
    /// error, not a guess.
    @Test func baselinesMatchEachInputToItsOwn() throws {
        let folder = Folder()
        let made = Shell.run("""
            cd \(Shell.quote(folder.path)) && cp \(Shell.quote(Fixtures.path("clean.mp4"))) "$(printf 'clip\\377.mp4')" && \
            cp \(Shell.quote(Fixtures.path("dark.mp4"))) "$(printf 'clip\\376.mp4')" && mkdir a b && \
            cp \(Shell.quote(Fixtures.path("clean.mp4"))) a/clip.mp4 && cp \(Shell.quote(Fixtures.path("dark.mp4"))) b/clip.mp4
            """)
        #expect(made.status == 0, "\(made.stderr)")
        let report = "cd \(Shell.quote(folder.path)) && \"$FP\" report -y --frame-quality -f json"
        let first = Shell.run("\(report) -o old \"$(printf 'clip\\377.mp4')\" \"$(printf 'clip\\376.mp4')\"")
        #expect(first.status == 0, "\(first.stderr)")
        let again = Shell.run("\(report) -o new --baseline old.json \"$(printf 'clip\\377.mp4')\" \"$(printf 'clip\\376.mp4')\"")
        #expect(again.status == 0, "\(again.stderr)")
        let document = try ReportDocument.read(folder.file("new.json"))
        #expect(document.inputs.count == 2 && Set(document.inputs.map(\.source)).count == 1)
        // Each name opened its own file (the dark clip and the clean one), not the first of the two twice.
        #expect(Set(document.inputs.compactMap { $0.darkness?.mean }).count == 2, "\(document.inputs.map { $0.darkness?.mean ?? -1 })")
        for input in document.inputs {
            #expect(input.delta?["darknessMean"] == 0, "\(input.sourceBytes ?? input.source): \(input.delta ?? [:])")
        }

        let lines = Shell.run("""
            cd \(Shell.quote(folder.path))/a && "$FP" analyze --frame-quality -o ../a.jsonl clip.mp4 && \
            cd ../b && "$FP" analyze --frame-quality -o ../b.jsonl clip.mp4 && cd .. && \
            "$FP" report -f json -o base a.jsonl && "$FP" report -f json -o both --baseline base.json a.jsonl b.jsonl
            """)
        #expect(lines.status == 2 && lines.stderr.contains("INVALID_BASELINE") && lines.stderr.contains("two inputs named clip.mp4"), "\(lines.stderr)")
    }

    /// `report` reads JSON Lines line by line: a 120 MB file peaks far below its size (it used to be read whole:
    /// 177 MB for this one), and every line counts.
    @Test func jsonLinesAreStreamed() throws {
        let folder = Folder()
        let source = folder.file("src.jsonl"), big = folder.file("big.jsonl")
        #expect(Shell.frameprobe(["analyze", "--frame-quality", "-o", source, Fixtures.path("clean.mp4")]).status == 0)
        let measured = Shell.run("""
            python3 - \(Shell.quote(source)) \(Shell.quote(big)) "$FP" \(Shell.quote(folder.file("r"))) <<'EOF'
            import json, resource, subprocess, sys
            lines = open(sys.argv[1]).read().splitlines()
            repeats = 0
            with open(sys.argv[2], "w") as out:
                out.write(lines[0] + "\\n" + lines[1] + "\\n")  # runStarted, inputOpened
                while out.tell() < 120_000_000:
                    for line in lines[2:-1]:
                        event = json.loads(line)
                        event["frame"] = event.get("frame", 0) + repeats * 90
                        out.write(json.dumps(event, separators=(",", ":")) + "\\n")
                    repeats += 1
                out.write(lines[-1] + "\\n")
            run = subprocess.run([sys.argv[3], "report", "-f", "json", "-o", sys.argv[4], sys.argv[2]], capture_output=True)
            print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, repeats * 90)
            EOF
            """)
        let numbers = measured.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(numbers.count == 3, "\(measured.stdout) \(measured.stderr)")
        guard numbers.count == 3 else { return }
        #expect(numbers[0] == 0 && numbers[1] < 100, "exit \(numbers[0]), peak \(numbers[1]) MB")
        let report = try ReportDocument.read(folder.file("r.json"))
        #expect(report.inputs.first?.scoredFrames == numbers[2], "\(report.inputs.first?.scoredFrames ?? -1) of \(numbers[2])")
    }

    /// Raw frames on standard input: a rate or size that cannot be is a usage error (it was INPUT_UNREADABLE, exit 1);
    /// a stream that ends mid-frame is DECODE_ERROR, exit 1 (it was exit 0 with one corrupt packet counted).
    @Test func rawVideoErrorsSayWhatIsWrong() throws {
        let raw = "--input-format rawvideo --pixel-format gray"
        for (arguments, key) in [("--video-size 64x64 --frame-rate 0", "INVALID_RAW_VIDEO"), ("--video-size 64x64 --frame-rate -5", "INVALID_RAW_VIDEO"),
                                 ("--video-size 64x64 --frame-rate nan", "INVALID_RAW_VIDEO"), ("--video-size 64x64 --frame-rate abc", "INVALID_RAW_VIDEO"),
                                 ("--video-size 100000x100000 --frame-rate 30", "INVALID_RAW_VIDEO")] {
            let result = Shell.run("\"$FP\" analyze \(raw) \(arguments) - < /dev/null")
            #expect(result.status == 2 && result.events(named: "error").first?.string("key") == key, "\(arguments): \(result.stdout)")
        }
        let frame = 64 * 64
        let partial = Shell.run("head -c \(3 * frame + 100) /dev/zero | \"$FP\" analyze \(raw) --video-size 64x64 --frame-rate 30 -")
        #expect(partial.status == 1 && partial.events(named: "error").first?.string("key") == "DECODE_ERROR", "\(partial.stdout)")
        #expect(partial.events(named: "inputClosed").first?.int("framesAnalysed") == 3)
        let whole = Shell.run("head -c \(3 * frame) /dev/zero | \"$FP\" analyze \(raw) --video-size 64x64 --frame-rate 30000/1001 -")
        #expect(whole.status == 0 && whole.events(named: "inputClosed").first?.int("framesAnalysed") == 3, "\(whole.stdout)")
    }

    /// `--start` past the input's end analyses nothing: an error (it was exit 0 without a word). A switch followed by
    /// a bare true/false is an error saying how to write it (`false` used to become an input).
    @Test func anEmptyWindowAndABareBooleanAreErrors() throws {
        let past = Shell.frameprobe(["analyze", "--start", "10", Fixtures.path("clean.mp4")])
        #expect(past.status == 1 && past.events(named: "error").first?.string("message")?.contains("past the input's end") == true, "\(past.stdout)")
        let bare = Shell.frameprobe(["analyze", "--qrcode-retry", "false", Fixtures.path("clean.mp4")])
        #expect(bare.status == 2 && bare.events(named: "error").first?.string("message")?.contains("--qrcode-retry=false") == true, "\(bare.stdout)")
        let inline = Shell.frameprobe(["analyze", "--qrcode", "--qrcode-retry=false", Fixtures.path("clean.mp4")])
        #expect(inline.status == 0 && inline.events(named: "inputClosed").count == 1)
    }

    /// A stepped Slurm array (`--array=0-20:5`, COUNT 3) numbers its tasks 0, 5, 10: they take shards 0, 1, 2 (task
    /// 5 used to fail with "got 5/3"); an id off the step is an error.
    @Test func steppedSlurmArraysTakeTheirShard() throws {
        func shard(_ id: Int) throws(FrameProbeError) -> Shard? {
            try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "5",
                                       "SLURM_ARRAY_TASK_COUNT": "3"], countHint: nil)
        }
        #expect(try [0, 5, 10].map { try shard($0)?.index } == [0, 1, 2])
        #expect(try shard(10)?.count == 3)
        #expect(throws: FrameProbeError.self) { try shard(7) }
        // Without SLURM_ARRAY_TASK_COUNT, the count follows from SLURM_ARRAY_TASK_MAX: 3 tasks in 0-20:5 … up to 10.
        let fromMaximum = try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "5",
                                                     "SLURM_ARRAY_TASK_MAX": "10"], countHint: nil)
        #expect(fromMaximum?.index == 1 && fromMaximum?.count == 3)
    }

    /// Errors in the system's words: an --output-dir that is a file names it (it said "NSCocoaErrorDomain error 512"),
    /// an empty one is refused, an input that is a link loop says so (it said "no such file"); a TypeScript source
    /// named .ts in a walked folder is skipped, a real MPEG-TS beside it analysed.
    @Test func errorsSayWhatIsInTheWay() throws {
        let folder = Folder()
        let clip = Fixtures.path("clean.mp4")
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file("afile")))
        let file = Shell.frameprobe(["analyze", "--capture-type", "frame", "--output-dir", folder.file("afile") + "/sub", clip])
        let message = file.events(named: "error").first?.string("message") ?? ""
        #expect(file.status == 1 && message.contains("afile is a file, not a folder") && !message.contains("NSCocoa"), "\(file.stdout)")
        // In the test's folder: an --output-dir '' taken as "here" (as it was) must not write into the checkout.
        let empty = Shell.run("cd \(Shell.quote(folder.path)) && \"$FP\" analyze --output-dir '' \(Shell.quote(clip))")
        #expect(empty.status == 2 && empty.events(named: "error").first?.string("key") == "INVALID_OUTPUT_DIR", "\(empty.stdout)")
        #expect(symlink(folder.file("loop-b"), folder.file("loop-a")) == 0 && symlink(folder.file("loop-a"), folder.file("loop-b")) == 0)
        let loop = Shell.frameprobe(["analyze", folder.file("loop-a")])
        #expect(loop.status == 1 && loop.events(named: "error").first?.string("message")?.contains("symbolic links") == true, "\(loop.stdout)")

        let code = folder.file("code")
        #expect(Shell.run("mkdir -p \(Shell.quote(code)) && printf 'export const answer: number = 42;\\n' > \(Shell.quote(code))/app.ts && ffmpeg -nostdin -v error -i \(Shell.quote(clip)) -c copy -f mpegts \(Shell.quote(code))/video.ts").status == 0)
        let walked = Shell.frameprobe(["analyze", code])
        #expect(walked.status == 0 && walked.events(named: "inputOpened").compactMap { $0.string("source") } == [code + "/video.ts"], "\(walked.stdout)")
        #expect(walked.events(named: "skipped").first?.string("reason")?.contains("TypeScript") == true)
    }

    /// Long names: a report prefix of 215 bytes is written (its temporary name used to pass 255 bytes); an input
    /// with a 255-byte name named twice gets two folders within 255 bytes, the second shortened with a stable hash
    /// (its `~2` used to pass the limit), the same on a rerun.
    @Test func longNamesStayWithinTheFileSystemsLimit() throws {
        let folder = Folder()
        let prefix = folder.file(String(repeating: "r", count: 215))
        let report = Shell.frameprobe(["report", "-f", "json", "-o", prefix, Fixtures.path("clean.mp4")])
        #expect(report.status == 0 && FileManager.default.fileExists(atPath: prefix + ".json"), "\(report.stderr)")

        let long = folder.file(String(repeating: "a", count: 251) + ".mp4")
        try FileManager.default.copyItem(atPath: Fixtures.path("clean.mp4"), toPath: long)
        let out = folder.file("out")
        func run() -> [String] {
            let result = Shell.frameprobe(["analyze", "-y", "--capture-type", "frame", "--number-of-images", "1", "--output-dir", out, long, long])
            #expect(result.status == 0, "\(result.stdout.suffix(400))")
            return ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).sorted()
        }
        let first = run(), second = run()
        #expect(first.count == 2 && first.allSatisfy { $0.utf8.count <= 255 }, "\(first.map(\.utf8.count))")
        #expect(first == second)
        #expect(first.allSatisfy { !((try? FileManager.default.contentsOfDirectory(atPath: out + "/" + $0)) ?? []).isEmpty })
    }
}
