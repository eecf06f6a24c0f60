"""A test-only server that checks OAuth 1.0a signatures (RFC 5849 section 3.4) with Authlib's own code (not
Courier's). It reads the client's key and secret and the token's secret from OAUTH1_CONSUMER_KEY,
OAUTH1_CONSUMER_SECRET and OAUTH1_TOKEN_SECRET, rebuilds the signature base string from the request it received
(its query, a form body, the Authorization header's oauth_ parameters) and answers 200 {"verified": true} when
the signature matches, else 401 with the reason and the base string. A nonce seen before, or a timestamp more
than ten minutes off, is refused. It prints "listening on PORT" once it serves.
"""
import base64
import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from authlib.oauth1.rfc5849 import signature
from authlib.oauth1.rfc5849.util import escape
from authlib.oauth1.rfc5849.wrapper import OAuth1Request

CONSUMER_KEY = os.environ["OAUTH1_CONSUMER_KEY"]
CONSUMER_SECRET = os.environ["OAUTH1_CONSUMER_SECRET"]
TOKEN_SECRET = os.environ.get("OAUTH1_TOKEN_SECRET", "")
SEEN_NONCES = set()


class Client:
    """The one client this server knows, as Authlib asks a server's client store for it."""

    def get_client_secret(self):
        return CONSUMER_SECRET


class Credential:
    """The one token this server issued."""

    def get_oauth_token_secret(self):
        return TOKEN_SECRET


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        ok, reason, base, params = self.verify(body)
        answer = json.dumps({"verified": ok, "reason": reason, "base": base, "params": params}).encode()
        self.send_response(200 if ok else 401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = handle_any

    def verify(self, body):
        uri = "http://%s%s" % (self.headers.get("Host", ""), self.path)
        form = "application/x-www-form-urlencoded" in self.headers.get("Content-Type", "")
        request = OAuth1Request(self.command, uri, body.decode() if form else None, dict(self.headers))
        params = dict(request.oauth_params)
        if request.client_id != CONSUMER_KEY:
            return False, "consumer key %r is not this client's" % request.client_id, "", params
        if request.signature_type != signature.SIGNATURE_TYPE_HEADER:
            return False, "the oauth_ parameters are not in the Authorization header", "", params
        nonce = params.get("oauth_nonce", "")
        if not nonce or nonce in SEEN_NONCES:
            return False, "nonce %r missing or seen before" % nonce, "", params
        SEEN_NONCES.add(nonce)
        if abs(time.time() - int(params.get("oauth_timestamp", "0"))) > 600:
            return False, "timestamp too far off", "", params
        request.client = Client()
        request.credential = Credential()
        base = signature.generate_signature_base_string(request)
        method = request.signature_method
        if method == signature.SIGNATURE_HMAC_SHA1:
            ok = signature.verify_hmac_sha1(request)
        elif method == signature.SIGNATURE_PLAINTEXT:
            ok = signature.verify_plaintext(request)
        elif method == "HMAC-SHA256":
            key = "&".join([escape(CONSUMER_SECRET), escape(TOKEN_SECRET)]).encode()
            expected = base64.b64encode(hmac.new(key, base.encode(), hashlib.sha256).digest()).decode()
            ok = hmac.compare_digest(expected, request.signature or "")
        else:
            return False, "unknown signature method %r" % method, base, params
        return ok, "" if ok else "signature does not match", base, params


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("listening on %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
