// dlib's models, loaded from a cache of their parsed form when one is there (and written when it is not):
// reading dlib's portable format costs ~0.36 s for the 68-point predictor and ~0.17 s for the frontal detector per
// process; the cache is mapped, checked and used where it lies, in a few milliseconds. Shared by the shim's detection
// and landmark files.
#pragma once
#include "flat_predictor.hpp"
#include <dlib/image_processing/frontal_face_detector.h>

namespace cvision {
/// The folder of the cache (empty: no cache); set once by cvision_set_model_cache before the first model loads.
std::string model_cache_directory();

/// dlib's frontal face detector: from the cache, else built from dlib's embedded model (and cached).
dlib::frontal_face_detector load_frontal_face_detector();

/// The shape predictor in `model_path`: from the cache when it matches the file (size, modification time and a
/// hash of samples of it), else read from the file (and cached). Either way it is the flat layout of the members
/// dlib deserialises, so a cached and an uncached run fit the same points.
FlatPredictor load_shape_predictor(const std::string &model_path);
} // namespace cvision
