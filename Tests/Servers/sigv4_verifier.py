"""A test-only server that checks AWS Signature Version 4 with botocore's own signer (not Courier's code).
It reads the access key, secret key, session token, region and service from AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, SIGV4_REGION and SIGV4_SERVICE, rebuilds the request it received
from the headers the Authorization header says were signed, signs it with botocore at the request's
X-Amz-Date, and answers 200 {"verified": true} when the signatures match, else 403 with the reason and
botocore's canonical request. It prints "listening on PORT" once it serves.
"""
import datetime
import hashlib
import hmac
import json
import os
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

CREDENTIALS = Credentials(os.environ["AWS_ACCESS_KEY_ID"], os.environ["AWS_SECRET_ACCESS_KEY"],
                          os.environ.get("AWS_SESSION_TOKEN") or None)
REGION = os.environ.get("SIGV4_REGION", "us-east-1")
SERVICE = os.environ.get("SIGV4_SERVICE", "execute-api")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        ok, reason, canonical = self.verify(body)
        answer = json.dumps({"verified": ok, "reason": reason, "canonical": canonical,
                             "body_length": len(body)}).encode()
        self.send_response(200 if ok else 403)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = handle_any

    def verify(self, body):
        authorization = self.headers.get("Authorization", "")
        if not authorization.startswith("AWS4-HMAC-SHA256 "):
            return False, "no AWS4-HMAC-SHA256 Authorization header", ""
        fields = dict(part.strip().split("=", 1) for part in authorization[len("AWS4-HMAC-SHA256 "):].split(","))
        scope = fields.get("Credential", "").split("/")
        if scope[0] != CREDENTIALS.access_key or scope[2:] != [REGION, SERVICE, "aws4_request"]:
            return False, "credential scope %s is not this key's, region's and service's" % "/".join(scope), ""
        stamp = self.headers.get("X-Amz-Date", "")
        try:
            when = datetime.datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
        except ValueError:
            return False, "no valid X-Amz-Date", ""
        if abs((datetime.datetime.now(datetime.timezone.utc) - when).total_seconds()) > 900:
            return False, "X-Amz-Date is more than 15 minutes off", ""
        if scope[1] != stamp[:8]:
            return False, "the credential scope's date is not X-Amz-Date's", ""
        signed = fields.get("SignedHeaders", "").split(";")
        if "host" not in signed or "x-amz-date" not in signed:
            return False, "host and x-amz-date must be signed", ""
        if CREDENTIALS.token and "x-amz-security-token" not in signed:
            return False, "the session token must be signed", ""
        if CREDENTIALS.token and self.headers.get("X-Amz-Security-Token") != CREDENTIALS.token:
            return False, "X-Amz-Security-Token is not the session token", ""
        headers = {}
        for name in signed:
            values = self.headers.get_all(name)
            if values is None:
                return False, "signed header %s was not received" % name, ""
            headers[name] = ",".join(values)
        path, _, query = self.path.partition("?")
        request = AWSRequest(method=self.command, url="http://%s%s" % (self.headers["Host"], path), data=body,
                             headers=headers)
        request.params = urllib.parse.parse_qsl(query, keep_blank_values=True)
        request.context["timestamp"] = stamp
        signer = SigV4Auth(CREDENTIALS, SERVICE, REGION)
        canonical = signer.canonical_request(request)
        expected = signer.signature(signer.string_to_sign(request, canonical), request)
        if not hmac.compare_digest(expected, fields.get("Signature", "")):
            return False, "the signature does not match botocore's", canonical
        if hashlib.sha256(body).hexdigest() not in canonical:
            return False, "the payload hash is not the body's", canonical
        return True, "", canonical


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("listening on %d" % server.server_address[1], flush=True)
    server.serve_forever()
