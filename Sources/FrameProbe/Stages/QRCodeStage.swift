import CVision
import Foundation

/// Decodes barcodes (QR codes by default) with zbar on the gray frame.
///
/// A code (by content) is reported when it appears, and again only after it was absent for `forgetMs` of media
/// time (`everyFrame` reports it on every analysed frame, as Yoonit does). Its box goes through the same
/// enlargement / ROI / size check as faces: an invalid code is not reported, and the check's message is emitted
/// when the code turns invalid for that reason. When the plain pass finds nothing, the frame is scanned again
/// sharpened, binarised and upscaled, in that order, while the per-frame work budget lasts — counted in pixels
/// scanned, never in time, so the same input gives the same codes on any machine under any load (SPEC §10) — and,
/// on footage where those passes keep finding nothing, on fewer and fewer frames: every 2nd, 3rd, 5th, then 9th.
public struct QRCodeStage: Stage {
    public static let descriptor = StageDescriptor(
        QRCodeStage.self, name: "qrcode",
        summary: "decodes QR codes (and other barcodes) with zbar, and WeChatQRCode on images; qrCodeScanned on appearance",
        provides: [.codes], emits: [QRCodeScanned.self, Message.self],
        options: [
            .toggle("qrcode", "qrcode", "decode QR codes alongside face analysis", invalid: "INVALID_QRCODE", \AnalysisOptions.qrcode),
            .list("symbologies", "symbologies", "LIST", "barcode types to decode: qrcode, ean13, ean8, upca, code128, … (default qrcode)",
                  invalid: "INVALID_SYMBOLOGIES", lowercased: true, \Options.symbologies) { $0 },
            .int("qrcode-forget-ms", "qrcodeForgetMs", "MS", "report a code again after it was absent this long",
                 invalid: "INVALID_QRCODE_FORGET_MS", \Options.forgetMs, bounds: .within(0...86_400_000)),
            .toggle("qrcode-every-frame", "qrcodeEveryFrame", "report codes on every analysed frame (Yoonit's behaviour)",
                    invalid: "INVALID_QRCODE_EVERY_FRAME", \Options.everyFrame),
            .toggle("qrcode-retry", "qrcodeRetry", "when nothing is found, try WeChatQRCode, then zbar on sharpened, binarised, upscaled copies",
                    invalid: "INVALID_QRCODE_RETRY", \Options.retry),
            .number("qrcode-retry-megapixels", "qrcodeRetryMegapixels", "MP",
                    "work those second passes may do per frame, in megapixels scanned (16 lets all four run on 1080p)",
                    invalid: "INVALID_QRCODE_RETRY_MEGAPIXELS", \Options.retryMegapixels, bounds: .within(0...1000)),
        ],
        selection: StageSelection(analyzeWhen: { $0.captureType == .qrcode || $0.qrcode }, report: true), report: QRCodeReport.self)

    public struct Options: StageOptions {
        public var symbologies = ["qrcode"]
        public var forgetMs = 1000
        public var everyFrame = false
        /// Second passes on prepared copies when the plain pass finds nothing.
        public var retry = true
        /// Work budget for those second passes, per frame: megapixels scanned (WeChatQRCode counts the frame's,
        /// zbar's passes their prepared copies'). A pass runs only if it fits entirely; the default lets all four run
        /// on a 1080p frame (2 + 2 + 2 + 8 MP) and WeChatQRCode on a 16-megapixel photo.
        public var retryMegapixels = 16.0

        public init() {}

        public func validate() throws(FrameProbeError) {
            if symbologies.isEmpty { throw FrameProbeError("INVALID_SYMBOLOGIES", "at least one symbology is needed") }
            for name in symbologies where !BarcodeScanner.symbologies.contains(where: { $0.name == name }) {
                let known = BarcodeScanner.symbologies.map(\.name)
                throw FrameProbeError("INVALID_SYMBOLOGIES", "unknown symbology '\(name)'\(Suggestion.hint(for: name, in: known)); known: \(known.joined(separator: ", "))")
            }
        }
    }

    /// A second pass: WeChatQRCode on the frame, or zbar on a prepared copy.
    enum SecondPass {
        case weChat
        case zbar(cvision_barcode_preparation)
    }

