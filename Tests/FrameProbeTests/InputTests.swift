import Foundation
import Testing
import CFFmpeg
@testable import FrameProbe

/// Every kind of input SPEC §1 names, on real footage.
struct InputTests {
    @Test func imageInputIsOneFrame() {
        let result = Shell.frameprobe(["analyze", "--capture-type", "none", "--frame-quality", Fixtures.path("portrait.jpg")])
        #expect(result.status == 0)
        #expect(result.events(named: "frameQuality").count == 1)
        let opened = result.events(named: "inputOpened").first
        #expect(opened?.int("width") == 400 && opened?.int("height") == 500)
        #expect(result.events(named: "inputClosed").first?.int("framesDecoded") == 1)
    }

    @Test func directoryIsWalkedSortedAndSkipsNonMedia() {
        let folder = Fixtures.path("folder")
        let result = Shell.frameprobe(["analyze", "--capture-type", "none", "--frame-quality", folder])
        #expect(result.status == 0, "\(result.stderr)")
        let opened = result.events(named: "inputOpened").compactMap { $0.string("source") }
        #expect(opened == ["\(folder)/a-pattern.mp4", "\(folder)/nested/b-portrait.jpg"])
        let skipped = result.events(named: "skipped")
        #expect(skipped.count == 1)
        #expect(skipped.first?.string("source") == "\(folder)/notes.txt")
        #expect(result.events(named: "frameQuality").count == 51)
    }

