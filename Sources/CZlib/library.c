// zlib through a table of pointers filled on first use: see library.h for why.
#include "library.h"

#include <courier_library_loader.h>
#include <dlfcn.h>
#include <pthread.h>

static struct {
    int (*deflate)(z_streamp stream, int flush);
    int (*deflate_end)(z_streamp stream);
    int (*deflate_init2)(z_streamp stream, int level, int method, int window_bits, int memory_level, int strategy,
                         const char *version, int stream_size);
    int (*inflate)(z_streamp stream, int flush);
    int (*inflate_end)(z_streamp stream);
    int (*inflate_init2)(z_streamp stream, int window_bits, const char *version, int stream_size);
} courier_zlib;

static pthread_once_t courier_zlib_once = PTHREAD_ONCE_INIT;
static bool courier_zlib_loaded;

static void courier_zlib_open(void) {
    struct courier_library_symbol symbols[] = {
        {"deflate", (void **)&courier_zlib.deflate},
        {"deflateEnd", (void **)&courier_zlib.deflate_end},
        {"deflateInit2_", (void **)&courier_zlib.deflate_init2},
        {"inflate", (void **)&courier_zlib.inflate},
        {"inflateEnd", (void **)&courier_zlib.inflate_end},
        {"inflateInit2_", (void **)&courier_zlib.inflate_init2},
    };
    courier_zlib_loaded = courier_library_load(COURIER_ZLIB_LIBRARY, RTLD_LAZY | RTLD_LOCAL, symbols,
                                               sizeof symbols / sizeof symbols[0], NULL, NULL, 0);
}

bool courier_zlib_load(void) {
    pthread_once(&courier_zlib_once, courier_zlib_open);
    return courier_zlib_loaded;
}

// zlib's own names, as zlib.h declares them. A stream exists only once an init succeeded, which needs the
// library, so the calls that take one find the table filled.
int deflateInit2_(z_streamp stream, int level, int method, int window_bits, int memory_level, int strategy,
                  const char *version, int stream_size) {
    if (!courier_zlib_load()) return Z_VERSION_ERROR;
    return courier_zlib.deflate_init2(stream, level, method, window_bits, memory_level, strategy, version,
                                      stream_size);
}
int inflateInit2_(z_streamp stream, int window_bits, const char *version, int stream_size) {
    if (!courier_zlib_load()) return Z_VERSION_ERROR;
    return courier_zlib.inflate_init2(stream, window_bits, version, stream_size);
}
int deflate(z_streamp stream, int flush) { return courier_zlib.deflate(stream, flush); }
int inflate(z_streamp stream, int flush) { return courier_zlib.inflate(stream, flush); }
int deflateEnd(z_streamp stream) {
    return courier_zlib_load() ? courier_zlib.deflate_end(stream) : Z_STREAM_ERROR;
}
int inflateEnd(z_streamp stream) {
    return courier_zlib_load() ? courier_zlib.inflate_end(stream) : Z_STREAM_ERROR;
}
