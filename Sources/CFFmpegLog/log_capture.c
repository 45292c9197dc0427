#include "ffmpeg_log.h"
#include <libavcodec/avcodec.h>
#include <libavutil/log.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// A decoder refusing a picture over its budget says so through libavutil's image-size check ("Picture size WxH
// exceeds specified max pixel count N", or "… is invalid"), logged on a helper context whose parent is the decoder's
// context (or a frame-threading worker's copy of it, which shares `opaque`).
static void note_refused_picture(void *context, const char *line) {
    unsigned width = 0, height = 0;
    if (!context || sscanf(line, "Picture size %ux%u", &width, &height) != 2) return;
    const AVClass *class = *(const AVClass **)context;
    if (class && class->parent_log_context_offset) {
        context = *(void **)((char *)context + class->parent_log_context_offset);
        class = context ? *(const AVClass **)context : NULL;
    }
    if (!class || strcmp(class->class_name, "AVCodecContext") != 0) return;
    fp_refused_picture *note = ((AVCodecContext *)context)->opaque;
    if (note && (unsigned long long)width * height > (unsigned long long)note->width * note->height) {
        note->width = (int)width;
        note->height = (int)height;
    }
}

static _Thread_local char captured[1024];

// Keeps the error lines (joined by "; ") until the buffer is full.
static void capture(void *context, int level, const char *format, va_list arguments) {
    if (level > AV_LOG_ERROR) return;
    char line[512];
    int print_prefix = 0;
    av_log_format_line2(context, level, format, arguments, line, sizeof line, &print_prefix);
    line[strcspn(line, "\n")] = '\0';
    note_refused_picture(context, line);
    size_t used = strlen(captured);
    if (used + strlen(line) + 3 >= sizeof captured) return;
    if (used > 0) strcat(captured, "; ");
    strcat(captured, line);
}

void fp_install_log_capture(void) { av_log_set_callback(capture); }

void fp_clear_log_capture(void) { captured[0] = '\0'; }

const char *fp_last_log_error_text(void) { return captured; }
