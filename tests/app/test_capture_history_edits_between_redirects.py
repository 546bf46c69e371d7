"""A page whose script edits its own history entry (history.replaceState, history.pushState) while the navigation
it started is still going through HTTP redirects had each of those redirects counted as a navigation of its script
(one of `MAX_CLIENT_HOPS`): the guard told a script's navigation from a redirect's hop by whether the history
entry the page shows had changed since the navigation asked before, and an entry the page's script edited looked
like a document shown. One navigation through six slow redirects then failed as "sent it on to another page more
than 5 times in a row". A navigation is now one of the page's when the page showed the document of the one asked
before (its entry new since then, and of that URL), which an entry the page edited to another URL is not. Served
on 127.0.0.1 and captured with the real command."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app

REDIRECTS = 6  # one more than MAX_CLIENT_HOPS: each counted, the page would fail
REDIRECT_S = 0.3  # how long each redirect takes to come: the page's script edits its entry meanwhile, many times


def _leaving(edit: str) -> bytes:
    """A page that, once loaded, goes to /NAME-r1 (a chain of slow HTTP redirects), and meanwhile keeps editing its
    own history entry with `edit` (replaceState, pushState) every 20 ms."""
    return (f"<!DOCTYPE html><html><head><title>Leaving</title><script>addEventListener('load', function () {{ "
            f"var n = 0; setInterval(function () {{ history.{edit}(null, '', location.pathname + '?n=' + (n++)); }}, "
            f"20); setTimeout(function () {{ location.href = '/{edit}-r1'; }}, 100); }});</script></head>"
            "<body>Leaving</body></html>").encode()


def _real(title: str) -> bytes:
    return f"<!DOCTYPE html><html><head><title>{title}</title></head><body>{title}</body></html>".encode()


EDITS = ("replaceState", "pushState")


class _Site(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        self.server.requests.append(path)  # type: ignore[attr-defined]
        edit, _, step = path.strip("/").partition("-")
        if edit not in EDITS:
            self.send(404, b"<p>no such page</p>")
        elif step == "start":
            self.send(200, _leaving(edit))
        elif step == "end":
            self.send(200, _real(f"Arrived after {edit}"))
        else:  # /EDIT-rN: a slow redirect to the next, the last to the end
            time.sleep(REDIRECT_S)
            hop = int(step.removeprefix("r"))
            self.redirect(f"/{edit}-r{hop + 1}" if hop < REDIRECTS else f"/{edit}-end")


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[dict, str, str]]:
    """(the summary, the capture's stderr, the server's base URL)."""
    with loopback.serve(_Site) as server:
        base = base_url(server)
        folder = tmp_path_factory.mktemp("edits") / "site"
        done = subprocess.run(capture_argv(*[f"{base}/{edit}-start" for edit in EDITS], "--site", str(folder),
                                           "--json", "--depth", "0", "--ignore-robots", "--delay", "0",
                                           "--timeout", "30", SETTLE_MS=3000),
                              capture_output=True, text=True, timeout=600)
        assert done.stdout.strip(), done.stderr[-3000:]
        yield json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, base


@pytest.mark.parametrize("edit", EDITS)
def test_the_redirects_of_a_page_that_edits_its_history_entry_are_not_counted(captured, edit: str) -> None:
    summary, stderr, base = captured
    assert f"{base}/{edit}-end" in summary["saved"], (summary, stderr[-3000:])
