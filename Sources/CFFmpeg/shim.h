#ifndef FRAMEPROBE_CFFMPEG_H
#define FRAMEPROBE_CFFMPEG_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/parseutils.h>
#include <libavutil/pixdesc.h>

// Macros Swift cannot import.
static inline int fp_averror_eof(void) { return AVERROR_EOF; }
static inline int fp_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int fp_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t fp_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational fp_av_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int fp_averror(int posix_error) { return AVERROR(posix_error); }

#endif
