import CFFmpeg
import CFFmpegLog
import Foundation

/// Opens one input with libavformat, decodes its best video stream with libavcodec and delivers upright
/// BGR frames of the analysed window (`--start`, `--duration`, `--sample-every`).
///
/// Not thread-safe: it is handed to one thread (the decode thread of `FrameSource`), which alone drives it.
final class MediaDecoder: @unchecked Sendable {  // wraps libav* handles; the decode thread alone drives it
    let info: InputInfo
    /// Frames decoded inside the analysed window (including the ones `--sample-every` skips).
    private(set) var framesDecoded = 0
    /// Frames the decoder produced at all (also before `--start`).
    private(set) var framesProduced = 0
    /// What libav* complained about while opening the input (on the opening thread).
    private var openingComplaint = ""
    /// Packets the decoder rejected as corrupt; decoding goes on after them.
    private(set) var corruptPackets = 0
    /// The last packet sent was rejected (for raw frames: it was short).
    private var lastPacketRejected = false
    /// A read failure other than the end of the input, reported once decoding stops.
    private(set) var readError: FrameProbeError?

    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var decoded: UnsafeMutablePointer<AVFrame>?
    private var scaler: OpaquePointer?
    /// Pictures stored turned are brought upright before conversion where their planes allow it.
    private let uprightPlanes = UprightPlanes()
    private let streamIndex: Int32
    private let timeBase: Double
    private let streamStart: Int64
    private let quarterTurns: Int
    private let options: DecodeOptions
    private var draining = false
    private var finished = false
    /// A picture over the pixel budget ends the input: the frames before it still in the decoder are drained
    /// first, then this is thrown.
    private var refusal: FrameProbeError?
    /// True once the input ended by itself (not at the end of `--duration`).
    private var reachedEnd = false
    /// The end of the last frame produced, in seconds from the stream's start (for the truncation check).
    private var producedEnd = 0.0
    /// The stream's declared duration (from its header), when it has one.
    private let declaredDuration: Double?
    private var clock = MediaClock()
    /// Where the decoder notes a picture it refused for the pixel budget (see `fp_refused_picture`).
    private let refusedPicture = UnsafeMutablePointer<fp_refused_picture>.allocate(capacity: 1)

