import CFFmpeg
import Foundation

/// Encodes frames into an MP4 clip with libavcodec: H.264 (libx264) where the encoder exists, MPEG-4 Part 2
/// otherwise. Frames are scaled to the clip's size; timestamps start at 0 at the source frame rate. The file is
/// written under a temporary name and renamed when finished, so a clip is either complete or absent.
final class ClipEncoder: @unchecked Sendable {  // wraps libav* encoder handles; one recording stage uses it on one thread
    let path: String
    let width: Int
    let height: Int
    /// "h264" or "mpeg4".
    let codecName: String
    private let temporaryPath: String
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private let fps: Double
    private let overwrite: Bool
    private var finished = false

    /// Opens `path` (through a temporary file beside it) for a `width` × `height` clip at `fps`; an existing
    /// `path` is replaced only with `overwrite` (`OutputFile`).
    init(path: String, width: Int, height: Int, fps: Double, overwrite: Bool) throws(FrameProbeError) {
        self.path = path
        self.width = width
        self.height = height
        self.fps = fps > 0 ? fps : 30
        self.overwrite = overwrite
        let temporary = try OutputFile.createTemporary(beside: path)
        close(temporary.descriptor)
        temporaryPath = temporary.path
        let h264 = avcodec_find_encoder_by_name("libx264")
        guard let codec = h264 ?? avcodec_find_encoder(AV_CODEC_ID_MPEG4) else {
            TemporaryFiles.remove(temporaryPath)
            throw FrameProbeError("ENCODER_UNAVAILABLE", "libavcodec has neither an H.264 nor an MPEG-4 encoder")
        }
        codecName = h264 != nil ? "h264" : "mpeg4"
        do {
            try open(codec)
        } catch {
            abandon()
            throw error
        }
    }

    deinit { if !finished { abandon() } }

    private func open(_ codec: UnsafePointer<AVCodec>) throws(FrameProbeError) {
        guard avformat_alloc_output_context2(&format, nil, "mp4", temporaryPath) >= 0, let format else {
            throw FrameProbeError("ENCODE_ERROR", "cannot create an MP4 muxer")
        }
        guard let encoder = avcodec_alloc_context3(codec) else { throw FrameProbeError("ENCODE_ERROR", "cannot allocate the encoder") }
        self.encoder = encoder
        let rate = av_d2q(fps, 100_000)
        encoder.pointee.width = Int32(width)
        encoder.pointee.height = Int32(height)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointee.time_base = av_inv_q(rate)
        encoder.pointee.framerate = rate
        encoder.pointee.gop_size = Int32(max(1, fps.rounded()))
        if codecName == "h264" {
            av_opt_set(encoder.pointee.priv_data, "preset", "veryfast", 0)
            av_opt_set(encoder.pointee.priv_data, "crf", "20", 0)
        } else {
            encoder.pointee.bit_rate = Int64(width * height) * 4
        }
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        var status = avcodec_open2(encoder, codec, nil)
        guard status >= 0 else { throw FrameProbeError("ENCODE_ERROR", "cannot open the \(codecName) encoder: \(MediaDecoder.describe(status))") }
        guard let stream = avformat_new_stream(format, nil) else { throw FrameProbeError("ENCODE_ERROR", "cannot add a stream") }
        self.stream = stream
        avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        stream.pointee.time_base = encoder.pointee.time_base
        status = avio_open(&format.pointee.pb, temporaryPath, AVIO_FLAG_WRITE)
        guard status >= 0 else { throw FrameProbeError("OUTPUT_UNWRITABLE", "cannot write \(temporaryPath): \(MediaDecoder.describe(status))") }
        status = avformat_write_header(format, nil)
        guard status >= 0 else { throw Self.failure(status, "cannot write the MP4 header") }
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let frame else { throw FrameProbeError("ENCODE_ERROR", "cannot allocate a frame") }
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        guard av_frame_get_buffer(frame, 0) >= 0 else { throw FrameProbeError("ENCODE_ERROR", "cannot allocate frame buffers") }
    }

    /// Adds a frame shown at `time` seconds after the clip's start.
    func append(_ image: BGRImage, at time: Double) throws(FrameProbeError) {
        guard let encoder, let frame else { throw FrameProbeError("ENCODE_ERROR", "the encoder is closed") }
        scaler = sws_getCachedContext(scaler, Int32(image.width), Int32(image.height), AV_PIX_FMT_BGR24,
                                      Int32(width), Int32(height), AV_PIX_FMT_YUV420P, SWS_BICUBIC, nil, nil, nil)
        guard let scaler else { throw FrameProbeError("ENCODE_ERROR", "cannot scale frames for the clip") }
        guard av_frame_make_writable(frame) >= 0 else { throw FrameProbeError("ENCODE_ERROR", "frame not writable") }
        FrameScaling.scale(image, with: scaler, into: frame)
        frame.pointee.pts = Int64((time * fps).rounded())
        try send(frame, to: encoder)
    }

    /// Flushes the encoder, writes the trailer and moves the clip into place.
    func finish() throws(FrameProbeError) {
        guard let encoder, let format else { throw FrameProbeError("ENCODE_ERROR", "the encoder is closed") }
        try send(nil, to: encoder)
        let status = av_write_trailer(format)
        let closed = avio_closep(&format.pointee.pb)
        guard status >= 0, closed >= 0 else { throw Self.failure(status < 0 ? status : closed, "cannot finish the clip") }
        finished = true
        release()
        try OutputFile.publish(temporaryPath, as: path, overwrite: overwrite)
    }

    /// Stops and removes the partial file.
    func abandon() {
        if let format, format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
        TemporaryFiles.remove(temporaryPath)
        finished = true
        release()
    }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?, to encoder: UnsafeMutablePointer<AVCodecContext>) throws(FrameProbeError) {
        guard let packet, let format, let stream else { return }
        var status = avcodec_send_frame(encoder, frame)
        guard status >= 0 else { throw FrameProbeError("ENCODE_ERROR", "encoding failed: \(MediaDecoder.describe(status))") }
        while true {
            status = avcodec_receive_packet(encoder, packet)
            if status == fp_averror_eagain() || status == fp_averror_eof() { return }
            guard status >= 0 else { throw FrameProbeError("ENCODE_ERROR", "encoding failed: \(MediaDecoder.describe(status))") }
            av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            status = av_interleaved_write_frame(format, packet)
            guard status >= 0 else { throw Self.failure(status, "writing the clip failed") }
        }
    }

    /// A write that failed for want of space (disk full, file-size limit, I/O error) is OUTPUT_UNWRITABLE.
    private static func failure(_ status: Int32, _ what: String) -> FrameProbeError {
        let storage = [EFBIG, ENOSPC, EDQUOT, EIO].map(fp_averror)
        return FrameProbeError(storage.contains(status) ? "OUTPUT_UNWRITABLE" : "ENCODE_ERROR", "\(what): \(MediaDecoder.describe(status))")
    }

    private func release() {
        sws_freeContext(scaler)
        scaler = nil
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&encoder)
        avformat_free_context(format)
        format = nil
    }
}
