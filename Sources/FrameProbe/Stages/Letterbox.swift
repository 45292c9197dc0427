/// Fits an image to an output size: stretched (Yoonit's behaviour) or, with `keepAspect`, scaled to fit and
/// centred on black bars.
enum Letterbox {
    static func fit(_ image: BGRImage, width: Int, height: Int, keepAspect: Bool) throws(FrameProbeError) -> BGRImage {
        guard keepAspect else {
            return image.width == width && image.height == height ? image : try image.resized(width: width, height: height)
        }
        let scale = min(Double(width) / Double(image.width), Double(height) / Double(image.height))
        let innerWidth = max(1, min(width, Int((Double(image.width) * scale).rounded())))
        let innerHeight = max(1, min(height, Int((Double(image.height) * scale).rounded())))
        let inner = try image.resized(width: innerWidth, height: innerHeight)
        let canvas = BGRImage(width: width, height: height)
        let left = (width - innerWidth) / 2, top = (height - innerHeight) / 2
        for row in 0..<innerHeight {
            (canvas.pixels + (top + row) * canvas.stride + 3 * left)
                .update(from: inner.pixels + row * inner.stride, count: 3 * innerWidth)
        }
        return canvas
    }
}
