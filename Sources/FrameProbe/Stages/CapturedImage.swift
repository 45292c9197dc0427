/// An image saved by the capture stage (`imageCaptured`).
public struct CapturedImage: Sendable, Equatable {
    public var type: String
    /// 1-based number of this image for its input.
    public var count: Int
    /// `numberOfImages` (0 = unlimited).
    public var total: Int
    public var imagePath: String
    /// Scores of the saved image (elliptical mask for faces, none for frames).
    public var quality: QualityScores

    var jsonFields: [(String, JSONValue)] {
        [("type", .string(type)), ("count", .int(count)), ("total", .int(total)), ("imagePath", .string(imagePath))]
            + quality.jsonFields
    }
}
