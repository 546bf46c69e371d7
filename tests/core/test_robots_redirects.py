"""A robots.txt that redirects, fetched from real servers on 127.0.0.1: followed within its site over http(s) (RFC
9309 §2.3.1.2: five in a row at least), never to another scheme (ftp:, file:) nor to another port, which are said
as where it led; and read as none there when it still redirects after five. A redirect of a page to another scheme is
skipped as such by the crawl, and no robots.txt is asked of that address."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from pathlib import Path

from recordlens.core.agent.capture import CaptureRules, capture_site
from recordlens.core.agent.robots import Robots
from tests import loopback
from tests.core.canned_web import Web

RULES = b"User-agent: *\nDisallow: /private/\n"


class _Robots(loopback.LoopbackHandler):
    """/robots.txt redirects to `server.target` (a path or a URL); /hop/N redirects to /hop/N-1, /hop/0 to the rules."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        if self.path == "/robots.txt":
            self.redirect(self.server.target)  # type: ignore[attr-defined]
        elif self.path.startswith("/hop/"):
            left = int(self.path.rsplit("/", 1)[1])
            self.redirect(f"/hop/{left - 1}" if left else "/rules.txt")
        elif self.path == "/rules.txt":
            self.send(200, RULES, "text/plain")
        else:
            self.send(404, b"")


@contextmanager
def _site(target: str) -> Iterator[ThreadingHTTPServer]:
    with loopback.serve(_Robots) as server:
        server.target = target  # type: ignore[attr-defined]
        yield server


@contextmanager
def _banner() -> Iterator[tuple[list[str], int]]:
    """A TCP port of 127.0.0.1 that greets whoever connects as an HTTP server would, and notes each connection: what
    a robots.txt fetch that followed an ftp:// redirect there took for its reason."""
    heard: list[str] = []
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            heard.append("a connection")
            connection.sendall(b"HTTP/1.1 200 OK\r\n")
            connection.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield heard, int(listener.getsockname()[1])
    finally:
        listener.close()


def test_a_redirect_to_ftp_is_not_followed_and_said() -> None:
    with _banner() as (heard, port), _site(f"ftp://127.0.0.1:{port}/robots.txt") as server:
        robots = Robots(timeout_s=10)
        why = robots.unreachable(loopback.base_url(server) + "/page")
    assert why.startswith(f"its host's robots.txt could not be read (it redirects to ftp://127.0.0.1:{port}/"
                          "robots.txt, which is not followed: only http(s) is)"), why
    assert "--ignore-robots" in why and "HTTP/1.1" not in why
    assert heard == []  # no connection to the other port
    assert len(robots.notes) == 1 and f"ftp://127.0.0.1:{port}/robots.txt" in robots.notes[0]


def test_a_redirect_to_a_file_is_not_followed_and_disallows_all(tmp_path: Path) -> None:
    with _site((tmp_path / "robots.txt").as_uri()) as server:
        robots = Robots(timeout_s=10)
        base = loopback.base_url(server)
        assert not robots.allowed(base + "/page")  # (not: urllib's refusal taken for no robots.txt at all)
        assert "it redirects to file:" in robots.unreachable(base + "/page")


def test_a_redirect_to_another_port_is_not_followed() -> None:
    with _site("/nothing") as other, _site(f"{loopback.base_url(other)}/rules.txt") as server:
        robots = Robots(timeout_s=10)
        why = robots.unreachable(loopback.base_url(server) + "/page")
        assert other.requests == []  # type: ignore[attr-defined]
    assert f"it redirects to {loopback.base_url(other)}/rules.txt, another site, which is not followed" in why


def test_five_redirects_within_the_site_are_followed_and_a_sixth_is_not() -> None:
    with _site("/hop/3") as server:  # robots.txt, then 5 redirects in all: the rules
        robots = Robots(timeout_s=10)
        base = loopback.base_url(server)
        assert not robots.allowed(base + "/private/a") and robots.allowed(base + "/open")
    with _site("/hop/4") as server:  # 6: read as none there, every page allowed, and said
        robots = Robots(timeout_s=10)
        base = loopback.base_url(server)
        assert robots.allowed(base + "/private/a") and not robots.unreachable(base + "/private/a")
        assert "/rules.txt" not in server.requests  # type: ignore[attr-defined]
    assert robots.notes == [f"{base}/robots.txt leads to no robots.txt (it redirects more than 5 times in a row): "
                            "read as none there, as RFC 9309 allows, so every page of its host may be loaded"]


def test_a_page_redirected_to_another_scheme_is_skipped_and_no_robots_txt_is_asked_there(tmp_path: Path) -> None:
    root = "http://site.example/"
    web = Web({root: ("Home", ["/to-ftp", "/to-file"])},
              redirects={root + "to-ftp": "ftp://files.example/a", root + "to-file": "file:///etc/hostname"})
    asked: list[str] = []
    robots = Robots(lambda url: asked.append(url) or (404, ""))  # type: ignore[func-returns-value]
    summary = capture_site([root], tmp_path, web, CaptureRules(depth=1, same_host=False), robots=robots)
    assert dict(summary.skipped) == {
        root + "to-ftp": "redirects to ftp://files.example/a: not a web address (ftp:), which a capture does not "
                         "load (http and https only)",
        root + "to-file": "redirects to file:///etc/hostname: not a web address (file:), which a capture does not "
                          "load (http and https only)"}
    assert asked == ["http://site.example/robots.txt"]
