#ifndef LIGHTBOX_CNCURSES_SHIM_H
#define LIGHTBOX_CNCURSES_SHIM_H
// Wide-character ncurses; SwiftPM drops _XOPEN_SOURCE from pkg-config, so ask for it here.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncurses.h>

// Macros and globals that Swift 6 cannot use directly.
static inline WINDOW *lb_stdscr(void) { return stdscr; }
static inline int lb_lines(void) { return LINES; }
static inline int lb_cols(void) { return COLS; }
static inline int lb_colors(void) { return COLORS; }
static inline int lb_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t lb_a_reverse(void) { return A_REVERSE; }
static inline attr_t lb_a_bold(void) { return A_BOLD; }
static inline attr_t lb_a_underline(void) { return A_UNDERLINE; }
static inline attr_t lb_a_dim(void) { return A_DIM; }
static inline int lb_key_resize(void) { return KEY_RESIZE; }
static inline int lb_key_mouse(void) { return KEY_MOUSE; }
static inline int lb_key_f(int n) { return KEY_F(n); }
static inline int lb_err(void) { return ERR; }

static inline mmask_t lb_mouse_mask(void) {
    // Moves come with the first button held once the terminal tracks them (1002, CursesTerminal).
    // No clicks: ncurses makes a press and a release that arrive together (over a slow link) one
    // click carrying the release's modifiers, so a Ctrl-click whose Ctrl was let go first lost it.
    return BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED | REPORT_MOUSE_POSITION;
}
/// Modifier bits of a mouse event: 1 shift, 2 control, 4 alt.
static inline int lb_mouse_modifiers(mmask_t state) {
    return ((state & BUTTON_SHIFT) ? 1 : 0) | ((state & BUTTON_CTRL) ? 2 : 0) | ((state & BUTTON_ALT) ? 4 : 0);
}
static inline int lb_mouse_kind(mmask_t state) {
    if (state & BUTTON4_PRESSED) return 4;   // wheel up
    if (state & BUTTON5_PRESSED) return 5;   // wheel down
    if (state & BUTTON1_PRESSED) return 1;
    if (state & REPORT_MOUSE_POSITION) return 6;  // a move with the button held: a drag
    if (state & BUTTON1_RELEASED) return 7;
    return 0;
}

/// Puts one glyph (a NUL-terminated wide string: base plus combining marks) at y, x; -2 when
/// ncurses refuses the glyph itself (ERR also comes for the bottom-right cell, which is written).
static inline int lb_put(int y, int x, const wchar_t *glyph, attr_t attrs, int pair) {
    cchar_t cell;
    if (setcchar(&cell, glyph, attrs, 0, &pair) == ERR) return -2;
    return mvwadd_wch(stdscr, y, x, &cell);
}

#include <term.h>
#include <termios.h>
#include <signal.h>
#include <unistd.h>

/// A terminfo string capability of the current terminal, or NULL.
static inline const char *lb_tigetstr(const char *name) {
    char *value = tigetstr(name);
    return (value == NULL || value == (char *)-1) ? NULL : value;
}
#endif

#include <sys/ioctl.h>

/// The terminal's cell size in pixels from TIOCGWINSZ; 0 when it does not say.
static inline void lb_cell_pixels(int fd, int *width, int *height) {
    struct winsize size = {0};
    *width = 0;
    *height = 0;
    if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 && size.ws_row > 0 && size.ws_xpixel > 0 && size.ws_ypixel > 0) {
        *width = size.ws_xpixel / size.ws_col;
        *height = size.ws_ypixel / size.ws_row;
    }
}

static inline int lb_redraw_line(int y) { return wredrawln(stdscr, y, 1); }

/// Tells ncurses the terminal scrolled rows top...bottom (inclusive) by `count` lines (up when
/// positive), as the app made it do: its copy of the screen moves the same way, so the next
/// update writes only the rows that came in. No output.
static inline int lb_scrolled_screen(int top, int bottom, int count) {
    WINDOW *screen = curscr;
    if (wsetscrreg(screen, top, bottom) == ERR) return ERR;
    scrollok(screen, TRUE);
    int result = wscrl(screen, count);
    scrollok(screen, FALSE);
    wsetscrreg(screen, 0, LINES - 1);
    return result;
}

/// The capabilities array ncurses itself reads: ncurses 6 keeps a second record of the entry
/// (`type2`, after the public one in its terminal record) with strings of its own, which
/// `tigetstr` answers from. Found as a record whose names and string table start at the same
/// place (as every entry's do), holding csr's string, and checked by its array giving csr and
/// cup as `tigetstr` does; NULL when not found.
static inline char **lb_library_strings(void) {
    if (cur_term == NULL) return NULL;
    char *csr = tigetstr("csr"), *cup = tigetstr("cup");
    if (csr == NULL || csr == (char *)-1 || cup == NULL || cup == (char *)-1) return NULL;
    TERMTYPE *public = (TERMTYPE *)cur_term;
    long csrIndex = &change_scroll_region - public->Strings, cupIndex = &cursor_address - public->Strings;
    char **words = (char **)cur_term;
    // Within the first kilobyte of the record (ncurses 6.4: 688 bytes in).
    for (size_t i = sizeof(TERMTYPE) / sizeof(char *); i + 4 < 1024 / sizeof(char *); i++) {
        char *names = words[i];
        if (names == NULL || words[i + 1] != names || csr < names || csr - names > 65536) continue;
        char **strings = (char **)words[i + 4];
        if (strings != NULL && strings[csrIndex] == csr && strings[cupIndex] == cup) return strings;
    }
    return NULL;
}

/// The terminal's scrolling capabilities ncurses' scroll optimisation uses (csr, ind, ri, indn,
/// rin, il1, dl1, il, dl), read into `saved` or put back from it, in the array ncurses reads;
/// cleared, ncurses redraws moved rows instead of scrolling them. -1 when that array is not found.
static inline int lb_scrolling_capabilities(char **saved, int put) {
    char **strings = lb_library_strings();
    if (strings == NULL) return -1;
    char **public = ((TERMTYPE *)cur_term)->Strings;  // the terminfo macros index this one
    char **caps[9] = {&change_scroll_region, &scroll_forward, &scroll_reverse, &parm_index, &parm_rindex,
                      &insert_line, &delete_line, &parm_insert_line, &parm_delete_line};
    for (int i = 0; i < 9; i++) {
        long index = caps[i] - public;
        if (put) strings[index] = saved[i]; else saved[i] = strings[index];
    }
    return 0;
}

/// The terminal's size in cells from TIOCGWINSZ; 0 when it does not say.
static inline void lb_window_size(int fd, int *width, int *height) {
    struct winsize size = {0};
    *width = 0;
    *height = 0;
    if (ioctl(fd, TIOCGWINSZ, &size) == 0) {
        *width = size.ws_col;
        *height = size.ws_row;
    }
}
