#ifndef COURIER_CCURL_LIBRARY_H
#define COURIER_CCURL_LIBRARY_H
// libcurl, loaded with dlopen the first time Courier makes a curl handle, not linked.
//
// Linked, libcurl and the thirty libraries it brings (GnuTLS, Kerberos, LDAP, SSH, IDN, Brotli, zstd, ...) cost
// every `courier` process about 3 ms of CPU and 450 page faults before `main`, although the explorer's first
// frame, `--version`, `check`, `import` and `export` never make a request. The curl functions Courier calls keep
// their names: library.c defines each as a call through a table of pointers that it fills from libcurl.so.4 on
// the first call (the table lives in library.c, so every module sees the one copy). libcurl's variadic
// functions are reached through the table directly by the typed wrappers of shim.h and loop.h.
#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>

// The shared object Debian's libcurl4 package installs, by its runtime name.
#define COURIER_CURL_LIBRARY "libcurl.so.4"

struct courier_curl_table {
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    CURLcode (*easy_pause)(CURL *handle, int bitmask);
    CURLcode (*easy_send)(CURL *handle, const void *buffer, size_t length, size_t *sent);
    CURLcode (*easy_recv)(CURL *handle, void *buffer, size_t length, size_t *received);
    const char *(*easy_strerror)(CURLcode code);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_socket_action)(CURLM *multi, curl_socket_t socket, int mask, int *running);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout_ms, int *ready);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
    const char *(*multi_strerror)(CURLMcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
    curl_version_info_data *(*version_info)(CURLversion version);
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *handle);
    CURLUcode (*url_set)(CURLU *handle, CURLUPart what, const char *part, unsigned int flags);
};

// Filled by courier_curl_load; read only after a handle exists, so always filled when read.
extern struct courier_curl_table courier_curl;

// Loads libcurl once (later calls return the first answer). False, with dlopen's or dlsym's message in
// `error`, when it cannot be loaded.
bool courier_curl_load(char *error, size_t size);

#endif
