#ifndef LIGHTBOX_CTURBOJPEG_SHIM_H
#define LIGHTBOX_CTURBOJPEG_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <setjmp.h>
#include <jpeglib.h>

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

/// libjpeg's errors, and its warnings (a truncated or corrupt file), end the decode here.
struct lb_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
    size_t message_len;
};

static void lb_jpeg_fail(j_common_ptr info) {
    struct lb_jpeg_error *error = (struct lb_jpeg_error *)info->err;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    snprintf(error->message, error->message_len, "%s", text);
    longjmp(error->jump, 1);
}

static void lb_jpeg_message(j_common_ptr info, int level) {
    if (level < 0) lb_jpeg_fail(info);
}

/// Decodes only the part of a JPEG at (x, y), w x h, of the picture scaled by eighths/8 (in
/// the scaled picture's pixels, as stored), to RGB in `rgb` (w * h * 3 bytes): the rows above
/// are skipped (their blocks read, not transformed) and only the columns of the part's iMCUs
/// are transformed, as djpeg -crop does.
static inline int lb_jpeg_decode_part(const unsigned char *buf, unsigned long len, int eighths, int x, int y, int w, int h,
                                      unsigned char *rgb, char *message, size_t message_len) {
    struct jpeg_decompress_struct info;
    struct lb_jpeg_error error;
    JSAMPLE *row = NULL;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = lb_jpeg_fail;
    error.manager.emit_message = lb_jpeg_message;
    error.message = message;
    error.message_len = message_len;
    if (setjmp(error.jump)) {
        free(row);
        jpeg_destroy_decompress(&info);
        return LB_TJ_FAILED;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, buf, len);
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_RGB;
    info.scale_num = eighths;
    info.scale_denom = 8;
    info.dct_method = JDCT_IFAST;
    info.do_fancy_upsampling = FALSE;
    jpeg_start_decompress(&info);
    if (x < 0 || y < 0 || w < 1 || h < 1 || (JDIMENSION)(x + w) > info.output_width || (JDIMENSION)(y + h) > info.output_height ||
        info.output_components != 3) {
        snprintf(message, message_len, "the part is not inside the picture");
        jpeg_destroy_decompress(&info);
        return LB_TJ_FAILED;
    }
    JDIMENSION left = (JDIMENSION)x, width = (JDIMENSION)w;
    jpeg_crop_scanline(&info, &left, &width);  // moved left to an iMCU, widened to cover
    row = malloc((size_t)info.output_width * 3);
    if (!row) {
        snprintf(message, message_len, "out of memory");
        jpeg_destroy_decompress(&info);
        return LB_TJ_FAILED;
    }
    if (y > 0 && jpeg_skip_scanlines(&info, (JDIMENSION)y) != (JDIMENSION)y) {
        snprintf(message, message_len, "the file ends before the part");
        free(row);
        jpeg_destroy_decompress(&info);
        return LB_TJ_FAILED;
    }
    size_t offset = (size_t)(x - (int)left) * 3;
    for (int line = 0; line < h; line++) {
        JSAMPROW rows[1] = {row};
        if (jpeg_read_scanlines(&info, rows, 1) != 1) {
            snprintf(message, message_len, "the file ends inside the part");
            free(row);
            jpeg_destroy_decompress(&info);
            return LB_TJ_FAILED;
        }
        memcpy(rgb + (size_t)line * w * 3, row + offset, (size_t)w * 3);
    }
    free(row);
    jpeg_abort_decompress(&info);
    jpeg_destroy_decompress(&info);
    return LB_TJ_OK;
}
#endif
