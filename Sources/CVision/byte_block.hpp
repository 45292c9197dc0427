// Bytes in memory and what keeps them alive: a heap buffer, or a read-only mapping of a cache file (model_cache.cpp)
// that is unmapped when the last holder lets go.
#pragma once
#include <cstddef>
#include <memory>

namespace cvision {
struct ByteBlock {
    const unsigned char *bytes = nullptr;
    size_t size = 0;
    std::shared_ptr<const void> owner;
};
} // namespace cvision
