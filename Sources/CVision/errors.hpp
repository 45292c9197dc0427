// Shared by the shim's .cpp files: turn any C++ exception into an error code + thread-local message.
#pragma once
#include <exception>
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
} // namespace cvision
