#ifndef COURIER_CSECRET_SHIM_H
#define COURIER_CSECRET_SHIM_H
// libsecret, the Secret Service client (GNOME Keyring, KeePassXC), for environment values kept in the
// keyring, loaded on first use.
//
// As libxml2 and JavaScriptCore (see CXML2/shim.h), the library is not linked: most runs never read a
// keyring, and libsecret brings in GLib, GIO and libgcrypt. The functions are reached through one table of
// pointers that dlopen/dlsym fill the first time a keyring value is needed (`courier_secret_fill`); the
// table lives in Swift (CourierCollections' SecretServiceLookup). GError is declared as glib's gerror.h
// declares it (part of the ABI), so no -dev package is needed to build or run.
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>

// The shared object Debian's libsecret-1-0 package installs, by its runtime name.
#define COURIER_SECRET_LIBRARY "libsecret-1.so.0"

typedef struct {
    unsigned int domain;
    int code;
    char *message;
} courier_gerror;

typedef unsigned int (*courier_ghash_function)(const void *key);
typedef int (*courier_gequal_function)(const void *a, const void *b);

// The functions Courier calls: GLib's (found through libsecret, which depends on it) and libsecret's lookup.
struct courier_secret_table {
    void *(* _Nonnull g_hash_table_new)(courier_ghash_function hash, courier_gequal_function equal);
    void (* _Nonnull g_hash_table_insert)(void *table, void *key, void *value);
    void (* _Nonnull g_hash_table_unref)(void *table);
    courier_ghash_function _Nonnull g_str_hash;
    courier_gequal_function _Nonnull g_str_equal;
    void (* _Nonnull g_error_free)(courier_gerror *error);
    // The schema may be NULL: items are matched by their attributes alone.
    char *(* _Nonnull secret_password_lookupv_sync)(const void *schema, void *attributes, void *cancellable,
                                                     courier_gerror **error);
    void (* _Nonnull secret_password_free)(char *password);
};

/// Loads libsecret and fills `table`; false when the library or one of its functions is missing (the table
/// is then incomplete and must not be used).
static inline bool courier_secret_fill(struct courier_secret_table *table) {
    void *library = dlopen(COURIER_SECRET_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return false;
    void *found;
    // Function pointers cannot be assigned from void * in ISO C, hence the store through a void * lvalue.
#define COURIER_SECRET_FIND(name) \
    if ((found = dlsym(library, #name)) == NULL) return false; \
    *(void **)&table->name = found;
    COURIER_SECRET_FIND(g_hash_table_new) COURIER_SECRET_FIND(g_hash_table_insert)
    COURIER_SECRET_FIND(g_hash_table_unref) COURIER_SECRET_FIND(g_str_hash) COURIER_SECRET_FIND(g_str_equal)
    COURIER_SECRET_FIND(g_error_free) COURIER_SECRET_FIND(secret_password_lookupv_sync)
    COURIER_SECRET_FIND(secret_password_free)
#undef COURIER_SECRET_FIND
    return true;
}

/// The message of a GError, or NULL.
static inline const char *courier_gerror_message(const courier_gerror *error) {
    return error ? error->message : NULL;
}
#endif
