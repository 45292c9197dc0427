// dlib's shape_predictor keeps its trees private and offers no way to build one from them without copying every
// tree (a transient 65 MB), nor to walk them. C++ lets an explicit template instantiation name private members, so
// these tags reach them (a dlib release that renames them fails to compile rather than misbehaving).
#include "predictor_members.hpp"

namespace {
template <typename Tag, typename Tag::type Member> struct Expose {
    friend typename Tag::type member(Tag) { return Member; }
};
struct InitialShape {
    using type = dlib::matrix<float, 0, 1> dlib::shape_predictor::*;
    friend type member(InitialShape);
};
struct Forests {
    using type = std::vector<std::vector<dlib::impl::regression_tree>> dlib::shape_predictor::*;
    friend type member(Forests);
};
struct Anchors {
    using type = std::vector<std::vector<unsigned long>> dlib::shape_predictor::*;
    friend type member(Anchors);
};
struct Deltas {
    using type = std::vector<std::vector<dlib::vector<float, 2>>> dlib::shape_predictor::*;
    friend type member(Deltas);
};
template struct Expose<InitialShape, &dlib::shape_predictor::initial_shape>;
template struct Expose<Forests, &dlib::shape_predictor::forests>;
template struct Expose<Anchors, &dlib::shape_predictor::anchor_idx>;
template struct Expose<Deltas, &dlib::shape_predictor::deltas>;
} // namespace

dlib::matrix<float, 0, 1> dlib::shape_predictor::*const cvision::initial_shape_of = member(InitialShape{});
std::vector<std::vector<dlib::impl::regression_tree>> dlib::shape_predictor::*const cvision::forests_of = member(Forests{});
std::vector<std::vector<unsigned long>> dlib::shape_predictor::*const cvision::anchors_of = member(Anchors{});
std::vector<std::vector<dlib::vector<float, 2>>> dlib::shape_predictor::*const cvision::deltas_of = member(Deltas{});
