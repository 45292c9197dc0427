import Foundation
import Testing
@testable import FrameProbe

/// The quality function on hand-made images, against values worked out by hand.
struct QualityKernelTests {
    /// A gray image (R = G = B, so gray equals the value exactly).
    func grayImage(width: Int, height: Int, _ values: [UInt8]) -> BGRImage {
        BGRImage(width: width, height: height, bgr: values.flatMap { [$0, $0, $0] })!
    }

    /// 3×3, all 10 but a 200 centre. By hand, with replicated borders, every border pixel's Laplacian is
    /// 7·10 + 200 − 8·10 = 190 and the centre's is 8·10 − 8·200 < 0 → clamped to 0.
    @Test func spotImageWithoutMask() throws {
        let image = grayImage(width: 3, height: 3, [10, 10, 10, 10, 200, 10, 10, 10, 10])
        let scores = try QualityScores(of: image, ellipticalMask: false)
        let responses = Array(repeating: 190.0, count: 8) + [0.0]
        let mean = responses.reduce(0, +) / 9
        let std = (responses.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 9).squareRoot()
        #expect(abs(scores.darkness - 8.0 / 9.0) < 1e-12)
        #expect(abs(scores.lightness - 1.0 / 9.0) < 1e-12)
        #expect(abs(scores.sharpness - std / 128) < 1e-12)
        #expect(abs(scores.sharpness - 0.466495) < 1e-5)
    }

    /// The mask on 3×3: radii 1.05 and 1.5 around (1.5, 1.5); at pixel centres the four edge pixels and the
    /// centre are inside, the corners are not → 4 dark of 5, 1 light of 5. Sharpness ignores the mask.
    @Test func spotImageWithEllipticalMask() throws {
        let image = grayImage(width: 3, height: 3, [10, 10, 10, 10, 200, 10, 10, 10, 10])
        let masked = try QualityScores(of: image, ellipticalMask: true)
        let unmasked = try QualityScores(of: image, ellipticalMask: false)
        #expect(abs(masked.darkness - 0.8) < 1e-12)
        #expect(abs(masked.lightness - 0.2) < 1e-12)
        #expect(masked.sharpness == unmasked.sharpness)
    }

    /// Gray is truncated, not rounded: (R 63, G 64, B 64) → 63.701 → 63 (dark); (R 191, G 192, B 192) →
    /// 191.701 → 191 (not light).
    @Test func grayIsTruncatedBT601() throws {
        let pixels: [UInt8] = [64, 64, 63, 192, 192, 191] // BGR, BGR
        let scores = try QualityScores(of: BGRImage(width: 2, height: 1, bgr: pixels)!, ellipticalMask: false)
        #expect(scores.darkness == 0.5)
        #expect(scores.lightness == 0)
    }

    /// A flat image has no Laplacian response at all.
    @Test func flatImageHasZeroSharpness() throws {
        let scores = try QualityScores(of: grayImage(width: 8, height: 8, Array(repeating: 128, count: 64)), ellipticalMask: false)
        #expect(scores.sharpness == 0)
        #expect(scores.darkness == 0 && scores.lightness == 0)
    }

    /// Labels: strict comparisons; blurred is `sharpness < 0.1591` (the seed README's `>=` is inverted).
    @Test func labels() {
        #expect(QualityScores(darkness: 0.71, lightness: 0, sharpness: 1).darknessLabel == "Too dark")
        #expect(QualityScores(darkness: 0.7, lightness: 0, sharpness: 1).darknessLabel == "Acceptable")
        #expect(QualityScores(darkness: 0, lightness: 0.66, sharpness: 1).lightnessLabel == "Too light")
        #expect(QualityScores(darkness: 0, lightness: 0.65, sharpness: 1).lightnessLabel == "Acceptable")
        #expect(QualityScores(darkness: 0, lightness: 0, sharpness: 0.1590).sharpnessLabel == "Blurred")
        #expect(QualityScores(darkness: 0, lightness: 0, sharpness: 0.1591).sharpnessLabel == "Acceptable")
    }
}
