#ifndef COURIER_CHTTPPARSER_LIBRARY_H
#define COURIER_CHTTPPARSER_LIBRARY_H
// http-parser (Debian's libhttp-parser2.9), loaded with dlopen the first time `courier load` asks for it, never
// linked: no other command pays for it at start-up, and a machine without it keeps libcurl's way of repeating a
// request. Only the structures come from the header; every call goes through a table filled on first use.
#include <http_parser.h>
#include <stdbool.h>
#include <stddef.h>

// The shared object Debian's libhttp-parser2.9 package installs, by its runtime name; the variable, when set and
// not empty, names another (a test names one that does not exist to see the fallback to libcurl's transfers).
#define COURIER_HTTP_PARSER_LIBRARY "libhttp_parser.so.2.9"
#define COURIER_HTTP_PARSER_LIBRARY_VARIABLE "COURIER_HTTP_PARSER_LIBRARY"

struct courier_http_parser_table {
    void (*init)(http_parser *parser, enum http_parser_type type);
    void (*settings_init)(http_parser_settings *settings);
    size_t (*execute)(http_parser *parser, const http_parser_settings *settings, const char *data, size_t length);
    int (*should_keep_alive)(const http_parser *parser);
    const char *(*errno_description)(enum http_errno error);
    void (*pause)(http_parser *parser, int paused);
};

// Filled by courier_http_parser_load; read only after it said true.
extern struct courier_http_parser_table courier_http_parser;

// Loads http-parser once (later calls return the first answer); false when it cannot be loaded.
bool courier_http_parser_load(void);

#endif