    /// The second passes in order: WeChatQRCode first (the strongest on real photos of paper), then zbar on
    /// sharpened, binarised and upscaled copies.
    static let secondPasses: [SecondPass] = [.weChat, .zbar(CVISION_BARCODE_SHARPEN), .zbar(CVISION_BARCODE_BINARIZE), .zbar(CVISION_BARCODE_UPSCALE)]

    private let options: Options
    private let scanner: BarcodeScanner
    /// The second decoder, when QR codes are asked for (other symbologies stay with zbar).
    private let weChat: WeChatQRDecoder?
    private let check: RegionCheck
    /// Media time each content was last seen valid.
    private var lastSeen: [[UInt8]: Double] = [:]
    /// What each non-UTF-8 QR payload's ECI designator said (nil: none).
    private var designatedByPayload: [[UInt8]: DesignatedText?] = [:]
    /// The message each content was last invalid for.
    private var lastMessage: [[UInt8]: String] = [:]
    /// The second passes' share of the work (footage without codes does not pay for them on every frame).
    private var allowance: RetryAllowance
    /// zbar's plain pass reads every `plainLineStep`th row and column: every 3rd in a video (a code is on many
    /// frames; on 720p footage this is 0.55 s cheaper per 282 frames than every 2nd, and the test footage's small,
    /// rotated and hard codes decode on as many frames), every 2nd on a photo (one chance, cost irrelevant).
    private let plainLineStep: Int32

    /// Codes go through the face-region stage's detection-box rules (`region`). WeChatQRCode runs only on a still
    /// image (a photo): on a 720p video it costs about as much as the rest of the QR stage together (measured:
    /// footage without codes 1.96× slower), for codes zbar's passes already find on the test footage; on photos it
    /// decodes codes zbar misses (curved paper).
    public init(options: Options, region: RegionCheck.Options = RegionCheck.Options(), stillImage: Bool = false) throws(FrameProbeError) {
        self.options = try Self.validated(options)
        scanner = try BarcodeScanner(symbologies: options.symbologies)
        weChat = stillImage && options.retry && options.symbologies.contains("qrcode") ? try WeChatQRDecoder() : nil
        check = RegionCheck(options: region)
        allowance = RetryAllowance(stillImage: stillImage)
        plainLineStep = stillImage ? 2 : 3
    }

    public init(options: Options, context: StageContext) throws(FrameProbeError) {
        try self.init(options: options, region: context.options[FaceRegionStage.Options.self].region,
                      stillImage: context.info?.isStillImage ?? false)
    }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        let gray = try analysis.gray(of: frame)
        let codes = try decode(gray)
        var seenNow: Set<[UInt8]> = []
        for var code in codes {
            code.designated = try designatedText(of: code, in: gray)
            let content = code.content  // decoded once: it is the code's identity across frames and decoders
            guard seenNow.insert(content).inserted else { continue }
            switch check.check(code.bounds, frameWidth: frame.width, frameHeight: frame.height) {
            case .valid:
                analysis.codes.append(code)
                lastMessage[content] = nil
                let forgotten = lastSeen[content].map { (frame.time - $0) * 1000 > Double(options.forgetMs) } ?? true
                if options.everyFrame || forgotten { emit(QRCodeScanned(code: code)) }
                lastSeen[content] = frame.time
            case .invalid(let message):
                if let message, lastMessage[content] != message { emit(Message(message, code: code)) }
                lastMessage[content] = message
            }
        }
        for payload in lastMessage.keys where !seenNow.contains(payload) { lastMessage[payload] = nil }
    }

    /// The text a QR code's ECI designator says, when its bytes are not UTF-8 (zbar converted the ECIs it knows to
    /// UTF-8; `ECIReader` finds the others), asked once per payload.
    private mutating func designatedText(of code: BarcodeObservation, in gray: GrayImage) throws(FrameProbeError) -> DesignatedText? {
        guard code.symbology == "qrcode", String(validating: code.payload, as: UTF8.self) == nil else { return nil }
        if let known = designatedByPayload[code.payload] { return known }
        let found = try ECIReader.designated(code, in: gray)
        designatedByPayload[code.payload] = .some(found)
        return found
    }

    /// The plain pass, then the prepared ones while nothing is found, within the frame's budget and the
    /// allowance the plain passes earned.
    private mutating func decode(_ gray: GrayImage) throws(FrameProbeError) -> [BarcodeObservation] {
        let plain = scanner.scan(gray.pixels, width: gray.width, height: gray.height, lineStep: plainLineStep)
        allowance.plainPassScanned(gray.width * gray.height)
        if !plain.isEmpty { allowance.codeFound() }
        guard plain.isEmpty, options.retry else { return plain }
        let round = secondPasses(within: Int(options.retryMegapixels * 1_000_000), for: gray)
        guard allowance.takesRound(of: round.reduce(0) { $0 + $1.cost }) else { return [] }
        for (pass, _) in round {
            let found: [BarcodeObservation]
            switch pass {
            case .weChat: found = try weChat?.decode(gray) ?? []
            case .zbar(let kind): found = try scanner.scan(gray, preparedBy: kind)
            }
            if !found.isEmpty {
                allowance.codeFound()
                return found
            }
        }
        return []
    }

    /// The second passes, in order, while their pixels fit in `budget` (WeChatQRCode counts the frame's).
    private func secondPasses(within budget: Int, for gray: GrayImage) -> [(pass: SecondPass, cost: Int)] {
        var left = budget
        var round: [(SecondPass, Int)] = []
        for pass in Self.secondPasses {
            let cost: Int
            switch pass {
            case .weChat:
                guard weChat != nil else { continue }
                cost = gray.width * gray.height
            case .zbar(let kind): cost = BarcodeScanner.preparedPixels(width: gray.width, height: gray.height, kind)
            }
            guard cost <= left else { break }
            left -= cost
            round.append((pass, cost))
        }
        return round
    }
}

