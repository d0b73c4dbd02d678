#!/usr/bin/env python3
# bad_http_server.py - a fake ClickHouse HTTP server on 127.0.0.1 that misbehaves as MODE says, for tests/export-http.test.
# SPDX-License-Identifier: GPL-2.0-only
"""Usage: bad_http_server.py MODE PORTFILE [LOG]

Listens on 127.0.0.1 on an ephemeral port, writes the port to PORTFILE once
it listens, and logs one line per request to LOG (the SQL, from the URL's
query= or the body's start). It answers every request as MODE says:

  ok              200, an empty body (Content-Length: 0), kept alive
  500             500 with a ClickHouse-like error text (Content-Length)
  500-escape      the same with terminal escapes, a bell and a CR in the text
  endless-body    200 with no length: bytes until the client goes away
  endless-select  as ok, but as endless-body to a SELECT
  endless-chunks  200, chunked: 64 KiB chunks until the client goes away
  huge-length     200, Content-Length: 10^15, then bytes until the client goes away
  endless-header  a status line, then header lines until the client goes away
  bad-chunk       the first request answered as ok (the connection kept
                  alive), then 200, chunked, the chunk size "ZZZZ"
  slow            a correct empty 200, one byte every 2 s
  killed          requests answered as ok up to the first INSERT, which is
                  half-answered (Content-Length: 100, 3 bytes sent), then
                  SIGKILL of itself
  garbage         bytes that are not HTTP, then close

It stops by itself after LIMIT_S seconds (60) or LIMIT_REQ requests (5000),
whichever comes first, and caps what it sends to one client at 8 GiB, so a
client that never stops reading cannot keep it running.
"""
import os
import signal
import socket
import socketserver
import sys
import threading
import time
import urllib.parse

LIMIT_S = 60
LIMIT_REQ = 5000
SEND_CAP = 8 << 30

mode, portfile = sys.argv[1], sys.argv[2]
log = open(sys.argv[3], "a", buffering=1) if len(sys.argv) > 3 else None
count = 0
lock = threading.Lock()

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
ERR_TEXT = b"Code: 1002, e.displayText() = DB::Exception: fake failure from bad_http_server.py\n"
ERR_ESC = b"Code: 1002, \x1b[2J\x1b]0;owned\x07 fake\rfailure \xc3\xa9\n"


def error(text):
    """A 500 answer with @text."""
    return (b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\n"
            b"Content-Length: %d\r\n\r\n" % len(text)) + text


def read_request(rf):
    """One request from the file @rf: its request line and SQL, or None at the end."""
    line = rf.readline(65537)
    if not line:
        return None
    length = 0
    while True:
        h = rf.readline(65537)
        if h in (b"\r\n", b"\n", b""):
            break
        name, _, value = h.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    body = rf.read(length) if length else b""
    target = line.split(b" ")[1] if b" " in line else b""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(target.decode("latin-1")).query)
    sql = query.get("query", [""])[0] or body[:200].decode("latin-1")
    return sql


def endless(w, head, block):
    """@head, then @block again and again until the client goes away or SEND_CAP."""
    w.sendall(head)
    sent = len(head)
    while sent < SEND_CAP:
        w.sendall(block)
        sent += len(block)


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        global count
        s = self.connection
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            while True:
                sql = read_request(self.rfile)
                if sql is None:
                    return
                with lock:
                    count += 1
                    n = count
                if log:
                    log.write("%d %s\n" % (n, " ".join(sql.split())[:120]))
                if n > LIMIT_REQ:
                    os._exit(3)
                if mode == "endless-select" and sql.startswith("SELECT"):
                    endless(s, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n",
                            b"name\tString\n" * 4096)
                elif (mode in ("ok", "endless-select") or (mode == "bad-chunk" and n == 1) or
                      (mode == "killed" and not sql.startswith("INSERT"))):
                    s.sendall(OK)
                elif mode == "500":
                    s.sendall(error(ERR_TEXT))
                elif mode == "500-escape":
                    s.sendall(error(ERR_ESC))
                elif mode == "endless-body":
                    endless(s, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n", b"x" * 65536)
                elif mode == "endless-chunks":
                    endless(s, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                            b"10000\r\n" + b"x" * 65536 + b"\r\n")
                elif mode == "huge-length":
                    endless(s, b"HTTP/1.1 200 OK\r\nContent-Length: 1000000000000000\r\n\r\n",
                            b"x" * 65536)
                elif mode == "endless-header":
                    endless(s, b"HTTP/1.1 200 OK\r\n", b"X-Pad: " + b"a" * 1000 + b"\r\n")
                elif mode == "bad-chunk":
                    s.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZZZ\r\n\r\n")
                elif mode == "slow":
                    for b in OK:
                        s.sendall(bytes([b]))
                        time.sleep(2)
                elif mode == "killed":
                    s.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nOk.")
                    time.sleep(0.2)
                    os.kill(os.getpid(), signal.SIGKILL)
                elif mode == "garbage":
                    s.sendall(b"\x16\x03\x01\x00\xa5garbage that is no HTTP\r\n\r\n\x00\xff")
                    return
                else:
                    os._exit(2)
        except OSError:
            return


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    srv = Server(("127.0.0.1", 0), Handler)
    threading.Timer(LIMIT_S, lambda: os._exit(4)).start()
    tmp = portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, portfile)
    srv.serve_forever()


main()
