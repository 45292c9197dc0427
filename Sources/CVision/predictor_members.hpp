// Pointers to the private members of dlib's shape_predictor — its mean shape, cascades of regression trees, and the
// pixels each cascade samples — for the flat layout the fit walks and the model cache stores (flat_predictor.cpp):
// `predictor.*cvision::forests_of` is the trees, const for a const predictor.
#pragma once
#include <dlib/image_processing/shape_predictor.h>

namespace cvision {
extern dlib::matrix<float, 0, 1> dlib::shape_predictor::*const initial_shape_of;
extern std::vector<std::vector<dlib::impl::regression_tree>> dlib::shape_predictor::*const forests_of;
extern std::vector<std::vector<unsigned long>> dlib::shape_predictor::*const anchors_of;
extern std::vector<std::vector<dlib::vector<float, 2>>> dlib::shape_predictor::*const deltas_of;
} // namespace cvision
