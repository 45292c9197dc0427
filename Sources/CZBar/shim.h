#ifndef FRAMEPROBE_CZBAR_H
#define FRAMEPROBE_CZBAR_H
#include <zbar.h>
#endif
