// libcrypto through a table of pointers filled on first use: see courier_crypto.h for why.
#include "courier_crypto.h"

#include <courier_library_loader.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
    unsigned char *(*sha1)(const unsigned char *data, size_t count, unsigned char *digest);
    unsigned char *(*sha256)(const unsigned char *data, size_t count, unsigned char *digest);
    int (*rand_bytes)(unsigned char *buffer, int count);
    const EVP_MD *(*evp_sha1)(void);
    const EVP_MD *(*evp_sha256)(void);
    unsigned char *(*hmac)(const EVP_MD *digest, const void *key, int keyLength, const unsigned char *data,
                           size_t count, unsigned char *out, unsigned int *outLength);
    unsigned char *(*evp_q_mac)(OSSL_LIB_CTX *library, const char *name, const char *properties,
                                const char *subalgorithm, const OSSL_PARAM *parameters, const void *key,
                                size_t keyLength, const unsigned char *data, size_t count, unsigned char *out,
                                size_t outSize, size_t *outLength);
    int (*evp_q_digest)(OSSL_LIB_CTX *library, const char *name, const char *properties, const void *data,
                        size_t count, unsigned char *digest, size_t *digestLength);
    EVP_MD_CTX *(*md_ctx_new)(void);
    void (*md_ctx_free)(EVP_MD_CTX *context);
    int (*digest_init_ex)(EVP_MD_CTX *context, const EVP_MD *digest, ENGINE *engine);
    int (*digest_update)(EVP_MD_CTX *context, const void *data, size_t count);
    int (*digest_final_ex)(EVP_MD_CTX *context, unsigned char *digest, unsigned int *length);
} courier_crypto;

static pthread_once_t courier_crypto_once = PTHREAD_ONCE_INIT;
static bool courier_crypto_loaded;
static char courier_crypto_error[512];

static void courier_crypto_open(void) {
    // Global, as a linked libcrypto was: libssl and libcrypto's references to itself find its symbols before
    // the dynamic loader searches libcurl's thirty other libraries one by one (0.1 ms of a send's CPU).
    struct courier_library_symbol symbols[] = {
        {"SHA1", (void **)&courier_crypto.sha1},
        {"SHA256", (void **)&courier_crypto.sha256},
        {"RAND_bytes", (void **)&courier_crypto.rand_bytes},
        {"EVP_sha1", (void **)&courier_crypto.evp_sha1},
        {"EVP_sha256", (void **)&courier_crypto.evp_sha256},
        {"HMAC", (void **)&courier_crypto.hmac},
        {"EVP_Q_mac", (void **)&courier_crypto.evp_q_mac},
        {"EVP_Q_digest", (void **)&courier_crypto.evp_q_digest},
        {"EVP_MD_CTX_new", (void **)&courier_crypto.md_ctx_new},
        {"EVP_MD_CTX_free", (void **)&courier_crypto.md_ctx_free},
        {"EVP_DigestInit_ex", (void **)&courier_crypto.digest_init_ex},
        {"EVP_DigestUpdate", (void **)&courier_crypto.digest_update},
        {"EVP_DigestFinal_ex", (void **)&courier_crypto.digest_final_ex},
    };
    courier_crypto_loaded = courier_library_load(COURIER_CRYPTO_LIBRARY, RTLD_LAZY | RTLD_GLOBAL, symbols,
                                                 sizeof symbols / sizeof symbols[0], "(OpenSSL 3 is needed)",
                                                 courier_crypto_error, sizeof courier_crypto_error);
}

// libcrypto is part of every system libcurl's dependencies, so it is missing only from a broken system:
// the process ends with the reason and what to install, as the dynamic loader would have said at start.
bool courier_crypto_load(void) {
    pthread_once(&courier_crypto_once, courier_crypto_open);
    return courier_crypto_loaded;
}

static void courier_crypto_ready(void) {
    if (courier_crypto_load()) return;
    fprintf(stderr, "courier: cannot load libcrypto: %s\n"
                    "courier: on Debian or Ubuntu, install it with: apt-get install libssl3\n", courier_crypto_error);
    exit(69);
}

// OpenSSL's own names, as its headers declare them, each a call through the table.
unsigned char *SHA1(const unsigned char *data, size_t count, unsigned char *digest) {
    courier_crypto_ready();
    return courier_crypto.sha1(data, count, digest);
}
unsigned char *SHA256(const unsigned char *data, size_t count, unsigned char *digest) {
    courier_crypto_ready();
    return courier_crypto.sha256(data, count, digest);
}
int RAND_bytes(unsigned char *buffer, int count) { courier_crypto_ready(); return courier_crypto.rand_bytes(buffer, count); }
const EVP_MD *EVP_sha1(void) { courier_crypto_ready(); return courier_crypto.evp_sha1(); }
const EVP_MD *EVP_sha256(void) { courier_crypto_ready(); return courier_crypto.evp_sha256(); }
unsigned char *HMAC(const EVP_MD *digest, const void *key, int keyLength, const unsigned char *data, size_t count,
                    unsigned char *out, unsigned int *outLength) {
    courier_crypto_ready();
    return courier_crypto.hmac(digest, key, keyLength, data, count, out, outLength);
}
unsigned char *EVP_Q_mac(OSSL_LIB_CTX *library, const char *name, const char *properties, const char *subalgorithm,
                         const OSSL_PARAM *parameters, const void *key, size_t keyLength, const unsigned char *data,
                         size_t count, unsigned char *out, size_t outSize, size_t *outLength) {
    courier_crypto_ready();
    return courier_crypto.evp_q_mac(library, name, properties, subalgorithm, parameters, key, keyLength, data, count,
                                    out, outSize, outLength);
}
int EVP_Q_digest(OSSL_LIB_CTX *library, const char *name, const char *properties, const void *data, size_t count,
                 unsigned char *digest, size_t *digestLength) {
    courier_crypto_ready();
    return courier_crypto.evp_q_digest(library, name, properties, data, count, digest, digestLength);
}
EVP_MD_CTX *EVP_MD_CTX_new(void) { courier_crypto_ready(); return courier_crypto.md_ctx_new(); }
void EVP_MD_CTX_free(EVP_MD_CTX *context) { courier_crypto_ready(); courier_crypto.md_ctx_free(context); }
int EVP_DigestInit_ex(EVP_MD_CTX *context, const EVP_MD *digest, ENGINE *engine) {
    courier_crypto_ready();
    return courier_crypto.digest_init_ex(context, digest, engine);
}
int EVP_DigestUpdate(EVP_MD_CTX *context, const void *data, size_t count) {
    courier_crypto_ready();
    return courier_crypto.digest_update(context, data, count);
}
int EVP_DigestFinal_ex(EVP_MD_CTX *context, unsigned char *digest, unsigned int *length) {
    courier_crypto_ready();
    return courier_crypto.digest_final_ex(context, digest, length);
}
