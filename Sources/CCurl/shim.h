#ifndef COURIER_CCURL_SHIM_H
#define COURIER_CCURL_SHIM_H
// Typed wrappers for libcurl's variadic setopt/getinfo calls, which Swift cannot import.
#include "library.h"

typedef size_t (*courier_curl_data_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*courier_curl_xferinfo_cb)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                        curl_off_t ultotal, curl_off_t ulnow);
typedef int (*courier_curl_seek_cb)(void *userdata, curl_off_t offset, int origin);
typedef int (*courier_curl_debug_cb)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata);

static inline CURLcode courier_easy_setopt_long(CURL *h, CURLoption o, long v) {
    return courier_curl.easy_setopt(h, o, v);
}
static inline CURLcode courier_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) {
    return courier_curl.easy_setopt(h, o, v);
}
static inline CURLcode courier_easy_setopt_str(CURL *h, CURLoption o, const char *v) {
    return courier_curl.easy_setopt(h, o, v);
}
static inline CURLcode courier_easy_setopt_ptr(CURL *h, CURLoption o, void *v) {
    return courier_curl.easy_setopt(h, o, v);
}
static inline CURLcode courier_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) {
    return courier_curl.easy_setopt(h, o, v);
}
static inline CURLcode courier_easy_setopt_data_cb(CURL *h, CURLoption o, courier_curl_data_cb v) {
    return courier_curl.easy_setopt(h, o, v);
}
static inline CURLcode courier_easy_setopt_xferinfo_cb(CURL *h, courier_curl_xferinfo_cb v) {
    return courier_curl.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v);
}
static inline CURLcode courier_easy_setopt_seek_cb(CURL *h, courier_curl_seek_cb v) {
    return courier_curl.easy_setopt(h, CURLOPT_SEEKFUNCTION, v);
}

static inline CURLcode courier_easy_setopt_debug_cb(CURL *h, courier_curl_debug_cb v) {
    return courier_curl.easy_setopt(h, CURLOPT_DEBUGFUNCTION, v);
}

static inline CURLcode courier_easy_getinfo_long(CURL *h, CURLINFO i, long *v) {
    return courier_curl.easy_getinfo(h, i, v);
}
static inline CURLcode courier_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) {
    return courier_curl.easy_getinfo(h, i, v);
}
static inline CURLcode courier_easy_getinfo_double(CURL *h, CURLINFO i, double *v) {
    return courier_curl.easy_getinfo(h, i, v);
}
static inline CURLcode courier_easy_getinfo_str(CURL *h, CURLINFO i, char **v) {
    return courier_curl.easy_getinfo(h, i, v);
}
static inline CURLcode courier_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v) {
    return courier_curl.easy_getinfo(h, i, v);
}
static inline CURLcode courier_easy_getinfo_socket(CURL *h, curl_socket_t *v) {
    return courier_curl.easy_getinfo(h, CURLINFO_ACTIVESOCKET, v);
}

static inline CURLMcode courier_multi_setopt_long(CURLM *m, CURLMoption o, long v) {
    return courier_curl.multi_setopt(m, o, v);
}

// Takes the next finished transfer off the multi handle's message queue, hiding CURLMsg's union.
// Returns 1 and fills `easy` and `result` when a transfer is done, 0 when the queue is empty.
static inline int courier_multi_next_done(CURLM *m, CURL **easy, CURLcode *result) {
    int left = 0;
    CURLMsg *msg;
    while ((msg = curl_multi_info_read(m, &left)) != NULL) {
        if (msg->msg == CURLMSG_DONE) {
            *easy = msg->easy_handle;
            *result = msg->data.result;
            return 1;
        }
    }
    return 0;
}
/* The feature bits of the libcurl in use (CURL_VERSION_BROTLI, ...); CURLVERSION_NOW is a macro naming an enum
   constant, which Swift cannot import. */
static inline int courier_curl_features(void) { return curl_version_info(CURLVERSION_NOW)->features; }

/* CURLAUTH_DIGEST is a macro with a cast, which Swift cannot import. */
static inline long courier_curlauth_digest(void) { return (long)CURLAUTH_DIGEST; }
static inline long courier_curlauth_basic(void) { return (long)CURLAUTH_BASIC; }
static inline long courier_curlauth_ntlm(void) { return (long)CURLAUTH_NTLM; }
static inline long courier_curlauth_negotiate(void) { return (long)CURLAUTH_NEGOTIATE; }

#endif
