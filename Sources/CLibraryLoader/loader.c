// Loading a library on first use: see courier_library_loader.h.
#include "courier_library_loader.h"

#include <dlfcn.h>
#include <stdio.h>

bool courier_library_load(const char *path, int mode, const struct courier_library_symbol *symbols, size_t count,
                          const char *requirement, char *error, size_t size) {
    void *library = dlopen(path, mode);
    if (!library) {
        const char *why = dlerror();
        if (error && size > 0) snprintf(error, size, "%s", why ? why : path);
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (!*symbols[i].slot) {
            if (error && size > 0) {
                snprintf(error, size, "%s has no %s%s%s", path, symbols[i].name, requirement ? " " : "",
                         requirement ? requirement : "");
            }
            return false;
        }
    }
    return true;
}
