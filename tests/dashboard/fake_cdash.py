#!/usr/bin/env python3
"""A fake CDash for testing scripts/dashboard.cmake: answers CTest's submission as CDash
does (one HTTP PUT per part to submit.php?project=...&FileName=..., a small XML reply
with a status and the md5 of what arrived), and records what it received.

  fake_cdash.py --port-file F --record DIR [--answer ok|error|refuse] [--token T] [--lifetime S]

Binds 127.0.0.1 only, on a free port it writes to F. Each request is appended to
DIR/requests.jsonl (method, path, query, a few headers, body size and md5, and whether
the Authorization header matched --token: the header itself is never written), each
body to DIR/<n>-<FileName>. --answer error: HTTP 200 with <status>ERROR</status>;
refuse: HTTP 401. With --token, a request without "Authorization: Bearer T" gets 401.
Stops by itself after --lifetime seconds (default 120). Python 3 standard library only.
"""
import argparse
import hashlib
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

REPLY = '<cdash version="3.2.0">\n  <status>{status}</status>\n  <message>{message}</message>\n  <md5>{md5}</md5>\n</cdash>\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--record", required=True)
    ap.add_argument("--answer", choices=["ok", "error", "refuse"], default="ok")
    ap.add_argument("--token")
    ap.add_argument("--lifetime", type=float, default=120)
    args = ap.parse_args()
    os.makedirs(args.record, exist_ok=True)
    log_path = os.path.join(args.record, "requests.jsonl")
    lock = threading.Lock()
    count = [0]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # answers curl's "Expect: 100-continue" at once

        def log_message(self, fmt, *a):
            sys.stderr.write("fake_cdash: " + (fmt % a) + "\n")

        def _body(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                data = b""
                while True:
                    size = int(self.rfile.readline().strip() or b"0", 16)
                    if size == 0:
                        self.rfile.readline()
                        return data
                    data += self.rfile.read(size)
                    self.rfile.readline()
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def _answer(self, code, text):
            payload = text.encode()
            self.send_response(code)
            self.send_header("Content-Type", "text/xml")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _handle(self):
            body = self._body()
            url = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            md5 = hashlib.md5(body).hexdigest()
            auth = self.headers.get("Authorization")
            with lock:
                count[0] += 1
                n = count[0]
                name = os.path.basename(query.get("FileName", "body")) or "body"
                with open(os.path.join(args.record, "%03d-%s" % (n, name)), "wb") as f:
                    f.write(body)
                record = {"n": n, "method": self.command, "path": url.path, "query": query,
                          "user_agent": self.headers.get("User-Agent"), "expect": self.headers.get("Expect"),
                          "content_type": self.headers.get("Content-Type"), "size": len(body), "md5": md5,
                          "authorization": None if auth is None else (args.token is not None and auth == "Bearer " + args.token)}
                with open(log_path, "a") as f:
                    f.write(json.dumps(record, sort_keys=True) + "\n")
            if args.answer == "refuse" or (args.token is not None and auth != "Bearer " + args.token):
                self._answer(401, "Unauthorized\n")
            elif args.answer == "error":
                self._answer(200, REPLY.format(status="ERROR", message="Project hostcb does not exist", md5=md5))
            else:
                self._answer(200, REPLY.format(status="OK", message="", md5=md5))

        do_PUT = do_POST = do_GET = _handle

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)
    threading.Timer(args.lifetime, server.shutdown).start()
    start = time.time()
    server.serve_forever(poll_interval=0.2)
    sys.stderr.write("fake_cdash: stopped after %.0f s\n" % (time.time() - start))


if __name__ == "__main__":
    main()
