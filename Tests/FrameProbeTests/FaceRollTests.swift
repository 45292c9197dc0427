import Foundation
import Testing
@testable import FrameProbe

/// Faces rolled up to ±45° (SPEC §3): found, and Z right to a few degrees — the landmarks are fitted on a copy
/// turned upright (from dlib's rolled HOG filters, or turned scans), not on an upright box. Photos turned in 5°
/// steps; nothing was tuned on these angles (the 30° start of a rolled filter was read off Tom_Cruise's steps).
struct FaceRollTests {
    static let angles = Array(stride(from: -45, through: 45, by: 5))

    func z(_ frame: Frame) throws -> Double {
        let face = try #require(try FaceFixtures.faces(in: frame, minFaceSize: 0.15).first)
        return try #require(face.headPose).z
    }

    /// Z moves with the applied rotation (relative to the photo's own roll) within ±4°, at every step, and the
    /// mirror image reads −Z within ±3°.
    @Test(.needsTestData, arguments: ["Tom_Cruise_avp_2014_4.jpg", "real:driving_d11-200-eyes-open-nosmile.jpg", "real:driving_d3-300-eyes-open-nosmile.jpg"])
    func rollFollowsTheRotationAndMirrors(photo: String) throws {
        let path = photo.hasPrefix("real:")
            ? TestData.path("real-frames/" + photo.dropFirst(5))
            : FaceFixtures.photo(photo)
        let own = try z(try FaceFixtures.firstFrame(path))
        var worst = 0.0, worstMirror = 0.0
        for angle in Self.angles {
            let turned = try z(try FaceFixtures.rotatedPhoto(path, counterClockwise: Double(angle)))
            // The mirror of the photo turned the other way is the mirror image of this one.
            let mirror = try z(try FaceFixtures.rotatedPhoto(path, counterClockwise: Double(-angle), mirrored: true))
            worst = max(worst, abs(turned - own - Double(angle)))
            worstMirror = max(worstMirror, abs(mirror + turned))
        }
        #expect(worst <= 4, "worst Z error \(worst)° on \(photo)")
        #expect(worstMirror <= 3, "worst mirror error \(worstMirror)° on \(photo)")
    }
}
