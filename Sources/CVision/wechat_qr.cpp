// QR decoding with OpenCV's WeChatQRCode (opencv_contrib), without its optional CNN models: a second decoder for
// codes zbar misses on curved or perspective-bent paper.
#include "cvision.h"
#include "errors.hpp"
#include <opencv2/wechat_qrcode.hpp>
#include <string>
#include <vector>

struct cvision_wechat_qr {
    cv::wechat_qrcode::WeChatQRCode decoder;
    // The last call's results, kept alive until the next call (the C API hands out pointers into them).
    std::vector<std::string> texts;
    std::vector<cv::Mat> corners;
};

extern "C" cvision_wechat_qr *cvision_wechat_qr_create(void) {
    return cvision::created<cvision_wechat_qr>([](cvision_wechat_qr &) { return 0; });
}

extern "C" void cvision_wechat_qr_free(cvision_wechat_qr *decoder) { delete decoder; }

extern "C" int cvision_wechat_qr_decode(cvision_wechat_qr *decoder, const uint8_t *gray, int width, int height,
                                        int stride, cvision_wechat_qr_code *codes, int capacity, int *count) {
    if (!decoder || !gray || width <= 0 || height <= 0 || stride < width || !codes || capacity < 0 || !count)
        return cvision::fail("invalid WeChatQRCode request");
    return cvision::guarded([&] {
        *count = 0;
        const cv::Mat image(height, width, CV_8UC1, const_cast<uint8_t *>(gray), static_cast<size_t>(stride));
        decoder->corners.clear();
        decoder->texts = decoder->decoder.detectAndDecode(image, decoder->corners);
        const size_t found = std::min(decoder->texts.size(), static_cast<size_t>(capacity));
        for (size_t index = 0; index < found; ++index) {
            cvision_wechat_qr_code &code = codes[index];
            code.bytes = reinterpret_cast<const uint8_t *>(decoder->texts[index].data());
            code.length = static_cast<int>(decoder->texts[index].size());
            const cv::Mat points = index < decoder->corners.size() ? decoder->corners[index] : cv::Mat();
            for (int corner = 0; corner < 4; ++corner) {
                const bool known = points.rows >= 4 && points.cols >= 2 && points.type() == CV_32F;
                code.corners[2 * corner] = known ? points.at<float>(corner, 0) : 0;
                code.corners[2 * corner + 1] = known ? points.at<float>(corner, 1) : 0;
            }
            ++*count;
        }
        return 0;
    });
}
