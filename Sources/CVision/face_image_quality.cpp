// Pixel statistics of a face region for the ISO/IEC 29794-5 components (frameprobe's definitions, after OFIQ's
// ideas): the region is the convex hull of the 68 landmarks (no segmentation network), luminance is BT.601 Y.
#include "cvision.h"
#include "errors.hpp"
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cmath>
#include <vector>

namespace {
constexpr int kUnderExposed = 25;   // Y at or below: nearly black
constexpr int kOverExposed = 247;   // Y at or above: nearly white
constexpr double kSharpnessIED = 64; // the face is scaled to this inter-eye distance before the Laplacian

double entropy_bits(const std::vector<double> &histogram, double total) {
    double bits = 0;
    for (double count : histogram) {
        if (count <= 0) continue;
        const double p = count / total;
        bits -= p * std::log2(p);
    }
    return bits;
}

cv::Point2f centre(const float *points, std::initializer_list<int> indices) {
    cv::Point2f sum(0, 0);
    for (int index : indices) sum += cv::Point2f(points[2 * index], points[2 * index + 1]);
    return sum * (1.0f / indices.size());
}

// Mean CIELAB a*, b* of a disc (radius r) of the image around c, clipped to the image; false when empty.
bool mean_ab(const cv::Mat &bgr, cv::Point2f c, float r, double &a, double &b) {
    const cv::Rect box = cv::Rect(int(c.x - r), int(c.y - r), int(2 * r) + 1, int(2 * r) + 1) & cv::Rect(0, 0, bgr.cols, bgr.rows);
    if (box.area() <= 0) return false;
    cv::Mat patch, lab;
    bgr(box).convertTo(patch, CV_32F, 1.0 / 255);
    cv::cvtColor(patch, lab, cv::COLOR_BGR2Lab);
    cv::Mat mask = cv::Mat::zeros(box.size(), CV_8U);
    cv::circle(mask, cv::Point(int(c.x) - box.x, int(c.y) - box.y), int(r), 255, cv::FILLED);
    if (cv::countNonZero(mask) == 0) return false;
    const cv::Scalar mean = cv::mean(lab, mask);
    a = mean[1];
    b = mean[2];
    return true;
}
} // namespace

