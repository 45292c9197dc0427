// dlib_scan_steps.hpp: each step is dlib's (scan_fhog_pyramid.h's detect_from_fhog_pyramid, object_detector.h's
// operator()), in its order.
#include "dlib_scan_steps.hpp"
#include <algorithm>

namespace cvision {

dlib::rectangle window_box(const Scanner &scanner, long column, long row, unsigned long level) {
    const long height = long(scanner.get_fhog_window_height()), width = long(scanner.get_fhog_window_width());
    const long padding = long(scanner.get_padding());
    const dlib::rectangle placed = scanner.get_feature_extractor().feats_to_image(
        dlib::centered_rect(dlib::point(column, row), width - 2 * padding, height - 2 * padding), int(scanner.get_cell_size()),
        int(height), int(width));
    return dlib::pyramid_down<6>().rect_up(placed, level);
}

void suppress_as_dlib(const dlib::frontal_face_detector &detector, std::vector<FilterHits> &hits,
                      const std::vector<double> &thresholds, std::vector<dlib::rect_detection> &found) {
    std::vector<dlib::rect_detection> all;
    for (size_t k = 0; k < hits.size(); ++k) {
        std::sort(hits[k].rbegin(), hits[k].rend(), dlib::impl::compare_pair_rect);
        for (const auto &hit : hits[k]) {
            dlib::rect_detection detection;
            detection.detection_confidence = hit.first - thresholds[k];
            detection.weight_index = k;
            detection.rect = hit.second;
            all.push_back(detection);
        }
    }
    if (hits.size() > 1) std::sort(all.rbegin(), all.rend());
    const dlib::test_box_overlap &overlaps = detector.get_overlap_tester();
    found.clear();
    for (const auto &detection : all) {
        if (std::none_of(found.begin(), found.end(), [&](const dlib::rect_detection &kept) { return overlaps(kept.rect, detection.rect); }))
            found.push_back(detection);
    }
}

} // namespace cvision
