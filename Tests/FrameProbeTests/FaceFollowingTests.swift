import CVision
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
    /// so only the follower's check can drop it), and under `--max-faces 1`, where a correlation tracker holds a face
    /// the detector loses while it is sure of it (here it is not) — and never comes back as a ghost.
    @Test(.needsTestData, arguments: [[], ["--detect-every", "1000"], ["--max-faces", "1"], ["--max-faces", "1", "--detect-every", "1000"]])
    func aFaceGoneAtACutIsDroppedAtOnce(settings: [String]) throws {
        let clip = Fixtures.temporaryDirectory().appendingPathComponent("cut.mp4").path
        let photo = TestData.path("qr/qrcode-1/1.png")
        let make = Shell.run("""
            ffmpeg -nostdin -v error -i \(Shell.quote(Self.talkingHead)) -loop 1 -framerate 30 -i \(Shell.quote(photo)) -filter_complex \
            "[0:v]trim=end_frame=25,setpts=PTS-STARTPTS[a];[1:v]scale=480:480,setsar=1,format=yuv420p,trim=end_frame=20,setpts=PTS-STARTPTS[b];[a][b]concat=n=2:v=1[v]" \
            -map "[v]" -c:v libx264 -preset veryfast -crf 18 \(Shell.quote(clip))
            """)
        #expect(make.status == 0, "\(make.stderr)")
        let result = Shell.frameprobe(["analyze"] + settings + [clip])
        #expect(result.status == 0)
        #expect(result.events(named: "faceDetected").compactMap { $0.int("frame") } == Array(0..<25))
        #expect(result.events(named: "faceUndetected").compactMap { $0.int("frame") } == [25])
        #expect(result.events(named: "inputClosed").first?.int("anyFaceFrames") == 25)
    }
}

/// The check of a followed face (and the search around a lost one) scores each window by dlib's filters applied
/// whole (`Sources/CVision/hog_window.cpp`) instead of dlib's separable approximation of them. On real frames it must
/// give dlib's hits: the same boxes from the same filters, in the same order, with scores within 1e-4 — around
/// each face a scan finds, with the box moved, grown and shrunk as a followed face's box is, on a copy turned as a
/// rolled face's check is, and on a place without a face.
struct WholeFilterCheckTests {
    struct Hit: Equatable {
        var x, y, width, height: Double
        var filter: Int32
    }

    static func hits(_ detector: FaceModels.Detector, _ gray: GrayImage, region: Box, scale: Double, angle: Double,
                     scan: Int32, fromLevel: Int32 = 0, mirrored: Bool = false) -> (hits: [Hit], scores: [Double]) {
        var found = [cvision_box](repeating: cvision_box(), count: 64)
        var count: Int32 = 0
        let area = cvision_box(x: region.x, y: region.y, width: region.width, height: region.height, score: 0, filter: -1)
        let status = angle == 0
            ? cvision_detect_faces(detector.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width), area,
                                   scale, -0.5, fromLevel, mirrored ? 1 : 0, scan, &found, 64, &count)
            : cvision_detect_faces_rotated(detector.handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width),
                                           area, scale, -0.5, angle, scan, &found, 64, &count)
        #expect(status == 0)
        let kept = found.prefix(Int(min(count, 64)))
        return (kept.map { Hit(x: $0.x, y: $0.y, width: $0.width, height: $0.height, filter: $0.filter) }, kept.map(\.score))
    }

    @Test(.needsTestData) func wholeFiltersFindDlibsHitsOnRealFrames() throws {
        let detector = try FaceModels.detector()
        var compared = 0, withHits = 0
        for clip in ["video/driving_d6.mp4", "video/source_s18.mp4", "selfie/filmed_pexels_8048492.mp4", "selfie/two_faces_test_video_03.mp4"] {
            let source = try FrameSource(url: TestData.path(clip), options: DecodeOptions())
            defer { _ = source.finish() }
            var index = 0
            while let frame = source.next(), index < 60 {
                defer { index += 1 }
                guard index % 12 == 0 else { continue }
                let gray = try GrayImage(frame.image)
                let faces = try FaceFixtures.faces(in: frame).map(\.box)
                #expect(!faces.isEmpty, "\(clip) frame \(index)")
                var boxes: [Box] = [Box(x: 0, y: 0, width: Double(gray.width) / 4, height: Double(gray.width) / 4)]
                for face in faces {
                    for (dx, dy, grow) in [(0.0, 0.0, 1.0), (0.1, 0.0, 1.0), (0.0, -0.1, 1.0), (0.0, 0.0, 1.15), (0.0, 0.0, 0.87)] {
                        let width = face.width * grow
                        boxes.append(Box(x: face.centre.x + dx * face.width - width / 2, y: face.centre.y + dy * face.width - width / 2,
                                         width: width, height: width))
                    }
                }
                for box in boxes {
                    for angle in [0.0, 25.0] {
                        let region = box.expanded(by: box.width * FaceFinder.checkMargin)
                        let scale = FaceFinder.checkedFaceWidth / box.width
                        let dlib = Self.hits(detector, gray, region: region, scale: scale, angle: angle, scan: CVISION_SCAN_DLIB)
                        let whole = Self.hits(detector, gray, region: region, scale: scale, angle: angle, scan: CVISION_SCAN_WHOLE_FILTERS)
                        #expect(whole.hits == dlib.hits, "\(clip) frame \(index) box \(box) angle \(angle)")
                        if whole.hits == dlib.hits {
                            #expect(zip(whole.scores, dlib.scores).allSatisfy { abs($0 - $1) < 1e-4 }, "\(whole.scores) against \(dlib.scores)")
                        }
                        compared += 1
                        if !dlib.hits.isEmpty { withHits += 1 }
                    }
                }
            }
        }
        // 4 clips × 5 frames, each with its faces' 5 boxes and a faceless one, upright and turned.
        #expect(compared >= 4 * 5 * 6 * 2)
        #expect(withHits >= compared / 2)
    }
}

