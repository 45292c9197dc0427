#ifndef FRAMEPROBE_FFMPEG_LOG_H
#define FRAMEPROBE_FFMPEG_LOG_H

/// Routes libav*'s log to a per-thread capture of its error lines (nothing is printed).
void fp_install_log_capture(void);
/// Forgets what this thread captured so far (at the start of an input).
void fp_clear_log_capture(void);
/// The error lines libav* logged on this thread since the last clear ("" when none).
const char *fp_last_log_error_text(void);

/// The largest picture a decoder refused for exceeding its pixel budget (0×0 when none). A decoder's context
/// points at one of these through its `opaque` field, which libavcodec copies to its frame-threading workers, so
/// the refusal is seen whichever thread logged it.
typedef struct fp_refused_picture {
    int width;
    int height;
} fp_refused_picture;

#endif
