#ifndef LIGHTBOX_CLIBRAW_SHIM_H
#define LIGHTBOX_CLIBRAW_SHIM_H
#include <stdio.h>
#include <string.h>
#include <libraw/libraw.h>

// A camera RAW developed by LibRaw at half size: the slow path, for RAWs without a preview.
// Runs in the decoder processes only; the file's bytes are handed over in memory.
// Bounded: a sensor over max_pixels, or whose development would need more than max_bytes, is
// refused before LibRaw allocates for it.

void omp_set_num_threads(int);

typedef struct {
    unsigned char *pixels;   // RGB, width * height * 3 bytes, inside image; free with lb_raw_free
    libraw_processed_image_t *image;
    int width, height;       // as shown (LibRaw turns it)
    int raw_width, raw_height;
    char message[256];
} lb_raw;

enum { LB_RAW_OK = 0, LB_RAW_TOO_LARGE = 1, LB_RAW_FAILED = 2, LB_RAW_TOO_MUCH_MEMORY = 3 };

// Bytes a sensor pixel holds at the peak of a half-size development: the raw data (2), the
// half-size image of four 16-bit channels a 2x2 block (2), the 8-bit RGB picture (3/4).
#define LB_RAW_BYTES_PER_PIXEL 5.0

static inline void lb_raw_free(lb_raw *r) {
    if (r->image) libraw_dcraw_clear_mem(r->image);
    r->image = NULL;
    r->pixels = NULL;
}

// max_bytes bounds what the development may hold with the file's own bytes (len).
static inline int lb_raw_develop(const void *buf, size_t len, double max_pixels, double max_bytes, lb_raw *r) {
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
    if ((double)len + LB_RAW_BYTES_PER_PIXEL * r->raw_width * r->raw_height > max_bytes) { status = LB_RAW_TOO_MUCH_MEMORY; goto done; }
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
    // Handed over as LibRaw made it (no copy): freed by lb_raw_free after LibRaw's own data is.
    r->image = image;
    r->pixels = image->data;
    r->width = image->width;
    r->height = image->height;
    status = LB_RAW_OK;
done:
    libraw_close(raw);
    return status;
}

#endif
