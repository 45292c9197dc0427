import Foundation
import Testing
@testable import FrameProbe

/// QR codes made with qrencode, overlaid with ffmpeg on real footage (TestVideos/generate).
struct QRCodeTests {
    /// The run, checked: the exit status asked for and, for a run that analysed, its `inputClosed` — so a crash
    /// or a refusal never passes for "no code found".
    func scan(_ clip: String, _ options: [String] = [], status: Int32 = 0) -> Shell.Result {
        let result = Shell.frameprobe(["analyze", "--capture-type", "qrcode"] + options + [Fixtures.path(clip)])
        #expect(result.status == status, "\(clip) \(options): \(result.stderr)")
        if status == 0 { #expect(result.events(named: "inputClosed").count == 1) }
        return result
    }

    /// Code A is visible from 1 s to 3 s and again from 4.5 s to 5.5 s.
    @Test func reportedOnAppearanceAndAgainAfterTheForgetTime() {
        let result = scan("qr-appear.mp4")
        #expect(result.status == 0)
        let events = result.events(named: "qrCodeScanned")
        #expect(events.compactMap { $0.double("pts") } == [1.0, 4.5])
        #expect(events.allSatisfy { $0.string("content") == "frameprobe:A-1" && $0.string("symbology") == "qrcode" })
        #expect(result.events(named: "inputClosed").first?.int("qrCodes") == 2)
        // A forget time longer than the 1.5 s gap: the return is not a new appearance.
        let patient = scan("qr-appear.mp4", ["--qrcode-forget-ms", "2000"])
        #expect(patient.events(named: "qrCodeScanned").compactMap { $0.double("pts") } == [1.0])
    }

    @Test func everyFrameReportsEachAnalysedFrame() {
        let events = scan("qr-appear.mp4", ["--qrcode-every-frame"]).events(named: "qrCodeScanned")
        #expect(events.count == 90)
        #expect(events.first?.int("frame") == 30 && events.last?.int("frame") == 164)
        let sampled = scan("qr-appear.mp4", ["--qrcode-every-frame", "--sample-every", "10"]).events(named: "qrCodeScanned")
        #expect(sampled.compactMap { $0.int("frame") } == [30, 40, 50, 60, 70, 80, 140, 150, 160])
    }

    /// Two codes in one frame; the polygon of an axis-aligned code lies within a few pixels of where it was
    /// overlaid (code images of 8-px modules with a 2-module margin: the symbol starts 16 px inside).
    @Test func twoCodesInOneFrameWithTheirPolygons() throws {
        let events = scan("qr-two.mp4").events(named: "qrCodeScanned")
        #expect(Set(events.compactMap { $0.string("content") }) == ["frameprobe:A-1", "frameprobe:B-2"])
        #expect(events.count == 2)
        for (content, left, top) in [("frameprobe:A-1", 200.0, 150.0), ("frameprobe:B-2", 800.0, 300.0)] {
            let event = try #require(events.first { $0.string("content") == content })
            let polygon = try #require(event["polygon"] as? [[Double]])
            #expect(polygon.count == 4)
            let size = Double(try codeSize(content == "frameprobe:A-1" ? "code-a.png" : "code-b.png"))
            let xs = polygon.map { $0[0] }, ys = polygon.map { $0[1] }
            #expect(abs(xs.min()! - (left + 16)) <= 3 && abs(xs.max()! - (left + size - 17)) <= 3, "\(polygon)")
            #expect(abs(ys.min()! - (top + 16)) <= 3 && abs(ys.max()! - (top + size - 17)) <= 3, "\(polygon)")
        }
    }

    func codeSize(_ image: String) throws -> Int {
        let result = Shell.run("ffprobe -v error -show_entries stream=width -of csv=p=0 \(Shell.quote(Fixtures.path(image)))")
        return try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test(arguments: ["qr-rotated.mp4", "qr-small.mp4", "qr-blurred.mp4", "qr-lowcontrast.mp4"])
    func hardCasesDecode(clip: String) {
        let events = scan(clip, ["--qrcode-every-frame"]).events(named: "qrCodeScanned")
        #expect(events.count >= 27, "\(clip): decoded on \(events.count) of 30 frames")
        #expect(events.allSatisfy { $0.string("content") == "frameprobe:A-1" })
    }

    /// The blurred and low-contrast codes need the second passes: without them zbar finds nothing.
    @Test(arguments: ["qr-blurred.mp4", "qr-lowcontrast.mp4"])
    func secondPassesAreWhatDecodesTheHardest(clip: String) {
        let run = scan(clip, ["--qrcode-every-frame", "--qrcode-retry=false"])
        #expect(run.status == 0 && run.events(named: "inputClosed").first?.int("framesAnalysed") == 30, "\(run.stderr)")
        let plain = run.events(named: "qrCodeScanned")
        #expect(plain.count < 5, "\(clip): the plain pass decoded \(plain.count) frames")
    }

    @Test func binaryPayloadComesAsBase64() throws {
        let event = try #require(scan("qr-binary.mp4").events(named: "qrCodeScanned").first)
        #expect(event.string("encoding") == "base64")
        let content = try #require(event.string("content"))
        let bytes = try #require(Data(base64Encoded: content))
        #expect(Array(bytes) == [0x00, 0xFF, 0x10, 0x80] + Array("binary".utf8) + [0xFE, 0x01])
    }

    /// With a region of interest starting 30 % from the left, code A (left) is out of it: its message, no scan
    /// event; code B still scans.
    @Test func codeOutsideTheRegionOfInterest() {
        let result = scan("qr-two.mp4", ["--roi-left-offset", "0.3"])
        #expect(result.status == 0)
        #expect(result.events(named: "qrCodeScanned").compactMap { $0.string("content") } == ["frameprobe:B-2"])
        let messages = result.events(named: "message")
        #expect(messages.compactMap { $0.string("message") } == ["INVALID_OUT_OF_ROI"])
        #expect(messages.first?.int("frame") == 0)
    }

    @Test func minimumSizeAppliesToCodes() {
        let result = scan("qr-small.mp4", ["--detection-min-size", "0.1"])
        #expect(result.status == 0 && result.events(named: "inputClosed").count == 1)
        #expect(result.events(named: "qrCodeScanned").isEmpty)
        #expect(result.events(named: "message").compactMap { $0.string("message") } == ["INVALID_MINIMUM_SIZE"])
    }

    @Test func noCodeNoEventNoError() {
        let result = scan("clean.mp4")
        #expect(result.status == 0)
        #expect(result.events(named: "qrCodeScanned").isEmpty && result.events(named: "error").isEmpty)
        #expect(result.events(named: "inputClosed").first?.int("qrCodes") == 0)
    }

    @Test func qrcodeAlongsideFaces() {
        let result = Shell.frameprobe(["analyze", "--qrcode", Fixtures.path("qr-two.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.events(named: "qrCodeScanned").count == 2)
        #expect(result.events(named: "faceDetected").count == 30)
    }

    @Test func unknownSymbologyIsRejected() {
        let result = scan("qr-two.mp4", ["--symbologies", "qrcode,ean14"], status: 2)
        #expect(result.events(named: "error").first?.string("key") == "INVALID_SYMBOLOGIES")
        #expect(result.stderr.contains("ean13"))
    }

    /// Only the symbologies asked for are enabled: a QR code is not reported when only EAN-13 is on.
    @Test func onlyTheRequestedSymbologies() {
        let result = scan("qr-two.mp4", ["--symbologies", "ean13", "--qrcode-retry=false"])
        #expect(result.status == 0 && result.events(named: "inputClosed").first?.int("framesAnalysed") == 30)
        #expect(result.events(named: "qrCodeScanned").isEmpty)
    }
}

/// The second passes' allowance (work, not time): on footage without codes a round only every so many frames.
struct RetryAllowanceTests {
    /// 1,000 frames of 480×480 without codes, a round of second passes costing 1.4 MP (sharpened, binarised and
    /// 2× upscaled copies): the first frame's round, then one per ~60 frames — their pixels within 10 % of the plain
    /// passes' (plus the first round).
    @Test func footageWithoutCodesEarnsFewRounds() {
        var allowance = RetryAllowance(stillImage: false)
        let frame = 480 * 480, round = 1_400_000
        var rounds: [Int] = []
        for index in 0..<1000 {
            allowance.plainPassScanned(frame)
            if allowance.takesRound(of: round) { rounds.append(index) }
        }
        #expect(rounds.first == 0)
        #expect(rounds.count >= 14 && rounds.count <= 18, "\(rounds)")
        #expect(Double((rounds.count - 1) * round) <= 0.1 * Double(1000 * frame), "\(rounds)")
    }

    @Test func aFoundCodeMakesTheNextRoundFreeAndAStillAlwaysHasOne() {
        var allowance = RetryAllowance(stillImage: false)
        var taken: [Bool] = []
        for codeBefore in [false, false, true] {
            if codeBefore { allowance.codeFound() }
            allowance.plainPassScanned(1000)
            taken.append(allowance.takesRound(of: 1_000_000))
        }
        // The first frame's round; the next not earned; after a code, free again.
        #expect(taken == [true, false, true])
        var still = RetryAllowance(stillImage: true)
        let stillRounds = (0..<3).map { _ in still.takesRound(of: 1_000_000) }
        #expect(stillRounds == [true, true, true])
    }
}
