import Foundation

/// Keeps the best face crop of an input — the sharpest valid primary face that is neither too dark nor too
/// light — and emits it as a small JPEG (`faceThumbnail`) when the input ends, for the HTML report.
public struct FaceThumbnailStage: Stage {
    public static let descriptor = StageDescriptor(
        FaceThumbnailStage.self, name: "faceThumbnail", summary: "keeps the sharpest well-exposed face crop as a small JPEG (for reports)",
        requires: [.validFace], emits: [FaceThumbnail.self],
        selection: StageSelection(report: true), report: FaceThumbnailReport.self)

    /// The thumbnail's longer side.
    static let size = 96
    private var best: (score: Double, image: BGRImage, frame: Int, pts: Double)?

    public init() {}
    public init(options: NoOptions, context: StageContext) {}

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
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

    public mutating func finish(emit: Emit) {
        guard let best, let jpeg = try? best.image.jpegData(quality: 75) else { return }
        emit(FaceThumbnail(frame: best.frame, pts: best.pts, jpegBase64: Data(jpeg).base64EncodedString()))
    }
}

/// `faceThumbnail`: the input's best face crop, for the HTML report.
public struct FaceThumbnail: ReadableEvent {
    public static let eventName = "faceThumbnail"
    public var frame: Int
    public var pts: Double
    public var jpegBase64: String

    enum Field {
        static let frame = EventField<Int>.integer("thumbnailFrame", .integer(minimum: 0))
        static let pts = EventField<Double>.number("thumbnailPts", .number(minimum: 0), decimals: 3)
        static let jpeg = EventField<String>.text("jpegBase64", .string(minLength: 4))
    }

    public static let schema = EventSchema(.input, description: "report's best face crop of the input, as base64 JPEG", [
        Field.frame.property, Field.pts.property, Field.jpeg.property,
    ])

    public var fields: [(String, JSONValue)] { [Field.frame.json(frame), Field.pts.json(pts), Field.jpeg.json(jpegBase64)] }

    public init(frame: Int, pts: Double, jpegBase64: String) {
        (self.frame, self.pts, self.jpegBase64) = (frame, pts, jpegBase64)
    }

    public init?(reading fields: EventFields) {
        guard let jpeg = Field.jpeg.read(fields) else { return nil }
        self.init(frame: Field.frame.read(fields) ?? 0, pts: Field.pts.read(fields) ?? 0, jpegBase64: jpeg)
    }
}
