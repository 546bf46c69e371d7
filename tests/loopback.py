"""An HTTP server on a free port of 127.0.0.1 in a thread of the test process: the web that the online tests
(saving a page, capturing a site) reach, with no network beyond this machine."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# How often a server's thread looks for its shutdown: the default 0.5 s made every server's end cost half a second
# (some 40 s over the suite)
SHUTDOWN_POLL_S = 0.05


class LoopbackHandler(BaseHTTPRequestHandler):
    """A handler base: `send` answers with a whole body, `redirect` with a redirect, and nothing is logged (pytest
    shows stderr)."""

    def handle(self) -> None:
        # A browser that hangs up before the answer is whole (a page left, an image no longer wanted) is no fault of
        # the test: not a traceback in its output
        with suppress(BrokenPipeError, ConnectionResetError):
            super().handle()

    def send(self, status: int, body: bytes, content_type: str = "text/html; charset=utf-8") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, location: str, status: int = 302) -> None:
        self.send_response(status)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def serve(handler: type[BaseHTTPRequestHandler], address: str = "127.0.0.1") -> Iterator[ThreadingHTTPServer]:
    """`handler` serving on a free port of `address` until the block ends (another loopback address, such as
    127.0.0.2, is another host); `server.requests` is an empty list for the handler to note the paths asked for
    in."""
    httpd = ThreadingHTTPServer((address, 0), handler)
    httpd.requests = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, args=(SHUTDOWN_POLL_S,), daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextmanager
def refusing_port() -> Iterator[int]:
    """A port of 127.0.0.1 that refuses every connection until the block ends: bound and kept bound, never listened
    at. A port bound for its number and then freed could be taken meanwhile by a process running beside, which
    would then answer or hang instead of refusing."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield int(held.getsockname()[1])


def base_url(server: ThreadingHTTPServer) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}"


class CountedHandler(LoopbackHandler):
    """Answers every GET with a small page and notes its path in `server.requests`: a page of "the live web" that a
    test asserts is never reached."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        self.send(200, b"<p>live frame</p>")
