#ifndef LIGHTBOX_CWIDTH_SHIM_H
#define LIGHTBOX_CWIDTH_SHIM_H
// wcwidth as ncurses and the terminal use it, under a UTF-8 locale whatever the process's is,
// so the view measures a character with the function that will draw it.
#define _XOPEN_SOURCE 700
#define _GNU_SOURCE 1
#include <locale.h>
#include <wchar.h>

/// Cells the C library's UTF-8 locale gives the code point `value`: -1 for non-printable.
static inline int lb_wcwidth(unsigned value) {
    static locale_t utf8;  // made once; a race makes at most one extra locale object
    if (utf8 == (locale_t)0) utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (utf8 == (locale_t)0) return -2;  // no UTF-8 locale: the caller falls back
    locale_t previous = uselocale(utf8);
    int width = wcwidth((wchar_t)value);
    uselocale(previous);
    return width;
}
#endif
