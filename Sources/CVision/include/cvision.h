// The flat C API over OpenCV and dlib. No OpenCV or dlib type crosses this header; images are
// (pixels, width, height, stride) with 8-bit BGR (3 channels) unless a function says otherwise.
// Every function that can fail returns 0 on success and a nonzero code otherwise; the message of the
// last failure on the calling thread is cvision_last_error(). No C++ exception escapes.
#ifndef CVISION_H
#define CVISION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Message of the last failed call on this thread ("" when none).
const char *cvision_last_error(void);

/// Library versions, for `frameprobe --version`.
const char *cvision_opencv_version(void);
const char *cvision_dlib_version(void);

// ---- quality kernels (quality.cpp) ----

typedef struct {
    double darkness;   ///< share of counted pixels with gray 0...63
    double lightness;  ///< share of counted pixels with gray 192...255
    double sharpness;  ///< population std of the clamped 3x3 Laplacian response, / 128
} cvision_quality_scores;

/// Yoonit's quality scores of a BGR image. With `elliptical_mask`, darkness and lightness count only the
/// pixels inside the ellipse centred in the image with radii 0.35*W and 0.5*H; sharpness always uses all pixels.
int cvision_quality(const uint8_t *bgr, int width, int height, int stride, int elliptical_mask,
                    cvision_quality_scores *out);

// ---- image operations (image_ops.cpp) ----

/// Resizes a BGR image into `dst` (dst_width x dst_height, dst_stride bytes per row), area/linear interpolation.
int cvision_resize(const uint8_t *src, int width, int height, int stride,
                   uint8_t *dst, int dst_width, int dst_height, int dst_stride);

/// Rotates a BGR image clockwise by quarter_turns * 90 degrees into `dst` (whose size is the rotated size).
int cvision_rotate(const uint8_t *src, int width, int height, int stride, int quarter_turns,
                   uint8_t *dst, int dst_stride);

/// The same for one 8-bit plane (a picture's luma or chroma plane), in one pass.
int cvision_rotate_plane(const uint8_t *src, int width, int height, int stride, int quarter_turns,
                         uint8_t *dst, int dst_stride);

/// Converts BGR to 8-bit gray (BT.601, rounded) into `gray` (gray_stride bytes per row).
int cvision_bgr_to_gray(const uint8_t *bgr, int width, int height, int stride, uint8_t *gray, int gray_stride);

/// Draws a rectangle / a polyline / a dot on a BGR image in place; colour is (b, g, r), alpha 0...1 blends it.
typedef struct { double b, g, r, alpha; } cvision_color;
int cvision_draw_rectangle(uint8_t *bgr, int width, int height, int stride, double x, double y, double w, double h,
                           cvision_color color, int thickness);
int cvision_draw_polyline(uint8_t *bgr, int width, int height, int stride, const float *xy, int count, int closed,
                          cvision_color color, int thickness);

// ---- barcode preparation (barcode_prep.cpp) ----

/// Ways to prepare a gray image for a second barcode pass when the plain one found nothing.
typedef enum {
    CVISION_BARCODE_UPSCALE = 0, ///< 2x bicubic: small codes
    CVISION_BARCODE_SHARPEN = 1, ///< unsharp mask: blurred codes
    CVISION_BARCODE_BINARIZE = 2, ///< local contrast equalisation then adaptive threshold: low contrast, uneven light
} cvision_barcode_preparation;

/// Writes the prepared copy of a gray image into `out` (out_width x out_height, as
/// cvision_barcode_prepared_size gives).
int cvision_barcode_prepare(const uint8_t *gray, int width, int height, int stride, cvision_barcode_preparation kind,
                            uint8_t *out, int out_width, int out_height);
/// The size of the prepared copy (2x for UPSCALE, the same otherwise).
void cvision_barcode_prepared_size(int width, int height, cvision_barcode_preparation kind, int *out_width, int *out_height);

// ---- face image statistics (face_image_quality.cpp) ----

