/// One decoded, upright frame of an input.
public struct Frame: Sendable {
    /// 0-based index of the decoded frame (counted from the start of the analysed window, `--start`).
    public let index: Int
    /// Presentation time in seconds, relative to the stream's start.
    public let pts: Double
    public let image: BGRImage

    public var width: Int { image.width }
    public var height: Int { image.height }

    public init(index: Int, pts: Double, image: BGRImage) {
        self.index = index
        self.pts = pts
        self.image = image
    }
}
