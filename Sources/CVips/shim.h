#ifndef LIGHTBOX_CVIPS_SHIM_H
#define LIGHTBOX_CVIPS_SHIM_H
#include <string.h>
#include <vips/vips.h>

// libvips' variadic calls cannot be made from Swift; these wrappers make them.

static void lb_vips_quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

/// Starts libvips once: no operation cache (we cache ourselves), one thread per call
/// (we run one worker per core), and warnings kept off the terminal.
static inline int lb_vips_start(void) {
    if (vips_init("lightbox") != 0) return -1;
    g_log_set_default_handler(lb_vips_quiet, NULL);
    g_log_set_handler("VIPS", G_LOG_LEVEL_MASK, lb_vips_quiet, NULL);
    g_log_set_handler("GLib-GObject", G_LOG_LEVEL_MASK, lb_vips_quiet, NULL);
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    vips_block_untrusted_set(TRUE);  // loaders libvips does not consider safe for hostile files
    // but JPEG XL's and JPEG 2000's, which are what those formats have: they run in the decoder
    // processes only, under the time limit, after our own header check.
    vips_operation_block_set("VipsForeignLoadJxl", FALSE);
    vips_operation_block_set("VipsForeignLoadJp2k", FALSE);
    return 0;
}

/// Result of one decode.
typedef struct {
    unsigned char *pixels;   // RGB, width * height * 3 bytes; free with lb_vips_free
    unsigned char *alpha;    // with transparency, width * height bytes (pixels premultiplied); else NULL
    int width, height;
    int source_width, source_height;
    char message[256];
} lb_thumbnail;

static inline void lb_vips_take_error(lb_thumbnail *t) {
    const char *text = vips_error_buffer();
    size_t i = 0;
    // First line only; "vips_thing: " prefixes stay, they name the loader.
    while (text && text[i] && text[i] != '\n' && i + 1 < sizeof t->message) { t->message[i] = text[i]; i++; }
    t->message[i] = 0;
    vips_error_clear();
}

static inline void lb_vips_free(void *p) { g_free(p); }

enum { LB_OK = 0, LB_TOO_LARGE = 1, LB_FAILED = 2 };

/// Turns a thumbnail into 8-bit sRGB and takes its pixels (consuming `image`): with an alpha
/// band, that band in t->alpha and the colours premultiplied by it (as if laid on black).
static inline int lb_vips_finish(VipsImage *image, lb_thumbnail *t) {
    VipsImage *next = NULL;
#define LB_STEP(call) do { if (call) { g_object_unref(image); lb_vips_take_error(t); return LB_FAILED; } \
                           g_object_unref(image); image = next; next = NULL; } while (0)
    if (vips_image_get_interpretation(image) != VIPS_INTERPRETATION_sRGB)
        LB_STEP(vips_colourspace(image, &next, VIPS_INTERPRETATION_sRGB, NULL));
    // With alpha: the four bands read in one pass (a sequential source cannot be read twice).
    int keeps_alpha = vips_image_hasalpha(image) && vips_image_get_bands(image) == 4;
    if (!keeps_alpha && vips_image_get_bands(image) > 3) LB_STEP(vips_extract_band(image, &next, 0, "n", 3, NULL));
    if (vips_image_get_bands(image) < 3) LB_STEP(vips_bandjoin_const1(image, &next, 0, NULL) ||
                                                  vips_image_get_bands(next) != 3);
    if (vips_image_get_format(image) != VIPS_FORMAT_UCHAR) LB_STEP(vips_cast_uchar(image, &next, NULL));
#undef LB_STEP
    size_t size = 0;
    t->pixels = vips_image_write_to_memory(image, &size);
    t->width = vips_image_get_width(image);
    t->height = vips_image_get_height(image);
    g_object_unref(image);
    if (!t->pixels) { lb_vips_take_error(t); return LB_FAILED; }
    size_t count = (size_t)t->width * (size_t)t->height;
    if (size != count * (keeps_alpha ? 4 : 3)) {
        g_free(t->pixels); t->pixels = NULL;
        snprintf(t->message, sizeof t->message, "unexpected pixel layout");
        return LB_FAILED;
    }
    if (keeps_alpha) {
        // RGBA split in place into premultiplied RGB (the first 3/4 of the buffer) and the alpha plane.
        unsigned char *rgba = t->pixels;
        t->alpha = g_malloc(count);
        for (size_t p = 0; p < count; p++) {
            unsigned a = rgba[p * 4 + 3];
            t->alpha[p] = (unsigned char)a;
            for (int c = 0; c < 3; c++) rgba[p * 3 + c] = (unsigned char)((rgba[p * 4 + c] * a + 127) / 255);
        }
    }
    return LB_OK;
}


/// libvips' own reading of an image's header (clearing `t`): its size (a page's, for an
/// animation) in t->source_width and source_height, and its pages when `pages` is given.
/// LB_OK when it may be decoded; LB_FAILED without pixels; LB_TOO_LARGE over max_pixels.
static inline int lb_vips_check(const void *buf, size_t len, double max_pixels, lb_thumbnail *t, int *pages) {
    memset(t, 0, sizeof *t);
    VipsImage *header = vips_image_new_from_buffer(buf, len, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!header) { lb_vips_take_error(t); return LB_FAILED; }
    t->source_width = vips_image_get_width(header);
    t->source_height = vips_image_get_page_height(header);  // the height, for a single page
    if (pages) *pages = vips_image_get_n_pages(header);
    g_object_unref(header);
    if (t->source_width <= 0 || t->source_height <= 0) {
        snprintf(t->message, sizeof t->message, "image has no pixels");
        return LB_FAILED;
    }
    return (double)t->source_width * (double)t->source_height > max_pixels ? LB_TOO_LARGE : LB_OK;
}

