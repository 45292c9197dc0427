// The parsed-model cache (model_cache.hpp). A cache file is: "FPCACHE1", an 8-byte kind, a 64-bit key naming what it
// was made from, the payload, and a 64-bit hash of everything before it. It is written to a temporary file and
// renamed into place, so a reader sees a whole file or none; a file that is short, of another kind or key, or whose
// hash does not match is ignored and made again. Failing to write it only costs the next process the slow read.
#include "model_cache.hpp"
#include "predictor_members.hpp"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlib/revision.h>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace {
std::mutex directory_lock;
std::string directory;

constexpr char magic[8] = {'F', 'P', 'C', 'A', 'C', 'H', 'E', '1'};

/// FNV-1a over 64-bit words (and the tail bytes): fast enough to check 100 MB in ~20 ms.
struct Hash {
    uint64_t value = 0xcbf29ce484222325ULL;
    void add(const void *data, size_t size) {
        const auto *bytes = static_cast<const unsigned char *>(data);
        size_t i = 0;
        for (; i + 8 <= size; i += 8) {
            uint64_t word;
            std::memcpy(&word, bytes + i, 8);
            value = (value ^ word) * 0x100000001b3ULL;
        }
        for (; i < size; ++i) value = (value ^ bytes[i]) * 0x100000001b3ULL;
    }
};

/// Writes a cache file through a temporary one; `commit` renames it into place when every write succeeded. The
/// temporary file is made by mkstemp in the cache folder — created exclusively, under a name nobody can predict —
/// so a link planted in a shared folder is never followed (it would make the cache overwrite the link's target).
class CacheWriter {
  public:
    CacheWriter(const std::string &path, const char kind[8], uint64_t key) : path_(path) {
        std::string name = path + ".tmp.XXXXXX";
        const int descriptor = mkostemp(name.data(), O_CLOEXEC);
        if (descriptor < 0) throw std::runtime_error("cannot make a temporary cache file");
        temporary_ = name;
        out_ = fdopen(descriptor, "wb");
        if (!out_) {
            close(descriptor);
            throw std::runtime_error("cannot write a temporary cache file");
        }
        put(magic, 8);
        put(kind, 8);
        put(&key, 8);
    }
    ~CacheWriter() {
        if (out_) std::fclose(out_);
        if (!committed_ && !temporary_.empty()) std::remove(temporary_.c_str());
    }
    void put(const void *data, size_t size) {
        hash_.add(data, size);
        if (size && std::fwrite(data, 1, size, out_) != size) good_ = false;
    }
    void put(uint64_t number) { put(&number, 8); }
    void commit() {
        const uint64_t sum = hash_.value;
        put(&sum, 8);
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

/// Reads a cache file, checking its header first and its hash at the end; throws on any mismatch. Only a regular
/// file is read: a FIFO, a device or a link at the cache path is no cache (a FIFO would hang the run).
class CacheReader {
  public:
    CacheReader(const std::string &path, const char kind[8], uint64_t key) {
        const int descriptor = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        if (descriptor < 0) throw std::runtime_error("no cache");
        struct stat info {};
        FILE *stream = nullptr;
        if (fstat(descriptor, &info) != 0 || !S_ISREG(info.st_mode) || !(stream = fdopen(descriptor, "rb"))) {
            close(descriptor);
            throw std::runtime_error("not a regular file");
        }
        in_.reset(stream);  // closed however the constructor ends
        // Blocking reads from here on (a regular file never blocks, but the flag would make a read fail short).
        fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK);
        char seen_magic[8], seen_kind[8];
        uint64_t seen_key;
        get(seen_magic, 8);
        get(seen_kind, 8);
        get(&seen_key, 8);
        if (std::memcmp(seen_magic, magic, 8) || std::memcmp(seen_kind, kind, 8) || seen_key != key)
            throw std::runtime_error("a cache of something else");
    }
    void get(void *data, size_t size) {
        if (size && std::fread(data, 1, size, in_.get()) != size) throw std::runtime_error("short cache");
        hash_.add(data, size);
    }
    uint64_t number(uint64_t limit) {
        uint64_t value;
        get(&value, 8);
        if (value > limit) throw std::runtime_error("implausible cache");
        return value;
    }
    void finish() {
        const uint64_t expected = hash_.value;
        uint64_t stored;
        if (std::fread(&stored, 1, 8, in_.get()) != 8 || stored != expected) throw std::runtime_error("cache hash mismatch");
    }

  private:
    std::unique_ptr<FILE, int (*)(FILE *)> in_{nullptr, &std::fclose};
    Hash hash_;
};

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
    return hash.value;
}

constexpr char predictor_kind[8] = {'S', 'H', 'A', 'P', 'E', 'P', 'R', '2'};

