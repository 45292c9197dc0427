/// How an input is opened and which of its frames are delivered.
public struct DecodeOptions: Sendable, Equatable {
    /// A libavformat demuxer or device name (`rawvideo`, `v4l2`, `nut` …); nil lets libavformat probe.
    public var inputFormat: String?
    /// Raw frames: `WxH`, pixel format and frame rate (with `inputFormat == "rawvideo"`).
    public var videoSize: String?
    public var pixelFormat: String?
    public var frameRate: String?
    /// Analysed window, in seconds of media time.
    public var start: Double = 0
    public var duration: Double?
    /// Analyse every Nth decoded frame.
    public var sampleEvery: Int = 1
    /// Frames with more pixels than this are refused (SPEC §10; default 8192 × 8192).
    public var maxPixels: Int = 8192 * 8192

    public init() {}
}

/// What `inputOpened` reports about an input.
public struct InputInfo: Sendable, Equatable {
    /// Upright size (after the display rotation is applied).
    public var width: Int
    public var height: Int
    public var fps: Double
    public var codec: String
    public var pixelFormat: String
    public var durationSeconds: Double?
    /// Clockwise rotation applied to make frames upright (0, 90, 180, 270).
    public var rotation: Int

    /// An image file (libavformat's image demuxers: `image2`, `png_pipe`, `jpeg_pipe` …), not a video.
    public var isStillImage = false
}
