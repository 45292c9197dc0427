import CVision

/// An 8-bit single-channel image owned by Swift (the detectors' input).
public final class GrayImage: @unchecked Sendable {  // owns native pixel memory, never written once shared
    public let width: Int
    public let height: Int
    let pixels: UnsafeMutablePointer<UInt8>

    init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "GrayImage needs a positive size")
        self.width = width
        self.height = height
        pixels = .allocate(capacity: width * height)
    }

    deinit { pixels.deallocate() }

    /// BT.601 gray (rounded, OpenCV's conversion) of a BGR image.
    public convenience init(_ image: BGRImage) throws(FrameProbeError) {
        self.init(width: image.width, height: image.height)
        try CVisionCall.check("gray conversion") {
            cvision_bgr_to_gray(image.pixels, Int32(image.width), Int32(image.height), Int32(image.stride), pixels, Int32(width))
        }
    }

    public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }
}
