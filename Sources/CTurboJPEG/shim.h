#ifndef LIGHTBOX_CTURBOJPEG_SHIM_H
#define LIGHTBOX_CTURBOJPEG_SHIM_H
#include <stdio.h>
#include <string.h>
#include <turbojpeg.h>

enum { LB_TJ_OK = 0, LB_TJ_UNSUPPORTED = 1, LB_TJ_FAILED = 2 };

/// Reads a JPEG's size and colour space. Returns LB_TJ_UNSUPPORTED for CMYK/YCCK.
static inline int lb_tj_header(const unsigned char *buf, unsigned long len, int *width, int *height, char *message, size_t message_len) {
    tjhandle handle = tjInitDecompress();
    if (!handle) { snprintf(message, message_len, "cannot start libjpeg-turbo"); return LB_TJ_FAILED; }
    int subsampling = 0, colorspace = 0;
    int result = tjDecompressHeader3(handle, buf, len, width, height, &subsampling, &colorspace);
    if (result != 0) snprintf(message, message_len, "%s", tjGetErrorStr2(handle));
    tjDestroy(handle);
    if (result != 0) return LB_TJ_FAILED;
    return (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) ? LB_TJ_UNSUPPORTED : LB_TJ_OK;
}

/// Decodes to RGB at width x height, which must be the image scaled by one of libjpeg-turbo's
/// factors (TJSCALED). Warnings (a truncated file) count as errors.
static inline int lb_tj_decode(const unsigned char *buf, unsigned long len, unsigned char *rgb, int width, int height,
                               char *message, size_t message_len) {
    tjhandle handle = tjInitDecompress();
    if (!handle) { snprintf(message, message_len, "cannot start libjpeg-turbo"); return LB_TJ_FAILED; }
    int result = tjDecompress2(handle, buf, len, rgb, width, width * 3, height, TJPF_RGB,
                               TJFLAG_FASTDCT | TJFLAG_FASTUPSAMPLE | TJFLAG_STOPONWARNING);
    if (result != 0) snprintf(message, message_len, "%s", tjGetErrorStr2(handle));
    tjDestroy(handle);
    return result == 0 ? LB_TJ_OK : LB_TJ_FAILED;
}
/// Encodes RGB pixels as a baseline JPEG of `quality` (4:2:0); *out is freed with lb_tj_free.
static inline int lb_tj_encode(const unsigned char *rgb, int width, int height, int quality,
                               unsigned char **out, unsigned long *out_len) {
    tjhandle handle = tjInitCompress();
    if (!handle) return LB_TJ_FAILED;
    *out = NULL;
    *out_len = 0;
    int result = tjCompress2(handle, rgb, width, width * 3, height, TJPF_RGB, out, out_len, TJSAMP_420, quality, TJFLAG_FASTDCT);
    tjDestroy(handle);
    return result == 0 ? LB_TJ_OK : LB_TJ_FAILED;
}

static inline void lb_tj_free(unsigned char *p) { tjFree(p); }
#endif
