import Foundation

/// How the bytes of a code that names no charset become text (one that names one is converted as its ECI says:
/// `ECIReader`). The standard then says ISO-8859-1, while phones write UTF-8 and Japanese codes Shift_JIS, so
/// frameprobe decides:
/// 1. bytes with control characters other than tab, line feed and carriage return are binary, not text;
/// 2. valid UTF-8 → UTF-8 (a leading byte-order mark dropped);
/// 3. valid Shift_JIS holding at least one double-byte character or half-width katakana → Shift_JIS;
/// 4. else ISO-8859-1 — unless it has bytes 0x80–0x9F, which are control characters there: binary.
/// WeChatQRCode's results take the same path.
public enum PayloadText {
    /// The text and its charset's name, or nil for a binary payload.
    public static func decode(_ bytes: [UInt8]) -> (text: String, charset: String)? {
        guard !bytes.contains(where: isControl) else { return nil }
        if let text = String(validating: bytes, as: UTF8.self) {
            return (text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text, "UTF-8")
        }
        if isShiftJISText(bytes), let text = String(data: Data(bytes), encoding: .shiftJIS) {
            return (text, "Shift_JIS")
        }
        guard !bytes.contains(where: { (0x80...0x9F).contains($0) }) else { return nil }
        return (String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })), "ISO-8859-1")
    }

    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
    }

    /// Well-formed Shift_JIS (JIS X 0208 lead and trail bytes) with at least one character beyond ASCII.
    static func isShiftJISText(_ bytes: [UInt8]) -> Bool {
        var index = 0, beyondASCII = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x00...0x7F: index += 1
            case 0xA1...0xDF: beyondASCII = true; index += 1  // half-width katakana
            case 0x81...0x9F, 0xE0...0xEF:
                guard index + 1 < bytes.count else { return false }
                let trail = bytes[index + 1]
                guard (0x40...0x7E).contains(trail) || (0x80...0xFC).contains(trail) else { return false }
                beyondASCII = true
                index += 2
            default: return false
            }
        }
        return beyondASCII
    }
}
