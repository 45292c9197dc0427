// The parsed-model cache (model_cache.hpp). A cache file is: "FPCACHE2", an 8-byte kind, a 64-bit key naming what it
// was made from, the payload's size, zeros up to byte 64, the payload, and a 64-bit hash of everything before it. It
// is written to a temporary file and renamed into place, so a reader sees a whole file or none; a file that is short,
// of another kind or key, or whose hash does not match is ignored and made again. Failing to write it only costs the
// next process the slow read. It is read by mapping it: the payload is used where it lies (the shape predictor's 65 MB
// are never copied), and the mapping lives as long as what was made from it. The writer only ever renames a whole new
// file over it, which leaves an existing mapping of the old one intact.
#include "model_cache.hpp"
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlib/revision.h>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {
std::mutex directory_lock;
std::string directory;

constexpr char magic[8] = {'F', 'P', 'C', 'A', 'C', 'H', 'E', '2'};
constexpr size_t header_size = 64, hash_size = 8;

/// FNV-1a over 64-bit words in four interleaved lanes (so a 65 MB payload hashes at memory speed, ~10 ms), fed in
/// pieces of any size; `value` folds the lanes and the bytes after the last whole 32.
class Hash {
  public:
    void add(const void *data, size_t size) {
        const auto *bytes = static_cast<const unsigned char *>(data);
        while (size && (pending_ || size < sizeof pending_bytes_)) {
            const size_t taken = std::min(size, sizeof pending_bytes_ - pending_);
            std::memcpy(pending_bytes_ + pending_, bytes, taken);
            pending_ += taken, bytes += taken, size -= taken;
            if (pending_ < sizeof pending_bytes_) return;
            stride(pending_bytes_);
            pending_ = 0;
        }
        for (; size >= sizeof pending_bytes_; bytes += sizeof pending_bytes_, size -= sizeof pending_bytes_) stride(bytes);
        std::memcpy(pending_bytes_, bytes, size);
        pending_ = size;
    }
    uint64_t value() const {
        uint64_t folded = offset_basis;
        for (const uint64_t lane : lanes_) folded = (folded ^ lane) * prime;
        for (size_t i = 0; i < pending_; ++i) folded = (folded ^ pending_bytes_[i]) * prime;
        return folded;
    }

  private:
    static constexpr uint64_t offset_basis = 0xcbf29ce484222325ULL, prime = 0x100000001b3ULL;
    void stride(const unsigned char *bytes) {
        for (size_t lane = 0; lane < 4; ++lane) {
            uint64_t word;
            std::memcpy(&word, bytes + 8 * lane, 8);
            lanes_[lane] = (lanes_[lane] ^ word) * prime;
        }
    }
    uint64_t lanes_[4] = {offset_basis, offset_basis ^ 1, offset_basis ^ 2, offset_basis ^ 3};
    unsigned char pending_bytes_[32] = {};
    size_t pending_ = 0;
};

/// Writes a cache file of a `payload_size`-byte payload through a temporary one; `commit` renames it into place
/// when every write succeeded. The temporary file is made by mkstemp in the cache folder — created exclusively,
/// under a name nobody can predict — so a link planted in a shared folder is never followed (it would make the cache
/// overwrite the link's target).
class CacheWriter {
  public:
    CacheWriter(const std::string &path, const char kind[8], uint64_t key, uint64_t payload_size) : path_(path) {
        std::string name = path + ".tmp.XXXXXX";
        const int descriptor = mkostemp(name.data(), O_CLOEXEC);
        if (descriptor < 0) throw std::runtime_error("cannot make a temporary cache file");
        temporary_ = name;
        out_ = fdopen(descriptor, "wb");
        if (!out_) {
            close(descriptor);
            throw std::runtime_error("cannot write a temporary cache file");
        }
        unsigned char header[header_size] = {};
        std::memcpy(header, magic, 8);
        std::memcpy(header + 8, kind, 8);
        std::memcpy(header + 16, &key, 8);
        std::memcpy(header + 24, &payload_size, 8);
        put(header, sizeof header);
    }
    ~CacheWriter() {
        if (out_) std::fclose(out_);
        if (!committed_ && !temporary_.empty()) std::remove(temporary_.c_str());
    }
    void put(const void *data, size_t size) {
        hash_.add(data, size);
        if (size && std::fwrite(data, 1, size, out_) != size) good_ = false;
    }
    void commit() {
        const uint64_t sum = hash_.value();
        good_ = good_ && std::fwrite(&sum, 1, hash_size, out_) == hash_size;
        const bool closed = std::fclose(out_) == 0;
        out_ = nullptr;
        if (good_ && closed && std::rename(temporary_.c_str(), path_.c_str()) == 0) committed_ = true;
    }

  private:
    std::string path_, temporary_;
    FILE *out_ = nullptr;
    Hash hash_;
    bool good_ = true, committed_ = false;
};

/// A mapping of a whole file, unmapped when the last holder of its block lets go.
struct Mapping {
    Mapping(void *address, size_t size) : address(address), size(size) {}
    Mapping(const Mapping &) = delete;
    Mapping &operator=(const Mapping &) = delete;
    ~Mapping() { munmap(address, size); }
    void *const address;
    const size_t size;
};

/// The payload of the cache file at `path`, mapped read-only, after its header and hash are checked; throws on any
/// mismatch. Only a regular file is read: a FIFO, a device or a link at the cache path is no cache (a FIFO would hang
/// the run).
cvision::ByteBlock mapped_cache(const std::string &path, const char kind[8], uint64_t key) {
    const int descriptor = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (descriptor < 0) throw std::runtime_error("no cache");
    struct stat info {};
    const bool regular = fstat(descriptor, &info) == 0 && S_ISREG(info.st_mode);
    const size_t size = regular ? size_t(info.st_size) : 0;
    void *address = size >= header_size + hash_size ? mmap(nullptr, size, PROT_READ, MAP_PRIVATE, descriptor, 0) : MAP_FAILED;
    close(descriptor);  // the mapping holds the file
    if (address == MAP_FAILED) throw std::runtime_error("not a cache file");
    auto mapping = std::make_shared<const Mapping>(address, size);
    const auto *bytes = static_cast<const unsigned char *>(address);
    uint64_t seen_key, payload_size, stored;
    std::memcpy(&seen_key, bytes + 16, 8);
    std::memcpy(&payload_size, bytes + 24, 8);
    std::memcpy(&stored, bytes + size - hash_size, 8);
    if (std::memcmp(bytes, magic, 8) || std::memcmp(bytes + 8, kind, 8) || seen_key != key ||
        payload_size != size - header_size - hash_size)
        throw std::runtime_error("a cache of something else");
    Hash hash;
    hash.add(bytes, size - hash_size);
    if (hash.value() != stored) throw std::runtime_error("cache hash mismatch");
    return cvision::ByteBlock{bytes + header_size, size_t(payload_size), mapping};
}

/// Writes `payload` as the cache file at `path`; a failure is only a cache the next process will not find.
void write_cache(const std::string &path, const char kind[8], uint64_t key, const void *payload, size_t size) {
    try {
        CacheWriter out(path, kind, key, size);
        out.put(payload, size);
        out.commit();
    } catch (const std::exception &) {
    }
}

std::string cache_path(const std::string &name) { return cvision::model_cache_directory() + "/" + name; }

std::string hex(uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

/// What identifies a model file: its size, modification time and a hash of 4 KiB out of every MiB of it.
uint64_t file_key(const std::string &path) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) throw std::runtime_error("cannot read " + path);
    Hash hash;
    const uint64_t size = uint64_t(info.st_size), seconds = uint64_t(info.st_mtim.tv_sec), nanos = uint64_t(info.st_mtim.tv_nsec);
    hash.add(&size, 8);
    hash.add(&seconds, 8);
    hash.add(&nanos, 8);
    std::ifstream in(path, std::ios::binary);
    std::vector<char> sample(4096);
    for (uint64_t offset = 0; offset < size; offset += 1 << 20) {
        in.seekg(std::streamoff(offset));
        in.read(sample.data(), std::streamsize(sample.size()));
        hash.add(sample.data(), size_t(in.gcount()));
        in.clear();
    }
    return hash.value();
}

