// The ECI designator of a QR code, read with zxing-cpp (Debian's libzxing): zbar applies the ECIs it knows and
// hands over the bytes of the others (GB2312, Big5, EUC-KR …), WeChatQRCode applies none, and neither says which
// ECI a code named. Run on a small crop around a code whose bytes are not UTF-8.
#define ZX_USE_UTF8 1
#include "cvision.h"
#include "errors.hpp"
#include <ZXing/ReadBarcode.h>
#include <cstring>
#include <string>

namespace {
// bytesECI() starts with the symbology identifier ("]Q2") and writes each ECI as a backslash and six digits.
int first_eci(const ZXing::ByteArray &bytes) {
    const std::string text(bytes.begin(), bytes.end());
    const size_t at = text.find('\\');
    if (at == std::string::npos || at + 7 > text.size()) return -1;
    int eci = 0;
    for (size_t index = at + 1; index < at + 7; ++index) {
        if (text[index] < '0' || text[index] > '9') return -1;
        eci = eci * 10 + (text[index] - '0');
    }
    return eci;
}
}

extern "C" int cvision_qr_eci(const uint8_t *gray, int width, int height, int stride, const uint8_t *payload,
                              int payload_length, int *eci) {
    if (!gray || width <= 0 || height <= 0 || stride < width || !payload || payload_length <= 0 || !eci)
        return cvision::fail("invalid ECI request");
    return cvision::guarded([&] {
        *eci = -1;
        ZXing::DecodeHints hints;
        hints.setFormats(ZXing::BarcodeFormat::QRCode);
        hints.setTryHarder(true);
        const ZXing::ImageView view(gray, width, height, ZXing::ImageFormat::Lum, stride);
        for (const ZXing::Result &result : ZXing::ReadBarcodes(view, hints)) {
            const ZXing::ByteArray &bytes = result.bytes();
            if (!result.isValid() || !result.hasECI() || bytes.size() != static_cast<size_t>(payload_length) ||
                std::memcmp(bytes.data(), payload, bytes.size()) != 0)
                continue;
            *eci = first_eci(result.bytesECI());
            break;
        }
        return 0;
    });
}
