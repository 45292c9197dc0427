// Head pose from 68 landmarks: solvePnP against a generic 3-D face, then Euler angles in ML Kit's conventions.
#include "cvision.h"
#include "errors.hpp"
#include <cmath>
#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

namespace {

// A generic adult face in millimetres, in OpenCV's camera axes (x to the image's right, y down, z away from the
// camera), nose tip at the origin, looking straight at the camera. Proportions from average facial
// anthropometry (outer eye corners ~90 mm apart, nose tip ~35 mm in front of the eye corners, chin ~70 mm below
// the nose tip), adjusted so that frontal portraits read pitch ≈ 0.
struct ModelPoint {
    int landmark;
    cv::Point3d position;
};
const ModelPoint generic_face[] = {
    {30, {0, 0, 0}},        // nose tip
    {27, {0, -40, 26}},     // nose bridge, between the eyes
    {33, {0, 12, 14}},      // below the nose
    {31, {-14, 8, 18}},     // nostril wings
    {35, {14, 8, 18}},
    {36, {-45, -36, 38}},   // eye corners: outer, inner (image-left eye = subject's right eye)
    {39, {-15, -35, 30}},
    {42, {15, -35, 30}},
    {45, {45, -36, 38}},
    {48, {-25, 32, 28}},    // mouth corners
    {54, {25, 32, 28}},
    {51, {0, 25, 18}},      // upper lip
    {57, {0, 44, 22}},      // lower lip
    {8, {0, 76, 34}},       // chin
    {0, {-72, -28, 100}},   // jaw ends, near the ears
    {16, {72, -28, 100}},
};

double degrees(double radians) { return radians * 180.0 / M_PI; }

} // namespace

extern "C" int cvision_head_pose(const cvision_point points[68], int width, int height, cvision_pose *pose) {
    if (!points || !pose || width <= 0 || height <= 0) return cvision::fail("invalid pose request");
    return cvision::guarded([&] {
        std::vector<cv::Point3d> model;
        std::vector<cv::Point2d> image;
        for (const ModelPoint &p : generic_face) {
            model.push_back(p.position);
            image.emplace_back(points[p.landmark].x, points[p.landmark].y);
        }
        // The pose is the face's as it looks in the picture: the camera's axis meets the middle of the eye and mouth
        // corners (a face at the top of a tall frame that looks at the lens reads frontal, not 30° down, and a crop
        // reads as its whole photo did), and its focal length is the frame's width (a webcam's or phone's front
        // camera, ~53° across). Measured on renders of known turns (Tests/FrameProbeTests/HeadPoseRenderTests).
        const cv::Point2d face_centre((points[36].x + points[45].x + points[48].x + points[54].x) / 4.0,
                                      (points[36].y + points[45].y + points[48].y + points[54].y) / 4.0);
        const double focal = width;
        const cv::Matx33d camera(focal, 0, face_centre.x, 0, focal, face_centre.y, 0, 0, 1);
        // Start from a face 600 mm in front of the camera, facing it: the iterative solver then converges to the
        // facing solution rather than a mirrored one.
        cv::Mat rotation_vector = cv::Mat::zeros(3, 1, CV_64F);
        cv::Mat translation = (cv::Mat_<double>(3, 1) << 0, 0, 600);
        if (!cv::solvePnP(model, image, camera, cv::noArray(), rotation_vector, translation, true, cv::SOLVEPNP_ITERATIVE))
            return cvision::fail("solvePnP found no pose");
        cv::Matx33d r;
        cv::Rodrigues(rotation_vector, r);
        // R = Rz(γ) · Ry(β) · Rx(α) in camera axes (y down, z away). ML Kit's signs are the opposite of these
        // right-handed angles: looking up, turning toward the image's right and counter-clockwise roll are
        // negative rotations about x, y and z here.
        const double alpha = std::atan2(r(2, 1), r(2, 2));
        const double beta = std::asin(std::max(-1.0, std::min(1.0, -r(2, 0))));
        const double gamma = std::atan2(r(1, 0), r(0, 0));
        pose->pitch = -degrees(alpha);
        pose->yaw = -degrees(beta);
        pose->roll = -degrees(gamma);
        return 0;
    });
}