constexpr char predictor_kind[8] = {'F', 'L', 'A', 'T', 'S', 'H', 'P', '1'};

constexpr char detector_kind[8] = {'F', 'R', 'O', 'N', 'T', 'D', 'E', 'T'};

/// The detector cache is keyed by dlib's version: its model is compiled into dlib.
uint64_t detector_key() {
    Hash hash;
    const int version[3] = {DLIB_MAJOR_VERSION, DLIB_MINOR_VERSION, DLIB_PATCH_VERSION};
    hash.add(version, sizeof version);
    return hash.value();
}
} // namespace

extern "C" void cvision_set_model_cache(const char *folder) {
    std::lock_guard<std::mutex> hold(directory_lock);
    directory = folder ? folder : "";
}

namespace cvision {
std::string model_cache_directory() {
    std::lock_guard<std::mutex> hold(directory_lock);
    return directory;
}

dlib::frontal_face_detector load_frontal_face_detector() {
    if (model_cache_directory().empty()) return dlib::get_frontal_face_detector();
    const std::string path = cache_path("frontal_face_detector-" + hex(detector_key()) + ".cache");
    try {
        const ByteBlock cached = mapped_cache(path, detector_kind, detector_key());
        std::istringstream stream(std::string(reinterpret_cast<const char *>(cached.bytes), cached.size));
        dlib::frontal_face_detector detector;
        dlib::deserialize(detector, stream);
        return detector;
    } catch (const std::exception &) {
        // No usable cache: build the detector and leave one for the next process.
    }
    dlib::frontal_face_detector detector = dlib::get_frontal_face_detector();
    std::ostringstream stream;
    dlib::serialize(detector, stream);
    const std::string bytes = stream.str();
    write_cache(path, detector_kind, detector_key(), bytes.data(), bytes.size());
    return detector;
}

FlatPredictor load_shape_predictor(const std::string &model_path) {
    const auto from_dlib = [&] {
        dlib::shape_predictor predictor;
        dlib::deserialize(model_path) >> predictor;
        return FlatPredictor::layout(predictor);
    };
    if (model_cache_directory().empty()) return FlatPredictor::owning(from_dlib());
    const uint64_t key = file_key(model_path);
    const std::string path = cache_path("shape_predictor-" + hex(key) + ".cache");
    try {
        return FlatPredictor(mapped_cache(path, predictor_kind, key));
    } catch (const std::exception &) {
        // No usable cache: read dlib's file and leave one for the next process.
    }
    std::vector<unsigned char> block = from_dlib();
    write_cache(path, predictor_kind, key, block.data(), block.size());
    return FlatPredictor::owning(std::move(block));
}
} // namespace cvision
