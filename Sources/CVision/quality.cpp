// Yoonit Camera's image-quality scores (the Android formulas), computed exactly:
// gray = trunc(0.299 R + 0.587 G + 0.114 B); darkness / lightness = shares of gray in 0..63 / 192..255
// (optionally inside a centred ellipse, radii 0.35 W and 0.5 H, tested at pixel centres); sharpness = population std of the 3x3 Laplacian
// [1 1 1; 1 -8 1; 1 1 1] over all pixels, replicated border, each response clamped to 0..255, / 128.
#include "cvision.h"
#include "errors.hpp"
#include <cmath>
#include <vector>

namespace {

// Integer arithmetic gives the exact truncation of the real-valued BT.601 sum.
inline uint8_t bt601_gray(const uint8_t *bgr) {
    return static_cast<uint8_t>((114u * bgr[0] + 587u * bgr[1] + 299u * bgr[2]) / 1000u);
}

void fill_gray(const uint8_t *bgr, int width, int height, int stride, std::vector<uint8_t> &gray) {
    gray.resize(static_cast<size_t>(width) * height);
    for (int y = 0; y < height; ++y) {
        const uint8_t *row = bgr + static_cast<size_t>(y) * stride;
        uint8_t *out = gray.data() + static_cast<size_t>(y) * width;
        for (int x = 0; x < width; ++x) out[x] = bt601_gray(row + 3 * x);
    }
}

// Measured at pixel centres, so the mask is symmetric in the crop.
bool inside_ellipse(int x, int y, double cx, double cy, double rx, double ry) {
    const double dx = (x + 0.5 - cx) / rx, dy = (y + 0.5 - cy) / ry;
    return dx * dx + dy * dy < 1.0;
}

// Clamped Laplacian response at x of one row, given the rows above and below (edge-replicated indices).
inline int clamped_response(const uint8_t *up, const uint8_t *mid, const uint8_t *down, int l, int x, int r) {
    const int response = up[l] + up[x] + up[r] + mid[l] + mid[r] + down[l] + down[x] + down[r] - 8 * mid[x];
    return response < 0 ? 0 : (response > 255 ? 255 : response);
}

// Population standard deviation of the clamped Laplacian response, over every pixel. The interior of each row
// runs in a branch-free loop the compiler vectorises (row sums fit 32 bits: 255² × 8192 < 2³¹); the two edge
// columns replicate their neighbour.
double laplacian_std(const std::vector<uint8_t> &gray, int width, int height) {
    int64_t sum = 0, sum_squares = 0;
    for (int y = 0; y < height; ++y) {
        const uint8_t *up = gray.data() + static_cast<size_t>(y > 0 ? y - 1 : 0) * width;
        const uint8_t *mid = gray.data() + static_cast<size_t>(y) * width;
        const uint8_t *down = gray.data() + static_cast<size_t>(y < height - 1 ? y + 1 : y) * width;
        uint32_t row_sum = 0, row_squares = 0;
        for (int x = 1; x < width - 1; ++x) {
            const uint32_t value = static_cast<uint32_t>(clamped_response(up, mid, down, x - 1, x, x + 1));
            row_sum += value;
            row_squares += value * value;
        }
        for (int x : {0, width - 1}) {
            if (x == width - 1 && width == 1) break;
            const uint32_t value = static_cast<uint32_t>(clamped_response(up, mid, down, x > 0 ? x - 1 : 0, x, x < width - 1 ? x + 1 : x));
            row_sum += value;
            row_squares += value * value;
        }
        sum += row_sum;
        sum_squares += row_squares;
    }
    const double n = static_cast<double>(width) * height;
    const double mean = sum / n;
    const double variance = sum_squares / n - mean * mean;
    return std::sqrt(variance > 0 ? variance : 0);
}

} // namespace

extern "C" int cvision_quality(const uint8_t *bgr, int width, int height, int stride, int elliptical_mask,
                               cvision_quality_scores *out) {
    if (!bgr || !out || width <= 0 || height <= 0 || stride < 3 * width) return cvision::fail("invalid image");
    return cvision::guarded([&] {
        thread_local std::vector<uint8_t> gray;
        fill_gray(bgr, width, height, stride, gray);
        int64_t counted = 0, dark = 0, light = 0;
        const double cx = width / 2.0, cy = height / 2.0, rx = 0.35 * width, ry = 0.5 * height;
        for (int y = 0; y < height; ++y) {
            const uint8_t *row = gray.data() + static_cast<size_t>(y) * width;
            for (int x = 0; x < width; ++x) {
                if (elliptical_mask && !inside_ellipse(x, y, cx, cy, rx, ry)) continue;
                ++counted;
                dark += row[x] <= 63;
                light += row[x] >= 192;
            }
        }
        out->darkness = counted ? static_cast<double>(dark) / counted : 0;
        out->lightness = counted ? static_cast<double>(light) / counted : 0;
        out->sharpness = laplacian_std(gray, width, height) / 128.0;
        return 0;
    });
}
