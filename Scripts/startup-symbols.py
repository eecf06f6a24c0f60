#!/usr/bin/env python3
"""Writes the list of functions a one-shot command runs, which release builds link first (see the Makefile's
RELEASE_FLAGS): the code `courier --version`, `courier send`, `courier run` and the explorer up to its first
frame execute then sits in a few hundred contiguous kilobytes of the 23 MB of text instead of being spread over
all of it, so starting takes fewer page faults. Each command runs once under valgrind's callgrind against a
loopback HTTP server (the explorer in a pseudo-terminal of 120x40, on Collections/demo.http, until its screen
is drawn, then `q`); every function of the binary that it entered is kept, commands in that order.

A stale list costs only speed: names the binary no longer has are skipped by the linker, new functions are
laid out as if unlisted. Regenerate after large changes to the start-up or send path: `make startup-symbols`
writes the list from the release binary and relinks it.

Usage: startup-symbols.py RELEASE_BINARY OUTPUT_FILE (needs valgrind and python3's http.server)
"""
import fcntl
import http.server
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files without logging each request."""

    def log_message(self, format, *args):
        pass


def serve(folder):
    """An HTTP server on a free loopback port serving `folder`, on a thread of its own."""
    handler = lambda *args: QuietHandler(*args, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def entered_functions(profile, binary_name):
    """The functions of `binary_name` named in a callgrind profile."""
    objects, functions, seen, order = {}, {}, set(), []

    def name(table, field):
        match = re.match(r"\((\d+)\)(?: (.*))?", field)
        if not match:
            return field
        if match.group(2):
            table[match.group(1)] = match.group(2)
        return table.get(match.group(1))

    current_object = called_object = None
    with open(profile) as lines:
        for line in lines:
            key, _, value = line.rstrip("\n").partition("=")
            if key == "ob":
                current_object = name(objects, value)
            elif key == "cob":
                called_object = name(objects, value)
            elif key in ("fn", "cfn"):
                function = name(functions, value)
                owner = called_object if key == "cfn" and called_object else current_object
                called_object = None
                # callgrind marks recursion levels and contexts with a quote: the linker knows the bare name.
                function = re.sub(r"'\d+$", "", function or "")
                # Addresses without a symbol and callgrind's own entries, "(below main)", are no names.
                if owner and os.path.basename(owner) == binary_name and re.fullmatch(r"[^\s()]+", function) \
                        and not function.startswith("0x") and function not in seen:
                    seen.add(function)
                    order.append(function)
    return order


def profile_explorer(command, environment, collection):
    """Runs `command` (callgrind on the explorer) on `collection` in a pseudo-terminal of 120x40: once its first
    frame has been drawn (output, then a second of quiet) it is sent `q`; killed if it has not ended in 3 minutes."""
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        os.execvpe(command[0], command + [collection], dict(environment, TERM="xterm-256color"))
    received, last, quit_sent, deadline = 0, time.monotonic(), False, time.monotonic() + 180
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            received += len(chunk)
            last = time.monotonic()
        elif received > 1000 and not quit_sent and time.monotonic() - last > 1:
            os.write(fd, b"q")
            quit_sent = True
    else:
        os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(fd)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, output = sys.argv[1], sys.argv[2]
    if not shutil.which("valgrind"):
        sys.exit("startup-symbols.py: needs valgrind (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as work:
        # valgrind cannot read the release binary's DWARF; the symbol table is all it needs.
        stripped = os.path.join(work, "courier")
        subprocess.run(["strip", "--strip-debug", "-o", stripped, binary], check=True)
        site = os.path.join(work, "site")
        os.mkdir(site)
        with open(os.path.join(site, "small"), "w") as body:
            body.write('{"id": 1, "name": "small"}\n')
        server = serve(site)
        url = f"http://127.0.0.1:{server.server_address[1]}/small"
        requests = os.path.join(work, "one.http")
        with open(requests, "w") as file:
            file.write(f"GET {url}\n")
        commands = [["--version"], ["send", "GET", url], ["run", requests], None]
        environment = dict(os.environ, XDG_STATE_HOME=work, XDG_CONFIG_HOME=work, XDG_CACHE_HOME=work)
        collection = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Collections", "demo.http")
        order, seen = [], set()
        for index, arguments in enumerate(commands):
            profile = os.path.join(work, f"callgrind.{index}")
            valgrind = ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}", stripped]
            if arguments is None:
                profile_explorer(valgrind, environment, collection)
            else:
                subprocess.run(valgrind + arguments, check=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=environment)
            if not os.path.exists(profile):
                sys.exit(f"startup-symbols.py: callgrind wrote no profile for {arguments or 'the explorer'}")
            # Sorted by name within each command: the pages touched are the same, and a regenerated list
            # differs from the last only by the functions that changed.
            for function in sorted(set(entered_functions(profile, "courier")) - seen):
                seen.add(function)
                order.append(function)
        server.shutdown()
    with open(output + ".tmp", "w") as file:
        file.write("\n".join(order) + "\n")
    os.replace(output + ".tmp", output)
    print(f"startup-symbols.py: {len(order)} functions in {output}")


if __name__ == "__main__":
    main()
