// The flat shape predictor (flat_predictor.hpp). A block is a header of 64-bit words — the shape's dimension, the
// number of cascades, where the mean shape starts, and per cascade its feature count, tree count, splits per tree and
// where its anchors (32-bit), deltas (two floats each), splits (12 bytes each) and leaves (floats) start — then those
// sections, each at a multiple of 64 bytes from the block's start.
#include "flat_predictor.hpp"
#include "predictor_members.hpp"
#include <cstring>
#include <stdexcept>

namespace {
constexpr size_t words_before_cascades = 3, words_per_cascade = 7, alignment = 64;

size_t aligned(size_t offset) { return (offset + alignment - 1) / alignment * alignment; }

/// Builds a block: the header's words first, then sections appended at aligned offsets.
class BlockWriter {
  public:
    explicit BlockWriter(size_t header_words) : bytes_(aligned(8 * header_words)) {}
    void word(size_t index, uint64_t value) { std::memcpy(bytes_.data() + 8 * index, &value, 8); }
    /// Appends `size` bytes at the next aligned offset and returns that offset.
    uint64_t section(const void *data, size_t size) {
        const size_t offset = aligned(bytes_.size());
        bytes_.resize(offset + size);
        if (size) std::memcpy(bytes_.data() + offset, data, size);
        return offset;
    }
    std::vector<unsigned char> done() { return std::move(bytes_); }

  private:
    std::vector<unsigned char> bytes_;
};

/// Reads a block's header words and sections, refusing any that reach past its end.
class BlockReader {
  public:
    BlockReader(const unsigned char *bytes, size_t size) : bytes_(bytes), size_(size) {}
    uint64_t word(size_t index) const {
        if (index >= size_ / 8) throw std::runtime_error("a short shape predictor block");
        uint64_t value;
        std::memcpy(&value, bytes_ + 8 * index, 8);
        return value;
    }
    /// `count` items of `item_size` bytes at `offset`, checked to lie inside the block and be aligned for floats.
    const unsigned char *section(uint64_t offset, uint64_t count, size_t item_size) const {
        uint64_t length;
        if (offset % 4 || offset > size_ || __builtin_mul_overflow(count, item_size, &length) || length > size_ - offset)
            throw std::runtime_error("a shape predictor section out of its block");
        return bytes_ + offset;
    }

  private:
    const unsigned char *bytes_;
    size_t size_;
};

void require(bool condition, const char *what) {
    if (!condition) throw std::runtime_error(what);
}
} // namespace

namespace cvision {
std::vector<unsigned char> FlatPredictor::layout(const dlib::shape_predictor &predictor) {
    const auto &initial = predictor.*initial_shape_of;
    const auto &forests = predictor.*forests_of;
    const auto &anchors = predictor.*anchors_of;
    const auto &deltas = predictor.*deltas_of;
    const size_t dimension = size_t(initial.size());
    BlockWriter out(words_before_cascades + words_per_cascade * forests.size());
    out.word(0, dimension);
    out.word(1, forests.size());
    out.word(2, out.section(&initial(0), sizeof(float) * dimension));
    for (size_t cascade = 0; cascade < forests.size(); ++cascade) {
        const auto &trees = forests[cascade];
        const size_t features = anchors[cascade].size(), splits_per_tree = trees.empty() ? 0 : trees[0].splits.size();
        require(deltas[cascade].size() == features, "a shape predictor with uneven anchors");
        std::vector<uint32_t> anchor_words(anchors[cascade].begin(), anchors[cascade].end());
        std::vector<float> delta_values;
        for (const auto &delta : deltas[cascade]) delta_values.insert(delta_values.end(), {delta.x(), delta.y()});
        std::vector<Split> splits;
        std::vector<float> leaves;
        for (const auto &tree : trees) {
            require(tree.splits.size() == splits_per_tree && tree.leaf_values.size() == splits_per_tree + 1,
                    "a shape predictor with uneven trees");
            for (const auto &split : tree.splits) splits.push_back({uint32_t(split.idx1), uint32_t(split.idx2), split.thresh});
            for (const auto &leaf : tree.leaf_values) {
                require(size_t(leaf.size()) == dimension, "a shape predictor with uneven leaves");
                leaves.insert(leaves.end(), &leaf(0), &leaf(0) + dimension);
            }
        }
        const size_t at = words_before_cascades + words_per_cascade * cascade;
        out.word(at, features);
        out.word(at + 1, trees.size());
        out.word(at + 2, splits_per_tree);
        out.word(at + 3, out.section(anchor_words.data(), sizeof(uint32_t) * anchor_words.size()));
        out.word(at + 4, out.section(delta_values.data(), sizeof(float) * delta_values.size()));
        out.word(at + 5, out.section(splits.data(), sizeof(Split) * splits.size()));
        out.word(at + 6, out.section(leaves.data(), sizeof(float) * leaves.size()));
    }
    return out.done();
}

FlatPredictor::FlatPredictor(ByteBlock block) : block_(std::move(block)) {
    static_assert(sizeof(Split) == 12, "a split is three 32-bit words");
    const BlockReader in(block_.bytes, block_.size);
    const uint64_t dimension = in.word(0), cascades = in.word(1);
    require(dimension > 0 && dimension % 2 == 0 && dimension <= 4096 && cascades > 0 && cascades <= 1024,
            "an implausible shape predictor");
    initial_shape_.set_size(long(dimension));
    std::memcpy(&initial_shape_(0), in.section(in.word(2), dimension, sizeof(float)), sizeof(float) * dimension);
    for (size_t cascade = 0; cascade < cascades; ++cascade) {
        const size_t at = words_before_cascades + words_per_cascade * cascade;
        const uint64_t features = in.word(at), trees = in.word(at + 1), splits_per_tree = in.word(at + 2);
        require(features > 0 && features < (1ULL << 24) && trees < (1ULL << 24) && splits_per_tree < (1ULL << 20) &&
                    ((splits_per_tree + 1) & splits_per_tree) == 0,
                "an implausible shape predictor cascade");
        Cascade made;
        made.trees = trees;
        made.splits_per_tree = splits_per_tree;
        const auto *anchors = reinterpret_cast<const uint32_t *>(in.section(in.word(at + 3), features, sizeof(uint32_t)));
        const auto *deltas = reinterpret_cast<const float *>(in.section(in.word(at + 4), 2 * features, sizeof(float)));
        for (size_t i = 0; i < features; ++i) {
            require(anchors[i] < dimension / 2, "a shape predictor anchor out of its shape");
            made.anchors.push_back(anchors[i]);
            made.deltas.emplace_back(deltas[2 * i], deltas[2 * i + 1]);
        }
        made.splits = reinterpret_cast<const Split *>(in.section(in.word(at + 5), trees * splits_per_tree, sizeof(Split)));
        for (size_t i = 0; i < trees * splits_per_tree; ++i)
            require(made.splits[i].idx1 < features && made.splits[i].idx2 < features, "a shape predictor split out of its features");
        made.leaves = reinterpret_cast<const float *>(
            in.section(in.word(at + 6), trees * (splits_per_tree + 1) * dimension, sizeof(float)));
        cascades_.push_back(std::move(made));
    }
}

FlatPredictor FlatPredictor::owning(std::vector<unsigned char> bytes) {
    auto owned = std::make_shared<const std::vector<unsigned char>>(std::move(bytes));
    return FlatPredictor(ByteBlock{owned->data(), owned->size(), owned});
}
} // namespace cvision
