import Foundation
import Testing
@testable import FrameProbe

/// Bad input never crashes frameprobe: each gets a clear error event with a stable key, the other inputs still run,
/// and the JSON Lines stay whole (SPEC §10).
struct HostileInputTests {
    func analyse(_ paths: [String], _ options: [String] = ["--capture-type", "none", "--frame-quality"]) -> Shell.Result {
        Shell.frameprobe(["analyze"] + options + paths)
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = Fixtures.temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Every line complete JSON, and the input's error key.
    func expectError(_ result: Shell.Result, for path: String, keys: Set<String>) {
        #expect(result.status == 1, "\(result.stderr)")
        #expect(Shell.validateAgainstSchema(result.stdout).status == 0)
        let error = result.events(named: "error").first { $0.string("source") == path }
        #expect(keys.contains(error?.string("key") ?? "none"), "\(error ?? [:])")
    }

    @Test func zeroLengthFile() throws {
        let empty = try file("empty.mp4", [])
        let result = analyse([empty, Fixtures.path("portrait.jpg")])
        expectError(result, for: empty, keys: ["INPUT_UNREADABLE"])
        #expect(result.events(named: "frameQuality").count == 1) // the good input still ran
    }

    @Test func randomBytesWithAVideoExtension() throws {
        var state: UInt64 = 0x5EED
        let noise = (0..<65536).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let path = try file("noise.mp4", noise)
        expectError(analyse([path]), for: path, keys: ["INPUT_UNREADABLE", "UNSUPPORTED_INPUT", "DECODE_ERROR"])
    }

    /// A PNG whose header declares 65535×65535 is refused by the pixel budget before anything that size is
    /// allocated (the process stays small).
    @Test func hugeDeclaredDimensions() throws {
        let path = try file("huge.png", PNG.header(width: 65535, height: 65535))
        let result = Shell.run("/usr/bin/time -f 'peak %M' $FP analyze --capture-type none \(Shell.quote(path))")
        expectError(result, for: path, keys: ["FRAME_TOO_LARGE"])
        let peak = result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }.flatMap { Int($0.dropFirst(5)) } ?? .max
        #expect(peak < 300_000, "peak resident memory \(peak) KB")
        #expect(result.events(named: "error").first?.string("message")?.contains("pixel budget") == true)
    }

    @Test func zeroByZeroImage() throws {
        let path = try file("empty.png", PNG.header(width: 0, height: 0))
        expectError(analyse([path]), for: path, keys: ["INPUT_UNREADABLE", "UNSUPPORTED_INPUT", "DECODE_ERROR"])
    }

    /// Two H.264 segments of different sizes in one MPEG-TS stream: the stages see the new size.
    @Test func resolutionChangeMidStream() throws {
        let joined = Fixtures.resizingStream()
        let source = try FrameSource(url: joined, options: DecodeOptions())
        var sizes: [String] = []
        while let frame = source.next() {
            let size = "\(frame.width)x\(frame.height)"
            if sizes.last != size { sizes.append(size) }
        }
        let outcome = source.finish()
        #expect(sizes == ["320x240", "640x360"])
        #expect(outcome.framesDecoded == 50 && outcome.error == nil)
        let result = analyse([joined])
        #expect(result.status == 0 && result.events(named: "frameQuality").count == 50)
    }

