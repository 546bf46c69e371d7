"""A meta refresh that takes the page nowhere is no navigation to wait for or to call a loop. Chromium reloads the
very page for a refresh to its own fragment (`url=#top`), again and again, and refuses one to a `data:` or `file:`
address outright ("Not allowed to navigate top frame to data URL"). The capture failed the first as a loop
(`/a → /a`) and held the others for the page's whole --timeout, waiting for a refresh that never goes, before it
saved them with a warning that the refresh had not gone. Each is saved now, at once and without any warning: the
reloads of the first are rejected, so that it is read whole as first shown, on a busy machine too
(test_capture_refresh_to_its_own_fragment.py). Served on 127.0.0.1 and captured with the real command."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app


def _refreshing_to(target: str, title: str) -> bytes:
    return (f'<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url={target}"><title>{title}</title>'
            f'</head><body><h1 id="top">{title}</h1><p>The page itself.</p></body></html>').encode()


PAGES = {"/own-fragment": _refreshing_to("#top", "Own fragment"),
         "/data-address": _refreshing_to("data:text/html,elsewhere", "Data address"),
         "/file-address": _refreshing_to("file:///etc/hostname", "File address")}


class _Site(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        self.send(200, PAGES[path]) if path in PAGES else self.send(404, b"<p>no such page</p>")


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[dict, str, str]]:
    """(the summary, the capture's stderr, the server's base URL)."""
    with loopback.serve(_Site) as server:
        base = base_url(server)
        folder = tmp_path_factory.mktemp("nowhere") / "site"
        done = subprocess.run(capture_argv(*(base + path for path in PAGES), "--site", str(folder), "--json",
                                           "--depth", "0", "--ignore-robots", "--delay", "0", "--timeout", "20"),
                              capture_output=True, text=True, timeout=600)
        assert done.stdout.strip(), done.stderr[-3000:]
        yield json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, base


@pytest.mark.parametrize("path", list(PAGES))
def test_a_refresh_that_goes_nowhere_is_saved_at_once(captured, path: str) -> None:
    summary, stderr, base = captured
    assert not summary["failed"], (summary["failed"], stderr[-3000:])
    assert any(saved.startswith(base + path) for saved in summary["saved"]), (summary, stderr[-3000:])
    said = [line for line in stderr.splitlines() if path in line and "warning" in line]
    assert not said, said  # (no "it has a meta refresh … which had not gone": its --timeout was not waited out)
