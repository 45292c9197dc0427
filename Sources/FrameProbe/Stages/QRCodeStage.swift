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
    public struct Options: Sendable {
        public var symbologies = ["qrcode"]
        public var forgetMs = 1000
        public var everyFrame = false
        /// Second passes on prepared copies when the plain pass finds nothing.
        public var retry = true
        /// Work budget for those second passes, per frame: megapixels of prepared copies scanned. A pass runs only
        /// if it fits entirely; the default lets all three run on a 1080p frame (2 + 2 + 8 MP).
        public var retryMegapixels = 12.0
        public var region = RegionCheck.Options()

        public init() {}

        init(_ options: AnalysisOptions) {
            symbologies = options.symbologies
            forgetMs = options.qrcodeForgetMs
            everyFrame = options.qrcodeEveryFrame
            retry = options.qrcodeRetry
            retryMegapixels = options.qrcodeRetryMegapixels
            region = options.region
        }

        public func validate() throws(FrameProbeError) {
            if symbologies.isEmpty { throw FrameProbeError("INVALID_SYMBOLOGIES", "at least one symbology is needed") }
            for name in symbologies where !BarcodeScanner.symbologies.contains(where: { $0.name == name }) {
                let known = BarcodeScanner.symbologies.map(\.name)
                throw FrameProbeError("INVALID_SYMBOLOGIES", "unknown symbology '\(name)'\(Suggestion.hint(for: name, in: known)); known: \(known.joined(separator: ", "))")
            }
            if forgetMs < 0 { throw FrameProbeError("INVALID_QRCODE_FORGET_MS", "qrcodeForgetMs must be 0 or more") }
            if !(0...1000).contains(retryMegapixels) {
                throw FrameProbeError("INVALID_QRCODE_RETRY_MEGAPIXELS", "qrcodeRetryMegapixels must be 0…1000")
            }
            try region.validate()
        }
    }

    /// The second passes, cheapest first.
    static let preparations: [cvision_barcode_preparation] = [CVISION_BARCODE_SHARPEN, CVISION_BARCODE_BINARIZE, CVISION_BARCODE_UPSCALE]

    private let options: Options
    private let scanner: BarcodeScanner
    private let check: RegionCheck
    /// Media time each content was last seen valid.
    private var lastSeen: [[UInt8]: Double] = [:]
    /// The message each content was last invalid for.
    private var lastMessage: [[UInt8]: String] = [:]
    /// Second passes that found nothing make the next ones wait (1, 2, 4, then 8 frames), so footage without
    /// codes does not pay for them on every frame; a code found by any pass resets the wait.
    private var retryBackoff = 0
    private var framesUntilRetry = 0

    public init(options: Options) throws(FrameProbeError) {
        try options.validate()
        self.options = options
        scanner = try BarcodeScanner(symbologies: options.symbologies)
        check = RegionCheck(options: options.region)
    }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: (Event.Body) -> Void) throws(FrameProbeError) {
        let codes = try decode(try analysis.gray(of: frame))
        var seenNow: Set<[UInt8]> = []
        for code in codes where seenNow.insert(code.payload).inserted {
            switch check.check(code.bounds, frameWidth: frame.width, frameHeight: frame.height) {
            case .valid:
                lastMessage[code.payload] = nil
                let forgotten = lastSeen[code.payload].map { (frame.time - $0) * 1000 > Double(options.forgetMs) } ?? true
                if options.everyFrame || forgotten {
                    emit(.qrCodeScanned(code))
                    analysis.codesReported += 1
                }
                lastSeen[code.payload] = frame.time
            case .invalid(let message):
                if let message, lastMessage[code.payload] != message { emit(.message(message, code: code)) }
                lastMessage[code.payload] = message
            }
        }
        for payload in lastMessage.keys where !seenNow.contains(payload) { lastMessage[payload] = nil }
    }

    /// The plain pass, then the prepared ones while nothing is found and the budget lasts.
    private mutating func decode(_ gray: GrayImage) throws(FrameProbeError) -> [QRCodeObservation] {
        let plain = scanner.scan(gray.pixels, width: gray.width, height: gray.height, lineStep: 2)
        if !plain.isEmpty { retryBackoff = 0 }
        guard plain.isEmpty, options.retry else { return plain }
        if framesUntilRetry > 0 {
            framesUntilRetry -= 1
            return []
        }
        var budget = Int(options.retryMegapixels * 1_000_000)
        for kind in Self.preparations {
            let cost = BarcodeScanner.preparedPixels(width: gray.width, height: gray.height, kind)
            guard cost <= budget else { break }
            budget -= cost
            let found = try scanner.scan(gray, preparedBy: kind)
            if !found.isEmpty {
                retryBackoff = 0
                return found
            }
        }
        framesUntilRetry = retryBackoff
        retryBackoff = min(max(1, retryBackoff * 2), 8)
        return []
    }
}

extension QRCodeObservation {
    var jsonFields: [(String, JSONValue)] {
        let content: (String, String) = text.map { ($0, "utf8") } ?? (Data(payload).base64EncodedString(), "base64")
        return [
            ("content", .string(content.0)), ("encoding", .string(content.1)),
            ("polygon", .array(polygon.map { .array([.number($0.x, decimals: 1), .number($0.y, decimals: 1)]) })),
            ("symbology", .string(symbology)),
        ]
    }
}
