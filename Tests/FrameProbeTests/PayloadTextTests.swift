import Foundation
import Testing
@testable import FrameProbe

/// The charset rule on bytes made by hand (PayloadText).
struct PayloadTextTests {
    @Test func theRule() {
        #expect(PayloadText.decode(Array("héllo\r\n".utf8))! == ("héllo\r\n", "UTF-8"))
        #expect(PayloadText.decode([0xEF, 0xBB, 0xBF] + Array("bom".utf8))! == ("bom", "UTF-8"))
        // "モバイル" in Shift_JIS; half-width katakana alone count too.
        #expect(PayloadText.decode([0x83, 0x82, 0x83, 0x6F, 0x83, 0x43, 0x83, 0x8B])! == ("モバイル", "Shift_JIS"))
        #expect(PayloadText.decode([0xC3, 0xDE])! == ("ﾃﾞ", "Shift_JIS"))
        // Not UTF-8, not Shift_JIS (0xE9 then a space): ISO-8859-1.
        #expect(PayloadText.decode([0x63, 0x61, 0x66, 0xE9, 0x20])! == ("café ", "ISO-8859-1"))
        // Control characters, or C1 controls in what would be ISO-8859-1: binary.
        #expect(PayloadText.decode([0x00, 0xFF, 0x10]) == nil)
        #expect(PayloadText.decode([0x41, 0x85, 0xF5]) == nil)
    }
}
