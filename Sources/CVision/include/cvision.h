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

/// Encodes a BGR image as JPEG. On success *out is a buffer to release with cvision_free.
int cvision_encode_jpeg(const uint8_t *bgr, int width, int height, int stride, int quality,
                        uint8_t **out, size_t *out_size);

void cvision_free(void *pointer);

#ifdef __cplusplus
}
#endif
#endif
