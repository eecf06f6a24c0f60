#ifndef COURIER_CCRYPTO_SHIM_H
#define COURIER_CCRYPTO_SHIM_H
// libcrypto's SHA-1 (for Sec-WebSocket-Accept) and its random bytes (for frame masks and keys);
// EVP digests and MACs for the `crypto` helpers of request scripts; SHA-256 and HMAC for PKCE and AWS
// Signature V4. Loaded on first use: see courier_crypto.h.
#include "courier_crypto.h"
#endif
