#include "errors.hpp"
#include "cvision.h"
#include <dlib/revision.h>
#include <opencv2/core/version.hpp>

namespace {
thread_local std::string last_error;
}

void cvision::set_last_error(const std::string &message) { last_error = message; }

extern "C" const char *cvision_last_error(void) { return last_error.c_str(); }

extern "C" const char *cvision_opencv_version(void) { return CV_VERSION; }

extern "C" const char *cvision_dlib_version(void) {
    static const std::string version = std::to_string(DLIB_MAJOR_VERSION) + "." + std::to_string(DLIB_MINOR_VERSION) +
                                       "." + std::to_string(DLIB_PATCH_VERSION);
    return version.c_str();
}