/// `qrCodeScanned`: a code appeared (or, with `--qrcode-every-frame`, is still there).
public struct QRCodeScanned: ReadableEvent {
    public static let eventName = "qrCodeScanned"
    public let code: BarcodeObservation
    /// `content` as a read-back event gave it.
    private var readContent: String?

    public init(code: BarcodeObservation) { self.code = code }

    /// The text, or base64 of a binary payload: what reports list.
    public var content: String { readContent ?? code.reportedContent }

    /// What the report reads back: the content (the code's bytes from `raw`).
    public init?(reading fields: EventFields) {
        guard let content = Field.content.read(fields) else { return nil }
        code = BarcodeObservation(payload: Field.raw.read(fields).flatMap { Data(base64Encoded: $0) }.map { Array($0) } ?? [], polygon: [],
                                  symbology: Field.symbology.read(fields) ?? "")
        readContent = content
    }

    /// The fields `report` reads back, each declared once.
    enum Field {
        static let content = EventField<String>.text("content", .string())
        static let raw = EventField<String>.text("raw", .string(description: "the payload's exact bytes, base64"))
        static let symbology = EventField<String>.text("symbology", .string(minLength: 1))
    }

    public static let schema = EventSchema(.frame, [
        Field.content.property, .init("encoding", .oneOf(["utf8", "base64"])),
        .init("charset", JSONSchema.string().orNull.described(
            "the charset the text was decoded from (UTF-8, Shift_JIS, ISO-8859-1); null for a binary payload")),
        Field.raw.property, .init("polygon", .array(of: .point, minItems: 1)), Field.symbology.property,
    ])

    public var fields: [(String, JSONValue)] { code.jsonFields }
}

extension BarcodeObservation {
    /// What `content` says: the text, or base64 of a binary payload.
    var reportedContent: String { text ?? Data(payload).base64EncodedString() }

    /// `content` is the text (`encoding` utf8, with its `charset`) or, for a binary payload, base64; `raw` is always
    /// the exact bytes, base64.
    var jsonFields: [(String, JSONValue)] {
        let decoded = self.decoded
        let raw = Data(payload).base64EncodedString()
        return [
            QRCodeScanned.Field.content.json(decoded?.text ?? raw), ("encoding", .string(decoded == nil ? "base64" : "utf8")),
            ("charset", decoded.map { .string($0.charset) } ?? .null), QRCodeScanned.Field.raw.json(raw),
            ("polygon", .array(polygon.map { .array([.number($0.x, decimals: 1), .number($0.y, decimals: 1)]) })),
            QRCodeScanned.Field.symbology.json(symbology),
        ]
    }
}
