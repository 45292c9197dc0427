import Foundation
import Testing
@testable import FrameProbe

/// Faces turned (yaw) and pitched by known angles (SPEC §3): renders of three real frames with the head turned,
/// `turned/` of the test-data folder (see its PROVENANCE.tsv; made by Scripts/render_turned_faces.py). Nothing in frameprobe was
/// tuned on these faces; the Haar-over-LBP profile cascade choice saw them with three other renders.
@Suite(.needsTestData)
struct FaceTurnTests {
    struct Render {
        var file: String
        var face: String
        var pitch: Double
        var yaw: Double
    }

    static var folder: URL { TestData.url("turned") }

    static let renders: [Render] = {
        guard let table = try? String(contentsOf: folder.appendingPathComponent("PROVENANCE.tsv"), encoding: .utf8) else { return [] }
        return table.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("file\t") }.map { line in
            let cells = line.split(separator: "\t").map(String.init)
            return Render(file: cells[0], face: String(cells[0].prefix { $0 != "_" }), pitch: Double(cells[1])!, yaw: Double(cells[2])!)
        }
    }()

    func faces(_ render: Render) throws -> [FaceObservation] {
        try FaceFixtures.faces(in: try FaceFixtures.firstFrame(Self.folder.appendingPathComponent(render.file).path))
    }

    @Test func theRendersAreThere() {
        #expect(Self.renders.count == 60)
        #expect(Set(Self.renders.map(\.face)) == ["d11", "wda", "d3"])
    }

    /// Up to ±30° of yaw every face is found frontally (with landmarks) and Y is within 8° of the applied yaw
    /// (measured: mean error 1.7°, worst 4.2°).
    @Test func yawUpTo30DegreesIsMeasured() throws {
        var errors: [Double] = []
        for render in Self.renders where render.pitch == 0 && abs(render.yaw) <= 30 {
            let face = try #require(try faces(render).first, "\(render.file): no face")
            #expect(face.profile == nil, "\(render.file)")
            let yaw = try #require(face.headPose, "\(render.file): no pose").y
            errors.append(abs(yaw - render.yaw))
            #expect(abs(yaw - render.yaw) <= 8, "\(render.file): Y \(yaw)")
        }
        #expect(errors.count == 21)
        #expect(errors.reduce(0, +) / Double(errors.count) <= 3, "mean yaw error \(errors)")
    }

    /// Beyond 30° full scans find faces in profile: at least 19 of the 24 turned 40°–70° (measured: 20), each on
    /// the side it is turned to, reported without landmarks (dlib's 68-point fit is nonsense there).
    /// dlib's filters for turned faces are not mirror-symmetric: d3 turned −30° is found frontally, its mirror image
    /// (turned +30°) only by the upright scan of the mirrored frame — before that scan it was a profile face at a
    /// rough −60°. Both are now measured, with yaws of opposite sign within 3° (measured 33.1° and −32.4°). The
    /// mirrored scan also finds wda pitched −15°, which no scan found before.
    @Test func theMirroredScanFindsWhatDlibsFiltersMissOnOneSide() throws {
        let render = try #require(Self.renders.first { $0.file == "d3_p0_y30_r0.jpg" })
        let mirrored = Fixtures.temporaryDirectory().appendingPathComponent("mirrored.png").path
        let flip = Shell.run("ffmpeg -nostdin -v error -y -i \(Shell.quote(Self.folder.appendingPathComponent(render.file).path)) -vf hflip \(Shell.quote(mirrored))")
        #expect(flip.status == 0, "\(flip.stderr)")
        let face = try #require(try faces(render).first)
        let mirror = try #require(try FaceFixtures.faces(in: try FaceFixtures.firstFrame(mirrored)).first)
        #expect(face.profile == nil && mirror.profile == nil)
        let yaw = try #require(face.headPose?.y), mirroredYaw = try #require(mirror.headPose?.y)
        #expect(abs(yaw - 30) < 8 && abs(yaw + mirroredYaw) < 3, "\(yaw) and \(mirroredYaw)")
        let pitched = try #require(Self.renders.first { $0.file == "d11_p-15_y0_r0.jpg" })
        #expect(try faces(pitched).count == 1)
    }

    /// Detection is mirror-symmetric: every render turned in yaw (−70° to 70°) and its mirror image are found
    /// alike — both or neither, both frontal or both in profile, on opposite sides — and where both have a pose,
    /// their yaws are of opposite sign within 1.5° (measured: 0.3° at worst but on d3 turned −40°, 0.96°, whose box
    /// the render's edge cuts). A face both the upright and the mirrored scan find takes the mean of the two boxes
    /// (`FaceFinder.join`); before, the upright scan's box was kept and wda turned 40° read 6.9° apart, its two
    /// filters' boxes differing most. Before a photo's landmarks were the mean of the fit on it and on its mirror
    /// image (`LandmarkFitter.mirrorAveraged`), pairs were up to 4.9° apart on the others too.
    @Test func aFaceAndItsMirrorImageAreFoundAlike() throws {
        var differences: [Double] = []
        for render in Self.renders where render.pitch == 0 {
            let path = Self.folder.appendingPathComponent(render.file).path
            let face = try faces(render).first
            let mirror = try FaceFixtures.faces(in: try FaceFixtures.rotatedPhoto(path, counterClockwise: 0, mirrored: true)).first
            #expect((face == nil) == (mirror == nil), "\(render.file): found \(face != nil), mirrored \(mirror != nil)")
            guard let face, let mirror else { continue }
            let mirroredSide = mirror.profile.map { $0 == .left ? ProfileSide.right : .left }
            #expect(face.profile == mirroredSide, "\(render.file): profile \(String(describing: face.profile)), mirrored \(String(describing: mirror.profile))")
            if let yaw = face.headPose?.y, let mirroredYaw = mirror.headPose?.y {
                #expect(abs(yaw + mirroredYaw) < 1.5, "\(render.file): Y \(yaw) vs mirrored \(mirroredYaw)")
                differences.append(abs(yaw + mirroredYaw))
            }
        }
        #expect(differences.count >= 20, "\(differences.count) poses compared")
    }

    @Test func turnedFacesAreFoundInProfile() throws {
        var found = 0
        for render in Self.renders where render.pitch == 0 && abs(render.yaw) >= 40 {
            guard let face = try faces(render).first else { continue }
            found += 1
            if let side = face.profile {
                #expect(side == (render.yaw > 0 ? .right : .left), "\(render.file): \(side)")
                #expect(face.landmarks == nil && face.headPose == nil, "\(render.file)")
            } else {
                let yaw = try #require(face.headPose, "\(render.file)").y
                #expect(yaw * render.yaw > 0 && abs(yaw) >= 25, "\(render.file): Y \(yaw)")
            }
        }
        #expect(found >= 19, "found \(found) of 24 turned faces")
    }

    /// On a photo every pass of a full scan runs, whatever the others found: a face turned 60° (found only by the
    /// profile cascade) beside a frontal one is found with it. Before, the frontal find kept the profile pass from
    /// running, and the photo had one face. (A real frame of `real-frames/` beside a render of `turned/`; nothing was
    /// tuned on either.)
    @Test func aTurnedFaceBesideAFrontalOneIsFoundInAPhoto() throws {
        let frontal = TestData.url("real-frames").appendingPathComponent("driving_d10-200-eyes-open.jpg").path
        let turned = Self.folder.appendingPathComponent("d3_p0_y-60_r0.jpg").path
        let pair = Fixtures.temporaryDirectory().appendingPathComponent("pair.png").path
        let made = Shell.run("ffmpeg -nostdin -v error -y -i \(Shell.quote(frontal)) -i \(Shell.quote(turned)) -filter_complex hstack \(Shell.quote(pair))")
        try #require(made.status == 0, "\(made.stderr)")
        let faces = try FaceFixtures.faces(in: try FaceFixtures.firstFrame(pair))
        #expect(faces.count == 2, "\(faces.map(\.box))")
        let left = try #require(faces.first { $0.box.centre.x < 512 }), right = try #require(faces.first { $0.box.centre.x >= 512 })
        let frontalYaw = try #require(left.headPose, "\(left.box)").y
        #expect(left.profile == nil && left.landmarks != nil && abs(frontalYaw) < 12, "\(left.box): Y \(frontalYaw)")
        #expect(right.profile == .left && right.landmarks == nil, "\(right.box)")
    }

    /// Pitch moves with the applied pitch, never against it: looking down 10°–20° more reads lower, never higher,
    /// and on every face the readings rise from −20° to +20°. The change from each face's own unturned render
    /// follows the applied pitch within 3° on average over every render with a pose (measured 1.76°; 4.92° with the
    /// generic face alone, which compressed looking down and stretched looking up). The renders' zero is not a
    /// measured pose: it stands the eye-to-mouth line square to the camera in MediaPipe's depth of one photo, which
    /// differs from face to face (on the dev AFLW photos it reads 9° above their truth on average, −7° to +20°),
    /// so the change is compared, not the absolute reading.
    @Test func pitchFollowsTheApplied() throws {
        var changeErrors: [Double] = []
        for face in ["d11", "wda", "d3"] {
            let unturned = try #require(Self.renders.first { $0.face == face && $0.pitch == 0 && $0.yaw == 0 })
            let zero = try #require(try faces(unturned).first?.headPose).x
            for render in Self.renders where render.face == face {
                guard let pose = try faces(render).first?.headPose else { continue }
                changeErrors.append(abs(pose.x - zero - render.pitch))
            }
            var readings: [(applied: Double, read: Double)] = []
            for render in Self.renders where render.face == face && render.yaw == 0 {
                guard let pose = try faces(render).first?.headPose else { continue }
                readings.append((render.pitch, pose.x))
            }
            readings.sort { $0.applied < $1.applied }
            let frontal = try #require(readings.first { $0.applied == 0 }, "\(face): frontal render not measured").read
            #expect(readings.count >= 4, "\(face): \(readings)")
            for (earlier, later) in zip(readings, readings.dropFirst()) {
                #expect(later.read > earlier.read, "\(face): pitch readings \(readings)")
            }
            for reading in readings where reading.applied < 0 {
                #expect(reading.read < frontal, "\(face): looking down \(reading.applied)° reads \(reading.read) vs \(frontal)")
            }
        }
        #expect(changeErrors.count >= 30)
        #expect(changeErrors.reduce(0, +) / Double(max(changeErrors.count, 1)) <= 3, "pitch change errors \(changeErrors)")
    }
}

