import Foundation
import Testing
@testable import FrameProbe

/// SIGINT and SIGTERM stop a run promptly: complete lines, no temporary files, the report for what was done,
/// exit 130 / 143.
struct InterruptionTests {
    /// A directory of clips long enough to interrupt.
    static let clips: URL = {
        let dir = Fixtures.temporaryDirectory().appendingPathComponent("clips")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for index in 0..<6 {
            try? FileManager.default.copyItem(atPath: Fixtures.path(index % 2 == 0 ? "selfie.mp4" : "clean.mp4"),
                                              toPath: dir.appendingPathComponent("clip-\(index).mp4").path)
        }
        return dir
    }()

    /// Runs frameprobe, sends `signal` once `lines` lines were written, and returns the exit code, the output and
    /// how long the process took to end after the signal.
    func interrupt(_ arguments: [String], after lines: Int, with signal: Int32) throws -> (status: Int32, output: String, seconds: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Shell.frameprobe)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var output = Data()
        let descriptor = out.fileHandleForReading.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 65536)
        var signalled: Date?
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: buffer[0..<count])
            if signalled == nil, output.filter({ $0 == UInt8(ascii: "\n") }).count >= lines {
                kill(process.processIdentifier, signal)
                signalled = Date()
            }
        }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), Date().timeIntervalSince(signalled ?? Date()))
    }

    @Test func sigintDuringADirectoryRun() throws {
        let out = Fixtures.temporaryDirectory()
        let run = try interrupt(["analyze", "--capture-type", "frame", "--time-between-images", "0", "--output-dir", out.path,
                                 "--jobs", "2", Self.clips.path], after: 60, with: SIGINT)
        #expect(run.status == 130)
        #expect(run.seconds < 10, "took \(run.seconds) s to stop (the promise is 2 s; 5× margin for a loaded machine)")
        let lines = run.output.split(separator: "\n")
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
        #expect(lines.last.map { String($0).contains("\"inputClosed\"") } == true)
        #expect(lines.count < 6 * 90, "the run should have stopped early")
        let files = FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String] ?? []
        #expect(!files.isEmpty && files.allSatisfy { !$0.hasSuffix(".tmp") }, "\(files.filter { $0.hasSuffix(".tmp") })")
    }

    /// Thirty short clips (links to the six above) for a report to be interrupted in: each takes a fraction of a
    /// second, all of them many seconds, on this machine loaded or not.
    static let manyClips: URL = {
        let dir = Fixtures.temporaryDirectory().appendingPathComponent("many")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for index in 0..<30 {
            try? FileManager.default.linkItem(atPath: clips.appendingPathComponent("clip-\(index % 6).mp4").path,
                                              toPath: dir.appendingPathComponent(String(format: "clip-%02d.mp4", index)).path)
        }
        return dir
    }()

    @Test func sigtermDuringAReportWritesWhatWasDone() throws {
        let prefix = Fixtures.temporaryDirectory().appendingPathComponent("partial").path
        // The report writes no lines while analysing, so the signal goes after a fixed delay: 4 s, when some of
        // the thirty clips are done and most are not.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Shell.frameprobe)
        process.arguments = ["report", "-o", prefix, "--format", "json", "--format", "junit", "--format", "markdown", "--format", "csv",
                             "--jobs", "1", Self.manyClips.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 4)
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        let report = try ReportDocument.read(prefix + ".json")
        #expect(report.inputs.count >= 1 && report.inputs.count < 30, "\(report.inputs.count) inputs in the report")
        #expect(FileManager.default.fileExists(atPath: prefix + ".xml"))
        // Cut short, it says so in every format and never passes.
        #expect(report.interrupted == true && !report.passed)
        for suffix in [".xml", ".md", ".csv"] {
            let text = (try? String(contentsOfFile: prefix + suffix, encoding: .utf8)) ?? ""
            #expect(text.lowercased().contains("interrupted"), "\(suffix): \(text.prefix(300))")
        }
    }

    /// One 18 s clip, interrupted mid-way: its inputClosed says `interrupted`; read back by `report`, the input is
    /// incomplete and fails its gate saying why — as does a JSON Lines file cut before its inputClosed.
    @Test func anInterruptedInputIsMarkedAndFailsItsGates() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = dir.appendingPathComponent("long.mp4").path
        #expect(Shell.run("ffmpeg -nostdin -v error -stream_loop 5 -i \(Shell.quote(Fixtures.path("clean.mp4"))) -c copy \(Shell.quote(long))").status == 0)
        let run = try interrupt(["analyze", "--jobs", "1", long], after: 30, with: SIGTERM)
        #expect(run.status == 143)
        let lines = run.output.split(separator: "\n").map(String.init)
        let closed = try #require(lines.last.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] })
        #expect(closed.string("event") == "inputClosed" && closed["interrupted"] as? Bool == true, "\(closed)")
        #expect((closed.int("framesAnalysed") ?? 0) < 540)

        let interrupted = dir.appendingPathComponent("interrupted.jsonl").path, cut = dir.appendingPathComponent("cut.jsonl").path
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: interrupted))
        try Data((lines.dropLast().joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: cut))
        for (file, reason) in [(interrupted, "interrupted after"), (cut, "events end before its inputClosed")] {
            let prefix = dir.appendingPathComponent("report").path
            let result = Shell.frameprobe(["report", "-y", "-f", "json", "-o", prefix, "--gate", "faceFrameRatio>=0.5", file])
            #expect(result.status == 3, "\(result.stderr)")
            let report = try ReportDocument.read(prefix + ".json")
            let input = try #require(report.inputs.first)
            #expect(input.incomplete?.contains(reason) == true && input.error?.hasPrefix("INCOMPLETE") == true, "\(input.incomplete ?? "")")
            #expect(input.gates.count == 1 && !input.gates[0].passed && input.gates[0].outcome.contains("the input is incomplete"), "\(input.gates)")
            #expect(!report.passed && report.total.failedInputs == 1)
        }
    }

    /// A first input that blocks (a FIFO nobody writes) no longer holds back the inputs that finished behind it: on
    /// SIGTERM, `analyze` writes their events — each input whole — and `report` writes a report of them marked
    /// interrupted (both used to write nothing). The signal goes once the four clips were opened and closed again
    /// (watched in /proc), however long that takes on this machine.
    @Test(arguments: ["analyze", "report"])
    func finishedInputsBehindABlockedOneAreWritten(command: String) throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clips = (1...4).map { "c\($0).mp4" }
        for clip in clips { try FileManager.default.copyItem(atPath: Fixtures.path("clean.mp4"), toPath: dir.appendingPathComponent(clip).path) }
        #expect(mkfifo(dir.appendingPathComponent("blocked.mp4").path, 0o600) == 0)
        let output = command == "analyze" ? "-o events.jsonl" : "-f json -o report"
        let run = Shell.run("""
            cd \(Shell.quote(dir.path)) && { "$FP" \(command) --jobs 2 \(output) blocked.mp4 \(clips.joined(separator: " ")) 2>/dev/null & pid=$!
            declare -A seen
            for _ in $(seq 2400); do
              open=$(ls -l /proc/$pid/fd 2>/dev/null | grep -o 'c[0-9].mp4' | sort -u)
              for clip in $open; do seen[$clip]=1; done
              [ ${#seen[@]} -eq 4 ] && [ -z "$open" ] && break
              sleep 0.05
            done
            kill -TERM $pid; wait $pid; echo "exit $?"; }
            """)
        #expect(run.stdout.hasSuffix("exit 143\n"), "\(run.stdout) \(run.stderr)")
        if command == "analyze" {
            let events = Shell.run("cat \(Shell.quote(dir.appendingPathComponent("events.jsonl").path))").events
            let sources = events.filter { $0.string("event") != "runStarted" }.compactMap { $0.string("source") }
            // Each input whole and in input order: its lines together, from inputOpened to inputClosed.
            #expect(sources.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } } == clips, "\(Set(sources))")
            let closed = events.filter { $0.string("event") == "inputClosed" }
            #expect(closed.count == 4 && closed.prefix(3).allSatisfy { $0["interrupted"] == nil && $0.int("framesAnalysed") == 90 }, "\(closed)")
        } else {
            let report = try ReportDocument.read(dir.appendingPathComponent("report.json").path)
            #expect(report.interrupted == true && !report.passed)
            // One worker took the four clips in turn: the first three are whole; the last one's file closes while
            // its last frames are still analysed, so it is whole or marked incomplete.
            let seen = report.inputs.map { "\($0.source) \($0.framesAnalysed) \($0.error ?? "")" }
            #expect(report.inputs.map(\.source) == clips && report.inputs.prefix(3).allSatisfy { $0.framesAnalysed == 90 && $0.error == nil }, "\(seen)")
            #expect(report.inputs.last.map { $0.framesAnalysed == 90 || $0.incomplete?.contains("interrupted") == true } == true, "\(seen)")
        }
    }
}
