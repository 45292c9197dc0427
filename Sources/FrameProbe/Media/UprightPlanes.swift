import CFFmpeg
import CVision

/// A decoded picture stored turned (a phone's rotation tag) brought upright plane by plane, before its conversion to
/// BGR: a 4:2:0 picture has half the bytes of its BGR image, and its 8-bit planes turn in one vectorised pass
/// (`cvision_rotate_plane`) where a BGR image takes OpenCV's transpose and then a flip.
/// The BGR image is the same, byte for byte: the converter takes each pixel's chroma from its own 2×2 block (4:2:0)
/// or its own sample (4:4:4), and a quarter turn of even-sized planes maps those blocks onto the turned picture's.
/// Other formats (4:2:2, high bit depths, packed ones, odd sizes, planes stored bottom-up) give nil and are turned after conversion.
/// Not thread-safe: the decoder that owns it uses it on its decode thread.
final class UprightPlanes: @unchecked Sendable {  // owns one reusable AVFrame; one decoder uses it on one thread
    private var turned: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()

    deinit { av_frame_free(&turned) }

    /// `frame` turned clockwise by `quarterTurns`, in the same `format` (the frame's own, the "J" formats already
    /// read as their plain twins), or nil where it cannot be turned plane by plane. Valid until the next call.
    func turning(_ frame: UnsafeMutablePointer<AVFrame>, format: AVPixelFormat, quarterTurns: Int) throws(FrameProbeError) -> UnsafeMutablePointer<AVFrame>? {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let chromaShift: Int
        switch format {
        case AV_PIX_FMT_YUV420P: chromaShift = 1
        case AV_PIX_FMT_YUV444P: chromaShift = 0
        default: return nil
        }
        guard width % 2 == 0 && height % 2 == 0, (0..<3).allSatisfy({ Self.withPlane($0, of: frame) { $1 > 0 } }), let turned else { return nil }
        let swaps = quarterTurns % 2 != 0
        let turnedWidth = swaps ? height : width, turnedHeight = swaps ? width : height
        if turned.pointee.width != turnedWidth || turned.pointee.height != turnedHeight || turned.pointee.format != format.rawValue {
            av_frame_unref(turned)
            turned.pointee.width = Int32(turnedWidth)
            turned.pointee.height = Int32(turnedHeight)
            turned.pointee.format = format.rawValue
            guard av_frame_get_buffer(turned, 0) >= 0 else { throw FrameProbeError("DECODE_ERROR", "out of memory turning a picture upright") }
        }
        for plane in 0..<3 {
            let shift = plane == 0 ? 0 : chromaShift
            let status = Self.withPlane(plane, of: frame) { source, sourceStride in
                Self.withPlane(plane, of: turned) { target, targetStride in
                    cvision_rotate_plane(source, Int32(width >> shift), Int32(height >> shift), sourceStride, Int32(quarterTurns), target, targetStride)
                }
            }
            try CVisionCall.check("rotate") { status }
        }
        return turned
    }

    /// Plane `index` of `frame`: its first byte and its line size.
    private static func withPlane<Result>(_ index: Int, of frame: UnsafeMutablePointer<AVFrame>,
                                          _ body: (UnsafeMutablePointer<UInt8>?, Int32) -> Result) -> Result {
        withUnsafeBytes(of: frame.pointee.data) { data in
            withUnsafeBytes(of: frame.pointee.linesize) { sizes in
                body(data.load(fromByteOffset: index * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride, as: UnsafeMutablePointer<UInt8>?.self),
                     sizes.load(fromByteOffset: index * MemoryLayout<Int32>.stride, as: Int32.self))
            }
        }
    }
}
