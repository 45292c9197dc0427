// Steps of dlib's frontal-face scan shared by the scans that redo its middle (hog_window.cpp: each window scored by
// the whole filters; parallel_scan.cpp: dlib's own filtering on parallel tasks): where a window's box lies, and the
// last steps of dlib's object_detector::operator(), so that both place and suppress hits exactly as dlib does.
#pragma once
#include <dlib/image_processing/frontal_face_detector.h>
#include <utility>
#include <vector>

namespace cvision {
using Scanner = dlib::frontal_face_detector::image_scanner_type;
/// One filter's hits: score and box, in the order the scan found them.
using FilterHits = std::vector<std::pair<double, dlib::rectangle>>;

/// The image box of the window centred on cell (`column`, `row`) of pyramid level `level` (dlib's feats_to_image,
/// then rect_up).
dlib::rectangle window_box(const Scanner &scanner, long column, long row, unsigned long level);

/// dlib's ending: each filter's hits sorted best first and scored against its threshold (`thresholds`), all of them
/// sorted again, and each one kept unless it overlaps one kept before it. Sorts `hits` in place.
void suppress_as_dlib(const dlib::frontal_face_detector &detector, std::vector<FilterHits> &hits,
                      const std::vector<double> &thresholds, std::vector<dlib::rect_detection> &found);
} // namespace cvision
