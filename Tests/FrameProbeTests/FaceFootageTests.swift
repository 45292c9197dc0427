import Foundation
import Testing
@testable import FrameProbe

/// The face pipeline on generated footage with known motion and sizes.
struct FaceFootageTests {
    /// selfie.mp4: the 565×800 close-up scaled by 0.6 + 0.05·t and placed at x = 300 + 60·t, y = 40 in a 1280×720
    /// frame. The landmarks found on the photo itself, moved the same way, are where the face must be: their
    /// centroid within 4 % of the face width; the box (which dlib places on its 8-pixel HOG grid at the scale it
    /// found the face, so it moves in steps) within 20 %.
    @Test(arguments: [1, 5])
    func selfieClipFaceOnEveryFrameFollowingTheMotion(detectEvery: Int) throws {
        let still = try #require(try FaceFixtures.faces(in: FaceFixtures.firstFrame(FaceFixtures.photo("Tom_Cruise_avp_2014_4.jpg")), minFaceSize: 0.2).first)
        let reference = try #require(still.landmarks)
        let referenceCentroid = centroid(reference)
        let referenceWidth = reference[16].x - reference[0].x
        let result = Shell.frameprobe(["analyze", "--face-contours", "--detect-every", String(detectEvery), Fixtures.path("selfie.mp4")])
        #expect(result.status == 0)
        let faces = result.events(named: "faceDetected")
        #expect(faces.count == 90)
        #expect(Set(faces.compactMap { $0.int("trackingId") }).count == 1)
        #expect(result.events(named: "faceUndetected").isEmpty)
        for event in faces {
            let t = event.double("pts")!, frame = event.int("frame")!
            let scale = Double(2 * Int(565 * (0.6 + 0.05 * t) / 2)) / 565
            let expected = Point2D(x: 300 + 60 * t + referenceCentroid.x * scale, y: 40 + referenceCentroid.y * scale)
            let faceWidth = referenceWidth * scale
            let contours = try #require(event["contours"] as? [String: [[Double]]])
            let points = contours.values.flatMap { $0 }.map { Point2D(x: $0[0], y: $0[1]) }
            #expect(points.count == 68)
            #expect(centroid(points).distance(to: expected) < 0.04 * faceWidth, "frame \(frame): landmarks at \(centroid(points)), expected \(expected)")
            let width = Double(event.int("width")!)
            let boxCentre = Point2D(x: Double(event.int("x")!) + width / 2, y: Double(event.int("y")!) + Double(event.int("height")!) / 2)
            let expectedBoxCentre = Point2D(x: 300 + 60 * t + still.box.centre.x * scale, y: 40 + still.box.centre.y * scale)
            #expect(boxCentre.distance(to: expectedBoxCentre) < 0.2 * still.box.width * scale, "frame \(frame): box at \(boxCentre)")
            #expect(abs(width / (still.box.width * scale) - 1) < 0.25, "frame \(frame): width \(width)")
        }
    }

    func centroid(_ points: [Point2D]) -> Point2D {
        Point2D(x: points.map(\.x).reduce(0, +) / Double(points.count), y: points.map(\.y).reduce(0, +) / Double(points.count))
    }

    func transitions(_ arguments: [String]) -> [String] {
        let result = Shell.frameprobe(["analyze"] + arguments + [Fixtures.path("region.mp4")])
        #expect(result.status == 0 && result.events(named: "inputClosed").first?.int("framesAnalysed") == 90, "\(result.stderr)")
        var sequence: [String] = []
        for event in result.events {
            guard let name = event.string("event") else { continue }
            let item: String
            switch name {
            case "faceDetected": item = "detected"
            case "faceUndetected": item = "undetected@\(event.int("frame") ?? -1)"
            case "message": item = event.string("message") ?? "message without a key"
            default: continue
            }
            if sequence.last != item { sequence.append(item) }
        }
        return sequence
    }