void write_predictor_cache(const std::string &path, uint64_t key, const dlib::shape_predictor &predictor) {
    const auto &initial = predictor.*cvision::initial_shape_of;
    const auto &forests = predictor.*cvision::forests_of;
    const auto &anchors = predictor.*cvision::anchors_of;
    const auto &deltas = predictor.*cvision::deltas_of;
    CacheWriter out(path, predictor_kind, key);
    out.put(initial.size());
    out.put(&initial(0), sizeof(float) * initial.size());
    out.put(forests.size());
    for (size_t cascade = 0; cascade < forests.size(); ++cascade) {
        out.put(anchors[cascade].size());
        for (size_t i = 0; i < anchors[cascade].size(); ++i) {
            out.put(uint64_t(anchors[cascade][i]));
            const float delta[2] = {deltas[cascade][i].x(), deltas[cascade][i].y()};
            out.put(delta, sizeof delta);
        }
        out.put(forests[cascade].size());
        for (const auto &tree : forests[cascade]) {
            out.put(tree.splits.size());
            for (const auto &split : tree.splits) {
                out.put(uint64_t(split.idx1));
                out.put(uint64_t(split.idx2));
                out.put(&split.thresh, sizeof(float));
            }
            out.put(tree.leaf_values.size());
            for (const auto &leaf : tree.leaf_values) {
                if (leaf.size() != initial.size()) throw std::runtime_error("uneven leaves");
                out.put(&leaf(0), sizeof(float) * leaf.size());
            }
        }
    }
    out.commit();
}

dlib::shape_predictor read_predictor_cache(const std::string &path, uint64_t key) {
    CacheReader in(path, predictor_kind, key);
    constexpr uint64_t many = 1 << 24;
    dlib::shape_predictor predictor;
    auto &initial = predictor.*cvision::initial_shape_of;
    auto &forests = predictor.*cvision::forests_of;
    auto &anchors = predictor.*cvision::anchors_of;
    auto &deltas = predictor.*cvision::deltas_of;
    const uint64_t dimension = in.number(4096);
    if (dimension == 0) throw std::runtime_error("implausible cache");
    initial.set_size(long(dimension));
    in.get(&initial(0), sizeof(float) * dimension);
    const uint64_t parts = dimension / 2;
    forests.resize(in.number(1024));
    anchors.resize(forests.size());
    deltas.resize(forests.size());
    for (size_t cascade = 0; cascade < forests.size(); ++cascade) {
        const uint64_t features = in.number(many);
        if (features == 0) throw std::runtime_error("implausible cache");
        anchors[cascade].resize(features);
        deltas[cascade].resize(features);
        for (size_t i = 0; i < features; ++i) {
            anchors[cascade][i] = in.number(parts - 1);
            float delta[2];
            in.get(delta, sizeof delta);
            deltas[cascade][i] = dlib::vector<float, 2>(delta[0], delta[1]);
        }
        forests[cascade].resize(in.number(many));
        for (auto &tree : forests[cascade]) {
            tree.splits.resize(in.number(many));
            for (auto &split : tree.splits) {
                split.idx1 = in.number(features - 1);
                split.idx2 = in.number(features - 1);
                in.get(&split.thresh, sizeof(float));
            }
            tree.leaf_values.resize(in.number(many));
            if (tree.leaf_values.size() != tree.splits.size() + 1) throw std::runtime_error("implausible cache");
            for (auto &leaf : tree.leaf_values) {
                leaf.set_size(long(dimension));
                in.get(&leaf(0), sizeof(float) * dimension);
            }
        }
    }
    in.finish();
    return predictor;
}

constexpr char detector_kind[8] = {'F', 'R', 'O', 'N', 'T', 'D', 'E', 'T'};

/// The detector cache is keyed by dlib's version: its model is compiled into dlib.
uint64_t detector_key() {
    Hash hash;
    const int version[3] = {DLIB_MAJOR_VERSION, DLIB_MINOR_VERSION, DLIB_PATCH_VERSION};
    hash.add(version, sizeof version);
    return hash.value;
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
        CacheReader in(path, detector_kind, detector_key());
        std::string bytes(in.number(1 << 26), '\0');
        in.get(bytes.data(), bytes.size());
        in.finish();
        std::istringstream stream(bytes);
        dlib::frontal_face_detector detector;
        dlib::deserialize(detector, stream);
        return detector;
    } catch (const std::exception &) {
        // No usable cache: build the detector and leave one for the next process.
    }
    dlib::frontal_face_detector detector = dlib::get_frontal_face_detector();
    try {
        std::ostringstream stream;
        dlib::serialize(detector, stream);
        const std::string bytes = stream.str();
        CacheWriter out(path, detector_kind, detector_key());
        out.put(bytes.size());
        out.put(bytes.data(), bytes.size());
        out.commit();
    } catch (const std::exception &) {
    }
    return detector;
}

dlib::shape_predictor load_shape_predictor(const std::string &model_path) {
    dlib::shape_predictor predictor;
    if (model_cache_directory().empty()) {
        dlib::deserialize(model_path) >> predictor;
        return predictor;
    }
    const uint64_t key = file_key(model_path);
    const std::string path = cache_path("shape_predictor-" + hex(key) + ".cache");
    try {
        return read_predictor_cache(path, key);
    } catch (const std::exception &) {
        // No usable cache: read dlib's file and leave one for the next process.
    }
    dlib::deserialize(model_path) >> predictor;
    try {
        write_predictor_cache(path, key, predictor);
    } catch (const std::exception &) {
    }
    return predictor;
}
} // namespace cvision
