// dlib's frontal detector on a region a few of its windows wide (the check that a followed face is still there):
// dlib filters each HOG plane with a sum of separable filters (the SVD of its filters, the small terms dropped), the
// fast way over a whole frame, but over the 100–200 windows of such a region it pays for filtering every plane in
// full. Here each window's score is dlib's filters applied whole: one dot product of 10 × 10 cells × 31 planes per
// window and filter. Same pyramid, same HOG features, same windows, boxes and non-max suppression as dlib's scan;
// the scores differ from dlib's by its approximation (under 1e-3).
#pragma once
#include <dlib/image_processing/frontal_face_detector.h>
#include <opencv2/core.hpp>
#include <vector>

namespace cvision {
class WholeFilterScan {
  public:
    explicit WholeFilterScan(const dlib::frontal_face_detector &detector);

    /// The faces dlib's `detector(image, found, adjust)` finds, scored by the whole filters.
    void operator()(const dlib::frontal_face_detector &detector, const cv::Mat &image, double adjust,
                    std::vector<dlib::rect_detection> &found);

  private:
    static constexpr size_t max_filters = 8;
    /// Rows [top, bottom) and columns [left, right) of cells.
    struct Band {
        long top, bottom, left, right;
    };
    Band nonzero_band(long rows, long columns) const;
    /// Windows scored together (`row_scores`).
    static constexpr long block = 8;
    template <int N> void row_scores(size_t k, const float *window, long stride, const Band &cells, float scores[]) const;

    /// Cells of the HOG window (its filters' rows and columns) and planes per cell, padded to a multiple of 8.
    long rows_ = 0, columns_ = 0;
    static constexpr long planes_ = 32;
    /// Per filter: its weights cell by cell, then plane by plane (the layout of `cells_`), and its threshold.
    std::vector<std::vector<float>> weights_;
    std::vector<double> thresholds_;
    // Working memory, kept between calls.
    dlib::array<dlib::array<dlib::array2d<float>>> levels_;
    std::vector<float> cells_;
};
} // namespace cvision
