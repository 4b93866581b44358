#include <chafa.h>
#include <stdint.h>
#include <stdlib.h>

/// Symbol sets, as Lightbox names them.
enum { LB_SYMBOLS_HALF = 0, LB_SYMBOLS_QUADRANT = 1, LB_SYMBOLS_SEXTANT = 2, LB_SYMBOLS_BRAILLE = 3, LB_SYMBOLS_ASCII = 4 };

/// Colour depths, as Lightbox names them.
enum { LB_DEPTH_TRUECOLOR = 0, LB_DEPTH_256 = 1, LB_DEPTH_16 = 2, LB_DEPTH_8 = 3 };

/// Renders `width`x`height` RGB pixels into `columns`x`rows` cells of the given symbol set:
/// `glyphs` gets each cell's code point, `colors` its foreground and background (two entries a
/// cell), as 0xRRGGBB in true colour or as palette numbers in the indexed depths, which are
/// dithered. Returns 0, or -1 when chafa could not make a canvas.
/// Rows of `pixels` are `rowstride` bytes apart, a multiple of four: chafa misreads others.
static inline int lb_chafa_render(const uint8_t *pixels, int width, int height, int rowstride, int columns, int rows,
                                  int symbols, int depth, uint32_t *glyphs, uint32_t *colors) {
    // On the caller's thread: a tile is a few hundred cells, and chafa's threads, a pool made
    // for each call, cost more than the work (a first screen's tiles started a thousand).
    chafa_set_n_threads(1);
    ChafaSymbolMap *map = chafa_symbol_map_new();
    switch (symbols) {
    case LB_SYMBOLS_QUADRANT: chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_QUAD | CHAFA_SYMBOL_TAG_HALF | CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_SOLID); break;
    case LB_SYMBOLS_SEXTANT: chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_SEXTANT | CHAFA_SYMBOL_TAG_HALF | CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_SOLID); break;
    case LB_SYMBOLS_BRAILLE: chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_BRAILLE | CHAFA_SYMBOL_TAG_SPACE); break;
    case LB_SYMBOLS_ASCII: chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_ASCII); break;
    default: chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_HALF | CHAFA_SYMBOL_TAG_SPACE); break;
    }
    ChafaCanvasConfig *config = chafa_canvas_config_new();
    chafa_canvas_config_set_geometry(config, columns, rows);
    switch (depth) {
    case LB_DEPTH_256: chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_INDEXED_256); break;
    case LB_DEPTH_16: chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_INDEXED_16); break;
    case LB_DEPTH_8: chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_INDEXED_8); break;
    default: chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR); break;
    }
    if (depth != LB_DEPTH_TRUECOLOR) chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_ORDERED);
    chafa_canvas_config_set_symbol_map(config, map);
    ChafaCanvas *canvas = chafa_canvas_new(config);
    int result = -1;
    if (canvas) {
        chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGB8, pixels, width, height, rowstride);
        for (int y = 0; y < rows; y++) {
            for (int x = 0; x < columns; x++) {
                gint fg = 0, bg = 0;
                glyphs[y * columns + x] = chafa_canvas_get_char_at(canvas, x, y);
                // Indexed modes: the raw colours are the palette numbers.
                if (depth == LB_DEPTH_TRUECOLOR) chafa_canvas_get_colors_at(canvas, x, y, &fg, &bg);
                else chafa_canvas_get_raw_colors_at(canvas, x, y, &fg, &bg);
                if (fg < 0) fg = 0;
                if (bg < 0) bg = 0;
                colors[(y * columns + x) * 2] = (uint32_t)fg;
                colors[(y * columns + x) * 2 + 1] = (uint32_t)bg;
            }
        }
        chafa_canvas_unref(canvas);
        result = 0;
    }
    chafa_canvas_config_unref(config);
    chafa_symbol_map_unref(map);
    return result;
}
