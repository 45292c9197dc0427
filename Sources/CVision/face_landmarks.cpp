// dlib's 68-point shape predictor, fitted on the full-resolution gray frame.
#include "cvision.h"
#include "errors.hpp"
#include "flat_predictor.hpp"
#include "landmark_layout.hpp"
#include "model_cache.hpp"
#include <dlib/image_processing/shape_predictor.h>
#include <dlib/opencv/cv_image.h>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <array>
#include <cmath>

struct cvision_landmarker {
    cvision::FlatPredictor predictor;
};

namespace {
// dlib's shape_predictor::operator() — the same arithmetic in the same order, so the same points — on the flat
// model (flat_predictor.hpp). Each cascade adds one 68-point leaf from each of its 500 trees: 4 MB read per fit from a
// 65 MB model that the frame's HOG scans have pushed out of the cache, one scattered leaf after another. Here each
// cascade first walks its trees (their splits fetched a few trees ahead), then adds the leaves while the next ones are
// fetched. Measured on a cold cache: 0.65 ms a fit against dlib's 1.2–1.5 ms.
template <typename Image>
dlib::full_object_detection fit_shape(const cvision::FlatPredictor &predictor, const Image &image, const dlib::rectangle &rect) {
    const auto &initial_shape = predictor.initial_shape();
    constexpr size_t ahead = 4;
    dlib::matrix<float, 0, 1> shape = initial_shape;
    std::vector<float> pixels;
    std::vector<const float *> leaves;
    const long size = shape.size();
    for (const auto &cascade : predictor.cascades()) {
        dlib::impl::extract_feature_pixel_values(image, rect, shape, initial_shape, cascade.anchors, cascade.deltas, pixels);
        const size_t depth_splits = cascade.splits_per_tree, leaf_stride = (depth_splits + 1) * size_t(size);
        leaves.resize(cascade.trees);
        for (size_t t = 0; t < cascade.trees; ++t) {
            if (t + ahead < cascade.trees) {
                const auto *splits = reinterpret_cast<const char *>(cascade.splits + (t + ahead) * depth_splits);
                for (size_t line = 0; line * 64 < depth_splits * sizeof(cvision::FlatPredictor::Split); ++line)
                    __builtin_prefetch(splits + 64 * line);
            }
            const cvision::FlatPredictor::Split *splits = cascade.splits + t * depth_splits;
            size_t node = 0;
            while (node < depth_splits) {
                const auto &split = splits[node];
                node = float(pixels[split.idx1]) - float(pixels[split.idx2]) > split.thresh ? 2 * node + 1 : 2 * node + 2;
            }
            leaves[t] = cascade.leaves + t * leaf_stride + (node - depth_splits) * size_t(size);
        }
        float *values = &shape(0);
        for (size_t t = 0; t < leaves.size(); ++t) {
            if (t + ahead < leaves.size())
                for (long k = 0; k < size; k += 16) __builtin_prefetch(leaves[t + ahead] + k);
            const float *leaf = leaves[t];
            for (long k = 0; k < size; ++k) values[k] += leaf[k];
        }
    }
    const dlib::point_transform_affine to_image = dlib::impl::unnormalizing_tform(rect);
    std::vector<dlib::point> parts(size_t(size / 2));
    for (size_t i = 0; i < parts.size(); ++i) parts[i] = to_image(dlib::impl::location(shape, i));
    return dlib::full_object_detection(rect, parts);
}

// The 68 points of the face in `rect` on `canvas`. `mirror_averaged`: the mean of that fit and the mirror image of the
// fit on the mirrored canvas — dlib's fit of a mirror image is not the mirror image of its fit (a face and its mirror
// read yaws up to 5° apart), the mean is, whichever of the two it is given.
std::array<cv::Point2d, 68> fitted(const cvision::FlatPredictor &predictor, const cv::Mat &canvas, const dlib::rectangle &rect,
                                   bool mirror_averaged) {
    const dlib::full_object_detection shape = fit_shape(predictor, dlib::cv_image<unsigned char>(canvas), rect);
    std::array<cv::Point2d, 68> points;
    for (unsigned long i = 0; i < 68; ++i) points[i] = {double(shape.part(i).x()), double(shape.part(i).y())};
    if (!mirror_averaged) return points;
    cv::Mat mirrored;
    cv::flip(canvas, mirrored, 1);
    const long last = canvas.cols - 1;
    const dlib::rectangle flipped(last - rect.right(), rect.top(), last - rect.left(), rect.bottom());
    const dlib::full_object_detection other = fit_shape(predictor, dlib::cv_image<unsigned char>(mirrored), flipped);
    for (unsigned long i = 0; i < 68; ++i) {
        const dlib::point twin = other.part(cvision::mirror_of[i]);
        points[i] = {(points[i].x + double(last - twin.x())) / 2, (points[i].y + double(twin.y())) / 2};
    }
    return points;
}
} // namespace

