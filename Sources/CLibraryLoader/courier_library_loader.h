#ifndef COURIER_LIBRARY_LOADER_H
#define COURIER_LIBRARY_LOADER_H
// The one way Courier's C modules load a library on first use instead of linking it (libcurl, libcrypto,
// ncursesw, libyaml, zlib, http-parser): each keeps the library's functions under their own names as calls
// through a table of pointers, which this fills.
#include <stdbool.h>
#include <stddef.h>

// A function or variable of the library, and where its address goes.
struct courier_library_symbol {
    const char *name;
    void **slot;
};

// Opens `path` with dlopen's `mode` and stores the address of each of `symbols` in its slot. True when all
// were found; false, with the reason in `error` (dlopen's message, or "PATH has no NAME" and then `requirement`
// when it is not NULL), when the library or one of them is missing. `error` may be NULL.
bool courier_library_load(const char *path, int mode, const struct courier_library_symbol *symbols, size_t count,
                          const char *requirement, char *error, size_t size);

#endif