/// Decodes an encoded image held in memory to RGB pixels that fit inside box_w x box_h,
/// shrinking on load, with EXIF orientation applied, in sRGB (alpha as `lb_vips_finish` keeps it).
/// Refuses, before decoding, images of more than max_pixels.
static inline int lb_vips_thumbnail(const void *buf, size_t len, int box_w, int box_h, double max_pixels,
                                    lb_thumbnail *t) {
    int checked = lb_vips_check(buf, len, max_pixels, t, NULL);
    if (checked != LB_OK) return checked;
    VipsImage *image = NULL;
    if (vips_thumbnail_buffer((void *)buf, len, &image, box_w, "height", box_h,
                              "option_string", "fail_on=truncated", NULL)) {
        lb_vips_take_error(t);
        return LB_FAILED;
    }
    return lb_vips_finish(image, t);
}

/// The part (rx, ry, rw, rh: fractions of the upright picture in 65536ths) of an image at full
/// resolution, shrunk to fit box_w x box_h (never enlarged). libvips reads what the part needs.
static inline int lb_vips_region(const void *buf, size_t len, int rx, int ry, int rw, int rh, int box_w, int box_h,
                                 double max_pixels, lb_thumbnail *t) {
    int checked = lb_vips_check(buf, len, max_pixels, t, NULL);
    if (checked != LB_OK) return checked;
    VipsImage *image = vips_image_new_from_buffer(buf, len, "fail_on=truncated", NULL);
    if (!image) { lb_vips_take_error(t); return LB_FAILED; }
    VipsImage *next = NULL;
    if (vips_autorot(image, &next, NULL)) { g_object_unref(image); lb_vips_take_error(t); return LB_FAILED; }
    g_object_unref(image);
    image = next;
    long long W = vips_image_get_width(image), H = vips_image_get_height(image);
    int x = (int)(rx * W / 65536), y = (int)(ry * H / 65536);
    int right = (int)(((long long)(rx + rw) * W + 65535) / 65536), bottom = (int)(((long long)(ry + rh) * H + 65535) / 65536);
    if (x >= W) x = (int)W - 1;
    if (y >= H) y = (int)H - 1;
    if (right > W) right = (int)W;
    if (bottom > H) bottom = (int)H;
    int w = right - x > 0 ? right - x : 1, h = bottom - y > 0 ? bottom - y : 1;
    if (vips_extract_area(image, &next, x, y, w, h, NULL)) { g_object_unref(image); lb_vips_take_error(t); return LB_FAILED; }
    g_object_unref(image);
    image = next;
    double scale = (double)box_w / w < (double)box_h / h ? (double)box_w / w : (double)box_h / h;
    if (scale < 1) {
        if (vips_resize(image, &next, scale, NULL)) { g_object_unref(image); lb_vips_take_error(t); return LB_FAILED; }
        g_object_unref(image);
        image = next;
    }
    return lb_vips_finish(image, t);
}

/// An animation's frames (GIF, WebP) fitted to box_w x box_h, one above the other in one
/// picture: at most max_frames of them (the first ones), their delays in milliseconds in
/// `delays` (up to max_delays), their count in *frames. Refuses frames of more than max_pixels.
static inline int lb_vips_animation(const void *buf, size_t len, int box_w, int box_h, double max_pixels,
                                    int max_frames, lb_thumbnail *t,
                                    int *delays, int max_delays, int *frames) {
    *frames = 0;
    int pages = 1;
    int checked = lb_vips_check(buf, len, max_pixels, t, &pages);
    if (checked != LB_OK) return checked;
    int n = pages < max_frames ? pages : max_frames;
    if (n < 1) n = 1;
    char options[64];
    snprintf(options, sizeof options, "n=%d,fail_on=truncated", n);
    VipsImage *image = NULL;
    if (vips_thumbnail_buffer((void *)buf, len, &image, box_w, "height", box_h, "option_string", options, NULL)) {
        lb_vips_take_error(t);
        return LB_FAILED;
    }
    int page_height = vips_image_get_page_height(image);
    int *array = NULL, count = 0;
    if (vips_image_get_typeof(image, "delay") && vips_image_get_array_int(image, "delay", &array, &count) == 0) {
        for (int i = 0; i < count && i < max_delays; i++) delays[i] = array[i];
    }
    int status = lb_vips_finish(image, t);
    if (status == LB_OK) *frames = page_height > 0 ? t->height / page_height : 1;
    return status;
}

/// Writes RGB pixels as JPEG (with an EXIF orientation tag when orientation > 1) or PNG.
static inline int lb_vips_save(const unsigned char *rgb, int w, int h, const char *path, int png,
                               int quality, int orientation) {
    VipsImage *image = vips_image_new_from_memory_copy(rgb, (size_t)w * h * 3, w, h, 3, VIPS_FORMAT_UCHAR);
    if (!image) return -1;
    image->Type = VIPS_INTERPRETATION_sRGB;
    if (orientation > 1) vips_image_set_int(image, VIPS_META_ORIENTATION, orientation);
    int result = png ? vips_pngsave(image, path, NULL) : vips_jpegsave(image, path, "Q", quality, NULL);
    g_object_unref(image);
    if (result) vips_error_clear();
    return result;
}

#endif
