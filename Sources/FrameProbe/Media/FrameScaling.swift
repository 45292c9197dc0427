import CFFmpeg

/// `sws_scale` between frameprobe's BGR images and libav*'s frames, written once for the decoder (frame → BGR)
/// and the encoders (BGR → frame).
enum FrameScaling {
    /// Converts `image` into `frame`'s planes (allocated, of the scaler's output size and format).
    static func scale(_ image: BGRImage, with scaler: OpaquePointer, into frame: UnsafeMutablePointer<AVFrame>) {
        var source: [UnsafePointer<UInt8>?] = [UnsafePointer(image.pixels), nil, nil, nil]
        var sourceStride: [Int32] = [Int32(image.stride), 0, 0, 0]
        withPlanes(of: frame) { planes, strides in
            _ = sws_scale(scaler, &source, &sourceStride, 0, Int32(image.height), planes, strides)
        }
    }

    /// Converts `frame` (of the scaler's input size and format) into `image`; true when every row was converted.
    static func scale(_ frame: UnsafeMutablePointer<AVFrame>, with scaler: OpaquePointer, into image: BGRImage) -> Bool {
        var destination: [UnsafeMutablePointer<UInt8>?] = [image.pixels, nil, nil, nil]
        var destinationStride: [Int32] = [Int32(image.stride), 0, 0, 0]
        let rows = withPlanes(of: frame) { planes, strides in
            sws_scale(scaler, UnsafeRawPointer(planes).assumingMemoryBound(to: UnsafePointer<UInt8>?.self), strides,
                      0, frame.pointee.height, &destination, &destinationStride)
        }
        return rows == frame.pointee.height
    }

    /// `frame`'s plane pointers and line sizes, as the arrays `sws_scale` takes.
    private static func withPlanes<Result>(of frame: UnsafeMutablePointer<AVFrame>,
                                           _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int32>) -> Result) -> Result {
        withUnsafeMutablePointer(to: &frame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                withUnsafeMutablePointer(to: &frame.pointee.linesize) { linesize in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 8) { strides in body(planes, strides) }
                }
            }
        }
    }
}