    /// Once per process: libav* logging silenced (failures become events) and, when an input format is named,
    /// the device inputs (v4l2 …) registered. libavdevice is loaded only then: it pulls in a hundred libraries
    /// (SDL, PulseAudio, JACK, X11 …) that would slow every start.
    static let quietLogs: Void = { fp_install_log_capture() }()
    static let registerDevices: Void = {
        let names = ["libavdevice.so.\(avformat_version() >> 16)", "libavdevice.so"]
        guard let library = names.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_GLOBAL) }).first,
              let symbol = dlsym(library, "avdevice_register_all") else { return }
        unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)()
    }()

    init(location: MediaLocation, options: DecodeOptions) throws(FrameProbeError) {
        _ = Self.quietLogs
        fp_clear_log_capture()
        if options.inputFormat != nil { _ = Self.registerDevices }
        self.options = options
        var demuxer: UnsafePointer<AVInputFormat>? = nil
        if let name = options.inputFormat {
            demuxer = av_find_input_format(name)
            guard demuxer != nil else {
                throw FrameProbeError("UNSUPPORTED_INPUT", "libavformat has no input format named '\(name)'")
            }
        }
        var demuxerOptions: OpaquePointer? = nil
        defer { av_dict_free(&demuxerOptions) }
        // A file whose name contains '%' is a file, not an image-sequence pattern.
        av_dict_set(&demuxerOptions, "pattern_type", "none", 0)
        if let size = options.videoSize { av_dict_set(&demuxerOptions, "video_size", size, 0) }
        if let format = options.pixelFormat { av_dict_set(&demuxerOptions, "pixel_format", format, 0) }
        if let rate = options.frameRate { av_dict_set(&demuxerOptions, "framerate", rate, 0) }

        var context: UnsafeMutablePointer<AVFormatContext>? = nil
        var status = location.withCString { avformat_open_input(&context, $0, demuxer, &demuxerOptions) }
        guard status >= 0, let context else {
            throw FrameProbeError("INPUT_UNREADABLE", "cannot open input: \(Self.describe(status))")
        }
        formatContext = context
        // Decoders asked to probe stream parameters must respect the pixel budget too.
        var probeOptions = [OpaquePointer?](repeating: nil, count: Int(context.pointee.nb_streams))
        for index in probeOptions.indices { av_dict_set_int(&probeOptions[index], "max_pixels", Int64(options.maxPixels), 0) }
        status = probeOptions.withUnsafeMutableBufferPointer { avformat_find_stream_info(context, $0.baseAddress) }
        for index in probeOptions.indices { av_dict_free(&probeOptions[index]) }
        guard status >= 0 else {
            Self.close(&formatContext)
            throw FrameProbeError("INPUT_UNREADABLE", "cannot read stream information: \(Self.describe(status))")
        }
        openingComplaint = String(cString: fp_last_log_error_text())
        let best = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard best >= 0, let stream = context.pointee.streams[Int(best)] else {
            Self.close(&formatContext)
            throw FrameProbeError("UNSUPPORTED_INPUT", "the input has no video stream")
        }
        streamIndex = best
        let parameters = stream.pointee.codecpar.pointee
        let storedWidth = Int(parameters.width), storedHeight = Int(parameters.height)
        if storedWidth * storedHeight > options.maxPixels {
            Self.close(&formatContext)
            throw Self.overBudget(width: storedWidth, height: storedHeight, options.maxPixels)
        }
        guard let codec = avcodec_find_decoder(parameters.codec_id) else {
            Self.close(&formatContext)
            throw FrameProbeError("UNSUPPORTED_INPUT", "no decoder for codec \(String(cString: avcodec_get_name(parameters.codec_id)))")
        }
        codecContext = avcodec_alloc_context3(codec)
        guard let codecContext, avcodec_parameters_to_context(codecContext, stream.pointee.codecpar) >= 0 else {
            Self.close(&formatContext)
            throw FrameProbeError("UNSUPPORTED_INPUT", "cannot configure the decoder")
        }
        codecContext.pointee.thread_count = Int32(Self.decodingThreads(codec: parameters.codec_id, width: storedWidth, height: storedHeight,
                                                                       cores: ProcessInfo.processInfo.activeProcessorCount))
        codecContext.pointee.max_pixels = Int64(options.maxPixels)
        refusedPicture.initialize(to: fp_refused_picture(width: 0, height: 0))
        codecContext.pointee.opaque = UnsafeMutableRawPointer(refusedPicture)
        status = avcodec_open2(codecContext, codec, nil)
        guard status >= 0 else {
            self.codecContext = nil
            var owned: UnsafeMutablePointer<AVCodecContext>? = codecContext
            avcodec_free_context(&owned)
            Self.close(&formatContext)
            throw FrameProbeError("UNSUPPORTED_INPUT", "cannot open the decoder: \(Self.describe(status))")
        }
        packet = av_packet_alloc()
        decoded = av_frame_alloc()

        timeBase = av_q2d(stream.pointee.time_base)
        streamStart = stream.pointee.start_time == fp_av_nopts_value() ? 0 : stream.pointee.start_time
        quarterTurns = Self.clockwiseQuarterTurns(stream)
        let swaps = quarterTurns % 2 == 1
        var fps = av_q2d(av_guess_frame_rate(context, stream, nil))
        if !fps.isFinite || fps <= 0 { fps = 0 }
        var duration: Double? = nil
        if stream.pointee.duration != fp_av_nopts_value(), stream.pointee.duration > 0 {
            duration = Double(stream.pointee.duration) * timeBase
        } else if context.pointee.duration != fp_av_nopts_value(), context.pointee.duration > 0 {
            duration = Double(context.pointee.duration) / Double(AV_TIME_BASE)
        }
        // Only a duration the container declares for the video stream itself can show a file cut short: a whole
        // file's duration may be an audio track's, or an estimate from the bit rate.
        declaredDuration = stream.pointee.duration != fp_av_nopts_value() && stream.pointee.duration > 0
            && context.pointee.duration_estimation_method == AVFMT_DURATION_FROM_STREAM
            ? Double(stream.pointee.duration) * timeBase : nil
        let pixelFormatName = av_get_pix_fmt_name(AVPixelFormat(parameters.format)).map { String(cString: $0) } ?? "unknown"
        var opened = InputInfo(
            width: swaps ? storedHeight : storedWidth, height: swaps ? storedWidth : storedHeight, fps: fps,
            codec: String(cString: avcodec_get_name(parameters.codec_id)), pixelFormat: pixelFormatName,
            durationSeconds: duration, rotation: quarterTurns * 90)
        let demuxerName = String(cString: context.pointee.iformat.pointee.name)
        opened.isStillImage = demuxerName == "image2" || demuxerName.hasSuffix("_pipe")
        info = opened
        seekToStart()
    }

    deinit {
        if let codecContext { codecContext.pointee.opaque = nil }
        refusedPicture.deallocate()
        sws_freeContext(scaler)
        av_frame_free(&decoded)
        av_packet_free(&packet)
        avcodec_free_context(&codecContext)
        Self.close(&formatContext)
    }

    /// The next frame to analyse, or nil at the end of the window or the input.
    /// Frames skipped by `--sample-every` are decoded (and counted) but never converted.
    func nextFrame() throws(FrameProbeError) -> Frame? {
        while let raw = try nextDecodedFrame() {
            let pts = presentationTime(of: raw)
            let frameDuration = raw.pointee.pkt_duration > 0 ? Double(raw.pointee.pkt_duration) * timeBase
                : (info.fps > 0 ? 1 / info.fps : 0)
            producedEnd = max(producedEnd, pts + frameDuration)
            let time = clock.advance(to: pts, step: frameDuration)
            if pts < options.start - 1e-6 { continue }
            if let duration = options.duration, pts >= options.start + duration - 1e-6 {
                finished = true
                return nil
            }
            let index = framesDecoded
            framesDecoded += 1
            guard index % max(options.sampleEvery, 1) == 0 else { continue }
            return Frame(index: index, pts: max(pts, 0), time: time, image: try upright(raw))
        }
        return nil
    }

    private func nextDecodedFrame() throws(FrameProbeError) -> UnsafeMutablePointer<AVFrame>? {
        guard !finished, let codecContext, let decoded, let packet, let formatContext else { return nil }
        while true {
            let received = avcodec_receive_frame(codecContext, decoded)
            if received == 0 {
                if framesProduced == 0 { fp_clear_log_capture() }
                framesProduced += 1
                return decoded
            }
            if received == fp_averror_eof() {
                finished = true
                reachedEnd = true
                if let refusal { throw refusal }
                return nil
            }
            if received != fp_averror_eagain() {
                try countCorruptPacket()
                continue
            }
            if draining {
                finished = true
                reachedEnd = true
                if let refusal { throw refusal }
                return nil
            }
            let read = av_read_frame(formatContext, packet)
            if read < 0 {
                if read != fp_averror_eof() {
                    readError = FrameProbeError("DECODE_ERROR", "reading the input failed: \(Self.describe(read))")
                }
                draining = true
                avcodec_send_packet(codecContext, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(codecContext, packet)
            lastPacketRejected = sent < 0 && sent != fp_averror_eagain()
            if lastPacketRejected { try countCorruptPacket() }
        }
    }

    /// A packet the decoder rejected: skipped and counted — unless it was a picture over the pixel budget
    /// (a stream that changed size mid-way), which ends the input with `FRAME_TOO_LARGE`.
    private func countCorruptPacket() throws(FrameProbeError) {
        guard refusal == nil else { return }
        if let refused = refusedPictureError(), let codecContext {
            refusal = refused
            draining = true
            avcodec_send_packet(codecContext, nil)
            return
        }
        corruptPackets += 1
    }

    private func refusedPictureError() -> FrameProbeError? {
        let refused = refusedPicture.pointee
        guard refused.width > 0 && refused.height > 0 else { return nil }
        return Self.overBudget(width: Int(refused.width), height: Int(refused.height), options.maxPixels)
    }

    /// `DECODE_ERROR` when the input ended by itself more than one frame before the duration its container
    /// declares for the video stream (a file cut short, or shrunk while it was read); nil otherwise.
    func truncationError() -> FrameProbeError? {
        // Raw frames have no container to say how long they are: a last frame shorter than --video-size says is a
        // stream cut mid-frame, or the wrong size.
        if reachedEnd && info.codec == "rawvideo" && lastPacketRejected {
            return FrameProbeError("DECODE_ERROR", "the raw stream ends with a partial frame: it was cut mid-frame, or --video-size/--pixel-format do not match it")
        }
        guard reachedEnd, framesProduced > 0, let declaredDuration, info.fps > 0 else { return nil }
        let missing = declaredDuration - producedEnd
        guard missing > 1.0 / info.fps + 1e-3 else { return nil }
        return FrameProbeError("DECODE_ERROR", String(format: "the input ends at %.3f s of the %.3f s its container declares: the file is truncated",
                                                       producedEnd, declaredDuration))
    }

    private func presentationTime(of frame: UnsafeMutablePointer<AVFrame>) -> Double {
        let timestamp = frame.pointee.best_effort_timestamp
        if timestamp == fp_av_nopts_value() {
            return info.fps > 0 ? Double(framesDecoded) / info.fps : 0
        }
        return Double(timestamp - streamStart) * timeBase
    }

    /// Converts a decoded frame to BGR (whatever its own size: streams may change resolution) and turns it upright:
    /// its planes before the conversion where they can be (`UprightPlanes`), the BGR image after it otherwise.
    private func upright(_ frame: UnsafeMutablePointer<AVFrame>) throws(FrameProbeError) -> BGRImage {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        guard width > 0, height > 0 else { throw FrameProbeError("DECODE_ERROR", "the decoder returned an empty frame") }
        guard width * height <= options.maxPixels else { throw Self.overBudget(width: width, height: height, options.maxPixels) }
        let (format, fullRange) = Self.normalised(AVPixelFormat(frame.pointee.format), range: frame.pointee.color_range)
        let turnedPlanes = quarterTurns == 0 ? nil : try uprightPlanes.turning(frame, format: format, quarterTurns: quarterTurns)
        let source = turnedPlanes ?? frame
        let sourceWidth = source.pointee.width, sourceHeight = source.pointee.height
        scaler = sws_getCachedContext(scaler, sourceWidth, sourceHeight, format,
                                      sourceWidth, sourceHeight, AV_PIX_FMT_BGR24, SWS_BILINEAR, nil, nil, nil)
        guard let scaler else { throw FrameProbeError("DECODE_ERROR", "cannot convert pixel format to BGR") }
        Self.setSourceRange(scaler, fullRange: fullRange, colorspace: frame.pointee.colorspace)
        let image = BGRImage(width: Int(sourceWidth), height: Int(sourceHeight), uninitialized: ())
        guard FrameScaling.scale(source, with: scaler, into: image) else { throw FrameProbeError("DECODE_ERROR", "pixel format conversion failed") }
        return quarterTurns == 0 || turnedPlanes != nil ? image : try image.rotated(quarterTurns: quarterTurns)
    }

    /// Codecs whose decoding costs several times H.264's per pixel.
    static let heavyCodecs: Set<AVCodecID> = [AV_CODEC_ID_HEVC, AV_CODEC_ID_VP9, AV_CODEC_ID_AV1]

    /// FFmpeg's decoding threads for a stream. The analysis keeps two threads busy (the face scans and QR on one,
    /// following, fitting and the rest on the next) beside the decoding one, so FFmpeg's own threads only pay where
    /// cores are left over — or where decoding is itself the slowest of the threads and the analysis leaves part of
    /// a core idle: HEVC, VP9 and AV1 pictures of 2 MP and more (a phone's 1080p HEVC: ~20 ms a picture on one
    /// thread here, against ~5 ms of face work). Measured on 2 cores: one thread is 3–4 % faster than two on H.264
    /// (driving_d6, 1080p faces, 720p quality only; 0.40–0.45 s against 0.43–0.52 s on a 720×1280 phone selfie).
    /// On a 1080p60 HEVC phone clip (too_far_test_video_05, which set the rule) two threads are 15 % faster than one,
    /// and four faster again than two (1.27 s against 1.32 s, median of 9, with three in between: a frame thread
    /// waits for the rows of its reference picture, and a third and fourth keep both cores busy meanwhile), for
    /// 17 MB more memory (238 → 255 MB). Frame threads decode the same pictures, bit for bit.
    static func decodingThreads(codec: AVCodecID, width: Int, height: Int, cores: Int) -> Int {
        let spare = max(1, cores - 2)
        return heavyCodecs.contains(codec) && width * height >= 1920 * 1080 ? max(4, spare) : spare
    }

    /// The deprecated full-range "J" formats become their plain twins with an explicit full range.
    private static func normalised(_ format: AVPixelFormat, range: AVColorRange) -> (AVPixelFormat, Bool) {
        switch format {
        case AV_PIX_FMT_YUVJ420P: (AV_PIX_FMT_YUV420P, true)
        case AV_PIX_FMT_YUVJ422P: (AV_PIX_FMT_YUV422P, true)
        case AV_PIX_FMT_YUVJ444P: (AV_PIX_FMT_YUV444P, true)
        case AV_PIX_FMT_YUVJ440P: (AV_PIX_FMT_YUV440P, true)
        default: (format, range == AVCOL_RANGE_JPEG)
        }
    }

    /// Tells swscale the source's range and matrix (BT.709 for HD phone footage, BT.601 otherwise).
    private static func setSourceRange(_ scaler: OpaquePointer, fullRange: Bool, colorspace: AVColorSpace) {
        var inverseTable: UnsafeMutablePointer<Int32>? = nil, table: UnsafeMutablePointer<Int32>? = nil
        var sourceRange: Int32 = 0, destinationRange: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        guard sws_getColorspaceDetails(scaler, &inverseTable, &sourceRange, &table, &destinationRange,
                                       &brightness, &contrast, &saturation) >= 0 else { return }
        let matrix = sws_getCoefficients(colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT)
        sws_setColorspaceDetails(scaler, matrix, fullRange ? 1 : 0, table, destinationRange, brightness, contrast, saturation)
    }

    /// Jumps near `--start` when the input can seek; frames before it are then decoded and dropped.
    private func seekToStart() {
        guard options.start > 0, let formatContext, let io = formatContext.pointee.pb, io.pointee.seekable != 0 else { return }
        var target = Int64(options.start * Double(AV_TIME_BASE))
        if formatContext.pointee.start_time != fp_av_nopts_value() { target += formatContext.pointee.start_time }
        if avformat_seek_file(formatContext, -1, Int64.min, target, target, 0) >= 0, let codecContext {
            avcodec_flush_buffers(codecContext)
        }
    }

    /// The display matrix says how the stored picture must be turned to be shown upright (as ffmpeg's autorotate).
    private static func clockwiseQuarterTurns(_ stream: UnsafeMutablePointer<AVStream>) -> Int {
        var size: Int = 0
        guard let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else { return 0 }
        let counterClockwise = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard counterClockwise.isFinite else { return 0 }
        let turns = Int((-counterClockwise / 90).rounded())
        return ((turns % 4) + 4) % 4
    }

    /// Why nothing could be decoded, in FFmpeg's words when it said something: a picture size it refused is
    /// reported against the pixel budget.
    func nothingDecodedError() -> FrameProbeError {
        if let refused = refusedPictureError() { return refused }
        let decoding = String(cString: fp_last_log_error_text())
        let said = (decoding.isEmpty ? openingComplaint : decoding).trimmingCharacters(in: .whitespacesAndNewlines)
        if let range = said.range(of: #"Picture size (\d+)x(\d+)"#, options: .regularExpression) {
            let size = said[range].dropFirst("Picture size ".count).split(separator: "x").compactMap { Int($0) }
            if size.count == 2, size[0] * size[1] > options.maxPixels { return Self.overBudget(width: size[0], height: size[1], options.maxPixels) }
        }
        let reason = said.isEmpty ? "" : ": \(said)"
        return FrameProbeError("DECODE_ERROR", "no frame could be decoded (\(corruptPackets) corrupt packets)\(reason)")
    }

    private static func overBudget(width: Int, height: Int, _ budget: Int) -> FrameProbeError {
        FrameProbeError("FRAME_TOO_LARGE", "a \(width)×\(height) frame exceeds the pixel budget of \(budget) pixels (--max-pixels)")
    }

    private static func close(_ context: inout UnsafeMutablePointer<AVFormatContext>?) {
        if context != nil { avformat_close_input(&context) }
    }

    static func describe(_ status: Int32) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
            av_strerror(status, buffer.baseAddress, buffer.count)
            return String(cString: buffer.baseAddress!)
        }
    }
}
