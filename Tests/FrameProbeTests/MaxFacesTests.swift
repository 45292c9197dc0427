import Foundation
@testable import FrameProbe
import Testing

/// `--max-faces N`: while N faces are followed, the scheduled whole-frame scans give way to a safety scan every
/// 3 × `--detect-every` frames (30 by default), for faces at least half as wide as the followed ones. Nothing here
/// tuned that schedule: it is the issue's trade (scans were the largest share of a portrait selfie's time), measured
/// on `Scripts/bench`.
struct MaxFacesTests {
    /// Per analysed frame, how many faces the primary face's event counted.
    static func faceCounts(_ arguments: [String]) -> [Int: Int] {
        let result = Shell.frameprobe(["analyze"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return Dictionary(uniqueKeysWithValues: result.events(named: "faceDetected").compactMap { event in
            event.int("frame").flatMap { frame in event.int("faceCount").map { (frame, $0) } }
        })
    }

    /// A clip made by ffmpeg in a fresh temporary folder: `inputs` (ffmpeg's input arguments) through `filter`
    /// (its filter graph), encoded as H.264.
    static func clip(_ name: String, inputs: String, filter: String) -> String {
        let clip = Fixtures.temporaryDirectory().appendingPathComponent(name).path
        let make = Shell.run("""
            ffmpeg -nostdin -v error \(inputs) -filter_complex "\(filter)" -an -c:v libx264 -preset veryfast -crf 18 \(Shell.quote(clip))
            """)
        #expect(make.status == 0, "\(make.stderr)")
        return clip
    }

    /// A real talking head, driving_d6, as an ffmpeg input of `seconds`.
    static func talkingHead(seconds: Int) -> String { "-t \(seconds) -i \(Shell.quote(TestData.path("video/driving_d6.mp4")))" }

    /// A gray background of `size` at 30 fps for `seconds`, as an ffmpeg input.
    static func gray(_ size: String, seconds: Int) -> String { "-f lavfi -i color=gray:s=\(size):r=30:d=\(seconds)" }

    /// The walk-in clip (below), made in a fresh temporary folder.
    static func walkIn() -> String {
        clip("walk-in.mp4", inputs: "\(talkingHead(seconds: 4)) -t 4 -i \(Shell.quote(TestData.path("video/driving_d10.mp4")))",
             filter: "[0:v]pad=960:480:0:0:color=gray[a];[1:v]scale=480:480,setsar=1[b];[a][b]overlay=x='960-480*min(1,max(0,(t-1)/0.5))':y=0:shortest=1,format=yuv420p")
    }

    /// Two real webcam talking heads side by side in a 960×480 frame: driving_d6 on the left from the start, and
    /// driving_d10 sliding in from the right edge between 1 s and 1.5 s (frames 30–45), then staying. By default
    /// the second face is found by a scheduled scan (every 10 frames) once it is in; with `--max-faces 1` the first
    /// face is followed alone until the next safety scan (frames 30, 60, 90 …) finds the second one — within 30
    /// frames of the default — and from then on both are followed to the end.
    @Test(.needsTestData) func aSecondFaceWalkingInIsFoundByTheSafetyScan() throws {
        let clip = Self.walkIn()
        let everyFace = Self.faceCounts([clip])
        let oneFace = Self.faceCounts(["--max-faces", "1", clip])
        #expect(everyFace.count == 120 && oneFace.count == 120, "a face on every frame: \(everyFace.count), \(oneFace.count)")

        let scanned = try #require(everyFace.keys.sorted().first { everyFace[$0] == 2 }, "the second face is found by default")
        let safety = try #require(oneFace.keys.sorted().first { oneFace[$0] == 2 }, "the second face is found with --max-faces 1")
        #expect((30...50).contains(scanned), "found by default at frame \(scanned)")
        #expect(safety % 30 == 0 && safety >= scanned && safety <= scanned + 30, "found by the safety scan at frame \(safety), by default at \(scanned)")
        #expect((0..<safety).allSatisfy { oneFace[$0] == 1 }, "one face followed alone until the safety scan")
        #expect((safety..<120).allSatisfy { oneFace[$0] == 2 }, "both faces followed from the safety scan on")
        #expect((scanned..<120).allSatisfy { everyFace[$0] == 2 })
    }

    /// Where one face stays in view and is never lost, `--max-faces 1` gives the default's events, byte for byte (the
    /// scans it skips would only have found the face it follows): the first 4 s of a webcam talking head and of the
    /// portrait selfie clip. (All twelve devdata clips with such a face are identical; too_close_real, whose face is
    /// lost and found again at the frame's edges, is not.)
    @Test(.needsTestData, arguments: ["video/driving_d6.mp4", "selfie/filmed_pexels_8048492.mp4"])
    func withOneFaceFollowedTheEventsAreTheDefaults(clip: String) throws {
        let input = TestData.firstSeconds(4, of: clip)
        func events(_ arguments: [String]) -> [String] {
            let result = Shell.frameprobe(["analyze"] + arguments + [input])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init).filter { !$0.contains(#""event":"runStarted""#) && !$0.contains(#""event":"inputClosed""#) }
        }
        let everyFace = events([]), oneFace = events(["--max-faces", "1"])
        #expect(everyFace.filter { $0.contains(#""event":"faceDetected""#) }.count >= 90, "a face on most of the 4 s")
        #expect(oneFace == everyFace)
    }

    /// `acquire` expects one face (`--max-faces 1`) and still says MULTIPLE_FACES when a second one walks in: from the
    /// safety scan that finds it (frame 60 of the walk-in clip), to the end, and not before.
    @Test(.needsTestData) func acquireSaysMultipleFacesFromTheSafetyScanOn() throws {
        let result = Shell.frameprobe(["acquire", "--output-dir", Fixtures.temporaryDirectory().path, Self.walkIn()])
        #expect(result.status == 1, "the session ends without a clip (FACE_NEVER_STABLE): \(result.stderr)")
        let changes = result.events(named: "faceInfo").compactMap { event in event.int("frame").map { ($0, event.string("state") ?? "") } }
        let multiple = try #require(changes.firstIndex { $0.1 == "MULTIPLE_FACES" }, "\(changes)")
        #expect(changes[multiple].0 == 60, "\(changes)")
        #expect(multiple == changes.count - 1, "MULTIPLE_FACES holds to the end: \(changes)")
        #expect(result.events(named: "videoRecordStarted").isEmpty, "nothing is recorded with two faces in view")
    }

    /// With no face followed under `--max-faces`, the landmark follower scans every frame at the frame's own size,
    /// and the detection stage's scheduled scans (every 10 frames) upsample for faces down to `--min-face-size` only
    /// every third time — frames 0, 30, 60 … — as while faces are followed. A real talking head (driving_d6) shrunk
    /// to a 56-px face, too small for the detector at the frame's own size, appears at frame 35 in a 360×360 frame
    /// (smallest face asked for: 36 px): by default it is found at once, with `--max-faces 1` by the fine scan of
    /// frame 60 (before that schedule, by the scan of frame 40).
    @Test(.needsTestData) func aSmallFaceWithNoneFollowedIsFoundByTheNextFineScan() throws {
        let clip = Self.clip("small-face.mp4", inputs: "\(Self.gray("360x360", seconds: 3)) \(Self.talkingHead(seconds: 3))",
                             filter: "[1:v]scale=96:96,setsar=1[f];[0:v][f]overlay=x=132:y=132:enable='gte(n,35)':shortest=1,format=yuv420p")
        let everyFace = Self.faceCounts([clip]).keys.sorted()
        let oneFace = Self.faceCounts(["--max-faces", "1", clip]).keys.sorted()
        #expect(everyFace.first == 35 && everyFace.count == 90 - 35, "found by default from frame \(everyFace.first ?? -1), on \(everyFace.count) frames")
        #expect(oneFace.first == 60 && oneFace.count == 90 - 60, "found with --max-faces 1 from frame \(oneFace.first ?? -1), on \(oneFace.count) frames")
    }

    /// A real talking head (driving_d6) rolled by 54° — beyond dlib's rolled filters (about ±30°), so only the
    /// scans of copies turned by ±35° find it — appears at frame 35 in a 480×480 frame, its face ≈ 130 or ≈ 52 px wide
    /// (smallest face asked for: 48 px). By default the turned scans run every 10 frames with no face and find both
    /// at frame 40. Under `--max-faces 1` they run on every 10th of the detection stage's scans — frame 100 here —
    /// and at the frame's own size at most (upsampled, they cost five times the upright scan on a small frame): the
    /// large face is found there, the small one, below the detector's 80-px window, is not (what `--max-faces` gives
    /// up, README). Nothing was tuned on this clip.
    @Test(.needsTestData, arguments: [(220, 100), (90, nil)] as [(Int, Int?)])
    func aRolledFaceIsFoundByTurnedScansAtTheFramesOwnSize(size: Int, foundWithOneFace: Int?) throws {
        let clip = Self.clip("rolled-\(size).mp4", inputs: "\(Self.gray("480x480", seconds: 4)) \(Self.talkingHead(seconds: 4))", filter: """
            [1:v]scale=\(size):\(size),rotate=PI*0.3:ow=hypot(iw\\,ih):oh=ow:c=gray,setsar=1[f];\
            [0:v][f]overlay=x=(W-w)/2:y=(H-h)/2:enable='gte(n,35)':shortest=1,format=yuv420p
            """)
        let everyFace = Self.faceCounts([clip]).keys.sorted()
        let oneFace = Self.faceCounts(["--max-faces", "1", clip]).keys.sorted()
        #expect(everyFace == Array(40..<120), "by default: \(everyFace)")
        #expect(oneFace == foundWithOneFace.map { Array($0..<120) } ?? [], "with --max-faces 1: \(oneFace)")
    }

    /// A real talking head (driving_d6, its face ≈ 400 px wide in a 720×720 frame) cut away at frame 35, leaving a
    /// gray frame, and back at frame 47 at full size or at a third of it (≈ 125 px). By default the landmark follower
    /// scans every frame with none followed and finds it on its first frame back, whatever its size. With
    /// `--max-faces 1` those scans look for faces at least half as wide as the lost one (`LandmarkFollower
    /// .lostFaceShare`, the safety scan's share; not tuned on any clip) except on every 10th frame after the loss —
    /// frames 45, 55 … — which look for every size: the face back at full size is found at once, the small one at
    /// frame 55 (the detection stage's own scans, scheduled from its last hit at frame 30, come later: the safety
    /// scan of frame 60 only looks for faces half as wide as the one it last found).
    @Test(.needsTestData, arguments: [(720, 47), (240, 55)])
    func aLostFaceComingBackIsFoundByTheFollowersScans(size: Int, foundWithOneFace: Int) throws {
        let clip = Self.clip("back-\(size).mp4", inputs: "\(Self.gray("720x720", seconds: 3)) \(Self.talkingHead(seconds: 3))", filter: """
            [1:v]scale=720:720,setsar=1,split[a][b];[b]scale=\(size):\(size)[s];[0:v][a]overlay=enable='lt(n,35)'[g];\
            [g][s]overlay=x=(720-\(size))/2:y=(720-\(size))/2:enable='gte(n,47)':shortest=1,format=yuv420p
            """)
        let everyFace = Self.faceCounts([clip]).keys.sorted()
        let oneFace = Self.faceCounts(["--max-faces", "1", clip]).keys.sorted()
        #expect(everyFace == Array(0..<35) + Array(47..<90), "by default: \(everyFace)")
        #expect(oneFace == Array(0..<35) + Array(foundWithOneFace..<90), "with --max-faces 1: \(oneFace)")
    }

    /// too_close_real (a real phone selfie held close, 368×656) looks far down on frames 355–416: dlib's HOG filters
    /// no longer score the face as one, and by default it is lost there (no face at all on those 62 frames). Under
    /// `--max-faces 1` a correlation tracker started on the last frame the detector found it holds it
    /// (`LandmarkFollower`, `CorrelationTracker.lostBelow`: MOSSE's published ratio, not tuned on any clip; this
    /// clip tests it): a face on every one of the 621 frames, its box moving a little from frame to frame into the
    /// one the detector finds when the head comes up, and its pitch reading down (below −15°) while it is held.
    @Test(.needsTestData) func aFaceLookingFarDownIsHeldByTheTracker() throws {
        let clip = TestData.path("selfie/too_close_real.mp4")
        func run(_ arguments: [String]) -> (anyFaceFrames: Int?, faces: [Int: [String: Any]]) {
            let result = Shell.frameprobe(["analyze"] + arguments + [clip])
            #expect(result.status == 0, "\(result.stderr)")
            let faces = Dictionary(result.events(named: "faceDetected").compactMap { event in event.int("frame").map { ($0, event) } },
                                   uniquingKeysWith: { first, _ in first })
            return (result.events(named: "inputClosed").first?.int("anyFaceFrames"), faces)
        }
        let everyFace = run([]), oneFace = run(["--max-faces", "1"])
        #expect(everyFace.anyFaceFrames.map { $0 <= 621 - 60 } == true, "by default the face is lost looking down: \(everyFace.anyFaceFrames ?? -1)")
        #expect((356...414).allSatisfy { everyFace.faces[$0] == nil })
        #expect(oneFace.anyFaceFrames == 621, "held on every frame: \(oneFace.anyFaceFrames ?? -1)")
        func box(_ event: [String: Any]?) -> Box? {
            guard let event, let x = event.double("x"), let y = event.double("y"), let w = event.double("width"), let h = event.double("height") else { return nil }
            return Box(x: x, y: y, width: w, height: h)
        }
        for frame in 354...418 {
            let here = try #require(box(oneFace.faces[frame]), "a face inside the frame on frame \(frame)")
            if let before = box(oneFace.faces[frame - 1]) {
                #expect(here.intersectionOverUnion(before) > 0.5, "frame \(frame): \(here) after \(before)")
            }
        }
        let pitches = (360...410).compactMap { oneFace.faces[$0]?.double("headEulerAngleX") }
        #expect(pitches.count == 51 && pitches.allSatisfy { $0 < -15 }, "looking down while held: \(pitches)")
    }

    /// A real talking head (driving_d6, 480×480) sliding out of a 960×480 frame to the right from 1 s to 2.5 s: by
    /// default the face is dropped when the detector no longer sees it, about half out (62 face frames). Under
    /// `--max-faces 1` the correlation tracker holds it further, until its box's centre leaves the frame — the face's
    /// centre crosses the edge on frame 64 — and never after: no ghost where it was, although what the tracker
    /// last held is still in view, and nothing on the 45 frames after it is gone.
    @Test(.needsTestData) func aFaceWalkingOutIsLetGoWhenItsCentreLeaves() throws {
        let clip = Self.clip("walk-out.mp4", inputs: "\(Self.gray("960x480", seconds: 4)) \(Self.talkingHead(seconds: 4))",
                             filter: "[1:v]scale=480:480,setsar=1[f];[0:v][f]overlay=x='960*min(1,max(0,(t-1)/1.5))':y=0:shortest=1,format=yuv420p")
        func faceFrames(_ arguments: [String]) -> Int {
            let result = Shell.frameprobe(["analyze"] + arguments + [clip])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.events(named: "faceUndetected").count == 1, "lost once, never back: \(result.stdout)")
            return result.events(named: "inputClosed").first?.int("anyFaceFrames") ?? -1
        }
        let everyFace = faceFrames([]), oneFace = faceFrames(["--max-faces", "1"])
        #expect((55...64).contains(everyFace), "by default: \(everyFace) face frames")
        #expect(oneFace >= everyFace && oneFace <= 67, "with --max-faces 1: \(oneFace) face frames (by default \(everyFace))")
    }

    /// A count that is not a whole number of faces is refused, from the command line and from a config file.
    @Test func aBadCountIsRefused() throws {
        for value in ["-1", "two", "1.5"] {
            let result = Shell.frameprobe(["analyze", "--max-faces", value, Fixtures.path("clean.mp4")])
            #expect(result.status == 2 && result.events(named: "error").first?.string("key") == "INVALID_MAX_FACES", "\(value): \(result.stdout)")
        }
        let config = Fixtures.temporaryDirectory().appendingPathComponent("c.json")
        try Data(#"{"maxFaces": -3}"#.utf8).write(to: config)
        let result = Shell.frameprobe(["analyze", "--config", config.path, Fixtures.path("clean.mp4")])
        #expect(result.status == 2 && result.events(named: "error").first?.string("key") == "INVALID_MAX_FACES", "\(result.stdout)")
    }
}
