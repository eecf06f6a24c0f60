#ifndef COURIER_CCURL_WIRE_H
#define COURIER_CCURL_WIRE_H
// What `courier load`'s own wire loop (Swift's WireLoop) needs below libcurl: connections libcurl opens
// (CURLOPT_CONNECT_ONLY, driven by a multi handle that also watches the loop's epoll set), and epoll keyed by
// connection number rather than descriptor. epoll_event is a packed union Swift does not import well.
#include "library.h"
#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/types.h>

enum courier_wire_watch_op { COURIER_WIRE_ADD = 0, COURIER_WIRE_MODIFY = 1, COURIER_WIRE_REMOVE = 2 };

/* Watches `fd` for reading (and writing when `writable`), its events carrying `key`. Returns 0 or -1 (errno). */
static inline int courier_wire_watch(int epfd, int op, int fd, uint64_t key, int writable) {
    if (op == COURIER_WIRE_REMOVE) return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
    struct epoll_event event = {0};
    event.events = EPOLLIN | EPOLLRDHUP | (writable ? EPOLLOUT : 0);
    event.data.u64 = key;
    return epoll_ctl(epfd, op == COURIER_WIRE_ADD ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

/* Waits up to timeout_ms; fills the keys of ready descriptors and whether each may be written (`writable`).
   Returns their count (at most 64), 0 on timeout, -1 with errno. */
static inline int courier_wire_wait(int epfd, uint64_t *keys, int *writable, int max, int timeout_ms) {
    struct epoll_event events[64];
    if (max > 64) max = 64;
    int count = epoll_wait(epfd, events, max, timeout_ms);
    for (int i = 0; i < count; i++) {
        keys[i] = events[i].data.u64;
        writable[i] = (events[i].events & EPOLLOUT) != 0 && (events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) == 0;
    }
    return count;
}

/* Runs the multi handle's connects until something is ready on it or on `fd` (the loop's epoll set). */
static inline CURLMcode courier_wire_multi_step(CURLM *m, int fd, int timeout_ms, int *running) {
    CURLMcode code = courier_curl.multi_perform(m, running);
    if (code != CURLM_OK || *running == 0) return code;
    struct curl_waitfd extra = {fd, CURL_WAIT_POLLIN, 0};
    return courier_curl.multi_poll(m, &extra, 1, timeout_ms, NULL);
}

/* One send without SIGPIPE; returns the bytes written, or -1 with errno. */
static inline ssize_t courier_wire_send(int fd, const void *bytes, size_t length) {
    return send(fd, bytes, length, MSG_NOSIGNAL);
}

/* One receive; returns the bytes read, 0 at the end, or -1 with the error in *error (EAGAIN: nothing yet). */
static inline ssize_t courier_wire_recv(int fd, void *buffer, size_t capacity, int *error) {
    ssize_t got = recv(fd, buffer, capacity, 0);
    *error = got < 0 ? errno : 0;
    return got;
}

static inline int courier_wire_errno(void) { return errno; }

#endif
