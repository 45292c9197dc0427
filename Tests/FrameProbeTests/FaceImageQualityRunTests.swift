import Foundation
import Testing
@testable import FrameProbe

/// Face image quality through the commands: faceDetected and its schema, --capture-best keeping each window's best
/// frame, acquire's metadata, and the report's fields, gates and plot.
struct FaceImageQualityRunTests {
    static let clip = TestData.firstSeconds(4, of: "video/driving_d6.mp4")

    @Test(.needsTestData) func faceDetectedCarriesTheComponentsAndValidates() {
        let result = Shell.frameprobe(["analyze", "--face-image-quality", "--sample-every", "3", Self.clip])
        #expect(result.status == 0)
        let faces = result.events(named: "faceDetected")
        #expect(faces.count > 30)
        for face in faces {
            let quality = face["faceImageQuality"] as? [String: Any]
            #expect(quality?.count == FaceImageQuality.componentNames.count + 1, "\(quality?.keys.sorted() ?? [])")
            let unified = (quality?["unifiedQuality"] as? [String: Any])?["score"] as? Int
            let scores = (quality ?? [:]).compactMap { (($0.value as? [String: Any])?["score"] as? Int) }
            #expect(unified != nil && unified == scores.min())
        }
        #expect(Shell.validateAgainstSchema(result.stdout).status == 0)
    }

    /// Each 1 s window's saved image is its best frame by unifiedQuality (then the mean score), written when the
    /// window closes.
    @Test(.needsTestData) func captureBestKeepsEachWindowsBestFrame() throws {
        let out = Fixtures.temporaryDirectory()
        let result = Shell.frameprobe(["analyze", "--face-image-quality", "--capture-best", "--output-dir", out.path, Self.clip])
        #expect(result.status == 0, "\(result.stderr)")
        let captured = result.events(named: "imageCaptured")
        #expect(captured.count == 5, "\(captured.count)")   // 4.07 s of frames with a face: windows from 0, 1, 2, 3 and 4 s
        func rank(_ quality: [String: Any]?) -> (Int, Double) {
            let scores = (quality ?? [:]).filter { $0.key != "unifiedQuality" }.compactMap { (($0.value as? [String: Any])?["score"] as? Int) }
            return (scores.min() ?? -1, Double(scores.reduce(0, +)) / Double(max(scores.count, 1)))
        }
        let faces = result.events(named: "faceDetected")
        var windowStart = 0.0
        for image in captured {
            let pts = try #require(image.double("imagePts"))
            let inWindow = faces.filter { ($0.double("pts") ?? -1) >= windowStart - 1e-6 && ($0.double("pts") ?? 0) < windowStart + 1 - 1e-6 }
            let best = inWindow.map { rank($0["faceImageQuality"] as? [String: Any]) }.max { $0 < $1 }
            #expect(best.map { rank(image["faceImageQuality"] as? [String: Any]) == $0 } == true, "window \(windowStart): \(pts)")
            #expect(pts >= windowStart - 1e-6 && pts < windowStart + 1)
            #expect(FileManager.default.fileExists(atPath: image.string("imagePath") ?? ""))
            windowStart += 1
        }
        #expect(Shell.validateAgainstSchema(result.stdout).status == 0)
    }

    @Test func acquireRecordsTheComponentsOfTheRecordedFrames() throws {
        let out = Fixtures.temporaryDirectory()
        let result = Shell.frameprobe(["acquire", "--output-dir", out.path, Fixtures.path("approach-720p.mp4")])
        #expect(result.status == 0)
        let ended = try #require(result.events(named: "videoRecordEnded").first)
        let metadata = try #require(try JSONSerialization.jsonObject(with: Data((ended.string("metadata") ?? "").utf8)) as? [String: Any])
        let quality = try #require(metadata["faceImageQuality"] as? [String: Any])
        let unified = try #require(quality["unifiedQuality"] as? [String: Any])
        #expect(quality.count == FaceImageQuality.componentNames.count + 1)
        #expect((unified["min"] as? Double ?? -1) <= (unified["mean"] as? Double ?? -2) && (unified["mean"] as? Double ?? 101) <= 100)
    }

    @Test(.needsTestData) func reportGatesAndPlotsFaceImageQuality() throws {
        let prefix = Fixtures.temporaryDirectory().appendingPathComponent("fiq").path
        let result = Shell.frameprobe(["report", "-o", prefix, "-f", "json", "-f", "html", "--gate", "faceImageQualityMean>=20",
                                       "--gate", "fiq.sharpness.mean>=50", "--gate", "fiq.headPoseYaw.min>=90", Self.clip])
        #expect(result.status == 0, "\(result.stderr)")
        let input = try #require(try ReportDocument.read(prefix + ".json").inputs.first)
        #expect(input.gates.allSatisfy { $0.passed }, "\(input.gates)")
        let stats = try #require(input.faceImageQuality?["unifiedQuality"])
        #expect(stats.count == input.faceFrames && stats.min <= stats.mean)
        #expect(input.intervals?["lowFaceImageQuality"] != nil)
        let html = try String(contentsOfFile: prefix + ".html", encoding: .utf8)
        #expect(html.contains("aria-label=\"face image quality (unified, 0–100)\""))
    }
}
