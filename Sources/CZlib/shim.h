#ifndef LIGHTBOX_CZLIB_SHIM_H
#define LIGHTBOX_CZLIB_SHIM_H
#include <zlib.h>
#endif
