// Face detection: dlib's HOG frontal detector on a rescaled gray image, and OpenCV's profile cascade for faces
// turned too far for it.
#include "cvision.h"
#include "errors.hpp"
#include "hog_window.hpp"
#include "model_cache.hpp"
#include "parallel_scan.hpp"
#include <algorithm>
#include <cmath>
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/opencv/cv_image.h>
#include <dlib/opencv/to_open_cv.h>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

namespace {
const dlib::frontal_face_detector &prototype() {
    static const dlib::frontal_face_detector built = cvision::load_frontal_face_detector();
    return built;
}
} // namespace

// A detector keeps its scan's working memory inside, so each thread needs its own; copying a prototype is
// cheaper than deserializing the built-in model again. `whole` scores its windows by whole filters; `parallel` is
// dlib's scan on parallel tasks.
struct cvision_face_detector {
    dlib::frontal_face_detector detector = prototype();
    cvision::WholeFilterScan whole{detector};
    cvision::ParallelScan parallel{detector};
};

struct cvision_profile_detector {
    cv::CascadeClassifier cascade;
};

namespace {
cv::Mat wrap_gray(const uint8_t *gray, int width, int height, int stride) {
    return cv::Mat(height, width, CV_8UC1, const_cast<uint8_t *>(gray), static_cast<size_t>(stride));
}
} // namespace

namespace {
// A box a scan found on an image brought `from_level` pyramid levels down, placed as the scan of the whole image
// places it: dlib maps a box from the level it was found on to the image in one step and rounds once, so it is taken
// back to its own level (its width says which: boxes are 73 px wide at the finest level, 6/5 wider per level) and
// mapped up from there. A width that fits no level is mapped up directly.
dlib::rectangle placed_as_whole_scan(const dlib::rectangle &found, int from_level) {
    const dlib::pyramid_down<6> pyramid;
    const double steps = std::log((found.right() - found.left()) / 72.0) / std::log(6.0 / 5.0);
    const long level = std::lround(steps);
    if (level < 0 || std::abs(steps - double(level)) > 0.05) return dlib::rectangle(pyramid.rect_up(dlib::drectangle(found), from_level));
    const dlib::rectangle own(pyramid.rect_down(dlib::drectangle(found), level));
    return dlib::rectangle(pyramid.rect_up(dlib::drectangle(own), level + from_level));
}

// Runs the detector on `image` — from pyramid level `from_level` on: the image brought down that many levels the
// way dlib's scan does, its boxes mapped back up — and writes its hits best first, each box placed by `place`.
// `scan`: how windows are scored (CVISION_SCAN_…).
template <typename Place>
void detect_best_first(cvision_face_detector *detector, const cv::Mat &image, double threshold, int from_level,
                       int scan, cvision_box *boxes, int capacity, int *count, Place place) {
    dlib::cv_image<unsigned char> view(image);
    std::vector<dlib::rect_detection> found;
    const auto run = [&](const cv::Mat &on) {
        switch (scan) {
        case CVISION_SCAN_WHOLE_FILTERS: detector->whole(detector->detector, on, threshold, found); break;
        case CVISION_SCAN_DLIB: detector->detector(dlib::cv_image<unsigned char>(on), found, threshold); break;
        default: detector->parallel(detector->detector, on, threshold, found); break;
        }
    };
    if (from_level <= 0) {
        run(image);
    } else {
        const dlib::pyramid_down<6> pyramid;
        dlib::array2d<unsigned char> level, next;
        pyramid(view, level);
        for (int i = 1; i < from_level; ++i) {
            pyramid(level, next);
            dlib::swap(level, next);
        }
        run(dlib::toMat(level));
        for (dlib::rect_detection &hit : found) hit.rect = placed_as_whole_scan(hit.rect, from_level);
    }
    std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.detection_confidence > b.detection_confidence; });
    *count = static_cast<int>(found.size());
    for (int i = 0; i < std::min(capacity, *count); ++i) {
        const cv::Rect2d box = place(found[i].rect);
        boxes[i] = {box.x, box.y, box.width, box.height, found[i].detection_confidence, int(found[i].weight_index)};
    }
}
} // namespace

extern "C" cvision_face_detector *cvision_face_detector_create(void) {
    return cvision::created<cvision_face_detector>([](cvision_face_detector &) { return 0; });
}

extern "C" void cvision_face_detector_free(cvision_face_detector *detector) { delete detector; }

namespace {
bool valid_request(const cvision_face_detector *detector, const uint8_t *gray, int width, int height, int stride,
                   const int *count, double scale) {
    return detector && gray && width > 0 && height > 0 && stride >= width && count && scale > 0;
}

// The part of `region` inside the image; empty when, at `scale`, it is smaller than the detector's window.
cv::Rect scan_area(cvision_box region, int width, int height, double scale) {
    const cv::Rect area = cv::Rect(int(region.x), int(region.y), int(region.width), int(region.height)) & cv::Rect(0, 0, width, height);
    return area.width * scale < 40 || area.height * scale < 40 ? cv::Rect() : area;
}
} // namespace

