// Head pose from 68 landmarks: solvePnP against 3-D faces (a measured one for pitch, a generic one for yaw and roll),
// then Euler angles in ML Kit's conventions.
#include "cvision.h"
#include "errors.hpp"
#include "landmark_layout.hpp"
#include <cmath>
#include <iterator>
#include <stdexcept>
#include <vector>
#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

namespace {

// A generic adult face in millimetres, in OpenCV's camera axes (x to the image's right, y down, z away from the
// camera), nose tip at the origin, looking straight at the camera. Proportions from average facial
// anthropometry (outer eye corners ~90 mm apart, nose tip ~35 mm in front of the eye corners, chin ~70 mm below
// the nose tip). Yaw and roll are read against it; its lower face stands 10–20 mm further forward than the measured
// face's below, which read pitch low near frontal and compressed looking down.
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

// The face as dlib's landmarks sit on it, measured: 64 of the 68 points (all but the jaw's two ends on each side,
// which sit on the head's outline and slide round it as the head turns) fitted in 3-D, in millimetres at an
// outer-eye-corner distance of 90 mm, to dlib's fits (mirror-averaged, as on every photo) on 99 renders of seven
// faces turned by known angles (Scripts/fit_head_reference.py: real-frames driving_d10-200, -88, driving_d6-600,
// -36, driving_d11-200, driving_d3-353 and dlib's Tom_Cruise_avp_2014_4.jpg, rendered by
// Scripts/render_turned_faces.py), made mirror-symmetric and tilted so that the nine eyes-open real frames of
// people looking at the camera read pitch 0 on average (so FacePoseTests' check that those frames read frontal is
// no test of it). It is tested on the dev AFLW photos (pose/) and the renders of turned/, whose faces were not
// fitted. One side and the middle line are listed; each landmark's mirror image (`cvision::mirror_of`) is at
// (−x, y, z).
const ModelPoint measured_face[] = {
    {2, {-80.7, 10.7, 87.0}}, {3, {-75.0, 32.3, 83.5}}, {4, {-65.2, 51.3, 75.8}}, {5, {-50.9, 66.6, 64.6}},
    {6, {-34.9, 78.0, 51.8}}, {7, {-17.9, 85.4, 39.0}}, {8, {0.0, 87.6, 34.9}}, {17, {-59.6, -49.6, 45.8}},
    {18, {-48.9, -55.9, 36.8}}, {19, {-35.7, -56.8, 28.8}}, {20, {-22.9, -54.5, 23.1}}, {21, {-11.2, -49.4, 19.8}},
    {27, {0.0, -33.9, 20.2}}, {28, {0.0, -22.1, 13.6}}, {29, {0.0, -10.9, 6.6}}, {30, {0.0, 0.0, 0.0}},
    {31, {-12.7, 10.9, 18.8}}, {32, {-6.5, 13.0, 15.6}}, {33, {0.0, 14.6, 13.4}}, {36, {-45.0, -34.8, 42.3}},
    {37, {-36.2, -40.0, 36.1}}, {38, {-26.1, -39.6, 34.8}}, {39, {-18.0, -32.2, 36.8}}, {40, {-27.1, -30.5, 36.9}},
    {41, {-37.2, -30.8, 38.4}}, {48, {-26.9, 39.4, 41.3}}, {49, {-17.0, 30.2, 27.3}}, {50, {-6.6, 25.9, 19.5}},
    {51, {0.0, 27.5, 18.7}}, {55, {17.6, 49.2, 32.0}}, {56, {7.6, 53.2, 25.8}}, {57, {0.0, 53.8, 24.7}},
    {60, {-22.3, 39.3, 39.2}}, {61, {-6.7, 33.7, 22.6}}, {62, {0.0, 33.9, 21.1}}, {65, {7.0, 42.6, 24.9}},
    {66, {0.0, 43.3, 23.7}},
};

std::vector<ModelPoint> measured_points() {
    std::vector<ModelPoint> points;
    for (const ModelPoint &p : measured_face) {
        points.push_back(p);
        const int twin = cvision::mirror_of[p.landmark];
        if (twin != p.landmark) points.push_back({twin, {-p.position.x, p.position.y, p.position.z}});
    }
    return points;
}

double degrees(double radians) { return radians * 180.0 / M_PI; }

// The rotation that brings `model` onto the landmarks, seen by `camera`.
cv::Matx33d rotation_onto(const std::vector<ModelPoint> &model, const cvision_point points[68], const cv::Matx33d &camera) {
    std::vector<cv::Point3d> positions;
    std::vector<cv::Point2d> image;
    for (const ModelPoint &p : model) {
        positions.push_back(p.position);
        image.emplace_back(points[p.landmark].x, points[p.landmark].y);
    }
    // Start from a face 600 mm in front of the camera, facing it: the iterative solver then converges to the
    // facing solution rather than a mirrored one.
    cv::Mat rotation_vector = cv::Mat::zeros(3, 1, CV_64F);
    cv::Mat translation = (cv::Mat_<double>(3, 1) << 0, 0, 600);
    if (!cv::solvePnP(positions, image, camera, cv::noArray(), rotation_vector, translation, true, cv::SOLVEPNP_ITERATIVE))
        throw std::runtime_error("solvePnP found no pose");
    cv::Matx33d r;
    cv::Rodrigues(rotation_vector, r);
    return r;
}

// R = Rx(α) · Ry(β) · Rz(γ) in camera axes (y down, z away): the composition AFLW2000-3D's ground truth is given in
// (3DDFA's angle2matrix), the usual reference for head pose. Read as R = Rz · Ry · Rx instead, a face both turned and
// rolled reads a pitch that is off by about yaw × roll: on the dev AFLW photos, whose yaw and roll reach 27° and 20°
// together, pitch / yaw / roll MAE were 5.25 / 2.95 / 2.64° that way and 4.79 / 2.36 / 1.09° this way, on the same
// landmarks (a face turned about one axis alone reads the same either way). ML Kit's signs are the opposite of these right-handed
// angles: looking up, turning toward the image's right and counter-clockwise roll are negative rotations about x, y
// and z here.
cvision_pose ml_kit_angles(const cv::Matx33d &r) {
    const double alpha = std::atan2(-r(1, 2), r(2, 2));
    const double beta = std::asin(std::max(-1.0, std::min(1.0, r(0, 2))));
    const double gamma = std::atan2(-r(0, 1), r(0, 0));
    return {-degrees(alpha), -degrees(beta), -degrees(gamma)};
}

} // namespace

