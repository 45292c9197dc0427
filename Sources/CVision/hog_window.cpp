// dlib's frontal detector with its filters applied whole (hog_window.hpp). Each step below is the step of dlib's
// object_detector::operator() and scan_fhog_pyramid::detect of the same name, in the same order, so that the hits,
// their boxes and the suppression between them are dlib's; only the score of a window is computed another way.
#include "hog_window.hpp"
#include "dlib_scan_steps.hpp"
#include <algorithm>
#include <dlib/opencv/cv_image.h>
#include <dlib/simd.h>
#include <stdexcept>

namespace cvision {

WholeFilterScan::WholeFilterScan(const dlib::frontal_face_detector &detector) {
    const auto &scanner = detector.get_scanner();
    rows_ = long(scanner.get_fhog_window_height());
    columns_ = long(scanner.get_fhog_window_width());
    const long planes = long(scanner.get_feature_extractor().get_num_planes());
    const long size = rows_ * columns_;
    for (unsigned long k = 0; k < detector.num_detectors(); ++k) {
        const auto &w = detector.get_w(k);
        // dlib reads plane p's filter as w[p·size + y·columns + x] (a row-major reshape).
        std::vector<float> weights(size_t(size * planes_), 0.0f);
        for (long p = 0; p < planes; ++p)
            for (long cell = 0; cell < size; ++cell) weights[size_t(cell * planes_ + p)] = float(w(p * size + cell));
        weights_.push_back(std::move(weights));
        thresholds_.push_back(w(long(scanner.get_num_dimensions())));
    }
    if (weights_.size() > max_filters || planes_ != 32) throw std::runtime_error("unexpected HOG detector shape");
}

// The rows [top, bottom) and columns [left, right) of the level in `cells_` that hold a cell other than zero.
WholeFilterScan::Band WholeFilterScan::nonzero_band(long rows, long columns) const {
    Band band{rows, 0, columns, 0};
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < columns; ++c) {
            const float *cell = &cells_[size_t((r * columns + c) * planes_)];
            if (std::any_of(cell, cell + planes_, [](float v) { return v != 0.0f; })) {
                band = {std::min(band.top, r), std::max(band.bottom, r + 1), std::min(band.left, c), std::max(band.right, c + 1)};
            }
        }
    return band;
}

namespace {
// acc + a · b, fused where the CPU can.
inline dlib::simd8f multiply_add(const dlib::simd8f &a, const dlib::simd8f &b, const dlib::simd8f &acc) {
#if defined(DLIB_HAVE_AVX) && defined(__FMA__)
    return _mm256_fmadd_ps(a, b, acc);
#else
    return acc + a * b;
#endif
}
} // namespace

// Filter `k`'s scores of N windows side by side in a row of windows, the first one's top-left cell at `window` (cell
// rows `stride` floats apart), over the `cells` of the window grid that are not all zero. A cell's plane vector is
// contiguous, and so are the same cell of neighbouring windows: each weight is loaded once for the N windows, and the
// N sums keep the multiply-adds from waiting on each other.
template <int N>
void WholeFilterScan::row_scores(size_t k, const float *window, long stride, const Band &cells, float scores[]) const {
    dlib::simd8f sums[N];
    for (int i = 0; i < N; ++i) sums[i] = 0;
    const float *weights = weights_[k].data();
    for (long y = cells.top; y < cells.bottom; ++y) {
        for (long x = cells.left; x < cells.right; ++x) {
            const long cell = (y * columns_ + x) * planes_;
            const float *features = window + y * stride + x * planes_;
            for (long lane = 0; lane < planes_; lane += 8) {
                dlib::simd8f w;
                w.load(weights + cell + lane);
                for (int i = 0; i < N; ++i) {
                    dlib::simd8f f;
                    f.load(features + i * planes_ + lane);
                    sums[i] = multiply_add(f, w, sums[i]);
                }
            }
        }
    }
    for (int i = 0; i < N; ++i) scores[i] = dlib::sum(sums[i]);
}

void WholeFilterScan::operator()(const dlib::frontal_face_detector &detector, const cv::Mat &image, double adjust,
                                 std::vector<dlib::rect_detection> &found) {
    const auto &scanner = detector.get_scanner();
    const int cell_size = int(scanner.get_cell_size());
    dlib::impl::create_fhog_pyramid<dlib::pyramid_down<6>>(
        dlib::cv_image<unsigned char>(image), scanner.get_feature_extractor(), levels_, cell_size, int(rows_), int(columns_),
        scanner.get_min_pyramid_layer_width(), scanner.get_min_pyramid_layer_height(), scanner.get_max_pyramid_levels());

    const size_t filters = weights_.size();
    std::vector<FilterHits> hits(filters);
    for (unsigned long level = 0; level < levels_.size(); ++level) {
        const auto &planes = levels_[level];
        const long nr = planes[0].nr(), nc = planes[0].nc();
        // The windows dlib's filtering reaches: centred on (r, c), its rows r − rows/2 … r + (rows − 1)/2.
        const long first_row = rows_ / 2, last_row = nr - (rows_ - 1) / 2;
        const long first_column = columns_ / 2, last_column = nc - (columns_ - 1) / 2;
        if (first_row >= last_row || first_column >= last_column) continue;
        cells_.assign(size_t(nr * nc * planes_), 0.0f);
        for (unsigned long p = 0; p < planes.size(); ++p)
            for (long r = 0; r < nr; ++r)
                for (long c = 0; c < nc; ++c) cells_[size_t((r * nc + c) * planes_ + long(p))] = planes[p][r][c];
        // dlib pads each level with zero cells so that windows reach over its edges; they add nothing to a score.
        const Band band = nonzero_band(nr, nc);
        for (long r = first_row; r < last_row; ++r) {
            const long top = r - first_row;
            for (long c = first_column; c < last_column; c += block) {
                // Windows c … c + n − 1; the cells any of them reaches that are not all zero, in window coordinates.
                const long n = std::min(block, last_column - c), left = c - first_column;
                const Band cells{std::max(band.top - top, 0L), std::min(band.bottom - top, rows_),
                                 std::max(band.left - left - (n - 1), 0L), std::min(band.right - left, columns_)};
                const float *window = &cells_[size_t((top * nc + left) * planes_)];
                for (size_t k = 0; k < filters; ++k) {
                    float scores[block];
                    if (n == block) {
                        row_scores<block>(k, window, nc * planes_, cells, scores);
                    } else {
                        for (long i = 0; i < n; ++i) row_scores<1>(k, window + i * planes_, nc * planes_, cells, scores + i);
                    }
                    for (long i = 0; i < n; ++i) {
                        if (scores[i] >= thresholds_[k] + adjust) hits[k].emplace_back(scores[i], window_box(scanner, c + i, r, level));
                    }
                }
            }
        }
    }

    suppress_as_dlib(detector, hits, thresholds_, found);
}

} // namespace cvision