extern "C" int cvision_detect_faces(cvision_face_detector *detector, const uint8_t *gray, int width, int height,
                                    int stride, cvision_box region, double scale, double threshold, int from_level,
                                    int mirrored, int scan, cvision_box *boxes, int capacity, int *count) {
    if (!valid_request(detector, gray, width, height, stride, count, scale)) return cvision::fail("invalid detection request");
    return cvision::guarded([&] {
        *count = 0;
        const cv::Rect area = scan_area(region, width, height, scale);
        if (area.empty()) return 0;
        cv::Mat patch = wrap_gray(gray, width, height, stride)(area), scaled;
        if (std::abs(scale - 1.0) < 1e-3) {
            scaled = patch;
        } else {
            cv::resize(patch, scaled, cv::Size(), scale, scale, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
        }
        if (mirrored) {
            // Into a buffer of its own: `scaled` may be a view of the caller's image.
            cv::Mat flipped;
            cv::flip(scaled, flipped, 1);
            scaled = flipped;
        }
        detect_best_first(detector, scaled, threshold, from_level, scan, boxes, capacity, count, [&](const dlib::rectangle &r) {
            const double left = mirrored ? scaled.cols - 1 - r.right() : r.left();
            return cv::Rect2d(area.x + left / scale, area.y + r.top() / scale, r.width() / scale, r.height() / scale);
        });
        for (int i = 0; mirrored && i < std::min(capacity, *count); ++i) {
            if (boxes[i].filter == 3 || boxes[i].filter == 4) boxes[i].filter = 7 - boxes[i].filter;
        }
        return 0;
    });
}

extern "C" int cvision_detect_faces_rotated(cvision_face_detector *detector, const uint8_t *gray, int width, int height,
                                            int stride, cvision_box region, double scale, double threshold, double angle,
                                            int scan, cvision_box *boxes, int capacity, int *count) {
    if (!valid_request(detector, gray, width, height, stride, count, scale)) return cvision::fail("invalid detection request");
    return cvision::guarded([&] {
        *count = 0;
        const cv::Rect area = scan_area(region, width, height, scale);
        if (area.empty()) return 0;
        // Rotate and scale about the region's centre in one warp, onto a canvas that holds the whole turned region.
        const cv::Point2f centre(area.x + area.width / 2.0f, area.y + area.height / 2.0f);
        const double radians = angle * CV_PI / 180, c = std::abs(std::cos(radians)), s = std::abs(std::sin(radians));
        const cv::Size canvas(int((area.width * c + area.height * s) * scale), int((area.width * s + area.height * c) * scale));
        cv::Mat warp = cv::getRotationMatrix2D(centre, angle, scale);
        warp.at<double>(0, 2) += canvas.width / 2.0 - centre.x;
        warp.at<double>(1, 2) += canvas.height / 2.0 - centre.y;
        cv::Mat turned, back;
        cv::warpAffine(wrap_gray(gray, width, height, stride), turned, warp, canvas, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR,
                       cv::BORDER_CONSTANT, cv::Scalar(128));
        cv::invertAffineTransform(warp, back);
        detect_best_first(detector, turned, threshold, 0, scan, boxes, capacity, count, [&](const dlib::rectangle &r) {
            const double cx = (r.left() + r.right()) / 2.0, cy = (r.top() + r.bottom()) / 2.0;
            const double x = back.at<double>(0, 0) * cx + back.at<double>(0, 1) * cy + back.at<double>(0, 2);
            const double y = back.at<double>(1, 0) * cx + back.at<double>(1, 1) * cy + back.at<double>(1, 2);
            const double w = r.width() / scale, h = r.height() / scale;
            return cv::Rect2d(x - w / 2, y - h / 2, w, h);
        });
        return 0;
    });
}

extern "C" cvision_profile_detector *cvision_profile_detector_create(const char *cascade_path) {
    return cvision::created<cvision_profile_detector>([&](cvision_profile_detector &made) {
        return made.cascade.load(cascade_path) ? 0 : cvision::fail("cannot load the profile-face cascade");
    });
}

extern "C" void cvision_profile_detector_free(cvision_profile_detector *detector) { delete detector; }

extern "C" int cvision_detect_profiles(cvision_profile_detector *detector, const uint8_t *gray, int width, int height,
                                       int stride, cvision_box region, double scale, int min_size, cvision_box *boxes,
                                       int capacity, int *count) {
    if (!detector || !gray || width <= 0 || height <= 0 || stride < width || !count || scale <= 0)
        return cvision::fail("invalid profile detection request");
    return cvision::guarded([&] {
        cv::Rect area = cv::Rect(cv::Point(int(region.x), int(region.y)), cv::Size(int(region.width), int(region.height))) &
                        cv::Rect(0, 0, width, height);
        *count = 0;
        if (area.width * scale < min_size || area.height * scale < min_size) return 0;
        cv::Mat patch = wrap_gray(gray, width, height, stride)(area), scaled, mirrored;
        if (std::abs(scale - 1.0) < 1e-3) {
            scaled = patch;
        } else {
            cv::resize(patch, scaled, cv::Size(), scale, scale, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
        }
        cv::flip(scaled, mirrored, 1);
        std::vector<cvision_box> kept;
        const auto keep = [&](const cv::Rect &r, bool mirror) {
            const double x = mirror ? scaled.cols - r.x - r.width : r.x;
            const cv::Rect2d box(area.x + x / scale, area.y + r.y / scale, r.width / scale, r.height / scale);
            for (const cvision_box &other : kept) {
                const cv::Rect2d seen(other.x, other.y, other.width, other.height);
                if ((box & seen).area() > 0.3 * std::min(box.area(), seen.area())) return;
            }
            kept.push_back({box.x, box.y, box.width, box.height, 0, mirror ? 1 : 0});
        };
        const cv::Size smallest(min_size, min_size);
        for (bool mirror : {false, true}) {
            std::vector<cv::Rect> found;
            detector->cascade.detectMultiScale(mirror ? mirrored : scaled, found, 1.1, 3, 0, smallest);
            for (const cv::Rect &r : found) keep(r, mirror);
        }
        *count = static_cast<int>(kept.size());
        std::copy_n(kept.begin(), std::min(capacity, *count), boxes);
        return 0;
    });
}
