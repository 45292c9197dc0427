// dlib's 68-point shape predictor, fitted on the full-resolution gray frame.
#include "cvision.h"
#include "errors.hpp"
#include "model_cache.hpp"
#include <dlib/image_processing/shape_predictor.h>
#include <dlib/opencv/cv_image.h>
#include <dlib/serialize.h>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <cmath>

struct cvision_landmarker {
    dlib::shape_predictor predictor;
};

extern "C" cvision_landmarker *cvision_landmarker_create(const char *model_path) {
    return cvision::created<cvision_landmarker>([&](cvision_landmarker &made) {
        made.predictor = cvision::load_shape_predictor(model_path);
        return made.predictor.num_parts() == 68 ? 0 : cvision::fail("the shape predictor does not have 68 parts");
    });
}

extern "C" void cvision_landmarker_free(cvision_landmarker *landmarker) { delete landmarker; }

extern "C" int cvision_fit_landmarks(const cvision_landmarker *landmarker, const uint8_t *gray, int width, int height,
                                     int stride, cvision_box box, cvision_point points[68]) {
    if (!landmarker || !gray || width <= 0 || height <= 0 || stride < width || !points)
        return cvision::fail("invalid landmark request");
    return cvision::guarded([&] {
        cv::Mat image(height, width, CV_8UC1, const_cast<uint8_t *>(gray), static_cast<size_t>(stride));
        dlib::cv_image<unsigned char> view(image);
        const dlib::rectangle rect(long(box.x), long(box.y), long(box.x + box.width), long(box.y + box.height));
        const dlib::full_object_detection shape = landmarker->predictor(view, rect);
        for (unsigned long i = 0; i < 68; ++i) points[i] = {float(shape.part(i).x()), float(shape.part(i).y())};
        return 0;
    });
}

extern "C" int cvision_fit_landmarks_rotated(const cvision_landmarker *landmarker, const uint8_t *gray, int width, int height,
                                             int stride, cvision_box box, double angle, cvision_point points[68]) {
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
        dlib::cv_image<unsigned char> view(upright);
        const double left = side / 2.0 - box.width / 2, top = side / 2.0 - box.height / 2;
        const dlib::rectangle rect(long(left), long(top), long(left + box.width), long(top + box.height));
        const dlib::full_object_detection shape = landmarker->predictor(view, rect);
        for (unsigned long i = 0; i < 68; ++i) {
            const double x = shape.part(i).x(), y = shape.part(i).y();
            points[i] = {float(back.at<double>(0, 0) * x + back.at<double>(0, 1) * y + back.at<double>(0, 2)),
                         float(back.at<double>(1, 0) * x + back.at<double>(1, 1) * y + back.at<double>(1, 2))};
        }
        return 0;
    });
}