extern "C" int cvision_head_pose(const cvision_point points[68], int width, int height, cvision_pose *pose) {
    if (!points || !pose || width <= 0 || height <= 0) return cvision::fail("invalid pose request");
    return cvision::guarded([&] {
        // The pose is the face's as it looks in the picture: the camera's axis meets the middle of the eye and mouth
        // corners (a face at the top of a tall frame that looks at the lens reads frontal, not 30° down, and a crop
        // reads as its whole photo did), and its focal length is the frame's width (a webcam's or phone's front
        // camera, ~53° across).
        const cv::Point2d face_centre((points[36].x + points[45].x + points[48].x + points[54].x) / 4.0,
                                      (points[36].y + points[45].y + points[48].y + points[54].y) / 4.0);
        const double focal = width;
        const cv::Matx33d camera(focal, 0, face_centre.x, 0, focal, face_centre.y, 0, 0, 1);
        // Pitch from the measured face: it holds the whole face's depth (the generic face's lower face stood 10–20 mm
        // too far forward, which read faces low and compressed looking down). Yaw and roll from the generic face's 16
        // points, which read them as well or better (its symmetric eye, nose and jaw-end points).
        static const std::vector<ModelPoint> measured = measured_points();
        static const std::vector<ModelPoint> generic(std::begin(generic_face), std::end(generic_face));
        const cvision_pose tilt = ml_kit_angles(rotation_onto(measured, points, camera));
        const cvision_pose turn = ml_kit_angles(rotation_onto(generic, points, camera));
        *pose = {tilt.pitch, turn.yaw, turn.roll};
        return 0;
    });
}
