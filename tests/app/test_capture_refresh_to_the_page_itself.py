"""A meta refresh to the page itself is one rule, whatever it names: no address (`content="0"`), the page's own URL
(`url=/same`) or a fragment of it (`url=#top`). It is not followed, and the page is captured as it loaded. The
three were told apart: the fragment's reload was rejected, the own URL's followed until it failed as a loop
(`/same → /same`), and the one that names no address reloaded the page too, though `_refresh_delay` called it not
followed. A refresh elsewhere is still followed, and so is a script's reload of the page (a check page that sets a
cookie and reloads), also when the page has a meta refresh to itself due later (a fallback for browsers without
scripts): the reload was taken for that refresh's and dropped, and the check page saved instead of the real one.
Served on 127.0.0.1 (a reload answered late, as by a busy machine, so that a reload let through is read while its
document is still empty) and captured with the real command."""

from __future__ import annotations

import json
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from recordlens.annotator.agent.site_capture import _refresh_delay, _refreshes_itself
from recordlens.core.agent.sites import load_site
from recordlens.core.page.snapshot import read_snapshot
from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app

TEXT = "The page itself."
LATE_S = 2.0  # how long the server takes to send a page asked for again


def _refreshing(content: str, title: str) -> bytes:
    return (f'<!DOCTYPE html><html><head><meta http-equiv="refresh" content="{content}"><title>{title}</title>'
            f'</head><body><h1 id="top">{title}</h1><p>{TEXT}</p></body></html>').encode()


ITSELF = {"/no-address": _refreshing("0", "No address"),
          "/own-address": _refreshing("0; url=/own-address", "Own address"),
          "/quoted": _refreshing("0;URL='/quoted'", "Quoted"),
          "/own-fragment": _refreshing("0; url=#top", "Own fragment")}
PAGES = {**ITSELF,
         "/elsewhere": _refreshing("0; url=/target", "Redirecting"),
         "/target": b"<!DOCTYPE html><html><head><title>Target</title></head><body>target</body></html>"}


def _checking(cookie: str, head: str, reload: str) -> tuple[str, bytes]:
    """A check page: its script sets `cookie` and reloads it (`reload`); with the cookie, the page is the real one."""
    return cookie, (f"<!DOCTYPE html><html><head>{head}<title>Checking</title></head><body>checking<script>"
                    f"document.cookie = '{cookie}; path=/'; {reload}</script></body></html>").encode()


CHECKS = {"/checking": _checking("checked=1", "", "location.reload();"),
          # once loaded, a refresh to itself in 20 s its fallback for browsers without scripts
          "/checking-with-fallback": _checking("fallback=1", "<meta http-equiv='refresh' content='20'>",
                                               "setTimeout(() => location.reload(), 200);")}
REAL = b"<!DOCTYPE html><html><head><title>Real page</title></head><body>the real page</body></html>"


class _Site(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        self.server.requests.append(path)  # type: ignore[attr-defined]
        if path in CHECKS:  # a check page: its script sets a cookie and reloads; with the cookie, the page
            cookie, checking = CHECKS[path]
            self.send(200, REAL if cookie in (self.headers.get("Cookie") or "") else checking)
            return
        if path not in PAGES:
            self.send(404, b"<p>no such page</p>")
            return
        body = PAGES[path]
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.flush()
        if self.server.requests.count(path) > 1:  # type: ignore[attr-defined]
            time.sleep(LATE_S)
        self.wfile.write(body)


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[dict, str, str, Path, Counter[str]]]:
    """(the summary, the capture's stderr, the server's base URL, the site's folder, the requests per path)."""
    with loopback.serve(_Site) as server:
        base = base_url(server)
        folder = tmp_path_factory.mktemp("itself") / "site"
        roots = [*ITSELF, "/elsewhere", *CHECKS]
        done = subprocess.run(capture_argv(*(base + root for root in roots), "--site", str(folder), "--json",
                                           "--depth", "0", "--ignore-robots", "--delay", "0", "--timeout", "30"),
                              capture_output=True, text=True, timeout=600)
        assert done.stdout.strip(), done.stderr[-3000:]
        requests = Counter(path for path in server.requests if path != "/favicon.ico")
        yield json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, base, folder, requests


def _meta(folder: Path, url: str) -> dict:
    return json.loads((folder / load_site(folder).page(url).side_file("meta")).read_text("utf-8"))


@pytest.mark.parametrize("path", list(ITSELF))
def test_a_refresh_to_the_page_itself_is_not_followed_and_the_page_is_kept_as_loaded(captured, path: str) -> None:
    summary, stderr, base, folder, requests = captured
    assert not summary["failed"], (summary["failed"], stderr[-3000:])
    assert requests[path] == 1, (requests, stderr[-3000:])
    page = load_site(folder).page(base + path)
    assert page is not None, (summary, stderr[-3000:])
    assert TEXT in read_snapshot(folder / page.file).html
    assert TEXT in (folder / page.side_file("axtree")).read_text("utf-8")
    assert not _meta(folder, base + path).get("redirects")
    said = [line for line in stderr.splitlines() if path in line and "warning" in line]
    assert not said, said  # (no "changed while it was captured", no "a meta refresh … not waited for")


def test_a_refresh_elsewhere_and_a_scripts_reload_are_followed(captured) -> None:
    summary, stderr, base, folder, requests = captured
    assert _meta(folder, base + "/elsewhere")["title"] == "Target", stderr[-3000:]
    assert requests["/target"] == 1, requests
    for check in CHECKS:
        assert _meta(folder, base + check)["title"] == "Real page", (check, stderr[-3000:])
        assert requests[check] == 2, requests


def test_the_rule_reads_every_way_of_naming_the_page_itself() -> None:
    page = "http://127.0.0.1:8000/dir/page?x=1"
    for content in ("0", "0;", " 0 ; ", "0; url=#top", "0; URL='page?x=1'", "0, /dir/page?x=1#part", "5",
                    f"0; url={page}"):
        assert _refreshes_itself(content, page) and _refresh_delay(content, page) is None, content
    for content in ("0; url=/next", "0; page?x=2", "3;url=other"):
        assert not _refreshes_itself(content, page) and _refresh_delay(content, page) is not None, content
    assert not _refreshes_itself("", page) and not _refreshes_itself("soon", page)  # no refresh at all