/// Pixel statistics of the face region (convex hull of the 68 landmarks), for ISO/IEC 29794-5's components.
typedef struct {
    double luminance_mean;      ///< mean BT.601 Y, 0…1
    double luminance_variance;  ///< variance of Y / 255², 0…0.25
    double under_exposed;       ///< share of pixels with Y ≤ 25
    double over_exposed;        ///< share of pixels with Y ≥ 247
    double entropy;             ///< bits of the Y histogram, 0…8
    double uniformity;          ///< intersection of the left and right halves' normalised Y histograms, 0…1
    double sharpness;           ///< std of the 3×3 Laplacian inside the region, the face scaled to an IED of 64 px
    double blockiness;          ///< mean step across the frame's 8-pixel grid over the mean step elsewhere (≈1: none)
    double colour_a, colour_b;  ///< mean CIELAB a*, b* of the cheeks
    int colour_known;           ///< the cheeks were inside the image
    double inter_eye_distance;  ///< between the eye centres, pixels
    int pixels;                 ///< pixels in the region
} cvision_face_image_stats;

/// `points`: the 68 landmarks as x, y pairs in image pixels.
int cvision_face_image_measure(const uint8_t *bgr, int width, int height, int stride, const float *points,
                             cvision_face_image_stats *out);

// ---- ECI designators (qr_eci.cpp) ----

/// Looks, in a gray image (a crop around one code), for a QR code whose bytes are `payload` and that names a
/// charset with an ECI designator: `*eci` is its number (-1: none found).
int cvision_qr_eci(const uint8_t *gray, int width, int height, int stride, const uint8_t *payload, int payload_length,
                   int *eci);

// ---- WeChatQRCode, a second QR decoder (wechat_qr.cpp) ----

typedef struct cvision_wechat_qr cvision_wechat_qr;

/// One decoded code: its text as WeChatQRCode gives it (valid until the decoder's next call) and its four
/// corners (x0, y0, … x3, y3) in the image's pixels.
typedef struct {
    const uint8_t *bytes;
    int length;
    float corners[8];
} cvision_wechat_qr_code;

cvision_wechat_qr *cvision_wechat_qr_create(void);
void cvision_wechat_qr_free(cvision_wechat_qr *decoder);
/// Decodes every QR code in a gray image, up to `capacity`.
int cvision_wechat_qr_decode(cvision_wechat_qr *decoder, const uint8_t *gray, int width, int height, int stride,
                             cvision_wechat_qr_code *codes, int capacity, int *count);

// ---- faces (face_detection.cpp, face_landmarks.cpp, head_pose.cpp) ----

/// A box; `filter` is which of dlib's five HOG filters found it (0 front, 1 and 2 turned, 3 and 4 rolled), -1 else.
typedef struct { double x, y, width, height, score; int filter; } cvision_box;
typedef struct { float x, y; } cvision_point;

/// Where parsed copies of dlib's models are kept between processes (NULL or "": nowhere). Set it before the first
/// detector or landmarker is made; each model is cached the first time it is loaded.
void cvision_set_model_cache(const char *folder);

/// dlib's HOG frontal face detector (the model is built into dlib). One per thread: a detection uses working
/// memory inside the detector.
typedef struct cvision_face_detector cvision_face_detector;
cvision_face_detector *cvision_face_detector_create(void);
void cvision_face_detector_free(cvision_face_detector *detector);

/// Finds frontal faces inside `region` of a gray image, resized by `scale` first (> 1 upsamples to find small
/// faces, < 1 is faster for large ones); `threshold` shifts dlib's decision threshold (0 = dlib's default,
/// negative finds more). Boxes are in the full image's coordinates, best first. At most `capacity` are written;
/// `*count` is the number found. `from_level` > 0 skips the scan's finest pyramid levels (each 5/6 of the last):
/// the same levels from there on, for large faces only, at a fraction of the cost. `mirrored` scans the region's
/// mirror image (dlib's filters for turned faces are not mirror-symmetric: a face turned one way may be found only
/// in the mirror); its boxes are placed where the faces are in the image, and a rolled filter's index is swapped
/// (3 <-> 4) as the mirror swaps the roll. `scan` says how windows are scored: one of the CVISION_SCAN_ values below.
int cvision_detect_faces(cvision_face_detector *detector, const uint8_t *gray, int width, int height, int stride,
                         cvision_box region, double scale, double threshold, int from_level, int mirrored,
                         int scan, cvision_box *boxes, int capacity, int *count);

