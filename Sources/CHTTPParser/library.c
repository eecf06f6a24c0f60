// http-parser through a table of pointers filled on first use: see library.h for why.
#include "library.h"

#include <courier_library_loader.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

struct courier_http_parser_table courier_http_parser;

static pthread_once_t courier_http_parser_once = PTHREAD_ONCE_INIT;
static bool courier_http_parser_loaded;

static void courier_http_parser_open(void) {
    const char *name = getenv(COURIER_HTTP_PARSER_LIBRARY_VARIABLE);
    struct courier_http_parser_table table;
    struct courier_library_symbol symbols[] = {
        {"http_parser_init", (void **)&table.init},
        {"http_parser_settings_init", (void **)&table.settings_init},
        {"http_parser_execute", (void **)&table.execute},
        {"http_should_keep_alive", (void **)&table.should_keep_alive},
        {"http_errno_description", (void **)&table.errno_description},
        {"http_parser_pause", (void **)&table.pause},
    };
    if (!courier_library_load(name && *name ? name : COURIER_HTTP_PARSER_LIBRARY, RTLD_LAZY | RTLD_LOCAL, symbols,
                              sizeof symbols / sizeof symbols[0], NULL, NULL, 0)) {
        return;
    }
    courier_http_parser = table;
    courier_http_parser_loaded = true;
}

bool courier_http_parser_load(void) {
    pthread_once(&courier_http_parser_once, courier_http_parser_open);
    return courier_http_parser_loaded;
}
