#ifndef LIGHTBOX_CLIBRAW_SHIM_H
#define LIGHTBOX_CLIBRAW_SHIM_H
#include <stdio.h>
#include <string.h>
#include <libraw/libraw.h>

// A camera RAW developed by LibRaw at half size: the slow path, for RAWs without a preview.
// Runs in the decoder processes only; the file's bytes are handed over in memory.

void omp_set_num_threads(int);

typedef struct {
    unsigned char *pixels;   // RGB, width * height * 3 bytes; free with lb_raw_free
    int width, height;       // as shown (LibRaw turns it)
    int raw_width, raw_height;
    char message[256];
} lb_raw;

enum { LB_RAW_OK = 0, LB_RAW_TOO_LARGE = 1, LB_RAW_FAILED = 2 };

static inline void lb_raw_free(void *p) { free(p); }

static inline int lb_raw_develop(const void *buf, size_t len, double max_pixels, lb_raw *r) {
    memset(r, 0, sizeof *r);
    omp_set_num_threads(1);  // one thread a decoder, as every decoder here
    libraw_data_t *raw = libraw_init(0);
    if (!raw) { snprintf(r->message, sizeof r->message, "out of memory"); return LB_RAW_FAILED; }
    int status = LB_RAW_FAILED;
    int code = libraw_open_buffer(raw, (void *)buf, len);
    if (code != LIBRAW_SUCCESS) { snprintf(r->message, sizeof r->message, "cannot read the RAW: %s", libraw_strerror(code)); goto done; }
    r->raw_width = raw->sizes.raw_width;
    r->raw_height = raw->sizes.raw_height;
    if ((double)r->raw_width * r->raw_height > max_pixels) { status = LB_RAW_TOO_LARGE; goto done; }
    raw->params.half_size = 1;
    raw->params.use_camera_wb = 1;
    raw->params.output_bps = 8;
    raw->params.user_qual = 0;  // linear interpolation: enough at half size
    if ((code = libraw_unpack(raw)) != LIBRAW_SUCCESS) { snprintf(r->message, sizeof r->message, "cannot read the sensor data: %s", libraw_strerror(code)); goto done; }
    if ((code = libraw_dcraw_process(raw)) != LIBRAW_SUCCESS) { snprintf(r->message, sizeof r->message, "cannot develop the RAW: %s", libraw_strerror(code)); goto done; }
    int error = 0;
    libraw_processed_image_t *image = libraw_dcraw_make_mem_image(raw, &error);
    if (!image || image->type != LIBRAW_IMAGE_BITMAP || image->colors != 3 || image->bits != 8) {
        snprintf(r->message, sizeof r->message, "cannot develop the RAW");
        if (image) libraw_dcraw_clear_mem(image);
        goto done;
    }
    size_t bytes = (size_t)image->width * image->height * 3;
    r->pixels = malloc(bytes);
    if (!r->pixels) { libraw_dcraw_clear_mem(image); snprintf(r->message, sizeof r->message, "out of memory"); goto done; }
    memcpy(r->pixels, image->data, bytes);
    r->width = image->width;
    r->height = image->height;
    libraw_dcraw_clear_mem(image);
    status = LB_RAW_OK;
done:
    libraw_close(raw);
    return status;
}

#endif
