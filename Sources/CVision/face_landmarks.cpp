// dlib's 68-point shape predictor, fitted on the full-resolution gray frame.
#include "cvision.h"
#include "errors.hpp"
#include <dlib/image_processing/shape_predictor.h>
#include <dlib/opencv/cv_image.h>
#include <dlib/serialize.h>
#include <opencv2/core.hpp>

struct cvision_landmarker {
    dlib::shape_predictor predictor;
};

extern "C" cvision_landmarker *cvision_landmarker_create(const char *model_path) {
    return cvision::created<cvision_landmarker>([&](cvision_landmarker &made) {
        dlib::deserialize(model_path) >> made.predictor;
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
