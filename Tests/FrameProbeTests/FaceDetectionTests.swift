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
