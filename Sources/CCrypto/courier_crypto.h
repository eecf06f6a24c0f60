#ifndef COURIER_CCRYPTO_COURIER_CRYPTO_H
#define COURIER_CCRYPTO_COURIER_CRYPTO_H
// libcrypto, loaded with dlopen the first time Courier hashes, signs or draws random bytes, not linked.
//
// Linked, libcrypto cost every `courier` process about 0.5 ms of CPU and 125 page faults before `main`,
// although `--version`, `check`, the explorer's first frame and a plain send never call it (a send's libcurl
// brings it in on the thread that loads libcurl, beside the command's own start). As for libcurl (see
// CCurl/library.h), the functions Courier calls keep their names: library.c defines each as a call through a
// table of pointers filled from libcrypto.so.3 on the first call. OpenSSL's headers give the types, the
// constants (digest lengths) and the prototypes the definitions are checked against.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <stdbool.h>

// The shared object Debian's libssl3 package installs, by its runtime name.
#define COURIER_CRYPTO_LIBRARY "libcrypto.so.3"

// Loads libcrypto once, into the global scope as when it was linked (later calls return the first answer):
// false when it cannot be loaded. The first call of any function below loads it; so does libcurl's loader.
bool courier_crypto_load(void);

#endif