extern "C" cvision_landmarker *cvision_landmarker_create(const char *model_path) {
    return cvision::created<cvision_landmarker>([&](cvision_landmarker &made) {
        made.predictor = cvision::load_shape_predictor(model_path);
        return made.predictor.num_parts() == 68 ? 0 : cvision::fail("the shape predictor does not have 68 parts");
    });
}

extern "C" void cvision_landmarker_free(cvision_landmarker *landmarker) { delete landmarker; }

extern "C" int cvision_fit_landmarks(const cvision_landmarker *landmarker, const uint8_t *gray, int width, int height,
                                     int stride, cvision_box box, int mirror_averaged, cvision_point points[68]) {
    if (!landmarker || !gray || width <= 0 || height <= 0 || stride < width || !points)
        return cvision::fail("invalid landmark request");
    return cvision::guarded([&] {
        const cv::Mat image(height, width, CV_8UC1, const_cast<uint8_t *>(gray), static_cast<size_t>(stride));
        const dlib::rectangle rect(long(box.x), long(box.y), long(box.x + box.width), long(box.y + box.height));
        const std::array<cv::Point2d, 68> fit = fitted(landmarker->predictor, image, rect, mirror_averaged);
        for (unsigned long i = 0; i < 68; ++i) points[i] = {float(fit[i].x), float(fit[i].y)};
        return 0;
    });
}

extern "C" int cvision_fit_landmarks_rotated(const cvision_landmarker *landmarker, const uint8_t *gray, int width, int height,
                                             int stride, cvision_box box, double angle, int mirror_averaged, cvision_point points[68]) {
    if (!landmarker || !gray || width <= 0 || height <= 0 || stride < width || !points)
        return cvision::fail("invalid landmark request");
    return cvision::guarded([&] {
        // The face turned upright about its box's centre on a patch with room around it; the points are mapped back.
        const cv::Point2f centre(float(box.x + box.width / 2), float(box.y + box.height / 2));
        const int side = std::max(8, int(std::hypot(box.width, box.height) * 1.6));
        cv::Mat warp = cv::getRotationMatrix2D(centre, angle, 1.0);
        warp.at<double>(0, 2) += side / 2.0 - centre.x;
        warp.at<double>(1, 2) += side / 2.0 - centre.y;
        cv::Mat upright, back;
        cv::warpAffine(cv::Mat(height, width, CV_8UC1, const_cast<uint8_t *>(gray), static_cast<size_t>(stride)), upright, warp,
                       cv::Size(side, side), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        cv::invertAffineTransform(warp, back);
        const double left = side / 2.0 - box.width / 2, top = side / 2.0 - box.height / 2;
        const dlib::rectangle rect(long(left), long(top), long(left + box.width), long(top + box.height));
        const std::array<cv::Point2d, 68> fit = fitted(landmarker->predictor, upright, rect, mirror_averaged);
        for (unsigned long i = 0; i < 68; ++i) {
            const double x = fit[i].x, y = fit[i].y;
            points[i] = {float(back.at<double>(0, 0) * x + back.at<double>(0, 1) * y + back.at<double>(0, 2)),
                         float(back.at<double>(1, 0) * x + back.at<double>(1, 1) * y + back.at<double>(1, 2))};
        }
        return 0;
    });
}
