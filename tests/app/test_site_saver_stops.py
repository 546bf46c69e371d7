"""How the saver process stops: a SIGTERM from anyone (`timeout`, `kill`) or a Ctrl+C is said as an interruption
(exit 143 or 130, as any `recordlens` command), not as a cancel nor as an error, and nothing is written; the app's
Cancel (which sends that SIGTERM) still says "cancelled: nothing was saved", unless the page was saved before
the Cancel could stop it."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from PySide6.QtCore import QProcess

from recordlens.annotator.agent.site_saver import SaveFromWeb
from recordlens.core.interruption import Terminated
from tests.ctrl_c import with_ctrl_c
from tests.loopback import LoopbackHandler, base_url, serve

pytestmark = pytest.mark.app

PAGE = b"<!DOCTYPE html><html><head><title>Slow</title></head><body><p>At last.</p></body></html>"
HOLD_S = 60.0  # the page's answer waits this long at most: the saver is stopped while it waits


class _SlowHandler(LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.released.wait(HOLD_S)  # type: ignore[attr-defined]
        self.send(200, PAGE)


@pytest.fixture
def slow_server() -> Iterator[ThreadingHTTPServer]:
    with serve(_SlowHandler) as httpd:
        httpd.released = threading.Event()  # type: ignore[attr-defined]
        try:
            yield httpd
        finally:
            httpd.released.set()  # type: ignore[attr-defined]


def saver_stopped_while_loading(url: str, site: Path, signum: int) -> tuple[int, list[str]]:
    """The saver's exit code and stderr lines, sent `signum` once it says it is loading the page."""
    child = subprocess.Popen(with_ctrl_c([sys.executable, "-m", "recordlens.annotator.agent.site_saver", url,
                                          "--site", str(site), "--json", "--timeout", "90"]), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None
    lines: list[str] = []
    try:
        for line in child.stderr:  # the child ends (and this loop with it) by itself at --timeout at the latest
            lines.append(line.rstrip("\n"))
            if line.startswith("recordlens: loading "):
                child.send_signal(signum)
                break
        lines += child.stderr.read().splitlines()
        return child.wait(timeout=120), lines
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=60)


@pytest.mark.parametrize(("signum", "said", "status"), [
    (signal.SIGTERM, "recordlens: interrupted (SIGTERM)", Terminated.status),
    (signal.SIGINT, "recordlens: interrupted", 130)])
def test_a_signal_stops_the_saver_as_interrupted_and_writes_nothing(slow_server, tmp_path: Path, signum: int,
                                                                    said: str, status: int) -> None:
    site = tmp_path / "site"
    code, lines = saver_stopped_while_loading(base_url(slow_server) + "/slow.html", site, signum)
    assert any(line.startswith("recordlens: loading ") for line in lines), lines
    # Its own last word: Chromium's may come after it on the same stderr (a GPU notice at its shutdown), even run
    # onto the same line
    own = [line for line in lines if line.startswith("recordlens: ")]
    assert code == status and own[-1].startswith(said), lines
    assert not any("error" in line or "Traceback" in line for line in lines), lines
    assert not site.exists()


def test_the_apps_cancel_still_says_cancelled(qtbot, slow_server, tmp_path: Path) -> None:
    saver = SaveFromWeb()
    progress: list[str] = []
    saver.progress.connect(progress.append)
    saver.start(base_url(slow_server) + "/slow.html", tmp_path / "site", timeout_s=90)
    qtbot.waitUntil(lambda: any(text.startswith("loading ") for text in progress), timeout=120_000)
    saver.cancel()
    qtbot.waitUntil(lambda: saver.result is not None, timeout=30_000)
    assert saver.result == {"ok": False, "message": "cancelled: nothing was saved"}
    assert saver.process.exitCode() == Terminated.status  # the saver's own honest exit
    assert not (tmp_path / "site").exists()


def test_a_page_saved_before_the_cancel_could_stop_it_is_said_as_saved() -> None:
    saver = SaveFromWeb()
    saver._cancelled = True  # the Cancel came while the saver re-indexed the site: it saved the page all the same
    saved = {"url": "http://127.0.0.1/a.html", "file": "a.html", "site": "/tmp/site", "message": "saved as a.html"}
    result = saver._result(0, QProcess.ExitStatus.NormalExit, [json.dumps(saved)])
    assert result == {"ok": True, **saved}