/// Whole-frame scans run dlib's scan with its pyramid levels and filters spread over the cores
/// (`Sources/CVision/parallel_scan.cpp`). On real frames it must give exactly what dlib's own scan gives: the same
/// boxes from the same filters in the same order, and the same scores to the last bit — on a portrait phone frame
/// scaled down (too_far's 1080×1920), a square webcam frame upsampled (d6's 480×480, as `--min-face-size` 0.1 asks),
/// a landscape frame, from a coarse pyramid level, mirrored, and turned.
struct ParallelScanTests {
    @Test(.needsTestData) func parallelScanIsDlibsScanOnRealFrames() throws {
        let detector = try FaceModels.detector()
        var compared = 0, withHits = 0
        for (clip, scale) in [("selfie/too_far_test_video_05.mov", 0.74), ("video/driving_d6.mp4", 1.67), ("video/source_s18.mp4", 1.0),
                              ("selfie/two_faces_test_video_03.mp4", 0.8)] {
            let source = try FrameSource(url: TestData.path(clip), options: DecodeOptions())
            defer { _ = source.finish() }
            var index = 0
            while let frame = source.next(), index <= 40 {
                defer { index += 1 }
                guard index % 20 == 0 else { continue }
                let gray = try GrayImage(frame.image)
                let whole = Box(x: 0, y: 0, width: Double(gray.width), height: Double(gray.height))
                for (fromLevel, mirrored, angle) in [(Int32(0), false, 0.0), (0, true, 0.0), (3, false, 0.0), (0, false, 35.0)] {
                    let settings = "\(clip) frame \(index) level \(fromLevel) mirrored \(mirrored) angle \(angle)"
                    let dlib = WholeFilterCheckTests.hits(detector, gray, region: whole, scale: scale, angle: angle, scan: CVISION_SCAN_DLIB,
                                                          fromLevel: fromLevel, mirrored: mirrored)
                    let parallel = WholeFilterCheckTests.hits(detector, gray, region: whole, scale: scale, angle: angle,
                                                              scan: CVISION_SCAN_PARALLEL, fromLevel: fromLevel, mirrored: mirrored)
                    #expect(parallel.hits == dlib.hits, "\(settings)")
                    #expect(parallel.scores == dlib.scores, "\(settings): \(parallel.scores) against \(dlib.scores)")
                    compared += 1
                    if !dlib.hits.isEmpty { withHits += 1 }
                }
            }
        }
        // 4 clips × 3 frames × 4 settings; at −0.5 below dlib's threshold most scans find something.
        #expect(compared == 4 * 3 * 4)
        #expect(withHits >= compared / 2)
    }
}
