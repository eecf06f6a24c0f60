#define _GNU_SOURCE
#include "process.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <unwind.h>

void courier_flush_standard_streams(void) {
    fflush(stdout);
    fflush(stderr);
}

int courier_current_core(void) {
    return sched_getcpu();
}

void courier_name_this_thread(const char *name) {
    char shortened[16];
    snprintf(shortened, sizeof shortened, "%s", name);
    (void)pthread_setname_np(pthread_self(), shortened);
}

struct courier_frames {
    void **frames;
    int capacity;
    int count;
    int skip;
};

static _Unwind_Reason_Code courier_backtrace_frame(struct _Unwind_Context *context, void *argument) {
    struct courier_frames *walk = argument;
    if (walk->count >= walk->capacity) return _URC_END_OF_STACK;
    uintptr_t address = (uintptr_t)_Unwind_GetIP(context);
    if (address == 0) return _URC_END_OF_STACK;
    if (walk->skip > 0) {
        walk->skip -= 1;
        return _URC_NO_REASON;
    }
    walk->frames[walk->count++] = (void *)address;
    return _URC_NO_REASON;
}

int courier_backtrace(void **frames, int capacity) {
    if (frames == NULL || capacity <= 0) return 0;
    // The first frame is this function's own: the report starts at its caller, as glibc's `backtrace` does.
    struct courier_frames walk = {frames, capacity, 0, 1};
    _Unwind_Backtrace(courier_backtrace_frame, &walk);
    return walk.count;
}
