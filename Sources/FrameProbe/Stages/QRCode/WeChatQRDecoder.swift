import CVision

/// OpenCV's WeChatQRCode (no CNN models): the second QR decoder, for codes zbar misses on curved or
/// perspective-bent paper. Not thread-safe: one per QR stage, used by its thread only.
final class WeChatQRDecoder: @unchecked Sendable {  // wraps OpenCV's decoder handle; one stage uses it on one thread
    private let handle: OpaquePointer

    init() throws(FrameProbeError) {
        guard let handle = cvision_wechat_qr_create() else {
            throw FrameProbeError("SCANNER_UNAVAILABLE", "WeChatQRCode could not start: \(String(cString: cvision_last_error()))")
        }
        self.handle = handle
    }

    deinit { cvision_wechat_qr_free(handle) }

    /// Every QR code WeChatQRCode decodes in `gray`. Its bytes go through `PayloadText` like zbar's: it converts
    /// some payloads to UTF-8 itself and hands others over as they are (Shift_JIS bytes stay Shift_JIS).
    func decode(_ gray: GrayImage) throws(FrameProbeError) -> [BarcodeObservation] {
        var codes = [cvision_wechat_qr_code](repeating: cvision_wechat_qr_code(), count: 16)
        var count: Int32 = 0
        try CVisionCall.check("WeChatQRCode") {
            cvision_wechat_qr_decode(handle, gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width),
                                     &codes, Int32(codes.count), &count)
        }
        return codes.prefix(Int(count)).compactMap { code in
            guard let bytes = code.bytes, code.length > 0 else { return nil }
            let payload = Array(UnsafeBufferPointer(start: bytes, count: Int(code.length)))
            let corners = withUnsafeBytes(of: code.corners) { Array($0.bindMemory(to: Float.self)) }
            let polygon = (0..<4).map { Point2D(x: Double(corners[2 * $0]), y: Double(corners[2 * $0 + 1])) }
            return BarcodeObservation(payload: payload, polygon: polygon, symbology: "qrcode")
        }
    }
}