    @Test func directoryWithASymlinkLoop() throws {
        let dir = Fixtures.temporaryDirectory()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("clips"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.path("portrait.jpg"), toPath: dir.appendingPathComponent("clips/a.jpg").path)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("clips/loop").path, withDestinationPath: dir.path)
        let result = analyse([dir.path])
        #expect(result.status == 0)
        #expect(result.events(named: "frameQuality").count == 1)
        #expect(result.events(named: "skipped").contains { ($0.string("reason") ?? "").contains("loop") })
    }

    /// Permissions are enforced for an unprivileged user only, so as root the run drops to `nobody`.
    @Test func fileWithoutReadPermission() throws {
        let dir = Fixtures.temporaryDirectory()
        let path = dir.appendingPathComponent("secret.mp4").path
        try FileManager.default.copyItem(atPath: Fixtures.path("pattern.mp4"), toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        let asUser = getuid() == 0 ? "setpriv --reuid=nobody --regid=nogroup --clear-groups " : ""
        let result = Shell.run("\(asUser)$FP analyze --capture-type none \(Shell.quote(path))")
        expectError(result, for: path, keys: ["INPUT_UNREADABLE"])
        #expect(result.events(named: "error").first?.string("message")?.contains("ermission") == true)
    }

    /// Raw frames on stdin that stop half-way through the third frame: two frames, no crash.
    @Test func rawStdinThatStopsMidFrame() {
        let frameBytes = 320 * 240 * 3
        let result = Shell.run("ffmpeg -nostdin -v error -i \(Shell.quote(Fixtures.path("pattern.mp4"))) -frames:v 3 -f rawvideo -pix_fmt bgr24 - | "
            + "head -c \(frameBytes * 5 / 2) | $FP analyze --capture-type none --frame-quality --input-format rawvideo --video-size 320x240 --pixel-format bgr24 -")
        #expect(result.status == 0 || result.status == 1)
        #expect(result.events(named: "frameQuality").count == 2)
        #expect(result.events.last?.string("event") == "inputClosed")
        #expect(Shell.validateAgainstSchema(result.stdout).status == 0)
    }

    @Test func pathWithSpacesQuotesAndNonASCII() throws {
        let dir = Fixtures.temporaryDirectory().appendingPathComponent("a dir with 'quotes' \"and\" ünïcødé")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("clip: ✓ 100%.mp4").path
        try FileManager.default.copyItem(atPath: Fixtures.path("pattern.mp4"), toPath: path)
        let out = Fixtures.temporaryDirectory()
        let result = analyse([path], ["--capture-type", "frame", "--output-dir", out.path, "--number-of-images", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.events(named: "inputOpened").first?.string("source") == path)
        let saved = try #require(result.events(named: "imageCaptured").first?.string("imagePath"))
        #expect(saved == out.appendingPathComponent("clip____100_.mp4/frame-0001.jpg").path)
        #expect(FileManager.default.fileExists(atPath: saved))
    }

    /// An output directory that cannot be created (a file stands in its path): a clear error per input, exit 1,
    /// every input still analysed, nothing half-written.
    @Test func outputDirectoryThatCannotBeWritten() throws {
        let blocker = try file("not-a-directory", Array("x".utf8))
        let result = analyse([Fixtures.path("pattern.mp4"), Fixtures.path("portrait.jpg")],
                             ["--capture-type", "frame", "--output-dir", blocker + "/out"])
        #expect(result.status == 1)
        let errors = result.events(named: "error")
        #expect(errors.count == 2 && errors.allSatisfy { $0.string("key") == "OUTPUT_UNWRITABLE" })
        #expect(result.events(named: "inputClosed").count == 2)
        #expect(Shell.validateAgainstSchema(result.stdout).status == 0)
    }
}

/// A full disk, simulated by a file-size limit (`ulimit -f`): writing crops or a clip fails with a clear error,
/// the partial file is removed, the other inputs still run.
struct DiskFullTests {
    func leftovers(_ directory: URL) -> [String] {
        (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []).filter { $0.contains(".tmp") }
    }

    @Test func writingCropsFails() {
        let out = Fixtures.temporaryDirectory()
        let result = Shell.run("ulimit -f 16; $FP analyze --capture-type frame --time-between-images 0 --output-image-width 640 "
            + "--output-image-height 640 --output-dir \(Shell.quote(out.path)) \(Shell.quote(Fixtures.path("pattern.mp4"))) \(Shell.quote(Fixtures.path("portrait.jpg")))")
        #expect(result.status == 1)
        let errors = result.events(named: "error")
        #expect(errors.count == 2 && errors.allSatisfy { $0.string("key") == "OUTPUT_UNWRITABLE" }, "\(errors)")
        #expect(result.events(named: "inputClosed").count == 2)
        #expect(leftovers(out).isEmpty, "\(leftovers(out))")
    }

    @Test func writingTheClipFails() {
        let out = Fixtures.temporaryDirectory()
        let result = Shell.run("ulimit -f 4; $FP acquire --output-dir \(Shell.quote(out.path)) \(Shell.quote(Fixtures.path("approach-720p.mp4")))")
        #expect(result.status == 1)
        #expect(result.events(named: "error").first?.string("key") == "OUTPUT_UNWRITABLE")
        let files = FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String] ?? []
        #expect(files.filter { $0.hasSuffix("selfie.mp4") || $0.contains(".tmp") }.isEmpty, "\(files)")
    }
}

/// Minimal PNG files: a signature, an IHDR with the declared size, one tiny IDAT and IEND, with real CRCs.
enum PNG {
    static func header(width: UInt32, height: UInt32) -> [UInt8] {
        var ihdr: [UInt8] = []
        ihdr += bigEndian(width) + bigEndian(height)
        ihdr += [8, 2, 0, 0, 0] // 8-bit RGB, deflate, no filter, no interlace
        let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01] // zlib of one zero byte
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
