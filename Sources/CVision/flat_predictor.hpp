// dlib's shape predictor laid out flat in one block of bytes: its mean shape, and for each cascade the pixels it
// samples, its trees' splits and their leaves, each section contiguous. The block is what the model cache stores and
// maps back into memory as it is (model_cache.cpp), so a process reads no model at all but the pages a fit touches;
// the landmark fit walks it (face_landmarks.cpp). dlib's trainer grows complete trees, so every tree of a cascade has
// the same 2^depth − 1 splits and 2^depth leaves; a model with uneven trees is refused.
#pragma once
#include "byte_block.hpp"
#include <dlib/image_processing/shape_predictor.h>
#include <cstdint>
#include <vector>

namespace cvision {
class FlatPredictor {
  public:
    /// One split of a tree: the leaf side is chosen by pixels[idx1] − pixels[idx2] > thresh, as in dlib.
    struct Split {
        uint32_t idx1, idx2;
        float thresh;
    };
    /// One cascade: what dlib's feature extraction needs (copied out of the block: 500 small entries), and its
    /// trees' splits (`trees` × `splits_per_tree`) and leaves (`trees` × (`splits_per_tree` + 1) × dimension).
    struct Cascade {
        std::vector<unsigned long> anchors;
        std::vector<dlib::vector<float, 2>> deltas;
        const Split *splits;
        const float *leaves;
        size_t trees, splits_per_tree;
    };
    /// The block for `predictor`; throws when its trees are uneven.
    static std::vector<unsigned char> layout(const dlib::shape_predictor &predictor);
    /// No predictor (no parts): what a landmarker holds until its model is loaded.
    FlatPredictor() = default;
    /// The predictor in `block`, every count and index checked against its size; throws when any is off.
    explicit FlatPredictor(ByteBlock block);
    /// An owned copy of a block made by `layout`.
    static FlatPredictor owning(std::vector<unsigned char> bytes);

    const dlib::matrix<float, 0, 1> &initial_shape() const { return initial_shape_; }
    const std::vector<Cascade> &cascades() const { return cascades_; }
    size_t num_parts() const { return size_t(initial_shape_.size() / 2); }

  private:
    ByteBlock block_;
    dlib::matrix<float, 0, 1> initial_shape_;
    std::vector<Cascade> cascades_;
};
} // namespace cvision
