/// One decoded, upright frame of an input.
public struct Frame: Sendable {
    /// 0-based index of the decoded frame (counted from the start of the analysed window, `--start`).
    public let index: Int
    /// Presentation time in seconds, relative to the stream's start (as the stream says: it may jump back).
    public let pts: Double
    /// Media time elapsed, on a clock that never goes back (`MediaClock`): what timers and gates count.
    public let time: Double
    public let image: BGRImage

    public var width: Int { image.width }
    public var height: Int { image.height }

    /// `time` defaults to `pts` (a frame made by hand, in order).
    public init(index: Int, pts: Double, time: Double? = nil, image: BGRImage) {
        self.index = index
        self.pts = pts
        self.time = time ?? pts
        self.image = image
    }
}