    /// The same clip from a file, piped as NUT and piped as raw BGR frames: same frames, same quality.
    @Test func stdinAsNutAndRawvideoMatchesTheFile() throws {
        let clip = Fixtures.path("pattern.mp4")
        let file = Shell.frameprobe(["analyze", "--capture-type", "none", "--frame-quality", clip])
        let nut = Shell.run("ffmpeg -nostdin -v error -i \(Shell.quote(clip)) -c:v rawvideo -f nut - | $FP analyze --capture-type none --frame-quality -")
        let raw = Shell.run("ffmpeg -nostdin -v error -i \(Shell.quote(clip)) -f rawvideo -pix_fmt bgr24 - | "
            + "$FP analyze --capture-type none --frame-quality --input-format rawvideo --video-size 320x240 --pixel-format bgr24 --frame-rate 25 -")
        for result in [file, nut, raw] {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.events(named: "frameQuality").count == 50)
        }
        #expect(nut.events(named: "inputOpened").first?.string("source") == "-")
        for other in [nut, raw] {
            for (a, b) in zip(file.events(named: "frameQuality"), other.events(named: "frameQuality")) {
                #expect(a.int("frame") == b.int("frame"))
                #expect(abs(a.double("pts")! - b.double("pts")!) < 0.001)
                for key in ["darkness", "lightness", "sharpness"] {
                    #expect(abs(a.double(key)! - b.double(key)!) < 0.01, "\(key) at frame \(a.int("frame")!)")
                }
            }
        }
    }

    @Test func truncatedFileFailsWhileTheGoodOneRuns() {
        let result = Shell.frameprobe(["analyze", "--capture-type", "none", "--frame-quality", Fixtures.path("truncated.mp4"), Fixtures.path("pattern.mp4")])
        #expect(result.status == 1)
        let error = result.events(named: "error").first
        #expect(error?.string("source") == Fixtures.path("truncated.mp4"))
        #expect(error?.string("key") == "INPUT_UNREADABLE")
        #expect(result.events(named: "frameQuality").count == 50)
        #expect(result.events.last?.string("event") == "inputClosed")
    }

    @Test func missingAndNonMediaFilesNamedExplicitlyAreErrors() {
        let notes = Fixtures.path("folder/notes.txt")
        let result = Shell.frameprobe(["analyze", "/nonexistent/clip.mp4", notes])
        #expect(result.status == 1)
        #expect(result.events(named: "error").map { $0.string("key") } == ["INPUT_UNREADABLE", "INPUT_UNREADABLE"])
    }

    @Test func windowAndSampling() {
        let clip = Fixtures.path("pattern.mp4") // 2 s at 25 fps
        let window = Shell.frameprobe(["analyze", "--capture-type", "none", "--frame-quality", "--start", "0.8", "--duration", "0.4", clip])
        let pts = window.events(named: "frameQuality").compactMap { $0.double("pts") }
        #expect(pts.count == 10)
        #expect(abs((pts.first ?? 0) - 0.8) < 0.001 && abs((pts.last ?? 0) - 1.16) < 0.001)
        let sampled = Shell.frameprobe(["analyze", "--capture-type", "none", "--frame-quality", "--sample-every", "7", clip])
        #expect(sampled.events(named: "frameQuality").compactMap { $0.int("frame") } == [0, 7, 14, 21, 28, 35, 42, 49])
        let closed = sampled.events(named: "inputClosed").first
        #expect(closed?.int("framesDecoded") == 50 && closed?.int("framesAnalysed") == 8)
    }

    /// A phone-style clip stored turned, with a display matrix, reaches the stages upright.
    @Test func displayRotationIsApplied() throws {
        let rotated = try FrameSource(url: Fixtures.path("rotated.mp4"), options: DecodeOptions())
        let upright = try FrameSource(url: Fixtures.path("clean.mp4"), options: DecodeOptions())
        #expect(rotated.info.rotation == 270)
        #expect(rotated.info.width == 400 && rotated.info.height == 500)
        let a = try #require(rotated.next()), b = try #require(upright.next())
        _ = rotated.finish(); _ = upright.finish()
        #expect(a.width == b.width && a.height == b.height)
        let aligned = meanAbsoluteDifference(a.image, b.image)
        let flipped = meanAbsoluteDifference(try a.image.rotated(quarterTurns: 2), b.image)
        #expect(aligned < 6, "upright frames should match: \(aligned)")
        #expect(flipped > 4 * aligned)
    }

    /// FFmpeg's own decoding threads: only where cores are left over beside the analysis's — or for HEVC, VP9 and
    /// AV1 pictures of 2 MP and more, whose decoding is the slowest thread (the same pictures either way).
    @Test func heavyPicturesDecodeOnFFmpegsThreads() {
        #expect(MediaDecoder.decodingThreads(codec: AV_CODEC_ID_HEVC, width: 1920, height: 1080, cores: 2) == 4)
        #expect(MediaDecoder.decodingThreads(codec: AV_CODEC_ID_AV1, width: 1080, height: 1920, cores: 2) == 4)
        #expect(MediaDecoder.decodingThreads(codec: AV_CODEC_ID_HEVC, width: 1280, height: 720, cores: 2) == 1)
        #expect(MediaDecoder.decodingThreads(codec: AV_CODEC_ID_H264, width: 1920, height: 1080, cores: 2) == 1)
        #expect(MediaDecoder.decodingThreads(codec: AV_CODEC_ID_H264, width: 1920, height: 1080, cores: 8) == 6)
        #expect(MediaDecoder.decodingThreads(codec: AV_CODEC_ID_HEVC, width: 3840, height: 2160, cores: 8) == 6)
    }

    /// A picture stored turned is brought upright plane by plane before its conversion where its format allows it
    /// (4:2:0, 4:4:4) and as a BGR image after it otherwise (4:2:2, odd sizes): either way the frames are, byte for
    /// byte, the stored picture's BGR image turned — for every quarter turn a rotation tag can ask for, on a picture
    /// whose height (500, and 250 for 4:2:0 chroma) is no multiple of the 8-px blocks the planes turn in.
    @Test(arguments: ["format=yuv420p", "format=yuv444p", "format=yuv422p", "crop=399:499:0:0,format=yuv444p"])
    func aTurnedPictureIsItsBGRImageTurned(filter: String) throws {
        let folder = Fixtures.temporaryDirectory()
        let stored = folder.appendingPathComponent("stored.mp4").path
        let make = Shell.run("ffmpeg -nostdin -v error -i \(Shell.quote(Fixtures.path("clean.mp4"))) -frames:v 3 -vf \(filter) -c:v libx264 -preset veryfast \(Shell.quote(stored))")
        #expect(make.status == 0, "\(make.stderr)")
        for rotation in [90, 180, 270] {
            let tagged = folder.appendingPathComponent("turned-\(rotation).mp4").path
            let tag = Shell.run("ffmpeg -nostdin -v error -i \(Shell.quote(stored)) -c copy -metadata:s:v:0 rotate=\(rotation) \(Shell.quote(tagged))")
            #expect(tag.status == 0, "\(tag.stderr)")
            let turned = try FrameSource(url: tagged, options: DecodeOptions())
            let plain = try FrameSource(url: stored, options: DecodeOptions())
            #expect(turned.info.rotation == 360 - rotation, "\(filter), rotate=\(rotation): \(turned.info.rotation)")
            var frames = 0
            while let a = turned.next(), let b = plain.next() {
                let expected = try b.image.rotated(quarterTurns: turned.info.rotation / 90)
                #expect(Self.samePixels(a.image, expected), "\(filter), rotate=\(rotation), frame \(frames)")
                frames += 1
            }
            _ = turned.finish(); _ = plain.finish()
            #expect(frames == 3, "\(filter), rotate=\(rotation): \(frames) frames")
        }
    }

    static func samePixels(_ a: BGRImage, _ b: BGRImage) -> Bool {
        guard a.width == b.width && a.height == b.height else { return false }
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] { return false }
        }
        return true
    }

    func meanAbsoluteDifference(_ a: BGRImage, _ b: BGRImage) -> Double {
        var total = 0
        for y in stride(from: 0, to: a.height, by: 2) {
            for x in stride(from: 0, to: a.width, by: 2) {
                let p = a[x, y], q = b[x, y]
                total += abs(Int(p.b) - Int(q.b)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.r) - Int(q.r))
            }
        }
        return Double(total) / Double((a.width / 2) * (a.height / 2) * 3)
    }

    /// Live use: with a producer running at real speed (the 3 s clip looped to 12 s), the first events arrive while
    /// it is still running. How soon is a speed question for Scripts/bench; here only the order is asserted.
    @Test func eventsStreamWhileTheProducerIsStillRunning() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        let clip = Shell.quote(Fixtures.path("clean.mp4"))
        process.arguments = ["-c", "ffmpeg -nostdin -v error -re -stream_loop 3 -i \(clip) -f nut - | \(Shell.quote(Shell.frameprobe)) analyze --frame-quality -; echo DONE"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        var firstEventAfter: TimeInterval?
        var text = ""
        let reader = out.fileHandleForReading
        while firstEventAfter == nil {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if text.contains("\"frameQuality\"") { firstEventAfter = Date().timeIntervalSince(started) }
        }
        let stillRunning = process.isRunning && !text.contains("DONE")
        _ = reader.readDataToEndOfFile()
        process.waitUntilExit()
        let total = Date().timeIntervalSince(started)
        #expect(stillRunning, "the first event came only after the producer ended")
        #expect(firstEventAfter != nil, "no event at all")
        #expect(total > 10, "the stream ran \(total) s: not at real speed")
    }
}
