"""A check page whose script reloads it, the reload asked again (its script's) and failing (its server closes the
connection with no answer), fails as a page that did not load, also when the network's events that say the
failure come late (a busy machine: they reach the capture on another channel than the load's end). The reload the
guard held ends as a load that failed, which is not the page's failure; but that was said of every failed load
after it, for the rest of the page's capture: the reload's own failure was taken for a load that ended well, and the
check page saved as the page, with no word.

The late events are made certain: the capture runs with the Network domain's `loadingFailed` events held back for
longer than the page's capture takes. Served on 127.0.0.1 and captured with the real command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests import loopback
from tests.loopback import base_url

pytestmark = pytest.mark.app

CHECKING = (b"<!DOCTYPE html><html><head><title>Checking</title></head><body>checking<script>"
            b"setTimeout(() => location.reload(), 200);</script></body></html>")

# The command, with every Network.loadingFailed event the capture's DevTools session gets held back for a minute.
_FAILURES_SAID_LATE = """
import sys
from PySide6.QtCore import QTimer
from recordlens.annotator.agent import devtools
heard = devtools.DevToolsSession._on_message
def late_failures(self, text):
    if '"Network.loadingFailed"' in text:
        QTimer.singleShot(60_000, lambda: heard(self, text))
    else:
        heard(self, text)
devtools.DevToolsSession._on_message = late_failures
from recordlens.annotator.cli import main
sys.exit(main(sys.argv[1:]))
"""


class _Site(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        self.server.requests.append(path)  # type: ignore[attr-defined]
        if path != "/check":
            self.send(404, b"<p>no such page</p>")
        elif self.server.requests.count(path) == 1:  # type: ignore[attr-defined]
            self.send(200, CHECKING)
        else:  # the reload: no answer at all (net::ERR_EMPTY_RESPONSE)
            self.close_connection = True


def test_the_failed_load_of_a_reload_followed_is_the_pages_failure(tmp_path: Path) -> None:
    with loopback.serve(_Site) as server:
        folder = tmp_path / "site"
        argv = [sys.executable, "-c", _FAILURES_SAID_LATE, "site", "capture", base_url(server) + "/check",
                "--site", str(folder), "--json", "--depth", "0", "--ignore-robots", "--delay", "0", "--timeout", "30"]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
        requests = [path for path in server.requests if path != "/favicon.ico"]
    assert done.stdout.strip(), done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert requests == ["/check", "/check"], (requests, done.stderr[-3000:])  # the reload was followed
    assert summary["saved"] == [], (summary, done.stderr[-3000:])  # the check page is not the page
    assert [failure[0] for failure in summary["failed"]] == [base_url(server) + "/check"], summary
