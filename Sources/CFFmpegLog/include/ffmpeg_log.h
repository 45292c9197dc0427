#ifndef FRAMEPROBE_FFMPEG_LOG_H
#define FRAMEPROBE_FFMPEG_LOG_H

/// Routes libav*'s log to a per-thread capture of its error lines (nothing is printed).
void fp_install_log_capture(void);
/// Forgets what this thread captured so far (at the start of an input).
void fp_clear_log_capture(void);
/// The error lines libav* logged on this thread since the last clear ("" when none).
const char *fp_last_log_error_text(void);

#endif
