// Second-pass preparations for barcode decoding: what real footage needs when zbar's plain pass finds nothing.
#include "cvision.h"
#include "errors.hpp"
#include <opencv2/imgproc.hpp>

extern "C" void cvision_barcode_prepared_size(int width, int height, cvision_barcode_preparation kind, int *out_width,
                                              int *out_height) {
    const int factor = kind == CVISION_BARCODE_UPSCALE ? 2 : 1;
    *out_width = width * factor;
    *out_height = height * factor;
}

extern "C" int cvision_barcode_prepare(const uint8_t *gray, int width, int height, int stride,
                                       cvision_barcode_preparation kind, uint8_t *out, int out_width, int out_height) {
    int expected_width = 0, expected_height = 0;
    cvision_barcode_prepared_size(width, height, kind, &expected_width, &expected_height);
    if (!gray || !out || width <= 0 || height <= 0 || stride < width || out_width != expected_width ||
        out_height != expected_height)
        return cvision::fail("invalid barcode preparation request");
    return cvision::guarded([&] {
        const cv::Mat in(height, width, CV_8UC1, const_cast<uint8_t *>(gray), static_cast<size_t>(stride));
        cv::Mat result(out_height, out_width, CV_8UC1, out, static_cast<size_t>(out_width));
        switch (kind) {
        case CVISION_BARCODE_UPSCALE:
            cv::resize(in, result, result.size(), 0, 0, cv::INTER_CUBIC);
            break;
        case CVISION_BARCODE_SHARPEN: {
            cv::Mat blurred;
            cv::GaussianBlur(in, blurred, cv::Size(0, 0), 2.0);
            cv::addWeighted(in, 2.5, blurred, -1.5, 0, result);
            break;
        }
        case CVISION_BARCODE_BINARIZE: {
            cv::Mat equalised;
            cv::createCLAHE(4.0, cv::Size(8, 8))->apply(in, equalised);
            // A block of ~1/20 of the short side spans a few modules of a typical code.
            int block = std::max(15, (std::min(width, height) / 20) | 1);
            cv::adaptiveThreshold(equalised, result, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY, block, 5);
            break;
        }
        default:
            return cvision::fail("unknown barcode preparation");
        }
        return 0;
    });
}
