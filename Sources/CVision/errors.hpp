// Shared by the shim's .cpp files: turn any C++ exception into an error code + thread-local message.
#pragma once
#include <exception>
#include <memory>
#include <string>

namespace cvision {
void set_last_error(const std::string &message);

template <typename Body> int guarded(Body body) {
    try {
        set_last_error("");
        return body();
    } catch (const std::exception &error) {
        set_last_error(error.what());
        return 1;
    } catch (...) {
        set_last_error("unknown C++ exception");
        return 1;
    }
}

inline int fail(const char *message) {
    set_last_error(message);
    return 2;
}

/// Makes a handle for the C API: `setup` fills it and returns 0, or a failure code; on failure or exception the
/// handle is freed and nullptr returned (the message is in cvision_last_error).
template <typename Handle, typename Setup> Handle *created(Setup setup) {
    std::unique_ptr<Handle> handle;
    const int status = guarded([&] {
        handle = std::make_unique<Handle>();
        return setup(*handle);
    });
    return status == 0 ? handle.release() : nullptr;
}
} // namespace cvision
