// Pixel operations the Swift side needs: resize, rotate (display-matrix correction), gray, drawing.
#include "cvision.h"
#include "errors.hpp"
#include <cstdlib>
#include <cstring>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <vector>

namespace {
cv::Mat wrap(const uint8_t *pixels, int width, int height, int stride) {
    return cv::Mat(height, width, CV_8UC3, const_cast<uint8_t *>(pixels), static_cast<size_t>(stride));
}
bool valid(const uint8_t *pixels, int width, int height, int stride) {
    return pixels && width > 0 && height > 0 && stride >= 3 * width;
}
} // namespace

extern "C" int cvision_resize(const uint8_t *src, int width, int height, int stride, uint8_t *dst, int dst_width,
                              int dst_height, int dst_stride) {
    if (!valid(src, width, height, stride) || !valid(dst, dst_width, dst_height, dst_stride))
        return cvision::fail("invalid image");
    return cvision::guarded([&] {
        cv::Mat out = wrap(dst, dst_width, dst_height, dst_stride);
        const bool shrinking = dst_width < width && dst_height < height;
        cv::resize(wrap(src, width, height, stride), out, out.size(), 0, 0,
                   shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
        return 0;
    });
}

extern "C" int cvision_rotate(const uint8_t *src, int width, int height, int stride, int quarter_turns, uint8_t *dst,
                              int dst_stride) {
    const int turns = ((quarter_turns % 4) + 4) % 4;
    const bool swaps = turns % 2 == 1;
    if (!valid(src, width, height, stride) || !valid(dst, swaps ? height : width, swaps ? width : height, dst_stride))
        return cvision::fail("invalid image");
    return cvision::guarded([&] {
        cv::Mat in = wrap(src, width, height, stride);
        cv::Mat out = wrap(dst, swaps ? height : width, swaps ? width : height, dst_stride);
        switch (turns) {
        case 0: in.copyTo(out); break;
        case 1: cv::rotate(in, out, cv::ROTATE_90_CLOCKWISE); break;
        case 2: cv::rotate(in, out, cv::ROTATE_180); break;
        default: cv::rotate(in, out, cv::ROTATE_90_COUNTERCLOCKWISE); break;
        }
        return 0;
    });
}

extern "C" int cvision_bgr_to_gray(const uint8_t *bgr, int width, int height, int stride, uint8_t *gray, int gray_stride) {
    if (!valid(bgr, width, height, stride) || !gray || gray_stride < width) return cvision::fail("invalid image");
    return cvision::guarded([&] {
        cv::Mat out(height, width, CV_8UC1, gray, static_cast<size_t>(gray_stride));
        cv::cvtColor(wrap(bgr, width, height, stride), out, cv::COLOR_BGR2GRAY);
        return 0;
    });
}

namespace {
// Draws on a copy and blends it back, so that alpha < 1 gives a translucent line.
template <typename Draw> int blended(uint8_t *bgr, int width, int height, int stride, cvision_color color, Draw draw) {
    if (!valid(bgr, width, height, stride)) return cvision::fail("invalid image");
    return cvision::guarded([&] {
        cv::Mat image = wrap(bgr, width, height, stride);
        const cv::Scalar scalar(color.b * 255, color.g * 255, color.r * 255);
        if (color.alpha >= 0.999) {
            draw(image, scalar);
        } else {
            cv::Mat overlay = image.clone();
            draw(overlay, scalar);
            cv::addWeighted(overlay, color.alpha, image, 1 - color.alpha, 0, image);
        }
        return 0;
    });
}
} // namespace

extern "C" int cvision_draw_rectangle(uint8_t *bgr, int width, int height, int stride, double x, double y, double w,
                                      double h, cvision_color color, int thickness) {
    return blended(bgr, width, height, stride, color, [&](cv::Mat &image, const cv::Scalar &scalar) {
        cv::rectangle(image, cv::Rect(int(std::lround(x)), int(std::lround(y)), int(std::lround(w)), int(std::lround(h))),
                      scalar, thickness, cv::LINE_AA);
    });
}

extern "C" int cvision_draw_polyline(uint8_t *bgr, int width, int height, int stride, const float *xy, int count,
                                     int closed, cvision_color color, int thickness) {
    if (!xy || count < 1) return cvision::fail("no points to draw");
    return blended(bgr, width, height, stride, color, [&](cv::Mat &image, const cv::Scalar &scalar) {
        std::vector<cv::Point> points;
        for (int i = 0; i < count; ++i) points.emplace_back(int(std::lround(xy[2 * i])), int(std::lround(xy[2 * i + 1])));
        cv::polylines(image, points, closed != 0, scalar, thickness, cv::LINE_AA);
    });
}
