import CFFmpeg

extension BGRImage {
    /// JPEG bytes of this image, encoded by libavcodec's MJPEG encoder (`quality` 1…100, as libjpeg's scale).
    public func jpegData(quality: Int = 92) throws(FrameProbeError) -> [UInt8] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw FrameProbeError("ENCODER_UNAVAILABLE", "libavcodec has no MJPEG encoder")
        }
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        var scaler: OpaquePointer? = nil
        defer {
            sws_freeContext(scaler)
            av_packet_free(&packet)
            av_frame_free(&frame)
            avcodec_free_context(&context)
        }
        guard let context, let frame, let packet else { throw FrameProbeError("ENCODE_ERROR", "cannot allocate a JPEG encoder") }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ444P
        context.pointee.time_base = AVRational(num: 1, den: 25)
        // libjpeg's quality 1…100 mapped onto MJPEG's quantiser scale 31…1.
        context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
        let qscale = Int32(max(1, min(31, (100 - quality) * 31 / 99 + 1)))
        context.pointee.global_quality = qscale * FF_QP2LAMBDA
        guard avcodec_open2(context, codec, nil) >= 0 else { throw FrameProbeError("ENCODE_ERROR", "cannot open the JPEG encoder") }
        frame.pointee.format = AV_PIX_FMT_YUVJ444P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.quality = context.pointee.global_quality
        guard av_frame_get_buffer(frame, 0) >= 0 else { throw FrameProbeError("ENCODE_ERROR", "cannot allocate a JPEG frame") }
        scaler = sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_BGR24, Int32(width), Int32(height), AV_PIX_FMT_YUVJ444P,
                                SWS_BICUBIC, nil, nil, nil)
        guard let scaler else { throw FrameProbeError("ENCODE_ERROR", "cannot convert to YUV for JPEG") }
        FrameScaling.scale(self, with: scaler, into: frame)
        guard avcodec_send_frame(context, frame) >= 0, avcodec_send_frame(context, nil) >= 0,
              avcodec_receive_packet(context, packet) >= 0, let data = packet.pointee.data else {
            throw FrameProbeError("ENCODE_ERROR", "JPEG encoding failed")
        }
        return Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
    }
}
