// ncursesw through a table of pointers filled on first use: see library.h for why.
// curses.h also defines some of these names as macros (mvwadd_wch is wmove then wadd_wch); here they are the
// functions themselves, as Swift sees them.
#define NCURSES_NOMACROS 1
#include "library.h"

#include <courier_library_loader.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
    int (*clearok)(WINDOW *window, bool flag);
    int (*curs_set)(int visibility);
    void (*delscreen)(SCREEN *screen);
    int (*doupdate)(void);
    int (*endwin)(void);
    bool (*has_colors)(void);
    int (*init_extended_pair)(int pair, int foreground, int background);
    const char *(*keyname)(int key);
    int (*keypad)(WINDOW *window, bool flag);
    mmask_t (*mousemask)(mmask_t mask, mmask_t *old);
    int (*mvwadd_wch)(WINDOW *window, int y, int x, const cchar_t *character);
    SCREEN *(*newterm)(const char *type, FILE *output, FILE *input);
    int (*nodelay)(WINDOW *window, bool flag);
    int (*noecho)(void);
    int (*nonl)(void);
    int (*raw)(void);
    int (*resize_term)(int lines, int columns);
    int (*set_escdelay)(int milliseconds);
    SCREEN *(*set_term)(SCREEN *screen);
    int (*setcchar)(cchar_t *character, const wchar_t *text, const attr_t attributes, short pair,
                    const void *options);
    int (*start_color)(void);
    int (*tigetflag)(const char *name);
    int (*tigetnum)(const char *name);
    char *(*tigetstr)(const char *name);
    int (*use_default_colors)(void);
    int (*wget_wch)(WINDOW *window, wint_t *character);
    int (*wmove)(WINDOW *window, int y, int x);
    int (*wnoutrefresh)(WINDOW *window);
    int (*wrefresh)(WINDOW *window);
    WINDOW **stdscr;
    WINDOW **curscr;
    int *colors;
    int *color_pairs;
} courier_curses;

static pthread_once_t courier_curses_once = PTHREAD_ONCE_INIT;
static bool courier_curses_loaded;
static char courier_curses_error[512];

static void courier_curses_open(void) {
    // libtinfo, which holds the terminal database functions and stdscr, comes in as ncursesw's dependency and
    // is searched by dlsym through the same handle.
    struct courier_library_symbol symbols[] = {
        {"clearok", (void **)&courier_curses.clearok},
        {"curs_set", (void **)&courier_curses.curs_set},
        {"delscreen", (void **)&courier_curses.delscreen},
        {"doupdate", (void **)&courier_curses.doupdate},
        {"endwin", (void **)&courier_curses.endwin},
        {"has_colors", (void **)&courier_curses.has_colors},
        {"init_extended_pair", (void **)&courier_curses.init_extended_pair},
        {"keyname", (void **)&courier_curses.keyname},
        {"keypad", (void **)&courier_curses.keypad},
        {"mousemask", (void **)&courier_curses.mousemask},
        {"mvwadd_wch", (void **)&courier_curses.mvwadd_wch},
        {"newterm", (void **)&courier_curses.newterm},
        {"nodelay", (void **)&courier_curses.nodelay},
        {"noecho", (void **)&courier_curses.noecho},
        {"nonl", (void **)&courier_curses.nonl},
        {"raw", (void **)&courier_curses.raw},
        {"resize_term", (void **)&courier_curses.resize_term},
        {"set_escdelay", (void **)&courier_curses.set_escdelay},
        {"set_term", (void **)&courier_curses.set_term},
        {"setcchar", (void **)&courier_curses.setcchar},
        {"start_color", (void **)&courier_curses.start_color},
        {"tigetflag", (void **)&courier_curses.tigetflag},
        {"tigetnum", (void **)&courier_curses.tigetnum},
        {"tigetstr", (void **)&courier_curses.tigetstr},
        {"use_default_colors", (void **)&courier_curses.use_default_colors},
        {"wget_wch", (void **)&courier_curses.wget_wch},
        {"wmove", (void **)&courier_curses.wmove},
        {"wnoutrefresh", (void **)&courier_curses.wnoutrefresh},
        {"wrefresh", (void **)&courier_curses.wrefresh},
        {"stdscr", (void **)&courier_curses.stdscr},
        {"curscr", (void **)&courier_curses.curscr},
        {"COLORS", (void **)&courier_curses.colors},
        {"COLOR_PAIRS", (void **)&courier_curses.color_pairs},
    };
    courier_curses_loaded = courier_library_load(COURIER_CURSES_LIBRARY, RTLD_LAZY | RTLD_LOCAL, symbols,
                                                 sizeof symbols / sizeof symbols[0], NULL, courier_curses_error,
                                                 sizeof courier_curses_error);
}

