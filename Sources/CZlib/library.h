#ifndef COURIER_CZLIB_LIBRARY_H
#define COURIER_CZLIB_LIBRARY_H
// zlib, loaded with dlopen the first time a gRPC message is compressed or decompressed, not linked.
//
// Only gRPC's gzip message encoding uses zlib (libcurl decodes HTTP bodies with its own copy), so a process that
// never compresses a message does not map it. The zlib functions Courier calls keep their names: library.c
// defines each as a call through a table of pointers it fills from libz.so.1 on first use. Without the library,
// the two init functions fail with Z_VERSION_ERROR and the rest are never reached.
#include <zlib.h>
#include <stdbool.h>

// The shared object Debian's zlib1g package installs, by its runtime name.
#define COURIER_ZLIB_LIBRARY "libz.so.1"

// Loads zlib once (later calls return the first answer); false when it or one of its functions is missing.
bool courier_zlib_load(void);

#endif
