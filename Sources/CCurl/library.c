// libcurl through a table of pointers filled on first use: see library.h for why.
#include "library.h"

#include <courier_crypto.h>
#include <courier_library_loader.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct courier_curl_table courier_curl;

static pthread_once_t courier_curl_once = PTHREAD_ONCE_INIT;
static bool courier_curl_loaded;
static char courier_curl_error[512];

static void courier_curl_open(void) {
    // libcrypto first, into the global scope (see CCrypto's library.c); without it libcurl still loads its own.
    (void)courier_crypto_load();
    struct courier_curl_table table;
    struct courier_library_symbol symbols[] = {
        {"curl_easy_setopt", (void **)&table.easy_setopt},
        {"curl_easy_getinfo", (void **)&table.easy_getinfo},
        {"curl_multi_setopt", (void **)&table.multi_setopt},
        {"curl_global_init", (void **)&table.global_init},
        {"curl_easy_init", (void **)&table.easy_init},
        {"curl_easy_cleanup", (void **)&table.easy_cleanup},
        {"curl_easy_reset", (void **)&table.easy_reset},
        {"curl_easy_perform", (void **)&table.easy_perform},
        {"curl_easy_pause", (void **)&table.easy_pause},
        {"curl_easy_send", (void **)&table.easy_send},
        {"curl_easy_recv", (void **)&table.easy_recv},
        {"curl_easy_strerror", (void **)&table.easy_strerror},
        {"curl_multi_init", (void **)&table.multi_init},
        {"curl_multi_cleanup", (void **)&table.multi_cleanup},
        {"curl_multi_add_handle", (void **)&table.multi_add_handle},
        {"curl_multi_remove_handle", (void **)&table.multi_remove_handle},
        {"curl_multi_socket_action", (void **)&table.multi_socket_action},
        {"curl_multi_perform", (void **)&table.multi_perform},
        {"curl_multi_poll", (void **)&table.multi_poll},
        {"curl_multi_info_read", (void **)&table.multi_info_read},
        {"curl_multi_strerror", (void **)&table.multi_strerror},
        {"curl_slist_append", (void **)&table.slist_append},
        {"curl_slist_free_all", (void **)&table.slist_free_all},
        {"curl_version_info", (void **)&table.version_info},
        {"curl_url", (void **)&table.url},
        {"curl_url_cleanup", (void **)&table.url_cleanup},
        {"curl_url_set", (void **)&table.url_set},
    };
    if (!courier_library_load(COURIER_CURL_LIBRARY, RTLD_LAZY | RTLD_LOCAL, symbols,
                              sizeof symbols / sizeof symbols[0], "(libcurl 7.66 or later is needed)",
                              courier_curl_error, sizeof courier_curl_error)) {
        return;
    }
    courier_curl = table;
    courier_curl_loaded = true;
}

bool courier_curl_load(char *error, size_t size) {
    pthread_once(&courier_curl_once, courier_curl_open);
    if (!courier_curl_loaded && error && size > 0) snprintf(error, size, "%s", courier_curl_error);
    return courier_curl_loaded;
}

// Every request needs libcurl: without it there is nothing to fall back to, so the process ends with the
// reason and what to install, as the dynamic loader would have said at start when libcurl was linked. Swift
// callers load it first through CurlGlobal, which says the same; this is the guard for any other first call.
static void courier_curl_ready(void) {
    if (courier_curl_load(NULL, 0)) return;
    fprintf(stderr, "courier: cannot load libcurl, which sending needs: %s\n"
                    "courier: on Debian or Ubuntu, install it with: apt-get install libcurl4\n", courier_curl_error);
    exit(69);
}

// libcurl's own names, as curl.h declares them, each a call through the table.
CURLcode curl_global_init(long flags) { courier_curl_ready(); return courier_curl.global_init(flags); }
CURL *curl_easy_init(void) { courier_curl_ready(); return courier_curl.easy_init(); }
void curl_easy_cleanup(CURL *handle) { courier_curl_ready(); courier_curl.easy_cleanup(handle); }
void curl_easy_reset(CURL *handle) { courier_curl_ready(); courier_curl.easy_reset(handle); }
CURLcode curl_easy_perform(CURL *handle) { courier_curl_ready(); return courier_curl.easy_perform(handle); }
CURLcode curl_easy_pause(CURL *handle, int bitmask) {
    courier_curl_ready();
    return courier_curl.easy_pause(handle, bitmask);
}
CURLcode curl_easy_send(CURL *handle, const void *buffer, size_t length, size_t *sent) {
    courier_curl_ready();
    return courier_curl.easy_send(handle, buffer, length, sent);
}
CURLcode curl_easy_recv(CURL *handle, void *buffer, size_t length, size_t *received) {
    courier_curl_ready();
    return courier_curl.easy_recv(handle, buffer, length, received);
}
const char *curl_easy_strerror(CURLcode code) { courier_curl_ready(); return courier_curl.easy_strerror(code); }
CURLM *curl_multi_init(void) { courier_curl_ready(); return courier_curl.multi_init(); }
CURLMcode curl_multi_cleanup(CURLM *multi) { courier_curl_ready(); return courier_curl.multi_cleanup(multi); }
CURLMcode curl_multi_add_handle(CURLM *multi, CURL *handle) {
    courier_curl_ready();
    return courier_curl.multi_add_handle(multi, handle);
}
CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    courier_curl_ready();
    return courier_curl.multi_remove_handle(multi, handle);
}
CURLMcode curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int mask, int *running) {
    courier_curl_ready();
    return courier_curl.multi_socket_action(multi, socket, mask, running);
}
CURLMcode curl_multi_perform(CURLM *multi, int *running) {
    courier_curl_ready();
    return courier_curl.multi_perform(multi, running);
}
CURLMcode curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout_ms, int *ready) {
    courier_curl_ready();
    return courier_curl.multi_poll(multi, extra, count, timeout_ms, ready);
}
CURLMsg *curl_multi_info_read(CURLM *multi, int *left) {
    courier_curl_ready();
    return courier_curl.multi_info_read(multi, left);
}
const char *curl_multi_strerror(CURLMcode code) { courier_curl_ready(); return courier_curl.multi_strerror(code); }
struct curl_slist *curl_slist_append(struct curl_slist *list, const char *string) {
    courier_curl_ready();
    return courier_curl.slist_append(list, string);
}
void curl_slist_free_all(struct curl_slist *list) { courier_curl_ready(); courier_curl.slist_free_all(list); }
curl_version_info_data *curl_version_info(CURLversion version) {
    courier_curl_ready();
    return courier_curl.version_info(version);
}
CURLU *curl_url(void) { courier_curl_ready(); return courier_curl.url(); }
void curl_url_cleanup(CURLU *handle) { courier_curl_ready(); courier_curl.url_cleanup(handle); }
CURLUcode curl_url_set(CURLU *handle, CURLUPart what, const char *part, unsigned int flags) {
    courier_curl_ready();
    return courier_curl.url_set(handle, what, part, flags);
}
