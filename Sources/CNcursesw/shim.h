#ifndef COURIER_CNCURSESW_SHIM_H
#define COURIER_CNCURSESW_SHIM_H
// ncursesw with wide-character support, plus wrappers for the macros Swift cannot import.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

static inline attr_t courier_a_normal(void) { return A_NORMAL; }
static inline attr_t courier_a_bold(void) { return A_BOLD; }
static inline attr_t courier_a_dim(void) { return A_DIM; }
static inline attr_t courier_a_underline(void) { return A_UNDERLINE; }
static inline attr_t courier_a_reverse(void) { return A_REVERSE; }
static inline attr_t courier_a_italic(void) { return A_ITALIC; }
static inline int courier_getmaxy(WINDOW *w) { return getmaxy(w); }
static inline int courier_getmaxx(WINDOW *w) { return getmaxx(w); }
static inline int courier_key_resize(void) { return KEY_RESIZE; }
static inline int courier_key_mouse(void) { return KEY_MOUSE; }
static inline mmask_t courier_all_mouse_events(void) { return ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION; }
static inline mmask_t courier_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t courier_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline mmask_t courier_button1_clicked(void) { return BUTTON1_CLICKED | BUTTON1_PRESSED; }
#endif
