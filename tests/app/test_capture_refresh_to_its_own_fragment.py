"""A meta refresh to the page's own fragment (`url=#top`) is, for Chromium, no move within the page, as a link to
`#top` is: it reloads the page, and the page reloaded refreshes again, for ever. The capture let those reloads
through and read the page while they came, so that on a busy machine its links, tree, screenshot or saved page were
of a reload's document not parsed yet (blank, or said to have "changed while it was captured"), and its server was
asked for it dozens of times. The reloads are rejected now: the page is kept whole, as first shown.

A busy renderer is played by the server here: it sends a reload its headers at once and the page only later, so
that a reload let through is read while its document is still empty, on any machine. Served on 127.0.0.1 and
captured with the real command."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from recordlens.core.agent.sites import load_site
from recordlens.core.page.snapshot import read_snapshot
from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app

TEXT = "The page itself."
PAGE = ('<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=#top"><title>Own fragment</title>'
        f'</head><body><h1 id="top">Own fragment</h1><p>{TEXT}</p></body></html>').encode()
LATE_S = 2.0  # how long the server takes to send the page again once it sent its headers


class _Site(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if urlsplit(self.path).path != "/own-fragment":
            self.send(404, b"<p>no such page</p>")
            return
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        again = len(self.server.requests) > 1  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.flush()
        if again:
            time.sleep(LATE_S)
        self.wfile.write(PAGE)


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[dict, str, str, Path, list[str]]]:
    """(the summary, the capture's stderr, the page's URL, the site's folder, the requests its server had)."""
    with loopback.serve(_Site) as server:
        url = base_url(server) + "/own-fragment"
        folder = tmp_path_factory.mktemp("own-fragment") / "site"
        done = subprocess.run(capture_argv(url, "--site", str(folder), "--json", "--depth", "0", "--ignore-robots",
                                           "--delay", "0", "--timeout", "20"),
                              capture_output=True, text=True, timeout=600)
        assert done.stdout.strip(), done.stderr[-3000:]
        yield json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, url, folder, list(server.requests)


def test_the_page_is_not_loaded_again(captured) -> None:
    summary, stderr, _url, _folder, requests = captured
    assert not summary["failed"], (summary["failed"], stderr[-3000:])
    assert requests == ["/own-fragment"], (requests, stderr[-3000:])


def test_it_is_kept_whole_as_first_shown(captured) -> None:
    summary, stderr, url, folder, _requests = captured
    page = load_site(folder).page(url)
    assert page is not None, (summary, stderr[-3000:])
    assert TEXT in read_snapshot(folder / page.file).html
    assert TEXT in (folder / page.side_file("axtree")).read_text("utf-8")
    said = [line for line in stderr.splitlines() if "warning" in line]
    assert not said, said  # (neither "holds nothing" nor "changed while it was captured")
