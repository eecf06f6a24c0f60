#ifndef COURIER_CZLIB_SHIM_H
#define COURIER_CZLIB_SHIM_H
// zlib for gRPC message compression (grpc-encoding: gzip). deflateInit2 and inflateInit2 are macros,
// which Swift cannot import: these wrappers call them with gzip framing (window bits 15 + 16).
#include "library.h"

static inline int courier_deflate_init_gzip(z_stream *stream) {
    return deflateInit2(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
static inline int courier_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}
#endif
