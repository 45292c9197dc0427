import Foundation
import Testing

/// The JSON Lines stream: schema, ordering with --jobs, a reader that leaves early.
struct OutputTests {
    @Test func everyEmittedLineValidatesAgainstTheSchema() {
        let out = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let frames = Shell.frameprobe(["analyze", "--frame-quality", "--capture-type", "frame", "--output-dir", out.path,
                                       "--number-of-images", "2", "--sample-every", "5",
                                       Fixtures.directory.path, "/nonexistent.mp4"])
        #expect(frames.status == 1)
        let faces = Shell.frameprobe(["analyze", "--face-contours", "--face-quality", "--output-dir", out.path, "--number-of-images", "1",
                                      "--detection-min-size", "0.1", "--sample-every", "3", "--qrcode", Fixtures.path("region.mp4"),
                                      Fixtures.path("selfie.mp4"), Fixtures.path("qr-binary.mp4"), Fixtures.path("qr-two.mp4")])
        #expect(faces.status == 0)
        let names = Set((frames.events + faces.events).compactMap { $0.string("event") })
        #expect(names == ["runStarted", "inputOpened", "frameQuality", "imageCaptured", "endCapture", "skipped", "error", "inputClosed",
                          "faceDetected", "faceUndetected", "message", "qrCodeScanned"])
        for output in [frames.stdout, faces.stdout] {
            let validation = Shell.validateAgainstSchema(output)
            #expect(validation.status == 0, "\(validation.stdout)")
        }
    }

    /// The check can fail: a malformed event is rejected.
    @Test func theSchemaRejectsABrokenEvent() {
        let broken = #"{"event":"frameQuality","source":"x","frame":0,"pts":0,"darkness":1.5,"lightness":0,"sharpness":0,"darknessLabel":"Dim","lightnessLabel":"Acceptable","sharpnessLabel":"Acceptable"}"#
        let validation = Shell.validateAgainstSchema(broken + "\n")
        #expect(validation.status == 1)
        #expect(validation.stdout.contains("1 lines, 1 invalid"))
        #expect(validation.stdout.contains("darkness: 1.5"))
        #expect(validation.stdout.contains("darknessLabel"))
    }

    @Test func jobsKeepOutputGroupedInInputOrder() {
        let inputs = ["pattern.mp4", "selfie.mp4", "portrait.jpg", "dark.mp4"].map(Fixtures.path)
        let one = Shell.frameprobe(["analyze", "--frame-quality", "--jobs", "1"] + inputs)
        let two = Shell.frameprobe(["analyze", "--frame-quality", "--jobs", "2"] + inputs)
        #expect(one.status == 0 && two.status == 0)
        func comparable(_ result: Shell.Result) -> [String] {
            result.events.map { event in
                var copy = event
                copy["elapsedSeconds"] = nil
                return (try? String(decoding: JSONSerialization.data(withJSONObject: copy, options: .sortedKeys), as: UTF8.self)) ?? ""
            }
        }
        #expect(comparable(one) == comparable(two))
        #expect(one.events(named: "inputOpened").compactMap { $0.string("source") } == inputs)
    }

    @Test func aReaderThatLeavesEarlyEndsTheRunQuietly() {
        let result = Shell.run("$FP analyze --capture-type none --frame-quality \(Shell.quote(Fixtures.path("clean.mp4"))) | head -1")
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("{\"event\":\"runStarted\""))
    }

    @Test func outputFileGetsCompleteLines() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("events.jsonl")
        let result = Shell.frameprobe(["analyze", "--capture-type", "none", "--frame-quality", "-o", file.path, Fixtures.path("pattern.mp4")])
        #expect(result.status == 0 && result.stdout.isEmpty)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        #expect(text.split(separator: "\n").count == 1 + 52)
    }
}