    /// The box shrunk by 20 % on every side: the large face's box comes near the frame's edge, which Yoonit counts
    /// as out of the screen (invalid, no message); shrunk, it stays inside, so the size and ROI rules are what decide.
    static let shrunk = ["--detection-top-size", "-0.2", "--detection-bottom-size", "-0.2", "--detection-left-size", "-0.2",
                         "--detection-right-size", "-0.2"]

    /// region.mp4: 0.5 s segments — centred (face 0.3 W), moved right (centre x 500 of 640), centred, small
    /// (0.09 W, so --min-face-size 0.07 to find it), centred, large (0.6 W).
    @Test func minimumAndMaximumSizeTransitions() {
        #expect(transitions(["--min-face-size", "0.07", "--detection-min-size", "0.2", "--detection-max-size", "0.4"] + Self.shrunk) == [
            "detected", "INVALID_MINIMUM_SIZE", "undetected@45", "detected", "INVALID_MAXIMUM_SIZE", "undetected@75",
        ])
    }

    /// With a region of interest (right offset 0.3) only the ROI and the minimum against the ROI width count:
    /// the moved face and the large one (right edge past 448 px) leave it.
    @Test func regionOfInterestTransitions() {
        #expect(transitions(["--min-face-size", "0.07", "--detection-min-size", "0.2", "--roi-right-offset", "0.3"] + Self.shrunk) == [
            "detected", "INVALID_OUT_OF_ROI", "undetected@15", "detected", "INVALID_MINIMUM_SIZE", "undetected@45",
            "detected", "INVALID_OUT_OF_ROI", "undetected@75",
        ])
    }

    /// A face cut by the frame's edge is invalid without a message (SPEC §4.2): driving_d3-4s, a real webcam face
    /// whose box crosses the frame's bottom edge whenever the man leans in — each valid→invalid transition is a
    /// bare faceUndetected.
    @Test(.needsTestData) func aFaceCutByTheFrameEdgeIsInvalidWithoutAMessage() throws {
        let clip = TestData.firstSeconds(4, of: "video/driving_d3.mp4")
        let result = Shell.frameprobe(["analyze", clip])
        #expect(result.status == 0)
        let undetected = result.events(named: "faceUndetected")
        #expect(undetected.count >= 3)
        #expect(result.events(named: "message").isEmpty)
        let frames = Set(result.events(named: "faceDetected").compactMap { $0.int("frame") })
        for event in undetected {
            let frame = try #require(event.int("frame"))
            #expect(!frames.contains(frame) && frames.contains(frame - 1), "frame \(frame)")
        }
    }

    @Test func noFaceGivesOneUndetectedEvent() {
        let result = Shell.frameprobe(["analyze", Fixtures.path("pattern.mp4")])
        #expect(result.events(named: "faceDetected").isEmpty)
        #expect(result.events(named: "faceUndetected").count == 1)
        #expect(result.events(named: "faceUndetected").first?.int("frame") == 0)
        #expect(result.events(named: "message").isEmpty)
    }

    @Test func enlargementAppliesPerSide() {
        let plain = Shell.frameprobe(["analyze", "--duration", "0.1", Fixtures.path("selfie.mp4")]).events(named: "faceDetected")
        let grown = Shell.frameprobe(["analyze", "--duration", "0.1", "--detection-top-size", "0.5", "--detection-left-size", "-0.2",
                                      Fixtures.path("selfie.mp4")]).events(named: "faceDetected")
        let a = plain[0], b = grown[0]
        let width = Double(a.int("width")!), height = Double(a.int("height")!)
        // top grows by 0.5·h/2, left shrinks by 0.2·w/2; right and bottom stay.
        #expect(abs(Double(b.int("y")!) - (Double(a.int("y")!) - 0.25 * height)) <= 1.5)
        #expect(abs(Double(b.int("x")!) - (Double(a.int("x")!) + 0.1 * width)) <= 1.5)
        #expect(abs(Double(b.int("x")! + b.int("width")!) - Double(a.int("x")! + a.int("width")!)) <= 1.5)
        #expect(abs(Double(b.int("y")! + b.int("height")!) - Double(a.int("y")! + a.int("height")!)) <= 1.5)
    }

    @Test func contoursAndFaceQualityWhenAsked() {
        let result = Shell.frameprobe(["analyze", "--duration", "0.1", "--face-contours", "--face-quality", Fixtures.path("selfie.mp4")])
        let faces = result.events(named: "faceDetected")
        #expect(result.status == 0 && !faces.isEmpty, "\(result.stderr)")
        let face = faces.first
        let contours = face?["contours"] as? [String: [[Double]]]
        #expect(contours?["jaw"]?.count == 17 && contours?["leftEye"]?.count == 6 && contours?["innerLips"]?.count == 8)
        let quality = face?["quality"] as? [String: Any]
        #expect(quality?.double("sharpness") != nil && quality?.string("darknessLabel") == "Acceptable")
    }

    @Test func faceCaptureWritesCropsOnTheMediaTimeGate() throws {
        let out = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = Shell.frameprobe(["analyze", "--output-dir", out.path, "--number-of-images", "3", "--time-between-images", "700",
                                       "--output-image-width", "120", "--output-image-height", "150", "--annotate", Fixtures.path("selfie.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        let captured = result.events(named: "imageCaptured")
        #expect(captured.compactMap { $0.double("pts") } == [0, 0.7, 1.4])
        #expect(captured.allSatisfy { $0.string("type") == "face" && $0.int("total") == 3 })
        #expect(result.events(named: "endCapture").count == 1)
        for event in captured {
            let crop = try FaceFixtures.firstFrame(try #require(event.string("imagePath")))
            #expect(crop.width == 120 && crop.height == 150)
            // The crop is the face: a face fills it.
            let faces = try FaceFixtures.faces(in: crop, minFaceSize: 0.5)
            #expect(faces.count == 1)
            #expect(event.string("darknessLabel") == "Acceptable" && event.string("sharpnessLabel") != nil)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("selfie.mp4").path).sorted()
        #expect(files == ["face-0001-annotated.jpg", "face-0001.jpg", "face-0002-annotated.jpg", "face-0002.jpg",
                          "face-0003-annotated.jpg", "face-0003.jpg"])
    }

    @Test(arguments: [
        (["--detection-min-size", "1.5"], "INVALID_MINIMUM_SIZE"),
        (["--detection-min-size", "0.6", "--detection-max-size", "0.5"], "INVALID_MINIMUM_SIZE"),
        (["--detection-max-size", "-0.1"], "INVALID_MAXIMUM_SIZE"),
        (["--roi-top-offset", "1.2"], "INVALID_ROI_TOP_OFFSET"),
        (["--roi-left-offset", "0.6", "--roi-right-offset", "0.5"], "INVALID_ROI_RIGHT_OFFSET"),
        (["--roi-top-offset", "0.5", "--roi-bottom-offset", "0.5"], "INVALID_ROI_BOTTOM_OFFSET"),
        (["--detection-box-color", "1,2,0,0"], "INVALID_DETECTION_BOX_COLOR"),
        (["--face-contours-color", "red"], "INVALID_FACE_CONTOURS_COLOR"),
        (["--roi-color", "0.5,0.5,0.5"], "INVALID_ROI_COLOR"),
        (["--min-face-size", "0"], "INVALID_MIN_FACE_SIZE"),
    ])
    func invalidFaceSettingsExitTwo(arguments: [String], key: String) {
        let result = Shell.frameprobe(["analyze"] + arguments + [Fixtures.path("selfie.mp4")])
        #expect(result.status == 2)
        #expect(result.events(named: "error").first?.string("key") == key)
    }

    @Test func missingLandmarkModelIsAClearError() {
        let result = Shell.run("FRAMEPROBE_SHAPE_PREDICTOR=/nonexistent/model.dat $FP analyze \(Shell.quote(Fixtures.path("selfie.mp4")))")
        #expect(result.status == 1)
        let error = result.events.first { $0.string("event") == "error" }
        #expect(error?.string("key") == "MODEL_MISSING")
        #expect(error?.string("message")?.contains("libdlib-data") == true)
    }
}