extern "C" int cvision_face_image_measure(const uint8_t *bgr, int width, int height, int stride, const float *points,
                                        cvision_face_image_stats *out) {
    if (!bgr || width <= 0 || height <= 0 || stride < 3 * width || !points || !out) return cvision::fail("invalid face image request");
    return cvision::guarded([&] {
        *out = cvision_face_image_stats{};
        const cv::Mat image(height, width, CV_8UC3, const_cast<uint8_t *>(bgr), static_cast<size_t>(stride));
        std::vector<cv::Point> landmarks(68), hull;
        for (int i = 0; i < 68; ++i) landmarks[i] = cv::Point(int(std::lround(points[2 * i])), int(std::lround(points[2 * i + 1])));
        cv::convexHull(landmarks, hull);
        const cv::Rect bounds = cv::boundingRect(hull) & cv::Rect(0, 0, width, height);
        if (bounds.area() <= 0) return cvision::fail("the face is outside the image");
        cv::Mat mask = cv::Mat::zeros(bounds.size(), CV_8U);
        for (cv::Point &point : hull) point -= bounds.tl();
        cv::fillConvexPoly(mask, hull, 255);
        cv::Mat gray;
        cv::cvtColor(image(bounds), gray, cv::COLOR_BGR2GRAY);  // BT.601 Y

        // Luminance: mean, variance, the near-black / near-white shares, the histogram's entropy, and the
        // intersection of the left and right halves' normalised histograms (split at the nose bridge).
        const float split = centre(points, {27, 28, 29, 30}).x - bounds.x;
        std::vector<double> all(256, 0), left(256, 0), right(256, 0);
        double sum = 0, squares = 0, total = 0, leftTotal = 0, rightTotal = 0;
        for (int y = 0; y < gray.rows; ++y) {
            const uint8_t *row = gray.ptr<uint8_t>(y), *inside = mask.ptr<uint8_t>(y);
            for (int x = 0; x < gray.cols; ++x) {
                if (!inside[x]) continue;
                const int value = row[x];
                all[value] += 1;
                sum += value;
                squares += double(value) * value;
                total += 1;
                if (x + 0.5f < split) { left[value] += 1; leftTotal += 1; } else { right[value] += 1; rightTotal += 1; }
            }
        }
        if (total < 16) return cvision::fail("the face region is too small");
        out->pixels = int(total);
        out->luminance_mean = sum / total / 255;
        out->luminance_variance = std::max(0.0, squares / total - (sum / total) * (sum / total)) / (255.0 * 255.0);
        double under = 0, over = 0;
        for (int v = 0; v <= kUnderExposed; ++v) under += all[v];
        for (int v = kOverExposed; v < 256; ++v) over += all[v];
        out->under_exposed = under / total;
        out->over_exposed = over / total;
        out->entropy = entropy_bits(all, total);
        double overlap = 0;
        if (leftTotal > 0 && rightTotal > 0)
            for (int v = 0; v < 256; ++v) overlap += std::min(left[v] / leftTotal, right[v] / rightTotal);
        out->uniformity = overlap;

        // Sharpness: the standard deviation of the Laplacian inside the (eroded) region, at a fixed face scale.
        const cv::Point2f leftEye = centre(points, {42, 43, 44, 45, 46, 47}), rightEye = centre(points, {36, 37, 38, 39, 40, 41});
        const double ied = cv::norm(leftEye - rightEye);
        out->inter_eye_distance = ied;
        const double scale = ied > 1 ? kSharpnessIED / ied : 1;
        cv::Mat scaledGray, scaledMask, laplacian;
        cv::resize(gray, scaledGray, cv::Size(), scale, scale, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
        cv::resize(mask, scaledMask, scaledGray.size(), 0, 0, cv::INTER_NEAREST);
        cv::erode(scaledMask, scaledMask, cv::Mat(), cv::Point(-1, -1), 2);
        cv::Laplacian(scaledGray, laplacian, CV_32F, 3);
        cv::Scalar lapMean, lapDev;
        if (cv::countNonZero(scaledMask) > 0) {
            cv::meanStdDev(laplacian, lapMean, lapDev, scaledMask);
            out->sharpness = lapDev[0];
        }

        // Blockiness: mean absolute step across the 8-pixel grid of the frame (where codecs put block edges) over
        // the mean step elsewhere, horizontally and vertically, in the face's bounding box at its own resolution.
        double edge = 0, inner = 0, edgeCount = 0, innerCount = 0;
        for (int y = 0; y < gray.rows; ++y) {
            const uint8_t *row = gray.ptr<uint8_t>(y);
            for (int x = 1; x < gray.cols; ++x) {
                const double step = std::abs(int(row[x]) - int(row[x - 1]));
                if ((bounds.x + x) % 8 == 0) { edge += step; edgeCount += 1; } else { inner += step; innerCount += 1; }
            }
        }
        for (int y = 1; y < gray.rows; ++y) {
            const uint8_t *row = gray.ptr<uint8_t>(y), *above = gray.ptr<uint8_t>(y - 1);
            const bool onGrid = (bounds.y + y) % 8 == 0;
            for (int x = 0; x < gray.cols; ++x) {
                const double step = std::abs(int(row[x]) - int(above[x]));
                if (onGrid) { edge += step; edgeCount += 1; } else { inner += step; innerCount += 1; }
            }
        }
        out->blockiness = edgeCount > 0 && innerCount > 0 ? (edge / edgeCount + 0.5) / (inner / innerCount + 0.5) : 1;

        // Colour: CIELAB a*, b* of the two cheeks (a disc of 0.25 IED between the jaw and the nose wings).
        double a1 = 0, b1 = 0, a2 = 0, b2 = 0;
        const float radius = float(std::max(2.0, 0.25 * ied));
        const bool leftCheek = mean_ab(image, (centre(points, {2, 3}) + centre(points, {31})) * 0.5f, radius, a1, b1);
        const bool rightCheek = mean_ab(image, (centre(points, {13, 14}) + centre(points, {35})) * 0.5f, radius, a2, b2);
        const int cheeks = int(leftCheek) + int(rightCheek);
        out->colour_a = cheeks ? (a1 + a2) / cheeks : 0;
        out->colour_b = cheeks ? (b1 + b2) / cheeks : 0;
        out->colour_known = cheeks > 0;
        return 0;
    });
}
