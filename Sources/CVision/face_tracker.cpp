// dlib's correlation tracker (a DSST: a discriminative correlation filter on HOG features, with a scale search),
// used as a face-presence test that is not a face detector (cvision.h).
#include "cvision.h"
#include "errors.hpp"
#include <dlib/image_transforms/fhog.h>
#include <dlib/image_processing/correlation_tracker.h>
#include <dlib/opencv/cv_image.h>
#include <opencv2/core.hpp>

struct cvision_face_tracker {
    // A 32×32 filter and 16 scale levels (dlib's defaults: 64×64, 32): a third of the cost (about 4 → 1.4 ms an
    // update on too_close_real's 368×656 frames, perf), and the held face is the same — too_close_real's bowed head
    // is still held on all 62 frames (355–416), its box within a few pixels of the default's, and a cut still
    // drops it at once (MaxFacesTests, FaceFollowingTests). Measured on too_close_real; the tests test it.
    dlib::correlation_tracker tracker{5, 4};
};

namespace {
dlib::cv_image<unsigned char> wrapped(const uint8_t *gray, int width, int height, int stride) {
    const cv::Mat mat(height, width, CV_8UC1, const_cast<uint8_t *>(gray), size_t(stride));
    return dlib::cv_image<unsigned char>(mat);
}

bool valid(const uint8_t *gray, int width, int height, int stride) { return gray && width > 0 && height > 0 && stride >= width; }
} // namespace

extern "C" {

cvision_face_tracker *cvision_face_tracker_start(const uint8_t *gray, int width, int height, int stride, cvision_box box) {
    if (!valid(gray, width, height, stride) || !(box.width > 0 && box.height > 0)) {
        cvision::fail("invalid tracker start");
        return nullptr;
    }
    return cvision::created<cvision_face_tracker>([&](cvision_face_tracker &made) {
        made.tracker.start_track(wrapped(gray, width, height, stride),
                                 dlib::drectangle(box.x, box.y, box.x + box.width - 1, box.y + box.height - 1));
        return 0;
    });
}

void cvision_face_tracker_free(cvision_face_tracker *tracker) { delete tracker; }

int cvision_face_tracker_update(cvision_face_tracker *tracker, const uint8_t *gray, int width, int height, int stride,
                                cvision_box *box) {
    if (!tracker || !box || !valid(gray, width, height, stride)) return cvision::fail("invalid tracker update");
    return cvision::guarded([&] {
        const double psr = tracker->tracker.update(wrapped(gray, width, height, stride));
        const dlib::drectangle place = tracker->tracker.get_position();
        *box = cvision_box{place.left(), place.top(), place.width(), place.height(), psr, -1};
        return 0;
    });
}
}
