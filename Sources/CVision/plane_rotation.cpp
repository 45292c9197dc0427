// Quarter turns of one 8-bit plane (a picture's luma or chroma) in one pass: 8×8 blocks are read, transposed in SSE2
// registers and written where the turn puts them — where OpenCV's rotate transposes byte by byte and then flips the
// whole image in a second pass. Half turns are OpenCV's flip (already vectorised); other CPUs use OpenCV's rotate.
#include "cvision.h"
#include "errors.hpp"
#include <opencv2/core.hpp>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace {
#if defined(__SSE2__)
// The 8×8 block whose rows are `rows[0..7]` (8 bytes each), transposed: column j is written to `out[j]`.
inline void transpose_block(const uint8_t *const rows[8], uint8_t *const out[8]) {
    __m128i r[8];
    for (int k = 0; k < 8; ++k) r[k] = _mm_loadl_epi64(reinterpret_cast<const __m128i *>(rows[k]));
    const __m128i a0 = _mm_unpacklo_epi8(r[0], r[1]), a1 = _mm_unpacklo_epi8(r[2], r[3]);
    const __m128i a2 = _mm_unpacklo_epi8(r[4], r[5]), a3 = _mm_unpacklo_epi8(r[6], r[7]);
    const __m128i b0 = _mm_unpacklo_epi16(a0, a1), b1 = _mm_unpackhi_epi16(a0, a1);
    const __m128i b2 = _mm_unpacklo_epi16(a2, a3), b3 = _mm_unpackhi_epi16(a2, a3);
    const __m128i c[4] = {_mm_unpacklo_epi32(b0, b2), _mm_unpackhi_epi32(b0, b2), _mm_unpacklo_epi32(b1, b3),
                          _mm_unpackhi_epi32(b1, b3)};
    for (int j = 0; j < 4; ++j) {
        _mm_storel_epi64(reinterpret_cast<__m128i *>(out[2 * j]), c[j]);
        _mm_storel_epi64(reinterpret_cast<__m128i *>(out[2 * j + 1]), _mm_unpackhi_epi64(c[j], c[j]));
    }
}

// A quarter turn clockwise (`clockwise`) or counter-clockwise of `in` into `out` (of the turned size).
void quarter_turn(const cv::Mat &in, cv::Mat &out, bool clockwise) {
    const int width = in.cols, height = in.rows;
    // Where source pixel (x, y) goes.
    auto target = [&](int x, int y) -> uint8_t * {
        return clockwise ? out.ptr<uint8_t>(x) + (height - 1 - y) : out.ptr<uint8_t>(width - 1 - x) + y;
    };
    const int whole_rows = height / 8 * 8, whole_columns = width / 8 * 8;
    for (int y = 0; y < whole_rows; y += 8) {
        for (int x = 0; x < whole_columns; x += 8) {
            // Rows read bottom-up for a clockwise turn, so that each written row runs left to right.
            const uint8_t *rows[8];
            uint8_t *columns[8];
            for (int k = 0; k < 8; ++k) rows[k] = in.ptr<uint8_t>(clockwise ? y + 7 - k : y + k) + x;
            for (int j = 0; j < 8; ++j) columns[j] = clockwise ? target(x + j, y + 7) : target(x + j, y);
            transpose_block(rows, columns);
        }
        for (int x = whole_columns; x < width; ++x)
            for (int k = 0; k < 8; ++k) *target(x, y + k) = in.ptr<uint8_t>(y + k)[x];
    }
    for (int y = whole_rows; y < height; ++y)
        for (int x = 0; x < width; ++x) *target(x, y) = in.ptr<uint8_t>(y)[x];
}
#endif
} // namespace

extern "C" int cvision_rotate_plane(const uint8_t *src, int width, int height, int stride, int quarter_turns, uint8_t *dst,
                                    int dst_stride) {
    const int turns = ((quarter_turns % 4) + 4) % 4;
    const bool swaps = turns % 2 == 1;
    if (!src || !dst || width <= 0 || height <= 0 || stride < width || dst_stride < (swaps ? height : width))
        return cvision::fail("invalid plane");
    return cvision::guarded([&] {
        const cv::Mat in(height, width, CV_8UC1, const_cast<uint8_t *>(src), static_cast<size_t>(stride));
        cv::Mat out(swaps ? width : height, swaps ? height : width, CV_8UC1, dst, static_cast<size_t>(dst_stride));
        switch (turns) {
        case 0: in.copyTo(out); break;
        case 2: cv::flip(in, out, -1); break;
#if defined(__SSE2__)
        default: quarter_turn(in, out, turns == 1); break;
#else
        default: cv::rotate(in, out, turns == 1 ? cv::ROTATE_90_CLOCKWISE : cv::ROTATE_90_COUNTERCLOCKWISE); break;
#endif
        }
        return 0;
    });
}
