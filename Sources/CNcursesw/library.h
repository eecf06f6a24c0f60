#ifndef COURIER_CNCURSESW_LIBRARY_H
#define COURIER_CNCURSESW_LIBRARY_H
// ncursesw, loaded with dlopen the first time the explorer draws, not linked.
//
// Only the explorer draws with curses; linked, ncursesw and libtinfo were mapped and bound (about 500 symbols)
// by every `courier` process before `main`, a one-shot send's included. The curses functions Courier calls keep
// their names: library.c defines each as a call through a table of pointers it fills from libncursesw.so.6 on
// first use, so the terminal backend reads as it would with the library linked. A process without the library
// ends at that first call with what to install.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <ncursesw/curses.h>
#include <stdbool.h>

// The shared object Debian's libncursesw6 package installs, by its runtime name.
#define COURIER_CURSES_LIBRARY "libncursesw.so.6"

// Loads ncursesw once (later calls return the first answer); false when it or one of its symbols is missing.
bool courier_curses_load(void);

// curses' globals, read through the table (mutable C globals are not concurrency-safe for Swift 6 either).
WINDOW *courier_stdscr(void);
WINDOW *courier_curscr(void);
int courier_colors(void);
int courier_color_pairs(void);

#endif
