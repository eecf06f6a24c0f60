"""A test-only OAuth 2.0 authorization server built on Authlib (not Courier's code): client credentials,
password, authorization code with PKCE, the device grant (RFC 8628) and refresh tokens, plus a protected
resource. Everything is kept in memory. It prints "listening on PORT" once it serves.

Endpoints besides the OAuth ones:
  GET  /api/me           the protected resource: 200 with the token's user and client, 401 without a good token
  GET  /authorize        the consent form;  POST /authorize with confirm=yes (or no) redirects with a code
  POST /device/approve   user_code=...&decision=yes|no: the user's answer to a device code
  POST /test/expire      every access token issued so far stops working (a refresh token still does)
  GET  /test/stats       how many token requests each grant type had, and the resource's 401s
"""
import os
import secrets
import sys
import threading
import time

os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import grants
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc8628 import DeviceAuthorizationEndpoint, DeviceCodeGrant, DeviceCredentialDict
from flask import Flask, jsonify, request
from werkzeug.serving import make_server

EXPIRES_IN = int(os.environ.get("OAUTH_EXPIRES_IN", "3600"))
USER = {"id": "alice", "password": "wonderland"}


class Client:
    def __init__(self, client_id, secret, auth_method, grants_allowed):
        self.client_id = client_id
        self.secret = secret
        self.auth_method = auth_method
        self.grants_allowed = grants_allowed

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None

    def get_allowed_scope(self, scope):
        return scope or ""

    def check_redirect_uri(self, redirect_uri):
        # RFC 8252 section 7.3: a native app's loopback redirect may use any port.
        return redirect_uri.startswith("http://127.0.0.1:") or redirect_uri.startswith("http://localhost:")

    def check_client_secret(self, secret):
        return self.secret is not None and secrets.compare_digest(secret, self.secret)

    def check_endpoint_auth_method(self, method, endpoint):
        return method == self.auth_method

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type in self.grants_allowed


DEVICE = "urn:ietf:params:oauth:grant-type:device_code"
CLIENTS = {
    "service": Client("service", "s3rvice-secret", "client_secret_basic",
                      {"client_credentials", "password", "refresh_token"}),
    "native": Client("native", None, "none", {"authorization_code", "refresh_token", DEVICE}),
}
TOKENS = {}
REFRESH = {}
CODES = {}
DEVICE_CODES = {}
USER_GRANTS = {}
STATS = {"grants": {}, "unauthorized": 0}
LOCK = threading.Lock()


class Code:
    def __init__(self, client_id, redirect_uri, scope, challenge, method):
        self.client_id = client_id
        self.redirect_uri = redirect_uri
        self.scope = scope
        self.code_challenge = challenge
        self.code_challenge_method = method

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope


def save_token(token, oauth_request):
    with LOCK:
        user = oauth_request.user["id"] if oauth_request.user else None
        TOKENS[token["access_token"]] = {"client": oauth_request.client.client_id, "user": user,
                                         "expires": time.time() + token.get("expires_in", EXPIRES_IN)}
        if "refresh_token" in token:
            REFRESH[token["refresh_token"]] = {"client": oauth_request.client.client_id, "user": user,
                                               "scope": token.get("scope", "")}


