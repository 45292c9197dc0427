import Foundation
@testable import FrameProbe
import Testing

/// `FollowedFacesBoard`: under `--max-faces` the landmark follower posts what it followed on each frame, and the
/// detection stage ahead of it reads frame n − lag's entry on frame n, counting a face the follower holds but its own
/// scans no longer see.
struct FollowedFacesBoardTests {
    static func face(width: Double) -> FaceObservation {
        FaceObservation(box: Box(x: 10, y: 10, width: width, height: width), trackingId: 1)
    }

    /// Entries come back in the order posted, with the count and the narrowest width; a closed board gives what is
    /// left, then nil; a cancelled one never makes a post wait, however many come.
    @Test func entriesComeBackInOrderAndAClosedBoardRunsDry() {
        let board = FollowedFacesBoard(lag: 3)
        #expect(board.lag == 3)
        board.post([Self.face(width: 120), Self.face(width: 80)])
        board.post([])
        board.close()
        #expect(board.entryLagBehind() == FollowedFacesBoard.Entry(count: 2, narrowestWidth: 80))
        #expect(board.entryLagBehind() == FollowedFacesBoard.Entry(count: 0, narrowestWidth: nil))
        #expect(board.entryLagBehind() == nil)

        let cancelled = FollowedFacesBoard(lag: 1)
        cancelled.cancel()
        for _ in 0..<10 { cancelled.post([Self.face(width: 50)]) }  // would wait forever on a full board otherwise
        #expect(cancelled.entryLagBehind() == nil)
    }

    /// The detection stage's scans on a real decoded clip with no face in it (a gray 368×656 frame, too_close_real's
    /// size), under `--max-faces 1` with the landmark follower: counting only its own faces it scans every
    /// `--detect-every` frames (0, 10, 20 …); told by the board that the follower holds a face — from the lag-th
    /// frame on — it scans only on the safety scan's schedule (frame 30, 60, 90).
    @Test func aFaceTheFollowerHoldsGetsOnlyTheSafetyScan() throws {
        let clip = MaxFacesTests.clip("gray.mp4", inputs: MaxFacesTests.gray("368x656", seconds: 4), filter: "[0:v]format=yuv420p")
        func scannedFrames(board: FollowedFacesBoard?) throws -> [Int] {
            var options = FaceDetectionStage.Options()
            options.maxFaces = 1
            var stage = try FaceDetectionStage(options: options, stillImage: false, finePassEvery: FaceDetectionStage.finePassEvery,
                                               followsFaces: false, board: board)
            let source = try FrameSource(url: clip, options: DecodeOptions())
            defer { _ = source.finish() }
            var scanned: [Int] = []
            var analysed = 0
            while let frame = source.next() {
                board?.post([Self.face(width: 200)])  // the follower, a frame ahead here (the lag keeps it in step)
                var analysis = FrameAnalysis()
                try stage.process(frame, &analysis) { _ in }
                if case .scanned = analysis.faceSearch { scanned.append(analysed) }
                analysed += 1
            }
            #expect(analysed == 120)
            return scanned
        }
        #expect(try scannedFrames(board: nil) == Array(stride(from: 0, to: 120, by: 10)))
        #expect(try scannedFrames(board: FollowedFacesBoard(lag: 5)) == [0, 30, 60, 90])
    }
}
