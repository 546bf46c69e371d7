"""Pages whose scripts work against the capture, served on 127.0.0.1 and captured with the real command (and saved
with "Save a page from the web"'s process): a dialog (alert, confirm, prompt) never blocks, a script that never
ends fails its own page only (its renderer ended, the pages after it captured), a service worker never registers,
and nothing is ever POSTed to the site."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
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

# A page's script writes what its dialogs answered into the page, so the saved page shows it.
DIALOGS = """<script>
  alert('Welcome!');
  const ok = confirm('Accept cookies?');
  const name = prompt('Your name?', 'someone');
  document.addEventListener('DOMContentLoaded', () => {
    document.getElementById('answers').textContent = `confirm=${ok} prompt=${name}`;
  });
</script>"""
SERVICE_WORKER = "self.addEventListener('fetch', e => { fetch('/sw-saw?' + encodeURIComponent(e.request.url)); });"


def _page(title: str, body: str) -> bytes:
    return (f"<!DOCTYPE html><html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"
            ).encode()


PAGES = {
    "/dialogs": _page("Dialogs", f"{DIALOGS}<p id='answers'>none yet</p>"),
    "/loops": _page("Loops", "<p>looping</p><script>while (true) {}</script>"),
    "/loops-later": _page("Loops later", "<p>loaded</p><script>setTimeout(() => { while (true) {} }, 50);</script>"),
    "/worker": _page("Worker", "<script>navigator.serviceWorker.register('/sw.js')"
                               ".then(() => fetch('/sw-registered'), () => fetch('/sw-refused'));</script>"),
    "/posts": _page("Posts", "<form id='f' method='post' action='/posted'><input name='secret' value='data'></form>"
                             "<script>fetch('/api', {method: 'POST', body: 'x=1'});"
                             "document.getElementById('f').submit();</script>"),
    **{f"/p{i}": _page(f"Plain {i}", f"<p>plain page {i}</p>") for i in range(1, 7)},
}


class _Hostile(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(f"GET {self.path}")  # type: ignore[attr-defined]
        path = urlsplit(self.path).path
        if path == "/sw.js":
            self.send(200, SERVICE_WORKER.encode(), "text/javascript")
        elif path in PAGES:
            self.send(200, PAGES[path])
        else:
            self.send(404, _page("Not found", ""))

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(f"POST {self.path}")  # type: ignore[attr-defined]
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send(200, _page("Posted", "<p>thank you</p>"))


def capture(urls: list[str], site: Path, *more: str, **limits: object) -> tuple[dict, str]:
    """The capture command's summary and stderr; a capture that hangs is killed after a generous time. `limits`:
    the capture module's, lowered (`capture_argv`)."""
    done = subprocess.run(capture_argv(*urls, "--site", str(site), "--json", "--depth", "0", "--ignore-robots",
                                       *more, **limits), capture_output=True, text=True, timeout=240)
    assert done.stdout.strip(), done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def path_of(url: str) -> str:
    return urlsplit(url).path


CAPTURED = ["/dialogs", "/p1", "/worker", "/posts", "/p2"]  # a plain page after each that works against the capture


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[dict, str, list[str], Path, str]]:
    """One capture, shared, of the dialogs' page and the service worker's and posting pages, with plain pages after
    them: (its summary, its stderr, the requests the server got, the site folder, the server's base URL)."""
    folder = tmp_path_factory.mktemp("hostile") / "site"
    with loopback.serve(_Hostile) as server:
        base = base_url(server)
        summary, stderr = capture([base + p for p in CAPTURED], folder, "--timeout", "30")
        yield summary, stderr, list(server.requests), folder, base


def test_dialogs_never_block_a_capture_or_a_save(captured, tmp_path) -> None:
    summary, stderr, _, folder, base = captured
    saver = subprocess.run([sys.executable, "-m", "recordlens.annotator.agent.site_saver", base + "/dialogs",
                            "--site", str(tmp_path / "saved"), "--json", "--timeout", "30"],
                           capture_output=True, text=True, timeout=240)
    assert [path_of(u) for u in summary["saved"]] == CAPTURED and not summary["failed"], summary
    page = load_site(folder).page(base + "/dialogs")
    assert "confirm=false prompt=null" in read_snapshot(folder / page.file).html  # answered Cancel
    warning = (f"recordlens: warning: {base}/dialogs: its scripts' dialogs were answered without "
               "showing them: alert('Welcome!') ignored; confirm('Accept cookies?') answered Cancel; "
               "prompt('Your name?') answered Cancel")
    assert warning in stderr.splitlines(), stderr[-3000:]
    assert saver.returncode == 0, saver.stderr[-3000:]
    saved = json.loads(saver.stdout.strip().splitlines()[-1])
    assert "confirm=false prompt=null" in read_snapshot(tmp_path / "saved" / saved["file"]).html
    assert "alert('Welcome!') ignored" in saved["message"]


def test_a_page_that_never_stops_running_fails_alone(tmp_path) -> None:
    """A page whose script loops while it loads, one whose script loops once loaded, then six plain pages: each
    looping page fails as its own (its server answered), and every plain page after them is captured.
    Each looping page takes all of its time, so that time is lowered (the --timeout and the capture's margin):
    still seconds more than a plain page takes to load and to be captured."""
    with loopback.serve(_Hostile) as server:
        urls = [base_url(server) + p for p in ("/loops", "/loops-later", *(f"/p{i}" for i in range(1, 7)))]
        summary, _ = capture(urls, tmp_path / "site", "--timeout", "5", CAPTURE_MARGIN_S=3)
    failed = {path_of(u): why for u, why in summary["failed"]}
    assert failed == {
        "/loops": "did not finish loading within 5 s: its server answered, but a script of the page kept it busy "
                  "(a script that never ends)",
        "/loops-later": "capturing it took too long: reading its links got no answer (a page has the --timeout of "
                        "5 s to load and 3 s more to be captured)",
    }, summary
    assert [path_of(u) for u in summary["saved"]] == [f"/p{i}" for i in range(1, 7)], summary
    assert not summary["stopped"] and not any("stopped answering" in n for n in summary["notes"])


def test_a_capture_registers_no_service_worker_and_posts_nothing(captured) -> None:
    summary, stderr, asked, folder, base = captured
    assert [path_of(u) for u in summary["saved"]] == CAPTURED, summary
    methods = Counter(r.split()[0] for r in asked)
    assert methods["POST"] == 0, asked  # neither the form the script submitted nor its fetch
    assert "GET /sw.js" not in asked and "GET /sw-refused" in asked, asked  # never registered...
    assert not [r for r in asked if r.startswith("GET /sw-saw")], asked  # ...so no later load went through it
    posts = load_site(folder).page(base + "/posts")
    assert "Posts" in read_snapshot(folder / posts.file).html  # the page as served, not the POST's
    lines = stderr.splitlines()
    assert (f"recordlens: warning: {base}/worker: its service worker was not registered (its script "
            f"was blocked): {base}/sw.js") in lines, stderr[-3000:]
    said = [line for line in lines if line.startswith(f"recordlens: warning: {base}/posts: ")]
    assert len(said) == 1 and "requests that send data were blocked" in said[0], stderr[-3000:]
    assert f"POST {base}/posted" in said[0] and f"POST {base}/api" in said[0]