class AuthorizationCode(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["none", "client_secret_basic"]

    def save_authorization_code(self, code, oauth_request):
        data = oauth_request.payload.data
        CODES[code] = Code(oauth_request.client.client_id, oauth_request.payload.redirect_uri,
                           oauth_request.payload.scope, data.get("code_challenge"), data.get("code_challenge_method"))

    def query_authorization_code(self, code, client):
        found = CODES.get(code)
        return found if found and found.client_id == client.client_id else None

    def delete_authorization_code(self, authorization_code):
        for key, value in list(CODES.items()):
            if value is authorization_code:
                del CODES[key]

    def authenticate_user(self, authorization_code):
        return USER


class Password(grants.ResourceOwnerPasswordCredentialsGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic"]

    def authenticate_user(self, username, password):
        return USER if (username, password) == (USER["id"], USER["password"]) else None


class ClientCredentials(grants.ClientCredentialsGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic"]


class Refresh(grants.RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["none", "client_secret_basic"]
    INCLUDE_NEW_REFRESH_TOKEN = True

    def authenticate_refresh_token(self, refresh_token):
        found = REFRESH.get(refresh_token)
        if not found:
            return None
        return RefreshCredential(refresh_token, found)

    def authenticate_user(self, credential):
        return USER if credential.data["user"] else None

    def revoke_old_credential(self, credential):
        REFRESH.pop(credential.token, None)


class RefreshCredential:
    def __init__(self, token, data):
        self.token = token
        self.data = data

    def check_client(self, client):
        return client.client_id == self.data["client"]

    def get_scope(self):
        return self.data["scope"]

    def is_expired(self):
        return False

    def is_revoked(self):
        return self.token not in REFRESH


class Device(DeviceCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["none"]

    def query_device_credential(self, device_code):
        found = DEVICE_CODES.get(device_code)
        return DeviceCredentialDict(found) if found else None

    def query_user_grant(self, user_code):
        return USER_GRANTS.get(user_code)

    def should_slow_down(self, credential):
        # The first poll is told to slow down, as a busy server would: the client must wait longer.
        counted = credential.get("user_code")
        polls = DEVICE_POLLS.get(counted, 0) + 1
        DEVICE_POLLS[counted] = polls
        return polls == 1


DEVICE_POLLS = {}


class DeviceAuthorization(DeviceAuthorizationEndpoint):
    CLIENT_AUTH_METHODS = ["none"]
    INTERVAL = 1

    def get_verification_uri(self):
        return request.host_url.rstrip("/") + "/device"

    def save_device_credential(self, client_id, scope, data):
        DEVICE_CODES[data["device_code"]] = dict(data, client_id=client_id, scope=scope,
                                                 expires_at=time.time() + data["expires_in"])


app = Flask(__name__)
app.config["OAUTH2_REFRESH_TOKEN_GENERATOR"] = True


def query_client(client_id):
    return CLIENTS.get(client_id)


server = AuthorizationServer(app, query_client=query_client, save_token=save_token)
server.register_grant(AuthorizationCode, [CodeChallenge(required=True)])
server.register_grant(Password)
server.register_grant(ClientCredentials)
server.register_grant(Refresh)
server.register_grant(Device)
server.register_endpoint(DeviceAuthorization)


@app.post("/token")
def issue_token():
    grant = request.form.get("grant_type", "")
    with LOCK:
        STATS["grants"][grant] = STATS["grants"].get(grant, 0) + 1
    return server.create_token_response()


@app.post("/device_authorization")
def device_authorization():
    return server.create_endpoint_response("device_authorization")


@app.post("/device/approve")
def approve_device():
    user_code = request.form["user_code"]
    USER_GRANTS[user_code] = (USER, request.form.get("decision", "yes") == "yes")
    return "ok"


@app.get("/authorize")
def consent_form():
    grant = server.get_consent_grant(end_user=USER)
    return ("<form method='post'><p>Let %s in?</p><button name='confirm' value='yes'>Yes</button></form>"
            % grant.client.client_id)


@app.post("/authorize")
def consent():
    approved = request.form.get("confirm") == "yes"
    return server.create_authorization_response(grant_user=USER if approved else None)


@app.get("/api/me")
def me():
    header = request.headers.get("Authorization", "")
    token = TOKENS.get(header[7:]) if header.startswith("Bearer ") else None
    if not token or token["expires"] < time.time():
        with LOCK:
            STATS["unauthorized"] += 1
        return jsonify(error="invalid_token"), 401, {"WWW-Authenticate": "Bearer error=\"invalid_token\""}
    return jsonify(user=token["user"], client=token["client"])


@app.post("/test/expire")
def expire():
    with LOCK:
        for token in TOKENS.values():
            token["expires"] = 0
    return "ok"


@app.get("/test/stats")
def stats():
    with LOCK:
        return jsonify(STATS)


if __name__ == "__main__":
    http = make_server("127.0.0.1", 0, app, threaded=True)
    print("listening on %d" % http.server_port, flush=True)
    import logging
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    http.serve_forever()
