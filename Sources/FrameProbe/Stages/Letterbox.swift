/// Fits an image to an output size: stretched (Yoonit's behaviour) or, with `keepAspect`, scaled to fit and
/// centred on black bars. `picture` is the image without the bars: what quality scores describe (SPEC §4.4).
enum Letterbox {
    static func fit(_ image: BGRImage, width: Int, height: Int, keepAspect: Bool) throws(FrameProbeError) -> (image: BGRImage, picture: BGRImage) {
        guard keepAspect else {
            let stretched = image.width == width && image.height == height ? image : try image.resized(width: width, height: height)
            return (stretched, stretched)
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
        return (canvas, inner)
    }
}
