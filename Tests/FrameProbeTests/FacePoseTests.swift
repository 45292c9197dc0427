import Foundation
import Testing
@testable import FrameProbe

/// Head pose from real photos: ML Kit's sign conventions and the seed's labels.
struct FacePoseTests {
    func primaryFace(_ frame: Frame) throws -> FaceObservation {
        try #require(try FaceFixtures.faces(in: frame, minFaceSize: 0.2).first)
    }

    /// People who look at the camera read frontal on all axes: every eyes-open frame of the real talking heads
    /// (measured: |X| ≤ 10.5°, |Y| ≤ 7.1°, |Z| ≤ 5.6°).
    @Test(.needsTestData) func facesLookingAtTheCameraAreFrontalOnAllAxes() throws {
        let folder = TestData.url("real-frames")
        let frames = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("eyes-open") }
        #expect(frames.count == 9)
        for frame in frames {
            let pose = try #require(try primaryFace(FaceFixtures.firstFrame(folder.appendingPathComponent(frame).path)).headPose)
            #expect(pose.verticalLabel == "Frontal" && pose.horizontalLabel == "Frontal" && pose.tiltLabel == "Frontal", "\(frame): \(pose)")
        }
    }

    /// The dev AFLW2000-3D photos (`pose/` of the test-data folder, ground truth in `pose_truth.csv`, in the wild):
    /// mean absolute error per axis over the photos found with landmarks (8 of 9: the face turned −79° is a profile).
    /// Measured: pitch 4.34°, yaw 2.08°, roll 1.31° (4.79°, 2.36°, 1.09° with the upright scan's box alone rather than
    /// the mean of it and the mirrored scan's; 5.25°, 2.95°, 2.65° with the angles composed Z·Y·X rather than as
    /// AFLW2000-3D composes them, X·Y·Z; 6.07°, 3.07°, 2.64° with the generic face alone). Nothing was tuned on these
    /// photos: the measured face that gives pitch was fitted to renders of seven other faces, its tilt set on the
    /// eyes-open frames of `real-frames/` (head_pose.cpp says which), and the composition is the dataset's own.
    @Test(.needsTestData) func theDevAFLWPhotosReadWithinTheirGroundTruth() throws {
        let folder = TestData.url("pose")
        let table = try String(contentsOf: folder.appendingPathComponent("pose_truth.csv"), encoding: .utf8)
        var errors: [(x: Double, y: Double, z: Double)] = []
        for line in table.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ",").map(String.init)
            let (x, y, z) = (try #require(Double(cells[1])), try #require(Double(cells[2])), try #require(Double(cells[3])))
            let faces = try FaceFixtures.faces(in: FaceFixtures.firstFrame(folder.appendingPathComponent(cells[0]).path))
            guard let pose = faces.first?.headPose else {
                #expect(abs(y) > 60, "\(cells[0]) (yaw \(y)) has no measured pose")
                continue
            }
            errors.append((abs(pose.x - x), abs(pose.y - y), abs(pose.z - z)))
        }
        #expect(errors.count == 8)
        let count = Double(max(errors.count, 1))
        let pitch = errors.map(\.x).reduce(0, +) / count, yaw = errors.map(\.y).reduce(0, +) / count, roll = errors.map(\.z).reduce(0, +) / count
        #expect(pitch <= 4.6 && yaw <= 2.3 && roll <= 1.5, "MAE pitch \(pitch), yaw \(yaw), roll \(roll)")
    }

    /// Rotated 20° counter-clockwise in the image plane: Z ≈ +20, label "Left".
    @Test func rollOfARotatedPortrait() throws {
        let upright = try #require(try primaryFace(FaceFixtures.firstFrame(FaceFixtures.photo("Tom_Cruise_avp_2014_4.jpg"))).headPose)
        let rotated = try #require(try primaryFace(FaceFixtures.rotatedPhoto("Tom_Cruise_avp_2014_4.jpg", counterClockwise: 20)).headPose)
        #expect(abs(rotated.z - 20) <= 6, "Z = \(rotated.z)")
        #expect(abs((rotated.z - upright.z) - 20) <= 3, "the rotation adds 20° to the upright roll \(upright.z)")
        #expect(rotated.tiltLabel == "Left")
        let clockwise = try #require(try primaryFace(FaceFixtures.rotatedPhoto("Tom_Cruise_avp_2014_4.jpg", counterClockwise: -20)).headPose)
        #expect(abs(clockwise.z + 20) <= 6 && clockwise.tiltLabel == "Right", "Z = \(clockwise.z)")
    }

    /// Mirroring the image flips the sign of Y and Z (and keeps X), face by face (2008_002506.jpg: three
    /// faces, two turned about ±11° as they look in the picture — ±26° in the camera's axes, being off-centre —
    /// and tilted ±15°).
    @Test func mirroringFlipsYawAndRoll() throws {
        let photo = "2008_002506.jpg"
        let plain = try FaceFixtures.faces(in: FaceFixtures.firstFrame(FaceFixtures.photo(photo)), minFaceSize: 0.15)
        let mirroredFrame = try FaceFixtures.rotatedPhoto(photo, counterClockwise: 0, mirrored: true)
        let mirrored = try FaceFixtures.faces(in: mirroredFrame, minFaceSize: 0.15)
        #expect(plain.count == 3 && mirrored.count == 3)
        for face in plain {
            let expected = Point2D(x: Double(mirroredFrame.width) - face.box.centre.x, y: face.box.centre.y)
            let twin = try #require(mirrored.first { $0.box.centre.distance(to: expected) < 15 })
            let a = try #require(face.headPose), b = try #require(twin.headPose)
            #expect(abs(a.y + b.y) < 4, "Y \(a.y) vs mirrored \(b.y)")
            #expect(abs(a.z + b.z) < 4, "Z \(a.z) vs mirrored \(b.z)")
            // dlib's landmarks are not exactly mirror-equivariant; pitch moves a few degrees.
            #expect(abs(a.x - b.x) < 8, "X \(a.x) vs mirrored \(b.x)")
        }
        #expect(plain.contains { ($0.headPose?.y ?? 0) > 8 } && plain.contains { ($0.headPose?.y ?? 0) < -8 })
    }

    /// In 2008_002079.jpg the young man at the left turns toward the image's right and the man at the right
    /// toward the image's left: Y > 0 and Y < 0.
    @Test func yawSignOnTurnedFaces() throws {
        let faces = try FaceFixtures.faces(in: FaceFixtures.firstFrame(FaceFixtures.photo("2008_002079.jpg")), minFaceSize: 0.07)
        let left = try #require(faces.first { $0.box.centre.x < 100 && $0.box.centre.y > 180 })
        let right = try #require(faces.first { $0.box.centre.x > 430 && $0.box.centre.y > 160 })
        #expect(try #require(left.headPose).y > 20)
        #expect(try #require(right.headPose).y < -20)
    }

    /// Signs from geometry: moving the nose (the point nearest the camera) right of the rest of the face is a
    /// turn toward the image's right (Y > 0); moving it up is looking up (X > 0).
    @Test func signsFollowTheNosesDisplacement() throws {
        let frame = try FaceFixtures.firstFrame(FaceFixtures.photo("Tom_Cruise_avp_2014_4.jpg"))
        let points = try #require(try primaryFace(frame).landmarks)
        let base = try HeadPoseStage.pose(points, width: frame.width, height: frame.height)
        let nose = Set(27...35)
        func shiftedNose(dx: Double, dy: Double) throws -> HeadPose {
            let moved = points.enumerated().map { index, point in
                nose.contains(index) ? Point2D(x: point.x + dx, y: point.y + dy) : point
            }
            return try HeadPoseStage.pose(moved, width: frame.width, height: frame.height)
        }
        #expect(try shiftedNose(dx: 40, dy: 0).y > base.y + 3)
        #expect(try shiftedNose(dx: -40, dy: 0).y < base.y - 3)
        #expect(try shiftedNose(dx: 0, dy: -40).x > base.x + 3)
        #expect(try shiftedNose(dx: 0, dy: 40).x < base.x - 3)
    }

    @Test func labelsUseStrictComparisonsAndNullOnTheBoundaries() {
        #expect(HeadPose(x: -40, y: 0, z: 0).verticalLabel == "Super Down")
        #expect(HeadPose(x: -36, y: 0, z: 0).verticalLabel == nil)
        #expect(HeadPose(x: -20, y: 0, z: 0).verticalLabel == "Down")
        #expect(HeadPose(x: -12, y: 0, z: 0).verticalLabel == nil)
        #expect(HeadPose(x: 0, y: 0, z: 0).verticalLabel == "Frontal")
        #expect(HeadPose(x: 12, y: 0, z: 0).verticalLabel == nil)
        #expect(HeadPose(x: 20, y: 0, z: 0).verticalLabel == "Up")
        #expect(HeadPose(x: 36, y: 0, z: 0).verticalLabel == nil)
        #expect(HeadPose(x: 37, y: 0, z: 0).verticalLabel == "Super Up")
        #expect(HeadPose(x: 0, y: -37, z: 0).horizontalLabel == "Super Left")
        #expect(HeadPose(x: 0, y: 13, z: 0).horizontalLabel == "Right")
        #expect(HeadPose(x: 0, y: 0, z: 20).tiltLabel == "Left")
        #expect(HeadPose(x: 0, y: 0, z: -20).tiltLabel == "Right")
        #expect(HeadPose(x: 0, y: 0, z: 40).tiltLabel == "Super Left")
    }
}
