import Foundation
import Testing
@testable import FrameProbe

/// `--capture-type frame`: timed saving, sizes, counting, endCapture.
struct CaptureTests {
    @Test func frameCaptureWritesNImagesOfTheRequestedSizeThenEndCapture() throws {
        let out = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = Shell.frameprobe([
            "analyze", "--capture-type", "frame", "--output-dir", out.path, "--number-of-images", "3",
            "--time-between-images", "500", "--output-image-width", "160", "--output-image-height", "120",
            Fixtures.path("clean.mp4"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let captured = result.events(named: "imageCaptured")
        #expect(captured.map { $0.int("count") } == [1, 2, 3])
        #expect(captured.allSatisfy { $0.int("total") == 3 && $0.string("type") == "frame" })
        // The media-time gate: the first frame at once, then every 0.5 s.
        #expect(captured.compactMap { $0.double("pts") } == [0, 0.5, 1])
        let end = result.events(named: "endCapture")
        #expect(end.count == 1 && end.first?.int("count") == 3)
        // Analysis goes on after endCapture without --stop-at-end-capture.
        #expect(result.events(named: "inputClosed").first?.int("framesAnalysed") == 90)

        let files = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("clean.mp4").path).sorted()
        #expect(files == ["frame-0001.jpg", "frame-0002.jpg", "frame-0003.jpg"])
        for event in captured {
            let path = try #require(event.string("imagePath"))
            let saved = try FrameSource(url: path, options: DecodeOptions())
            #expect(saved.info.width == 160 && saved.info.height == 120)
            // The scores describe the saved image: recomputing them from the file agrees.
            let frame = try #require(saved.next())
            _ = saved.finish()
            let rescored = try QualityScores(of: frame.image, ellipticalMask: false)
            #expect(abs(rescored.darkness - event.double("darkness")!) < 0.03)
        }
    }

    @Test func stopAtEndCaptureEndsTheInput() {
        let out = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = Shell.frameprobe(["analyze", "--capture-type", "frame", "--output-dir", out.path, "--number-of-images", "1",
                                       "--stop-at-end-capture", Fixtures.path("clean.mp4")])
        #expect(result.status == 0)
        #expect(result.events(named: "imageCaptured").count == 1)
        #expect(result.events(named: "inputClosed").first?.int("framesAnalysed") == 1)
    }

    @Test func keepAspectLetterboxes() throws {
        let image = BGRImage(width: 40, height: 20, bgr: Array(repeating: 200, count: 40 * 20 * 3))!
        let (boxed, picture) = try Letterbox.fit(image, width: 20, height: 20, keepAspect: true)
        #expect(boxed.width == 20 && boxed.height == 20)
        #expect(boxed[10, 1].g == 0 && boxed[10, 18].g == 0) // bars above and below
        #expect(boxed[10, 10].g == 200)
        #expect(picture.width == 20 && picture.height == 10 && picture[10, 1].g == 200) // the picture, without bars
        let stretched = try Letterbox.fit(image, width: 20, height: 20, keepAspect: false)
        #expect(stretched.image[10, 1].g == 200)
    }

    /// SPEC §4.4: a letterboxed capture scores the picture, never the bars — the frame capture of a wide frame
    /// into a square image has the darkness of the frame itself (tuned on nothing: the frame's own score is the
    /// reference), where the bars would push it over "Too dark".
    @Test func letterboxedCapturesScoreThePictureNotTheBars() throws {
        let out = Fixtures.temporaryDirectory()
        let clip = Fixtures.path("clean.mp4")
        let result = Shell.frameprobe(["analyze", "--capture-type", "frame", "--number-of-images", "1", "--keep-aspect",
                                       "--frame-quality", "--output-image-width", "200", "--output-image-height", "400",
                                       "--output-dir", out.path, clip])
        #expect(result.status == 0, "\(result.stderr)")
        let frame = try #require(result.events(named: "frameQuality").first?.double("darkness"))
        let captured = try #require(result.events(named: "imageCaptured").first)
        #expect(abs((captured.double("darkness") ?? 1) - frame) < 0.05, "capture \(captured) vs frame \(frame)")
        #expect(captured.string("darknessLabel") == "Acceptable")
    }

    @Test func noTemporaryFilesRemain() throws {
        let out = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        _ = Shell.frameprobe(["analyze", "--capture-type", "frame", "--output-dir", out.path, "--time-between-images", "0",
                              Fixtures.path("pattern.mp4")])
        let files = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("pattern.mp4").path)
        #expect(files.count == 50)
        #expect(files.allSatisfy { $0.hasSuffix(".jpg") && !$0.hasPrefix(".") })
    }
}
