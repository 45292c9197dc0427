import Foundation

/// Keeps the best face crop of an input — the sharpest valid primary face that is neither too dark nor too
/// light — and emits it as a small JPEG (`faceThumbnail`) when the input ends, for the HTML report.
public struct FaceThumbnailStage: Stage {
    /// The thumbnail's longer side.
    static let size = 160
    private var best: (score: Double, image: BGRImage, frame: Int, pts: Double)?

    public init() {}

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: (Event.Body) -> Void) throws(FrameProbeError) {
        guard let box = analysis.validFaceBox, let crop = try FaceCrop.image(of: box, in: frame) else { return }
        let quality = try QualityScores(of: crop, ellipticalMask: true)
        let score = quality.sharpness - (quality.isTooDark || quality.isTooLight ? 1 : 0)
        guard score > best?.score ?? -.infinity else { return }
        let scale = Double(Self.size) / Double(max(crop.width, crop.height))
        let thumbnail = scale < 1
            ? try crop.resized(width: max(1, Int(Double(crop.width) * scale)), height: max(1, Int(Double(crop.height) * scale)))
            : crop
        best = (score, thumbnail, frame.index, frame.pts)
    }

    public mutating func finish(emit: (Event.Body) -> Void) {
        guard let best, let jpeg = try? best.image.jpegData(quality: 85) else { return }
        emit(.faceThumbnail(frame: best.frame, pts: best.pts, jpegBase64: Data(jpeg).base64EncodedString()))
    }
}
