#include "ffmpeg_log.h"
#include <libavutil/log.h>
#include <stdarg.h>
#include <string.h>

static _Thread_local char captured[1024];

// Keeps the error lines (joined by "; ") until the buffer is full.
static void capture(void *context, int level, const char *format, va_list arguments) {
    if (level > AV_LOG_ERROR) return;
    char line[512];
    int print_prefix = 0;
    av_log_format_line2(context, level, format, arguments, line, sizeof line, &print_prefix);
    line[strcspn(line, "\n")] = '\0';
    size_t used = strlen(captured);
    if (used + strlen(line) + 3 >= sizeof captured) return;
    if (used > 0) strcat(captured, "; ");
    strcat(captured, line);
}

void fp_install_log_capture(void) { av_log_set_callback(capture); }

void fp_clear_log_capture(void) { captured[0] = '\0'; }

const char *fp_last_log_error_text(void) { return captured; }
