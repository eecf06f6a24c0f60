#define _GNU_SOURCE
#include "process.h"

#include <sched.h>
#include <stdio.h>

void courier_flush_standard_streams(void) {
    fflush(stdout);
    fflush(stderr);
}

int courier_current_core(void) {
    return sched_getcpu();
}
