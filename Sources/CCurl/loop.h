#ifndef COURIER_CCURL_LOOP_H
#define COURIER_CCURL_LOOP_H
// What the curl loop thread needs from libcurl's socket interface and from epoll: libcurl's multi options
// are variadic and epoll_event is a packed union, neither of which Swift imports well.
#include "library.h"
#include <errno.h>
#include <stdint.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

typedef int (*courier_curl_socket_cb)(CURL *easy, curl_socket_t s, int what, void *userp, void *socketp);
typedef int (*courier_curl_timer_cb)(CURLM *multi, long timeout_ms, void *userp);

static inline CURLMcode courier_multi_setopt_callbacks(CURLM *m, courier_curl_socket_cb socket_cb,
                                                       courier_curl_timer_cb timer_cb, void *userp) {
    CURLMcode code = courier_curl.multi_setopt(m, CURLMOPT_SOCKETFUNCTION, socket_cb);
    if (code == CURLM_OK) code = courier_curl.multi_setopt(m, CURLMOPT_SOCKETDATA, userp);
    if (code == CURLM_OK) code = courier_curl.multi_setopt(m, CURLMOPT_TIMERFUNCTION, timer_cb);
    if (code == CURLM_OK) code = courier_curl.multi_setopt(m, CURLMOPT_TIMERDATA, userp);
    return code;
}

typedef void (*courier_socket_note_cb)(void *userp, curl_socket_t s);

/* What the loop is told of the connection sockets libcurl opens and closes for it, so that it can leave a kept
   connection's socket in its epoll set between transfers (see CurlMultiDriver). Set on each easy handle; a
   connection keeps the close callback of the handle that opened it. */
struct courier_socket_notes {
    courier_socket_note_cb opened;
    courier_socket_note_cb closing;
    void *userp;
};

static inline curl_socket_t courier_open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)purpose;
    curl_socket_t s = socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
    struct courier_socket_notes *notes = clientp;
    if (s != CURL_SOCKET_BAD && notes) notes->opened(notes->userp, s);
    return s;
}

static inline int courier_close_socket(void *clientp, curl_socket_t s) {
    struct courier_socket_notes *notes = clientp;
    if (notes) notes->closing(notes->userp, s);
    return close(s);
}

static inline void courier_easy_note_sockets(CURL *easy, struct courier_socket_notes *notes) {
    courier_curl.easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, courier_open_socket);
    courier_curl.easy_setopt(easy, CURLOPT_OPENSOCKETDATA, (void *)notes);
    courier_curl.easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, courier_close_socket);
    courier_curl.easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, (void *)notes);
}

typedef void (*courier_cookie_line_cb)(void *userp, const char *line, size_t length);

/* What the loop counts of a request it sends again and again for `courier load` (CurlRepeatTransfer): the body
   is counted and dropped, never handed to Swift; a Set-Cookie line alone goes to `cookie`, since the jar must
   keep it. `limit`: more body bytes fail the transfer (`exceeded` says why). */
struct courier_repeat_counts {
    curl_off_t received;
    curl_off_t limit;
    int exceeded;
    courier_cookie_line_cb cookie;
    void *userp;
};

static inline size_t courier_repeat_header(char *line, size_t size, size_t count, void *userp) {
    struct courier_repeat_counts *counts = userp;
    size_t length = size * count;
    if (counts->cookie && length > 11 && strncasecmp(line, "set-cookie:", 11) == 0) {
        counts->cookie(counts->userp, line, length);
    }
    return length;
}

static inline size_t courier_repeat_body(char *bytes, size_t size, size_t count, void *userp) {
    (void)bytes;
    struct courier_repeat_counts *counts = userp;
    size_t length = size * count;
    counts->received += (curl_off_t)length;
    if (counts->received > counts->limit) {
        counts->exceeded = 1;
        return 0;
    }
    return length;
}

/* Points the header and body callbacks of `easy` at `counts`. */
static inline void courier_easy_repeat_callbacks(CURL *easy, struct courier_repeat_counts *counts) {
    courier_curl.easy_setopt(easy, CURLOPT_HEADERFUNCTION, courier_repeat_header);
    courier_curl.easy_setopt(easy, CURLOPT_HEADERDATA, (void *)counts);
    courier_curl.easy_setopt(easy, CURLOPT_WRITEFUNCTION, courier_repeat_body);
    courier_curl.easy_setopt(easy, CURLOPT_WRITEDATA, (void *)counts);
}

/* `url` parsed once as libcurl parses CURLOPT_URL for every transfer, for CURLOPT_CURLU: a handle given one copies
   its parts instead of parsing the text again. NULL when it does not parse (CURLOPT_URL then says why). */
static inline CURLU *courier_url_parsed(const char *url) {
    CURLU *parsed = curl_url();
    if (parsed && curl_url_set(parsed, CURLUPART_URL, url, CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK) {
        curl_url_cleanup(parsed);
        return NULL;
    }
    return parsed;
}

/* CURL_SOCKET_TIMEOUT is a macro naming another macro. */
static inline curl_socket_t courier_socket_timeout(void) { return CURL_SOCKET_TIMEOUT; }

/* Makes epfd watch `fd` for what libcurl asks (CURL_POLL_IN, _OUT, _INOUT) or stop watching it (CURL_POLL_REMOVE).
   `known` says the descriptor was added before; a descriptor the kernel dropped when it was closed, or one added
   under a number now reused, is added or modified as it turns out. Returns 0, or -1 with errno. */
static inline int courier_epoll_watch(int epfd, int fd, int what, int known) {
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
        return 0;
    }
    struct epoll_event event = {0};
    event.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0);
    event.data.fd = fd;
    int first = known ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    if (epoll_ctl(epfd, first, fd, &event) == 0) return 0;
    if (errno != ENOENT && errno != EEXIST) return -1;
    return epoll_ctl(epfd, known ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

/* Waits up to timeout_ms for ready descriptors on epfd; fills `fds` and libcurl's CURL_CSELECT_* bits for each
   in `flags` (at most 64). Returns their count, 0 on timeout, -1 with errno (EINTR included). */
static inline int courier_epoll_wait(int epfd, int *fds, int *flags, int max, int timeout_ms) {
    struct epoll_event events[64];
    if (max > 64) max = 64;
    int count = epoll_wait(epfd, events, max, timeout_ms);
    for (int i = 0; i < count; i++) {
        uint32_t ready = events[i].events;
        fds[i] = events[i].data.fd;
        flags[i] = ((ready & (EPOLLIN | EPOLLHUP)) ? CURL_CSELECT_IN : 0) | ((ready & EPOLLOUT) ? CURL_CSELECT_OUT : 0)
                 | ((ready & EPOLLERR) ? CURL_CSELECT_ERR : 0);
    }
    return count;
}

/* An eventfd other threads write to wake the loop; -1 when none can be made. */
static inline int courier_wake_fd_make(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
static inline void courier_wake_fd_signal(int fd) {
    uint64_t one = 1;
    ssize_t written = write(fd, &one, sizeof one);
    (void)written; /* EAGAIN: the counter is full, so the loop is woken already. */
}
static inline void courier_wake_fd_drain(int fd) {
    uint64_t count;
    ssize_t got = read(fd, &count, sizeof count);
    (void)got; /* EAGAIN: nothing to drain. */
}
static inline int courier_epoll_make(void) { return epoll_create1(EPOLL_CLOEXEC); }
static inline void courier_fd_close(int fd) { if (fd >= 0) close(fd); }

#endif
