#ifndef COURIER_CNCURSESW_SHIM_H
#define COURIER_CNCURSESW_SHIM_H
// ncursesw with wide-character support (library.h, first: it sets the feature macros), plus wrappers for the
// macros Swift cannot import.
#include "library.h"
#include <locale.h>
#include <wchar.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

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
// Macros Swift 6 cannot use directly; the globals (stdscr, COLORS, ...) are read through library.h.
static inline int courier_key_code_yes(void) { return KEY_CODE_YES; }
static inline int courier_key_f0(void) { return KEY_F0; }
static inline attr_t courier_a_color(void) { return A_COLOR; }
/// Clicks and wheel without motion reports, which would flood the loop.
static inline mmask_t courier_click_and_wheel_events(void) {
    return BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED
        | BUTTON3_PRESSED | BUTTON3_RELEASED | BUTTON3_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
static inline mmask_t courier_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t courier_button1_any_press(void) {
    return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED;
}
static inline mmask_t courier_button3_any_press(void) { return BUTTON3_PRESSED | BUTTON3_CLICKED; }
/// tigetstr returns (char *)-1 for "not a string capability"; turn both failures into NULL.
static inline const char *courier_tigetstr(const char *name) {
    char *value = tigetstr((char *)name);
    return (value == (char *)-1) ? NULL : value;
}
static inline int courier_tigetflag(const char *name) { return tigetflag((char *)name); }
/// A numeric terminfo capability; -1 when absent, -2 when not numeric. Unlike COLORS, it is known
/// before start_color().
static inline int courier_tigetnum(const char *name) { return tigetnum((char *)name); }
/// The size of the terminal on `fd` (ioctl is variadic, so Swift cannot call it).
static inline int courier_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}
/// Sets the size of the terminal on `fd` (a pseudo-terminal's master, in tests).
static inline int courier_set_window_size(int fd, int rows, int cols) {
    struct winsize ws = {0};
    ws.ws_row = (unsigned short)rows;
    ws.ws_col = (unsigned short)cols;
    return ioctl(fd, TIOCSWINSZ, &ws);
}
/// A file in memory (memfd, close-on-exec) that a frame is written into before it goes to the terminal in one
/// write; -1 where the kernel has none.
static inline int courier_memory_file(void) {
#ifdef SYS_memfd_create
    return (int)syscall(SYS_memfd_create, "courier-frame", 1u /* MFD_CLOEXEC */);
#else
    return -1;
#endif
}
/// The C library's idea of a character's width: what curses uses to advance the cursor.
extern int wcwidth(wchar_t c);
static inline int courier_wcwidth(wchar_t c) { return wcwidth(c); }
/// Opens a pseudo-terminal pair (the pty calls need feature macros this header does not set).
extern int posix_openpt(int flags);
extern int grantpt(int fd);
extern int unlockpt(int fd);
extern char *ptsname(int fd);
#include <fcntl.h>
static inline int courier_open_pty(int *controller, int *replica) {
    int c = posix_openpt(O_RDWR | O_NOCTTY);
    if (c < 0) return -1;
    char *name = NULL;
    if (grantpt(c) != 0 || unlockpt(c) != 0 || (name = ptsname(c)) == NULL) { close(c); return -1; }
    int r = open(name, O_RDWR | O_NOCTTY);
    if (r < 0) { close(c); return -1; }
    *controller = c;
    *replica = r;
    return 0;
}
#endif
