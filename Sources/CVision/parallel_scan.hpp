// dlib's frontal detector over a whole frame, on the cores OpenCV's thread pool has: dlib's scan is one thread's
// work (a 1080×1920 phone frame: ~95 ms), and a run waits for it on the first frame and on a safety scan near the end,
// when nothing else is left to run on the second core. Here the HOG pyramid's levels are extracted side by side, and
// each filter is applied to each level as a task of its own; the hits are then gathered in dlib's order (filter by
// filter, level by level, row by row), sorted and suppressed as dlib's object_detector does. Each task runs dlib's own
// code on the same pixels, so the faces, boxes and scores are dlib's, bit for bit.
#pragma once
#include "dlib_scan_steps.hpp"
#include <opencv2/core.hpp>
#include <vector>

namespace cvision {
class ParallelScan {
  public:
    explicit ParallelScan(const dlib::frontal_face_detector &detector);

    /// The faces dlib's `detector(image, found, adjust)` finds.
    void operator()(const dlib::frontal_face_detector &detector, const cv::Mat &image, double adjust,
                    std::vector<dlib::rect_detection> &found);

  private:
    /// Per filter: the separable form dlib's scan applies, and its threshold.
    std::vector<Scanner::fhog_filterbank> banks_;
    std::vector<double> thresholds_;
    // Working memory, kept between calls: the pyramid's images below the first, and every level's HOG planes.
    std::vector<dlib::array2d<unsigned char>> images_;
    dlib::array<dlib::array<dlib::array2d<float>>> levels_;
};
} // namespace cvision
