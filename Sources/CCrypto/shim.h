#ifndef COURIER_CCRYPTO_SHIM_H
#define COURIER_CCRYPTO_SHIM_H
// libcrypto's SHA-1 (for Sec-WebSocket-Accept) and its random bytes (for frame masks and keys).
#include <openssl/sha.h>
#include <openssl/rand.h>
#endif
