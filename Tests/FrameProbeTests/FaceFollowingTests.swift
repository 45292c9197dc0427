import Foundation
import Testing
@testable import FrameProbe

/// With the landmarks stage, faces are followed by their landmarks between the detection stage's scans
/// (`LandmarkFollower`): a check by the detector at the place the last fit gives, instead of a search around it.
/// Nothing here tuned the follower's constants (FaceFinder.checkMargin/checkedFaceWidth and the landmark box: see
/// their comments for the clips that did).
struct FaceFollowingTests {
    static let talkingHead = TestData.firstSeconds(4, of: "video/driving_d6.mp4")

    static func faceEvents(_ arguments: [String]) throws -> [Int: [String: Any]] {
        let result = Shell.frameprobe(["analyze"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return Dictionary(uniqueKeysWithValues: result.events(named: "faceDetected").compactMap { event in event.int("frame").map { ($0, event) } })
    }

    /// driving_d6-4s (122 frames of a real webcam talking head): every frame keeps the face, under one trackingId,
    /// within 0.15 face widths and ±25 % in size of what a whole-frame scan of that frame finds; and the box is
    /// steadier than the scans' (the median frame-to-frame change in width ≤ 2 %: the scans' own is 3.5 %).
    @Test(.needsTestData) func followedFacesStayWhereScansFindThemAndHoldSteady() throws {
        let followed = try Self.faceEvents([Self.talkingHead])
        let scanned = try Self.faceEvents(["--stages", "faceDetection,faceRegion", "--detect-every", "1", Self.talkingHead])
        #expect(followed.count == 122 && scanned.count == 122)
        #expect(Set(followed.values.compactMap { $0.int("trackingId") }) == [1])
        func box(_ event: [String: Any]) -> Box {
            Box(x: event.double("x") ?? .nan, y: event.double("y") ?? .nan, width: event.double("width") ?? .nan, height: event.double("height") ?? .nan)
        }
        var widthChanges: [Double] = []
        for frame in 0..<122 {
            guard let kept = followed[frame].map(box), let found = scanned[frame].map(box) else { continue }
            #expect(kept.centre.distance(to: found.centre) < 0.15 * found.width, "frame \(frame): \(kept) against \(found)")
            #expect(abs(kept.width / found.width - 1) < 0.25, "frame \(frame): \(kept) against \(found)")
            if let previous = followed[frame - 1].map(box) { widthChanges.append(abs(kept.width / previous.width - 1)) }
        }
        #expect(widthChanges.count == 121)
        #expect(widthChanges.sorted()[widthChanges.count / 2] <= 0.02)
    }

    /// The talking head cut to a faceless real photo (a QR code on a desk) after 25 frames: the face is dropped on
    /// the first frame without it — also when the detection stage's next scan is far away (`--detect-every 1000`,
    /// so only the follower's check can drop it) — and never comes back as a ghost.
    @Test(.needsTestData, arguments: [10, 1000])
    func aFaceGoneAtACutIsDroppedAtOnce(detectEvery: Int) throws {
        let clip = Fixtures.temporaryDirectory().appendingPathComponent("cut.mp4").path
        let photo = TestData.path("qr/qrcode-1/1.png")
        let make = Shell.run("""
            ffmpeg -nostdin -v error -i \(Shell.quote(Self.talkingHead)) -loop 1 -framerate 30 -i \(Shell.quote(photo)) -filter_complex \
            "[0:v]trim=end_frame=25,setpts=PTS-STARTPTS[a];[1:v]scale=480:480,setsar=1,format=yuv420p,trim=end_frame=20,setpts=PTS-STARTPTS[b];[a][b]concat=n=2:v=1[v]" \
            -map "[v]" -c:v libx264 -preset veryfast -crf 18 \(Shell.quote(clip))
            """)
        #expect(make.status == 0, "\(make.stderr)")
        let result = Shell.frameprobe(["analyze", "--detect-every", String(detectEvery), clip])
        #expect(result.status == 0)
        #expect(result.events(named: "faceDetected").compactMap { $0.int("frame") } == Array(0..<25))
        #expect(result.events(named: "faceUndetected").compactMap { $0.int("frame") } == [25])
        #expect(result.events(named: "inputClosed").first?.int("anyFaceFrames") == 25)
    }
}
