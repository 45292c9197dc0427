import CVision

/// An 8-bit BGR image in memory owned by Swift. Immutable once handed to the pipeline, so it is shared
/// across threads without copying.
public final class BGRImage: @unchecked Sendable {  // owns native pixel memory, never written once shared
    public let width: Int
    public let height: Int
    /// Bytes per row (at least 3 × width).
    public let stride: Int
    let pixels: UnsafeMutablePointer<UInt8>

    /// A black image; `width`/`height` must be positive (callers check the pixel budget first).
    public convenience init(width: Int, height: Int) {
        self.init(width: width, height: height, uninitialized: ())
        pixels.update(repeating: 0, count: capacity)
    }

    /// An image whose pixels the caller fills at once (the decoder, the resizer): no clearing first.
    init(width: Int, height: Int, uninitialized: Void) {
        precondition(width > 0 && height > 0, "BGRImage needs a positive size")
        self.width = width
        self.height = height
        // Rows aligned to 64 bytes plus slack after the last one, as swscale's vector code expects of its output
        // (it may write a few bytes past a row's end).
        stride = (3 * width + 63) / 64 * 64
        pixels = PixelBufferPool.take(capacity: stride * height + Self.slack)
    }

    private var capacity: Int { stride * height + Self.slack }

    /// Builds an image from packed BGR bytes (row after row, no padding).
    public convenience init?(width: Int, height: Int, bgr: [UInt8]) {
        guard width > 0, height > 0, bgr.count == width * height * 3 else { return nil }
        self.init(width: width, height: height)
        bgr.withUnsafeBufferPointer { source in
            for row in 0..<height {
                (pixels + row * stride).update(from: source.baseAddress! + row * 3 * width, count: 3 * width)
            }
        }
    }

    static let slack = 256

    deinit { PixelBufferPool.give(pixels, capacity: capacity) }

    /// The (b, g, r) value at a pixel.
    public subscript(x: Int, y: Int) -> (b: UInt8, g: UInt8, r: UInt8) {
        let offset = y * stride + 3 * x
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }

    /// A resized copy (area interpolation when shrinking, linear when enlarging).
    public func resized(width newWidth: Int, height newHeight: Int) throws(FrameProbeError) -> BGRImage {
        let out = BGRImage(width: newWidth, height: newHeight, uninitialized: ())
        try CVisionCall.check("resize") {
            cvision_resize(pixels, Int32(width), Int32(height), Int32(stride),
                           out.pixels, Int32(newWidth), Int32(newHeight), Int32(out.stride))
        }
        return out
    }

    /// A copy to draw on.
    public func copy() -> BGRImage { cropped(x: 0, y: 0, width: width, height: height) }

    /// A copy of the `width` × `height` area at (`x`, `y`), which must lie inside the image.
    public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) -> BGRImage {
        precondition(x >= 0 && y >= 0 && x + cropWidth <= width && y + cropHeight <= height, "crop outside the image")
        let out = BGRImage(width: cropWidth, height: cropHeight, uninitialized: ())
        for row in 0..<cropHeight {
            (out.pixels + row * out.stride).update(from: pixels + (y + row) * stride + 3 * x, count: 3 * cropWidth)
        }
        return out
    }

    /// A copy turned clockwise by `quarterTurns` × 90°.
    public func rotated(quarterTurns: Int) throws(FrameProbeError) -> BGRImage {
        let swaps = quarterTurns % 2 != 0
        let out = BGRImage(width: swaps ? height : width, height: swaps ? width : height, uninitialized: ())
        try CVisionCall.check("rotate") {
            cvision_rotate(pixels, Int32(width), Int32(height), Int32(stride), Int32(quarterTurns),
                           out.pixels, Int32(out.stride))
        }
        return out
    }
}

/// Turns a CVision status code into a `FrameProbeError` carrying the shim's message.
enum CVisionCall {
    static func check(_ what: String, _ call: () -> Int32) throws(FrameProbeError) {
        guard call() == 0 else {
            throw FrameProbeError("IMAGE_ERROR", "\(what) failed: \(String(cString: cvision_last_error()))")
        }
    }
}
