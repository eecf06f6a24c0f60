"""Records a HAR 1.2 file of what headless Chromium sends and receives while it loads one page.

Usage: record-har.py CHROMIUM URL OUT.har DONE-PATH

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: commands on fd 3,
events on fd 4, NUL-separated JSON), so no WebSocket library is needed. The HAR is built from the
Network domain's events, as DevTools builds it: the headers that went on the wire (the ExtraInfo events,
cookies included), the post data, the response and its body. Recording stops once the request whose path
is DONE-PATH has finished. Used by the tests of `courier import har`; exits 2 when Chromium cannot start.
"""
import base64
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

LIMIT_SECONDS = 120


def main():
    chromium, url, out_path, done_path = sys.argv[1:5]
    profile = tempfile.mkdtemp(prefix="courier-har-profile-")
    to_chrome_read, to_chrome_write = os.pipe()
    from_chrome_read, from_chrome_write = os.pipe()
    # Chromium reads commands from fd 3 and writes replies and events to fd 4.
    def child_fds():
        # Copied first: a pipe already at fd 3 would otherwise keep its close-on-exec flag.
        read_copy, write_copy = os.dup(to_chrome_read), os.dup(from_chrome_write)
        os.dup2(read_copy, 3)
        os.dup2(write_copy, 4)
    process = subprocess.Popen(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--no-default-browser-check", "--disable-extensions", "--remote-debugging-pipe",
         "--user-data-dir=" + profile, "about:blank"],
        # The pipes are moved to fds 3 and 4 after the spawn closes the others, so nothing is closed here.
        close_fds=False, preexec_fn=child_fds,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(to_chrome_read)
    os.close(from_chrome_write)
    try:
        recorder = Recorder(to_chrome_write, from_chrome_read)
        entries = recorder.record(url, done_path)
    finally:
        process.kill()
        process.wait()
        shutil.rmtree(profile, ignore_errors=True)
    har = {"log": {"version": "1.2", "creator": {"name": "record-har.py", "version": "1"},
                   "pages": [], "entries": entries}}
    with open(out_path, "w") as handle:
        json.dump(har, handle, indent=2)


class Recorder:
    def __init__(self, write_fd, read_fd):
        self.write_fd = write_fd
        self.read_fd = read_fd
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.write_fd, json.dumps(message).encode() + b"\0")
        return self.next_id

    def read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise SystemExit("record-har.py: Chromium did not answer within %d s" % LIMIT_SECONDS)
            chunk = os.read(self.read_fd, 65536)
            if not chunk:
                raise SystemExit(2)
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=None, deadline=None):
        deadline = deadline or time.time() + LIMIT_SECONDS
        wanted = self.send(method, params, session)
        while True:
            message = self.read_message(deadline)
            if message.get("id") == wanted:
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def record(self, url, done_path):
        deadline = time.time() + LIMIT_SECONDS
        target = self.call("Target.createTarget", {"url": "about:blank"}, deadline=deadline)["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                            deadline=deadline)["sessionId"]
        self.call("Network.enable", {}, session, deadline)
        self.call("Page.enable", {}, session, deadline)
        self.call("Page.navigate", {"url": url}, session, deadline)
        requests = {}
        done = False
        while not done:
            message = self.events.pop(0) if self.events else self.read_message(deadline)
            method = message.get("method", "")
            params = message.get("params", {})
            request_id = params.get("requestId")
            if method == "Network.requestWillBeSent":
                item = requests.setdefault(request_id, {})
                item["sent"] = params
            elif method == "Network.requestWillBeSentExtraInfo":
                requests.setdefault(request_id, {})["wireHeaders"] = params.get("headers", {})
            elif method == "Network.responseReceived":
                requests.setdefault(request_id, {})["response"] = params["response"]
            elif method == "Network.loadingFinished":
                item = requests.setdefault(request_id, {})
                item["finished"] = True
                sent_url = item.get("sent", {}).get("request", {}).get("url", "")
                if urllib.parse.urlsplit(sent_url).path == done_path:
                    done = True
        entries = []
        for request_id, item in requests.items():
            if "sent" not in item or "response" not in item or not item.get("finished"):
                continue
            body = self.call("Network.getResponseBody", {"requestId": request_id}, session, deadline)
            post = None
            if item["sent"]["request"].get("hasPostData"):
                post = self.call("Network.getRequestPostData", {"requestId": request_id}, session,
                                 deadline).get("postData")
            entries.append(entry(item, body, post))
        self.call("Browser.close", deadline=deadline)
        entries.sort(key=lambda e: e["startedDateTime"])
        return entries


def header_list(headers):
    return [{"name": name, "value": value} for name, value in headers.items()]


def entry(item, body, post_data):
    sent = item["sent"]
    request = sent["request"]
    response = item["response"]
    headers = item.get("wireHeaders") or request.get("headers", {})
    split = urllib.parse.urlsplit(request["url"])
    har_request = {
        "method": request["method"], "url": request["url"], "httpVersion": response.get("protocol", "http/1.1"),
        "headers": header_list(headers), "cookies": [],
        "queryString": [{"name": n, "value": v} for n, v in urllib.parse.parse_qsl(split.query, True)],
        "headersSize": -1, "bodySize": len(post_data.encode()) if post_data else 0,
    }
    if post_data is not None:
        mime = next((v for k, v in headers.items() if k.lower() == "content-type"), "")
        har_request["postData"] = {"mimeType": mime, "text": post_data}
    text = body.get("body", "")
    content = {"size": len(base64.b64decode(text)) if body.get("base64Encoded") else len(text.encode()),
               "mimeType": response.get("mimeType", ""), "text": text}
    if body.get("base64Encoded"):
        content["encoding"] = "base64"
    timing = response.get("timing") or {}
    def span(start, end):
        a, b = timing.get(start, -1), timing.get(end, -1)
        return b - a if a >= 0 and b >= 0 else -1
    timings = {"blocked": -1, "dns": span("dnsStart", "dnsEnd"), "connect": span("connectStart", "connectEnd"),
               "ssl": span("sslStart", "sslEnd"), "send": span("sendStart", "sendEnd"),
               "wait": span("sendEnd", "receiveHeadersEnd"), "receive": 0}
    started = datetime.datetime.fromtimestamp(sent.get("wallTime", time.time()), datetime.timezone.utc)
    return {
        "startedDateTime": started.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "time": sum(v for v in timings.values() if v > 0),
        "request": har_request,
        "response": {
            "status": response["status"], "statusText": response.get("statusText", ""),
            "httpVersion": response.get("protocol", "http/1.1"), "headers": header_list(response.get("headers", {})),
            "cookies": [], "content": content, "redirectURL": "", "headersSize": -1, "bodySize": -1,
        },
        "cache": {}, "timings": timings,
    }


if __name__ == "__main__":
    main()
