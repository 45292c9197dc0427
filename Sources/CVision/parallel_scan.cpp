// dlib's frontal detector on parallel tasks (parallel_scan.hpp). Each step is the step of dlib's create_fhog_pyramid
// and detect_from_fhog_pyramid of the same name, then dlib's ending (dlib_scan_steps.hpp); only the loops over levels
// and filters are spread over threads, each task writing a place of its own.
#include "parallel_scan.hpp"
#include "dlib_scan_steps.hpp"
#include <dlib/opencv/cv_image.h>
#include <opencv2/core/utility.hpp>

namespace cvision {

ParallelScan::ParallelScan(const dlib::frontal_face_detector &detector) {
    const Scanner &scanner = detector.get_scanner();
    for (unsigned long k = 0; k < detector.num_detectors(); ++k) {
        banks_.push_back(scanner.build_fhog_filterbank(detector.get_w(k)));
        thresholds_.push_back(detector.get_w(k)(long(scanner.get_num_dimensions())));
    }
}

void ParallelScan::operator()(const dlib::frontal_face_detector &detector, const cv::Mat &image, double adjust,
                              std::vector<dlib::rect_detection> &found) {
    const Scanner &scanner = detector.get_scanner();
    const auto &extractor = scanner.get_feature_extractor();
    const int cell_size = int(scanner.get_cell_size());
    const long window_height = long(scanner.get_fhog_window_height()), window_width = long(scanner.get_fhog_window_width());
    const dlib::cv_image<unsigned char> view(image);
    const dlib::pyramid_down<6> pyramid;

    // Create the pyramid: as many levels as dlib's scan takes, each image 5/6 of the last.
    unsigned long count = 0;
    dlib::rectangle rect = dlib::get_rect(view);
    do {
        rect = pyramid.rect_down(rect);
        ++count;
    } while (rect.width() >= scanner.get_min_pyramid_layer_width() && rect.height() >= scanner.get_min_pyramid_layer_height() &&
             count < scanner.get_max_pyramid_levels());
    images_.resize(count - 1);
    for (unsigned long level = 1; level < count; ++level) {
        if (level == 1) pyramid(view, images_[0]);
        else pyramid(images_[level - 2], images_[level - 1]);
    }
    if (levels_.max_size() < count) levels_.set_max_size(count);
    levels_.set_size(count);
    // Extract each level's HOG planes.
    cv::parallel_for_(cv::Range(0, int(count)), [&](const cv::Range &range) {
        for (int level = range.start; level < range.end; ++level) {
            if (level == 0) extractor(view, levels_[0], cell_size, int(window_height), int(window_width));
            else extractor(images_[size_t(level - 1)], levels_[size_t(level)], cell_size, int(window_height), int(window_width));
        }
    }, double(count));

    // Detect: each filter on each level (level by level, the largest first), its hits kept apart.
    const size_t filters = banks_.size();
    std::vector<FilterHits> hits(filters * count);
    cv::parallel_for_(cv::Range(0, int(filters * count)), [&](const cv::Range &range) {
        dlib::array2d<float> saliency;
        for (int task = range.start; task < range.end; ++task) {
            const size_t level = size_t(task) / filters, k = size_t(task) % filters;
            const double threshold = thresholds_[k] + adjust;
            const dlib::rectangle area = dlib::impl::apply_filters_to_fhog(banks_[k], levels_[level], saliency);
            FilterHits &kept = hits[k * count + level];
            for (long r = area.top(); r <= area.bottom(); ++r)
                for (long c = area.left(); c <= area.right(); ++c)
                    if (saliency[r][c] >= threshold) kept.emplace_back(saliency[r][c], window_box(scanner, c, r, level));
        }
    }, double(filters * count));

    // Each filter's hits in dlib's order (level by level), then dlib's ending.
    std::vector<FilterHits> by_filter(filters);
    for (size_t k = 0; k < filters; ++k)
        for (size_t level = 0; level < count; ++level)
            by_filter[k].insert(by_filter[k].end(), hits[k * count + level].begin(), hits[k * count + level].end());
    suppress_as_dlib(detector, by_filter, thresholds_, found);
}

} // namespace cvision
