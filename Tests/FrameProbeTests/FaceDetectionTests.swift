import Foundation
import Testing
@testable import FrameProbe

/// dlib's HOG detector through the shim, on dlib's labelled example photos.
struct FaceDetectionTests {
    /// The 43 labelled faces of training.xml and testing.xml; the smallest are 37 px in 500 px wide photos,
    /// so --min-face-size 0.07 (35 px) is what they need.
    @Test func recallOnDlibsLabelledExamples() throws {
        var found = 0, total = 0, falsePositives = 0
        for (image, truth) in FaceFixtures.labelledBoxes("training.xml") + FaceFixtures.labelledBoxes("testing.xml") {
            let frame = try FaceFixtures.firstFrame(FaceFixtures.photo(image))
            let detected = try FaceFixtures.faces(in: frame, minFaceSize: 0.07).map(\.box)
            var unmatched = detected
            for box in truth {
                total += 1
                if let hit = unmatched.firstIndex(where: { $0.intersectionOverUnion(box) >= 0.4 }) {
                    found += 1
                    unmatched.remove(at: hit)
                }
            }
            falsePositives += unmatched.count
        }
        let recall = Double(found) / Double(total)
        print("face recall on dlib's examples: \(found)/\(total) = \(recall), false positives: \(falsePositives)")
        #expect(total == 43)
        #expect(recall >= 0.95)
        #expect(falsePositives <= 2)
    }

    @Test func primaryFaceIsTheWidestAndFaceCountCountsAll() throws {
        let frame = try FaceFixtures.firstFrame(FaceFixtures.photo("2009_004587.jpg"))
        let faces = try FaceFixtures.faces(in: frame)
        #expect(faces.count == 2)
        #expect(faces[0].box.width >= faces[1].box.width)
        // The man's face (left, higher) is the larger one in this photo.
        #expect(faces[0].box.centre.x < 250 && faces[0].box.centre.y < 150)
    }

    @Test func detectionScaleFollowsTheSmallestFaceAskedFor() throws {
        var options = FaceDetectionStage.Options()
        options.minFaceSize = 0.25
        let large = try FaceDetectionStage(options: options)
        #expect(abs(large.detectionScale(frameWidth: 1280) - 0.25) < 1e-9) // 320 px faces found at 1/4 size
        options.minFaceSize = 0.05
        let small = try FaceDetectionStage(options: options)
        #expect(abs(small.detectionScale(frameWidth: 500) - 3.2) < 1e-9) // 25 px faces upsampled
    }
}

/// Scheduled full passes while a face is followed skip the upsampled pyramid levels two times in three; they must
/// find the followed faces in exactly the boxes the whole scan would (boxes placed from the level they were found on).
struct CoarsePassTests {
    /// Every frame of a real 480×480 clip (upsampled 1.67× for --min-face-size 0.1): the same faces, boxes and
    /// scores with coarse passes as with fine passes only.
    @Test(.needsTestData) func coarsePassesFindTheSameBoxesAsFineOnes() throws {
        let clip = TestData.firstSeconds(4, of: "video/driving_d6.mp4")
        func run(finePassEvery: Int) throws -> [[String]] {
            var pipeline = Pipeline(stages: [try FaceDetectionStage(options: .init(), stillImage: false, finePassEvery: finePassEvery)])
            let source = try FrameSource(url: clip, options: DecodeOptions())
            defer { _ = source.finish() }
            var frames: [[String]] = []
            while let frame = source.next() {
                frames.append(try pipeline.process(frame) { _ in }.faces.map { "\($0.trackingId) \($0.box) \($0.confidence ?? .nan)" })
            }
            return frames
        }
        let coarse = try run(finePassEvery: 3), fine = try run(finePassEvery: 1)
        #expect(coarse.count == 122 && coarse.filter { !$0.isEmpty }.count >= 120)
        #expect(coarse == fine)
        #expect(FaceFinder.coarseLevel(80.0 / 48) == 3 && FaceFinder.coarseLevel(0.63) == 0)
    }
}

/// `inputClosed` counts the frames with a valid face (`faceFrames`, Yoonit's capture rules) and those with any face
/// found (`anyFaceFrames`), so "no face" and "faces the rules refused" are told apart.
struct FaceFrameCountTests {
    /// driving_d3-4s: a webcam talking head so close that its box crosses the frame's bottom edge whenever the man
    /// leans in (Yoonit's isOutOfTheScreen: no valid capture). Boxes shrunk by half on every side never cross it.
    @Test(.needsTestData) func facesCutByTheFrameEdgeAreFoundButNotValid() throws {
        let clip = TestData.firstSeconds(4, of: "video/driving_d3.mp4")
        func closed(_ extra: [String]) throws -> (valid: Int, any: Int, analysed: Int) {
            let result = Shell.frameprobe(["analyze"] + extra + [clip])
            #expect(result.status == 0)
            let event = try #require(result.events(named: "inputClosed").first)
            return (try #require(event.int("faceFrames")), try #require(event.int("anyFaceFrames")), try #require(event.int("framesAnalysed")))
        }
        let plain = try closed([])
        #expect(plain.analysed == 122 && plain.any == 122)
        #expect(plain.valid < plain.any - 10, "\(plain)")
        let shrunk = try closed(["top", "right", "bottom", "left"].map { "--detection-\($0)-size=-0.5" })
        #expect(shrunk.valid == 122 && shrunk.any == 122)
    }
}
