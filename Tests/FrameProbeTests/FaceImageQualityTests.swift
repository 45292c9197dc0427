import CVision
import Foundation
import Testing
@testable import FrameProbe

/// ISO/IEC 29794-5 components (SPEC §11) on real pixels: each moves the way its definition says when only its cause
/// changes. The sharpness and compression anchors were placed on driving_d6-36, driving_d10-88,
/// WDA_AlexandriaOcasioCortez_000-53 and Tom_Cruise_avp_2014_4 (README); these tests use other frames
/// (`real-frames/` of the test-data folder, from its `video/`) and other dlib photos.
struct FaceImageQualityTests {
    static let cleanName = "driving_d3-300-eyes-open-nosmile.jpg", otherName = "driving_d11-200-eyes-open-nosmile.jpg"
    static func frame(_ name: String) -> String { TestData.path("real-frames/" + name) }
    static var clean: String { frame(cleanName) }
    static var other: String { frame(otherName) }

    /// The primary face's components in the image at `path`, and the frame.
    static func measure(_ path: String, minFaceSize: Double = 0.1) throws -> (quality: FaceImageQuality, face: FaceObservation, frame: Frame) {
        let frame = try FaceFixtures.firstFrame(path)
        var options = FaceDetectionStage.Options()
        options.minFaceSize = minFaceSize
        var pipeline = Pipeline(stages: [try FaceDetectionStage(options: options), FaceLandmarksStage(), HeadPoseStage(),
                                         FaceExpressionStage(), FaceImageQualityStage()])
        let face = try #require(try pipeline.process(frame) { _ in }.faces.first)
        return (try #require(face.imageQuality), face, frame)
    }

    /// `path` through an ffmpeg filter (or re-encoded with `encode` options), as a new file.
    static func edited(_ path: String, filter: String? = nil, encode: String = "", ext: String = "png") throws -> String {
        let out = Fixtures.temporaryDirectory().appendingPathComponent("edited.\(ext)").path
        let result = Shell.run("ffmpeg -nostdin -v error -y -i \(Shell.quote(path)) \(filter.map { "-vf \(Shell.quote($0))" } ?? "") \(encode) \(Shell.quote(out))")
        guard result.status == 0 else { throw FrameProbeError("TEST", result.stderr) }
        return out
    }

    func score(_ quality: FaceImageQuality, _ name: String) throws -> Int { try #require(quality[name]).score }

    @Test(.needsTestData, arguments: [cleanName, otherName])
    func darkerMeansLowerLuminanceAndMoreUnderExposure(name: String) throws {
        let path = Self.frame(name)
        let before = try Self.measure(path).quality
        // 1.5 EV less light: every value × 2^−1.5 ≈ 0.354.
        let darker = try Self.measure(try Self.edited(path, filter: "curves=all='0/0 1/0.354'")).quality
        #expect(try #require(darker["luminanceMean"]).native < (try #require(before["luminanceMean"]).native) * 0.7)
        #expect(try score(darker, "luminanceMean") < (try score(before, "luminanceMean")))
        #expect(try score(darker, "underExposurePrevention") < (try score(before, "underExposurePrevention")))
    }

    @Test(.needsTestData) func overexposureLowersOverExposurePrevention() throws {
        let before = try Self.measure(Self.clean).quality
        let brighter = try Self.measure(try Self.edited(Self.clean, filter: "curves=all='0/0 0.4/1 1/1'")).quality
        #expect(try score(brighter, "overExposurePrevention") < (try score(before, "overExposurePrevention")) - 20)
    }

    @Test(.needsTestData) func jpegQuality5IsBlockyAndQuality95IsNot() throws {
        let q5 = try Self.measure(try Self.edited(Self.other, encode: "-q:v 31", ext: "jpg")).quality
        let q95 = try Self.measure(try Self.edited(Self.other, encode: "-q:v 2", ext: "jpg")).quality
        #expect(try score(q95, "compressionArtifacts") >= 90)
        #expect(try score(q5, "compressionArtifacts") < 30)
    }

    @Test(.needsTestData, arguments: [cleanName, otherName])
    func blurLowersSharpness(name: String) throws {
        let path = Self.frame(name)
        let before = try Self.measure(path).quality
        let blurred = try Self.measure(try Self.edited(path, filter: "gblur=sigma=3")).quality
        #expect(try #require(blurred["sharpness"]).native < (try #require(before["sharpness"]).native) * 0.7)
        #expect(try score(blurred, "sharpness") < (try score(before, "sharpness")))
    }

    @Test(.needsTestData) func aFaceAtTheLeftEdgeIsCroppedOnTheLeftOnly() throws {
        let (before, face, _) = try Self.measure(Self.clean)
        let left = Int(FaceGeometry.headBounds(try #require(face.landmarks)).x) - 2
        let shifted = try Self.measure(try Self.edited(Self.clean, filter: "crop=iw-\(left):ih:\(left):0")).quality
        #expect(try score(before, "leftwardCropOfTheFaceImage") == 100)
        #expect(try score(shifted, "leftwardCropOfTheFaceImage") < 20)
        #expect(try score(shifted, "rightwardCropOfTheFaceImage") == (try score(before, "rightwardCropOfTheFaceImage")))
    }

    @Test(.needsTestData) func halfTheSizeHalvesTheInterEyeDistance() throws {
        let before = try #require(try Self.measure(Self.clean).quality["interEyeDistance"]).native
        let after = try #require(try Self.measure(try Self.edited(Self.clean, filter: "scale=iw/2:-2"), minFaceSize: 0.05).quality["interEyeDistance"]).native
        #expect(abs(after / before - 0.5) < 0.025, "\(before) → \(after)")
    }

    @Test(.needsTestData) func aSecondFaceLowersSingleFacePresent() throws {
        let before = try Self.measure(Self.clean).quality
        // The frame beside a copy of itself at 60 %: the second face is 0.6 × the first.
        let two = try Self.measure(try Self.edited(Self.clean, filter: "split[a][b];[b]scale=iw*0.6:-2,pad=iw/0.6:ih/0.6[c];[a][c]hstack"), minFaceSize: 0.05).quality
        #expect(try score(before, "singleFacePresent") == 100)
        #expect(abs(Double(try score(two, "singleFacePresent")) - 40) <= 8)
    }

    @Test(.needsTestData) func closedEyesLowerEyesOpen() throws {
        let open = try Self.measure(Self.frame("driving_d6-600-eyes-open.jpg")).quality
        let closed = try Self.measure(Self.frame("driving_d6-393-eyes-closed.jpg")).quality
        #expect(try score(open, "eyesOpen") >= 80 && (try score(closed, "eyesOpen")) <= 20)
    }

    /// A head turned 30° (a render of known yaw, `turned/` of the test-data folder) scores lower on yaw, the same for its mirror image.
    @Test(.needsTestData) func aTurnedHeadScoresLowerOnYawAndTheMirrorTheSame() throws {
        let photo = TestData.path("turned/d11_p0_y30_r0.jpg")
        let turned = try Self.measure(photo)
        let mirrored = try Self.measure(try Self.edited(photo, filter: "hflip"))
        let yaw = try #require(turned.quality["headPoseYaw"]), mirrorYaw = try #require(mirrored.quality["headPoseYaw"])
        #expect(abs(yaw.native) > 25 && yaw.score < 80, "\(yaw)")
        #expect(abs(yaw.native + mirrorYaw.native) < 3 && abs(yaw.score - mirrorYaw.score) <= 2, "\(yaw) vs \(mirrorYaw)")
        let frontal = try Self.measure(Self.clean).quality
        #expect(try score(frontal, "headPoseYaw") >= 95)  // yaw −5.6° on this frame
    }

    @Test(.needsTestData) func greyPicturesLoseNaturalColour() throws {
        let before = try Self.measure(Self.clean).quality
        let grey = try Self.measure(try Self.edited(Self.clean, filter: "hue=s=0")).quality
        #expect(try score(before, "naturalColour") == 100)
        #expect(try score(grey, "naturalColour") < 70)
    }

    /// Hand-computed on a synthetic image: left half Y 50, right half Y 200, the "landmarks" a square 10…90.
    @Test func pixelStatisticsOnASyntheticImage() throws {
        let size = 100
        var pixels = [UInt8](repeating: 0, count: size * size * 3)
        for y in 0..<size { for x in 0..<size { for c in 0..<3 { pixels[(y * size + x) * 3 + c] = x < 50 ? 50 : 200 } } }
        var points = [Float](repeating: 0, count: 136)
        let corners: [(Float, Float)] = [(10, 10), (90, 10), (90, 90), (10, 90)]
        for index in 0..<68 { (points[2 * index], points[2 * index + 1]) = corners[index % 4] }
        for index in 27...30 { (points[2 * index], points[2 * index + 1]) = (50, 50) }  // the nose bridge splits the halves
        var stats = cvision_face_image_stats()
        #expect(cvision_face_image_measure(pixels, Int32(size), Int32(size), Int32(size * 3), points, &stats) == 0)
        // The hull covers x, y in 10…90: 81 rows of 40 pixels at 50 (x < 50) and 41 at 200.
        let dark = 40.0 * 81, light = 41.0 * 81, total = dark + light
        let mean = (dark * 50 + light * 200) / total
        #expect(stats.pixels == Int32(total))
        #expect(abs(stats.luminance_mean - mean / 255) < 1e-9)
        #expect(abs(stats.luminance_variance - (dark * 50 * 50 + light * 200 * 200) / total / 65025 + mean * mean / 65025) < 1e-9)
        let p = dark / total
        #expect(abs(stats.entropy - (-(p * log2(p)) - (1 - p) * log2(1 - p))) < 1e-9)
        #expect(stats.under_exposed == 0 && stats.over_exposed == 0 && stats.uniformity == 0)
    }
}