/// The landmark fit against dlib's `training_with_face_landmarks.xml` / `testing_with_face_landmarks.xml` (43 faces
/// with 68 points). Those points were made by the same dlib model on dlib's own detector boxes, so this checks our
/// plumbing — scan scale, boxes, the upright refits — not the model: each labelled face is fitted where dlib fits it
/// (measured on the 42 found — the detector misses one, as in `FaceDetectionTests`' recall — mean error 1.9 % of
/// the outer-eye-corner distance, worst 6.2 %).
struct LandmarkFitTests {
    @Test func theFitMatchesDlibsOwnOnItsLabelledPhotos() throws {
        var errors: [Double] = []
        for file in ["training_with_face_landmarks.xml", "testing_with_face_landmarks.xml"] {
            for (image, labelled) in FaceFixtures.labelledFaces(file) {
                let faces = try FaceFixtures.faces(in: try FaceFixtures.firstFrame(FaceFixtures.photo(image)), minFaceSize: 0.07)
                for truth in labelled {
                    #expect(truth.landmarks.count == 68)
                    let eyes = truth.landmarks[36].distance(to: truth.landmarks[45])
                    let found = faces.compactMap { face in
                        face.landmarks.map { points in zip(points, truth.landmarks).map { $0.distance(to: $1) }.reduce(0, +) / 68 / eyes }
                    }.min()
                    errors.append(found ?? .infinity)
                }
            }
        }
        #expect(errors.count == 43)
        let fitted = errors.filter { $0 < 0.25 }  // a larger error is another face: this one was not found
        #expect(fitted.count >= 42, "\(errors)")
        #expect(fitted.allSatisfy { $0 < 0.08 }, "\(errors)")
        #expect(fitted.reduce(0, +) / Double(max(fitted.count, 1)) < 0.03, "\(errors)")
    }
}