bool courier_curses_load(void) {
    pthread_once(&courier_curses_once, courier_curses_open);
    return courier_curses_loaded;
}

// The explorer cannot draw without ncursesw: the process ends with the reason and what to install, as the
// dynamic loader would have said at start when the library was linked.
static void courier_curses_ready(void) {
    if (courier_curses_load()) return;
    fprintf(stderr, "courier: cannot load ncursesw, which the explorer needs: %s\n"
                    "courier: on Debian or Ubuntu, install it with: apt-get install libncursesw6\n",
            courier_curses_error);
    exit(69);
}

WINDOW *courier_stdscr(void) { courier_curses_ready(); return *courier_curses.stdscr; }
WINDOW *courier_curscr(void) { courier_curses_ready(); return *courier_curses.curscr; }
int courier_colors(void) { courier_curses_ready(); return *courier_curses.colors; }
int courier_color_pairs(void) { courier_curses_ready(); return *courier_curses.color_pairs; }

// ncursesw's own names, as curses.h declares them, each a call through the table.
int clearok(WINDOW *window, bool flag) {
    courier_curses_ready();
    return courier_curses.clearok(window, flag);
}
int curs_set(int visibility) { courier_curses_ready(); return courier_curses.curs_set(visibility); }
void delscreen(SCREEN *screen) { courier_curses_ready(); courier_curses.delscreen(screen); }
int doupdate(void) { courier_curses_ready(); return courier_curses.doupdate(); }
int endwin(void) { courier_curses_ready(); return courier_curses.endwin(); }
bool has_colors(void) { courier_curses_ready(); return courier_curses.has_colors(); }
int init_extended_pair(int pair, int foreground, int background) {
    courier_curses_ready();
    return courier_curses.init_extended_pair(pair, foreground, background);
}
const char *keyname(int key) { courier_curses_ready(); return courier_curses.keyname(key); }
int keypad(WINDOW *window, bool flag) { courier_curses_ready(); return courier_curses.keypad(window, flag); }
mmask_t mousemask(mmask_t mask, mmask_t *old) {
    courier_curses_ready();
    return courier_curses.mousemask(mask, old);
}
int mvwadd_wch(WINDOW *window, int y, int x, const cchar_t *character) {
    courier_curses_ready();
    return courier_curses.mvwadd_wch(window, y, x, character);
}
SCREEN *newterm(const char *type, FILE *output, FILE *input) {
    courier_curses_ready();
    return courier_curses.newterm(type, output, input);
}
int nodelay(WINDOW *window, bool flag) {
    courier_curses_ready();
    return courier_curses.nodelay(window, flag);
}
int noecho(void) { courier_curses_ready(); return courier_curses.noecho(); }
int nonl(void) { courier_curses_ready(); return courier_curses.nonl(); }
int raw(void) { courier_curses_ready(); return courier_curses.raw(); }
int resize_term(int lines, int columns) {
    courier_curses_ready();
    return courier_curses.resize_term(lines, columns);
}
int set_escdelay(int milliseconds) {
    courier_curses_ready();
    return courier_curses.set_escdelay(milliseconds);
}
SCREEN *set_term(SCREEN *screen) { courier_curses_ready(); return courier_curses.set_term(screen); }
int setcchar(cchar_t *character, const wchar_t *text, const attr_t attributes, short pair, const void *options) {
    courier_curses_ready();
    return courier_curses.setcchar(character, text, attributes, pair, options);
}
int start_color(void) { courier_curses_ready(); return courier_curses.start_color(); }
int tigetflag(const char *name) { courier_curses_ready(); return courier_curses.tigetflag(name); }
int tigetnum(const char *name) { courier_curses_ready(); return courier_curses.tigetnum(name); }
char *tigetstr(const char *name) { courier_curses_ready(); return courier_curses.tigetstr(name); }
int use_default_colors(void) { courier_curses_ready(); return courier_curses.use_default_colors(); }
int wget_wch(WINDOW *window, wint_t *character) {
    courier_curses_ready();
    return courier_curses.wget_wch(window, character);
}
int wmove(WINDOW *window, int y, int x) { courier_curses_ready(); return courier_curses.wmove(window, y, x); }
int wnoutrefresh(WINDOW *window) { courier_curses_ready(); return courier_curses.wnoutrefresh(window); }
int wrefresh(WINDOW *window) { courier_curses_ready(); return courier_curses.wrefresh(window); }
