import CVision
import Glibc

/// Honours the ECI designators zbar does not apply (GB2312, Big5, EUC-KR, GB18030 …: it hands over their bytes)
/// and those of codes only WeChatQRCode read (it applies none): zxing-cpp reads the code again on a crop around it
/// and says which ECI it named. Only a code whose bytes are not UTF-8 is looked at — zbar has already converted
/// the ECIs it knows to UTF-8 — and once per payload (the QR stage keeps the answer).
enum ECIReader {
    /// The charsets ECI designators name (ISO/IEC 15424 / AIM ECI assignments), as `charset` reports them.
    static func charset(of eci: Int) -> String {
        switch eci {
        case 1, 3: "ISO-8859-1"
        case 4...13: "ISO-8859-\(eci - 2)"
        case 15...18: "ISO-8859-\(eci - 2)"
        case 20: "Shift_JIS"
        case 21: "windows-1250"
        case 22: "windows-1251"
        case 23: "windows-1252"
        case 24: "windows-1256"
        case 25: "UTF-16BE"
        case 26: "UTF-8"
        case 27, 170: "US-ASCII"
        case 28: "Big5"
        case 29: "GB2312"
        case 30: "EUC-KR"
        case 31: "GBK"
        case 32: "GB18030"
        case 33: "UTF-16LE"
        case 34: "UTF-32BE"
        case 35: "UTF-32LE"
        default: "ECI \(eci)"
        }
    }

    /// The text `code`'s ECI designator says, read on `gray` around the code; nil when the code names no charset
    /// (or zxing-cpp does not read it there).
    static func designated(_ code: BarcodeObservation, in gray: GrayImage) throws(FrameProbeError) -> DesignatedText? {
        let bounds = code.bounds
        let margin = max(bounds.width, bounds.height) * 0.5 + 8
        guard let area = bounds.expanded(by: margin).clamped(toWidth: gray.width, height: gray.height) else { return nil }
        var eci: Int32 = -1
        try CVisionCall.check("reading an ECI") {
            cvision_qr_eci(gray.pixels + area.y * gray.width + area.x, Int32(area.width), Int32(area.height), Int32(gray.width),
                           code.payload, Int32(code.payload.count), &eci)
        }
        guard eci >= 0 else { return nil }
        let name = charset(of: Int(eci))
        return transcoded(code.payload, from: name).map { DesignatedText(text: $0, charset: name) }
    }

    /// `bytes` in `charset` as text (glibc's iconv knows every charset above); nil when they are not valid there.
    static func transcoded(_ bytes: [UInt8], from charset: String) -> String? {
        let converter = iconv_open("UTF-8", charset)
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = bytes.map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: bytes.count * 4 + 4)
        let converted: Int = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                var inPointer = inputBuffer.baseAddress, outPointer = outputBuffer.baseAddress
                var inLeft = inputBuffer.count, outLeft = outputBuffer.count
                let result = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                return result == -1 || inLeft != 0 ? -1 : outputBuffer.count - outLeft
            }
        }
        guard converted >= 0 else { return nil }
        return String(validating: output.prefix(converted).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
