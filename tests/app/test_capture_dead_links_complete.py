"""`recordlens site capture` of a site with dead links, served on 127.0.0.1: a link answered 404 (with a page, or
with no body, which Chromium fails as ERR_HTTP_RESPONSE_CODE_FAILURE) or 410 is a dead link, not a failure. The
first run exits 0; the same command again loads nothing, says the crawl is complete and names the dead links, and
exits 0; --retry-dead asks for them again. A 500 beside a dead link still fails, is tried again on the next run,
and makes the exit status 1 each time."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests import loopback
from tests.capture_site import capture_summary
from tests.loopback import base_url

pytestmark = pytest.mark.app


class _DeadLinks(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        self.server.requests.append(path)  # type: ignore[attr-defined]
        if path == "/":
            self.send(200, b'<html><title>Home</title><body><a href="/gone">gone</a> <a href="/empty">empty</a> '
                           b'<a href="/removed">removed</a> <a href="/ok">ok</a></body></html>')
        elif path == "/flaky-home":
            self.send(200, b'<html><title>Flaky</title><body><a href="/broken">broken</a> '
                           b'<a href="/gone">gone</a></body></html>')
        elif path == "/ok":
            self.send(200, b"<html><title>OK</title><body>ok</body></html>")
        elif path == "/removed":
            self.send(410, b"<html><title>Gone</title><body>removed for good</body></html>")
        elif path == "/broken":
            self.send(500, b"<html><title>Error</title><body>try later</body></html>")
        elif path == "/empty":
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send(404, b"<html><title>Not found</title><body>no such page</body></html>")


def _dead(summary: dict) -> dict[str, str]:
    return {urlsplit(url).path: why for url, why in summary["dead"]}


DEAD = {"/gone": "HTTP 404 Not Found", "/empty": "HTTP 404 Not Found", "/removed": "HTTP 410 Gone"}


def test_a_crawl_with_dead_links_is_complete_and_says_so_when_run_again(tmp_path: Path) -> None:
    folder = tmp_path / "site"
    with loopback.serve(_DeadLinks) as server:
        root = base_url(server) + "/"
        code, first, stderr = capture_summary(root, folder)
        assert (code, first["failed"], _dead(first)) == (0, [], DEAD), stderr[-3000:]
        asked = Counter(server.requests)
        code, again, stderr = capture_summary(root, folder)
        assert code == 0 and Counter(server.requests) == asked, stderr[-3000:]  # nothing loaded again
        assert again["complete_since"] and _dead(again) == DEAD  # named, from the crawl
        assert "already complete" in stderr and "its 3 dead link(s) not asked again either" in stderr
        assert json.loads((folder / "capture.json").read_text())["completed_at"]
        code, retried, stderr = capture_summary(root, folder, "--retry-dead")
        assert (code, _dead(retried)) == (0, DEAD), stderr[-3000:]
        assert all(server.requests.count(path) == 2 for path in DEAD), server.requests


def test_a_failure_beside_a_dead_link_is_tried_again_and_the_dead_link_is_not(tmp_path: Path) -> None:
    folder = tmp_path / "site"
    with loopback.serve(_DeadLinks) as server:
        root = base_url(server) + "/flaky-home"
        for run in (1, 2):
            code, summary, stderr = capture_summary(root, folder)
            assert code == 1 and [urlsplit(u).path for u, _ in summary["failed"]] == ["/broken"], stderr[-3000:]
            assert server.requests.count("/broken") == run and server.requests.count("/gone") == 1