/// dlib's scan (its separable approximation of its filters), its pyramid levels and filters spread over OpenCV's
/// thread pool: dlib's hits, boxes and scores, bit for bit. For whole frames.
#define CVISION_SCAN_PARALLEL 0
/// Each window scored by dlib's filters applied whole: the same hits and boxes, scores within ~1e-5, and about half
/// the time on a region a few windows wide (the check of a followed face); slower than dlib's on a whole frame.
#define CVISION_SCAN_WHOLE_FILTERS 1
/// dlib's own scan on the calling thread: the reference the other two are tested against.
#define CVISION_SCAN_DLIB 2

/// The same on the region turned counter-clockwise by `angle` degrees about its centre (a face rolled by −angle
/// stands upright there); the boxes are upright, centred where the faces are in the image.
int cvision_detect_faces_rotated(cvision_face_detector *detector, const uint8_t *gray, int width, int height, int stride,
                                 cvision_box region, double scale, double threshold, double angle, int scan,
                                 cvision_box *boxes, int capacity, int *count);

/// OpenCV's cascade for faces in profile, run on the image and on its mirror (both profiles). One per thread.
typedef struct cvision_profile_detector cvision_profile_detector;
cvision_profile_detector *cvision_profile_detector_create(const char *cascade_path);
void cvision_profile_detector_free(cvision_profile_detector *detector);
/// Profile faces in `region`, searched on a copy scaled by `scale` for faces of at least `min_size` pixels there;
/// boxes in image pixels, overlapping hits merged, `filter` 0 for a face turned toward the image's left, 1 right.
int cvision_detect_profiles(cvision_profile_detector *detector, const uint8_t *gray, int width, int height, int stride,
                            cvision_box region, double scale, int min_size, cvision_box *boxes, int capacity, int *count);

/// dlib's correlation tracker (a DSST: a correlation filter on HOG features, with a scale search) following what is
/// in `box` of the image it starts on. Not thread-safe; one per followed object.
typedef struct cvision_face_tracker cvision_face_tracker;
cvision_face_tracker *cvision_face_tracker_start(const uint8_t *gray, int width, int height, int stride, cvision_box box);
void cvision_face_tracker_free(cvision_face_tracker *tracker);
/// Moves the tracker to the next image: `box` gets where it now is and, as `score`, the correlation's peak-to-sidelobe
/// ratio (how sure the tracker is that it still holds what it started on; MOSSE's authors read under 7 as lost).
int cvision_face_tracker_update(cvision_face_tracker *tracker, const uint8_t *gray, int width, int height, int stride,
                                cvision_box *box);

/// dlib's 68-point shape predictor, loaded from a model file. Safe to share across threads.
typedef struct cvision_landmarker cvision_landmarker;
cvision_landmarker *cvision_landmarker_create(const char *model_path);
void cvision_landmarker_free(cvision_landmarker *landmarker);
/// Fits the 68 points (iBUG order) of the face in `box` on a full-resolution gray image. `mirror_averaged`: the mean
/// of that fit and the mirror image of the fit on the mirrored image (a face and its mirror image then get mirror
/// images of the same points; twice the cost).
int cvision_fit_landmarks(const cvision_landmarker *landmarker, const uint8_t *gray, int width, int height, int stride,
                          cvision_box box, int mirror_averaged, cvision_point points[68]);

/// The same on the image turned counter-clockwise by `angle` degrees about the box's centre (so that a face whose
/// eye line slopes by `angle` stands upright), the points mapped back to the image.
int cvision_fit_landmarks_rotated(const cvision_landmarker *landmarker, const uint8_t *gray, int width, int height, int stride,
                                  cvision_box box, double angle, int mirror_averaged, cvision_point points[68]);

/// Head rotation from the 68 landmarks with solvePnP against 3-D faces (head_pose.cpp: focal length = image width,
/// principal point at the middle of the eye and mouth corners), in degrees, ML Kit's conventions: pitch > 0 looks up, yaw > 0 turns toward
/// the image's right, roll > 0 is counter-clockwise in the image.
typedef struct { double pitch, yaw, roll; } cvision_pose;
int cvision_head_pose(const cvision_point points[68], int width, int height, cvision_pose *pose);

#ifdef __cplusplus
}
#endif
#endif
