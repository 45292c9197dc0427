// dlib's 68-point layout (iBUG order), shared by the shim's landmark and pose code.
#pragma once

namespace cvision {
// The landmark each one is the mirror image of (jaw, brows, nose, eyes, lips).
inline constexpr int mirror_of[68] = {16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 26, 25, 24, 23, 22, 21, 20, 19,
                                      18, 17, 27, 28, 29, 30, 35, 34, 33, 32, 31, 45, 44, 43, 42, 47, 46, 39, 38, 37, 36, 41,
                                      40, 54, 53, 52, 51, 50, 49, 48, 59, 58, 57, 56, 55, 64, 63, 62, 61, 60, 67, 66, 65};
} // namespace cvision
