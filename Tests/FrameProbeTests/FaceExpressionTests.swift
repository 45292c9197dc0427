import Foundation
import Testing
@testable import FrameProbe

/// Eye-open and smiling probabilities on named faces of dlib's example photos.
struct FaceExpressionTests {
    func face(in photo: String, near x: Double, _ y: Double) throws -> FaceObservation {
        let faces = try FaceFixtures.faces(in: FaceFixtures.firstFrame(FaceFixtures.photo(photo)), minFaceSize: 0.07)
        return try #require(faces.min { $0.box.centre.distance(to: Point2D(x: x, y: y)) < $1.box.centre.distance(to: Point2D(x: x, y: y)) })
    }

    /// The woman at the top centre of 2008_007676.jpg has her eyes closed; Tom Cruise and the man in the
    /// mugshot of bald_guys.jpg (middle of the top row) have them open.
    @Test func closedEyesScoreLowOpenEyesHigh() throws {
        let closed = try face(in: "2008_007676.jpg", near: 244, 81)
        #expect(try #require(closed.leftEyeOpenProbability) < 0.3)
        #expect(try #require(closed.rightEyeOpenProbability) < 0.3)
        for open in [try face(in: "Tom_Cruise_avp_2014_4.jpg", near: 265, 475), try face(in: "bald_guys.jpg", near: 955, 488)] {
            #expect(try #require(open.leftEyeOpenProbability) > 0.7)
            #expect(try #require(open.rightEyeOpenProbability) > 0.7)
        }
    }

    /// Broad smiles (Tom Cruise; the large face top right of bald_guys.jpg) against neutral faces
    /// (the large face left of centre and the mugshot of bald_guys.jpg).
    @Test func smilesScoreHighNeutralFacesLow() throws {
        for smiling in [try face(in: "Tom_Cruise_avp_2014_4.jpg", near: 265, 475), try face(in: "bald_guys.jpg", near: 1600, 250)] {
            #expect(try #require(smiling.smilingProbability) > 0.7)
        }
        for neutral in [try face(in: "bald_guys.jpg", near: 497, 930), try face(in: "bald_guys.jpg", near: 955, 488)] {
            #expect(try #require(neutral.smilingProbability) < 0.3)
        }
    }
}
