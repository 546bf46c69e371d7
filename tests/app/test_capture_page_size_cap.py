"""A page too large to capture fails at once, said by its size, not after its --timeout as "a script that never
ends" with the capture's memory grown by gigabytes: one whose server says it is 2 GiB (Content-Length) and sends it
as fast as it can, and one sent without a length that never ends, each failed by its size, and the page after them
captured."""

from __future__ import annotations

import json
import subprocess
import time
from urllib.parse import urlsplit

import pytest

from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app

# An HTML comment: Chromium reads it about as fast as it comes, so that what the page has brought is known at once
FILLER = b"x" * (64 * 1024)


class _Huge(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        if path == "/plain":
            self.send(200, b"<!DOCTYPE html><html><head><title>Plain</title></head><body><p>plain</p></body></html>")
            return
        if path == "/framed":  # a page showing a large file in a frame: the file is a download, not the page
            self.send(200, b"<!DOCTYPE html><html><head><title>Framed</title></head><body><p>framed</p>"
                           b'<iframe src="/big.zip"></iframe></body></html>')
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/zip" if path == "/big.zip" else "text/html")
        if path in ("/declared", "/big.zip"):
            self.send_header("Content-Length", str(2 << 30))
        self.end_headers()
        self.close_connection = True  # (the page without a length ends when its connection does)
        try:
            self.wfile.write(b"<!DOCTYPE html><html><body><h1>huge</h1><!--")
            for _ in range((2 << 30) // len(FILLER)):
                self.wfile.write(FILLER)
        except OSError:  # the capture gave it up
            return


def test_a_page_larger_than_the_cap_fails_at_once_by_its_size(tmp_path) -> None:
    with loopback.serve(_Huge) as server:
        base = base_url(server)
        started = time.monotonic()
        done = subprocess.run(capture_argv(base + "/declared", base + "/endless", base + "/plain", "--site",
                                           str(tmp_path / "site"), "--json", "--depth", "0", "--ignore-robots",
                                           "--timeout", "60", "--max-page-size", "4"),
                              capture_output=True, text=True, timeout=400)
        took = time.monotonic() - started
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    failed = dict(summary["failed"])
    assert failed[base + "/declared"] == ("it is too large to capture: its document is 2,048 MiB (its "
                                          "Content-Length), more than 4 MiB, the most a page may be; nothing of it "
                                          "is kept"), summary
    assert failed[base + "/endless"].startswith("it is too large to capture: its document had brought "), summary
    assert failed[base + "/endless"].endswith(" MiB, more than 4 MiB, the most a page may be; nothing of it is kept")
    assert [urlsplit(u).path for u in summary["saved"]] == ["/plain"], summary
    assert took < 60, took  # neither waited for its --timeout


def test_a_large_file_in_a_frame_or_behind_a_link_is_a_download_not_a_page_too_large(tmp_path) -> None:
    with loopback.serve(_Huge) as server:
        base = base_url(server)
        done = subprocess.run(capture_argv(base + "/framed", base + "/big.zip", "--site", str(tmp_path / "site"),
                                           "--json", "--depth", "0", "--ignore-robots", "--timeout", "60",
                                           "--max-page-size", "4"),
                              capture_output=True, text=True, timeout=400)
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert not summary["failed"] and [urlsplit(u).path for u in summary["saved"]] == ["/framed"], summary
    assert dict(summary["no_page"]) == {base + "/big.zip": "not an HTML page (the server sent application/zip to "
                                                           "download)"}, summary  # a file: no page, not a failure
