"""`recordlens site capture` stopped by Ctrl+C (SIGINT) or SIGTERM while a page is certainly being captured: the
server holds that page's answer open, trickling it a little at a time (a DevTools message comes with every
piece, so the signal often lands while Python runs a Qt slot, where an exception would be printed and dropped),
until the capture process has ended. The command stops at once as any command does (its summary, then
`recordlens: interrupted`, exit 130; `interrupted (SIGTERM)`, exit 143), with no traceback, the page in flight
neither failed nor saved, and running it again continues the capture. The app's Cancel (SIGTERM too) keeps the
summary of what was saved."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from recordlens.core.agent.sites import load_site
from tests import loopback
from tests.capture_site import capture_argv
from tests.ctrl_c import with_ctrl_c
from tests.loopback import base_url

pytestmark = pytest.mark.app

PAGE_TIMEOUT_S = 120  # the capture's --timeout: a signal it lost would keep it waiting this long
STOPS_WITHIN_S = 60   # what a stop may take on a busy machine, far less than the page's time
HELD_FOR_S = 200      # how long the held page trickles at most


def _page(title: str, body: str) -> bytes:
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><h1>{title}</h1>{body}</body></html>").encode()


PAGES = {
    "/": _page("Home", '<a href="/held">Held</a> <a href="/after">After</a>'),
    "/after": _page("After", "<p>The page after.</p>"),
    "/held": _page("Held", "<p>Its server held it at first.</p>"),
}


class _Handler(loopback.LoopbackHandler):
    """The site above; /held is trickled without end while `server.holding` is set (`server.asked` is set
    once it was asked for), and served whole once that is cleared."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        server = self.server
        path = urlsplit(self.path).path
        server.requests.append(path)  # type: ignore[attr-defined]
        if path == "/held" and server.holding.is_set():  # type: ignore[attr-defined]
            self._trickle(server)
            return
        body = PAGES.get(path)
        if body is None:
            self.send(404, _page("Not found", ""))
        else:
            self.send(200, body)

    def _trickle(self, server: object) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Connection", "close")
        self.end_headers()
        server.asked.set()  # type: ignore[attr-defined]
        deadline = time.monotonic() + HELD_FOR_S
        try:
            self.wfile.write(b"<!DOCTYPE html><html><head><title>Held</title></head><body>")
            row = 0
            while server.holding.is_set() and time.monotonic() < deadline:  # type: ignore[attr-defined]
                row += 1
                self.wfile.write(f"<p>row {row}</p>\n".encode())
                self.wfile.flush()
                time.sleep(0.005)
        except OSError:  # the capture went away: nobody reads any more
            return
        self.close_connection = True


def _capture(url: str, folder: Path) -> list[str]:
    return with_ctrl_c(capture_argv(url, "--site", str(folder), "--depth", "1", "--json", "--timeout",
                                    str(PAGE_TIMEOUT_S), SETTLE_MS=50))


@pytest.mark.parametrize(("signum", "status", "said"), [
    (signal.SIGINT, 130, "recordlens: interrupted\n"),
    (signal.SIGTERM, 143, "recordlens: interrupted (SIGTERM)\n"),
])
def test_a_signal_mid_page_stops_the_capture_at_once_and_it_continues(tmp_path: Path, signum: int, status: int,
                                                                      said: str) -> None:
    folder = tmp_path / "site"
    with loopback.serve(_Handler) as httpd:
        httpd.holding, httpd.asked = threading.Event(), threading.Event()
        httpd.holding.set()
        try:
            _interrupt_then_continue(httpd, folder, signum, status, said)
        finally:
            httpd.holding.clear()  # the held answer ends: its thread does not outlive the test


def _interrupt_then_continue(httpd: object, folder: Path, signum: int, status: int, said: str) -> None:
    url = base_url(httpd) + "/"
    process = subprocess.Popen(_capture(url, folder), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert httpd.asked.wait(180), "the capture never asked for the held page"
        time.sleep(0.5)  # its answer trickling in, DevTools messages with every piece
        sent = time.monotonic()
        process.send_signal(signum)
        out, err = process.communicate(timeout=PAGE_TIMEOUT_S + 60)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == status, err[-3000:]
    assert took < STOPS_WITHIN_S, (took, err[-3000:])
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert err.endswith(said), err[-3000:]
    assert "running the same command again continues it" in err
    summary = json.loads(out.strip().splitlines()[-1])  # what it did until then, said as a stopped capture's
    assert [urlsplit(u).path for u in summary["saved"]] == ["/"]
    assert summary["failed"] == [] and summary["queued"] == 2
    state = json.loads((folder / "capture.json").read_text(encoding="utf-8"))
    assert [urlsplit(u).path for u, _ in state["queue"]] == ["/held", "/after"]  # neither failed nor skipped
    assert not [o for o in state["outcomes"].values() if urlsplit(o["url"]).path != "/"]
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []  # no lock nor part left

    httpd.holding.clear()  # the page is served whole now
    before = len(httpd.requests)
    again = subprocess.run(_capture(url, folder), capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-3000:]
    resumed = json.loads(again.stdout.strip().splitlines()[-1])
    assert resumed["resumed"] is True and resumed["failed"] == []
    assert sorted(urlsplit(u).path for u in resumed["saved"]) == ["/after", "/held"]
    assert "/" not in httpd.requests[before:]  # the home page was saved before the signal: not loaded again
    assert {urlsplit(p.url).path for p in load_site(folder).pages} == {"/", "/held", "/after"}


def test_the_apps_cancel_mid_page_keeps_the_summary_of_what_was_saved(qtbot, tmp_path: Path) -> None:
    from recordlens.annotator.agent.site_capture import CaptureFromWeb

    folder = tmp_path / "site"
    with loopback.serve(_Handler) as httpd:
        httpd.holding, httpd.asked = threading.Event(), threading.Event()
        httpd.holding.set()
        try:
            process = CaptureFromWeb()
            process.start([base_url(httpd) + "/"], folder, ["--depth", "1", "--timeout", str(PAGE_TIMEOUT_S)])
            qtbot.waitUntil(httpd.asked.is_set, timeout=180_000)
            started = time.monotonic()
            process.cancel()  # SIGTERM: the command says what it saved, then exits as interrupted (143)
            qtbot.waitUntil(lambda: process.result is not None, timeout=(PAGE_TIMEOUT_S + 60) * 1000)
            assert time.monotonic() - started < STOPS_WITHIN_S
        finally:
            httpd.holding.clear()
    result = process.result
    assert result["ok"] is True and str(result["message"]).startswith("cancelled: "), result
    assert [urlsplit(u).path for u in result["saved"]] == ["/"] and result["failed"] == [] and result["queued"] == 2
