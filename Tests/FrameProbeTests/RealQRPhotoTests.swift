import Foundation
import Testing

/// The real QR photos of ../shared/devdata/qr (`qr/` of the test-data folder, with their expected texts):
/// phone photos of printed codes (qrcode-1, qrcode-2, several in Japanese) and rendered, rotated codes (qrcode-6).
/// Nothing was tuned on them: the charset rule is the standard's and the phones' practice (PayloadText).
struct RealQRPhotoTests {
    static var root: URL { TestData.url("qr") }
    /// Found by neither decoder (13), or a GB2312 payload holding control characters, reported as binary (33).
    static let knownMisses: Set<String> = ["qrcode-2/13.png", "qrcode-2/33.png"]

    /// Every image of the set, with its expected text (CR LF kept: the files hold the payload's exact text).
    static let images: [(name: String, expected: String)] = {
        var found: [(String, String)] = []
        for set in ["qrcode-1", "qrcode-2", "qrcode-6"] {
            let folder = root.appendingPathComponent(set)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }.sorted()
            for name in names {
                let text = folder.appendingPathComponent((name as NSString).deletingPathExtension + ".txt")
                if let data = try? Data(contentsOf: text) { found.append(("\(set)/\(name)", String(decoding: data, as: UTF8.self))) }
            }
        }
        return found
    }()

    @Test(.needsTestData) func everyDecodableImageGivesItsExpectedText() throws {
        #expect(Self.images.count == 70)
        let paths = Self.images.map { Self.root.appendingPathComponent($0.name).path }
        let result = Shell.frameprobe(["analyze", "--capture-type", "qrcode"] + paths)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.events(named: "inputClosed").count == 70)
        var decoded: [String: [[String: Any]]] = [:]
        for event in result.events(named: "qrCodeScanned") {
            if let source = event.string("source") { decoded[source, default: []].append(event) }
        }
        var misses: [String] = []
        for (name, expected) in Self.images {
            let codes = decoded[Self.root.appendingPathComponent(name).path] ?? []
            if !codes.contains(where: { $0.string("content") == expected }) { misses.append(name) }
        }
        #expect(Set(misses) == Self.knownMisses, "missed: \(misses)")
        #expect(Shell.validateAgainstSchema(result.stdout).status == 0)
    }

    /// Shift_JIS without ECI, as most Japanese codes are: text, not base64, and the raw bytes kept.
    @Test(.needsTestData) func shiftJISIsText() throws {
        let result = Shell.frameprobe(["analyze", "--capture-type", "qrcode", Self.root.appendingPathComponent("qrcode-2/10.png").path])
        #expect(result.status == 0)
        let code = try #require(result.events(named: "qrCodeScanned").first)
        #expect(code.string("content") == "Google モバイル\r\nhttp://google.jp")
        #expect(code.string("charset") == "Shift_JIS" && code.string("encoding") == "utf8")
        let raw = try #require(code.string("raw").flatMap { Data(base64Encoded: $0) })
        #expect(String(data: raw, encoding: .shiftJIS) == code.string("content"))
    }

    /// Codes that name their charset with an ECI designator (written by zint): zbar converts the ECIs it knows
    /// (ISO-8859-1…16, Shift_JIS, UTF-8) to UTF-8 itself; the others (Big5, GB2312, EUC-KR, GB18030) it hands over
    /// as bytes, whose ECI zxing-cpp reads (`ECIReader`) and iconv converts. The text is right whatever the bytes were.
    @Test(arguments: [(3, "Grüße café", "UTF-8"), (4, "Łódź zażółć", "UTF-8"), (7, "Привет мир", "UTF-8"), (20, "モバイル漢字", "UTF-8"),
                      (26, "日本語 ünïcödé", "UTF-8"), (28, "繁體中文 測試", "Big5"), (29, "简体中文 测试", "GB2312"),
                      (30, "한국어 시험", "EUC-KR"), (32, "中文测试 €", "GB18030")])
    func eciDesignatedPayloadsAreHonoured(eci: Int, text: String, charset: String) throws {
        let image = Fixtures.temporaryDirectory().appendingPathComponent("eci.png").path
        let made = Shell.run("zint -b QRCODE --eci=\(eci) --scale=4 -d \(Shell.quote(text)) -o \(Shell.quote(image))")
        #expect(made.status == 0, "\(made.stderr)")
        let result = Shell.frameprobe(["analyze", "--capture-type", "qrcode", image])
        #expect(result.status == 0)
        let code = try #require(result.events(named: "qrCodeScanned").first)
        #expect(code.string("content") == text && code.string("encoding") == "utf8", "ECI \(eci): \(code)")
        #expect(code.string("charset") == charset, "ECI \(eci): \(code)")
    }
}
