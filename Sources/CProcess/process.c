#include "process.h"

#include <stdio.h>

void courier_flush_standard_streams(void) {
    fflush(stdout);
    fflush(stderr);
}
