"""Saving a page from the web: the saver process against a real HTTP server on 127.0.0.1 ("online" here means
reachable), an unreachable address and a response that is not HTML, and the agent window's action that runs the
process in the background and then shows the saved page in the site."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from recordlens.annotator.agent.site_saver import ERROR_PREFIX
from recordlens.core.agent import site_file_name
from recordlens.core.agent.sites import load_site
from recordlens.core.page.snapshot import read_snapshot
from tests.app.agent_helpers import agent_window_on_shop
from tests.app.agent_site import PNG_1PX, make_site
from tests.loopback import LoopbackHandler, base_url, serve

pytestmark = pytest.mark.app

CSS = b"body { color: #123456 }"
PAGE = b"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>Field notes</title>
<link rel="stylesheet" href="style.css"></head>
<body><h1>Field notes</h1><p>Seen today: <img src="pic.png" alt="a bird" width="10" height="10"></p>
<a href="/other.html">Other notes</a></body></html>"""
FILES = {"/page.html": ("text/html; charset=utf-8", PAGE), "/style.css": ("text/css", CSS),
         "/pic.png": ("image/png", PNG_1PX), "/data.json": ("application/json", b'{"birds": 3}')}


class _Handler(LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        found = FILES.get(self.path)
        if found is None:
            self.send_error(404)
            return
        content_type, body = found
        self.send(200, body, content_type)


@pytest.fixture(scope="module")
def server() -> Iterator[ThreadingHTTPServer]:
    with serve(_Handler) as httpd:
        yield httpd


def url_of(server: ThreadingHTTPServer, path: str) -> str:
    return base_url(server) + path


def save(url: str, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "recordlens.annotator.agent.site_saver", url, "--site", str(site),
                           "--json", "--timeout", "20"], capture_output=True, text=True, timeout=90)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once the socket is closed


def listing(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(folder).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*")} if folder.exists() else {}


def test_the_saver_process_saves_a_reachable_page_with_its_resources_and_indexes_it(server, tmp_path):
    url = url_of(server, "/page.html")
    site = tmp_path / "notes"
    done = save(url, site)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["url"] == url and result["file"] == site_file_name(url) and not result["replaced"]
    saved = site / result["file"]
    assert saved.is_file() and saved.suffix == ".mhtml"
    snapshot = read_snapshot(saved)
    assert snapshot.url == url and snapshot.title == "Field notes" and "Seen today" in snapshot.html
    assert load_site(site).resolve(url) == saved
    assert json.loads((site / "site.json").read_text())["pages"] == [
        {"url": url, "file": result["file"], "title": "Field notes"}]
    by_location = {r.location: r for r in snapshot.resources.values()}
    assert by_location[url_of(server, "/pic.png")].data == PNG_1PX
    assert b"rgb(18, 52, 86)" in by_location[url_of(server, "/style.css")].data  # Chromium re-serialises CSS
    assert "recordlens: loading " + url in done.stderr
    assert [p for p in site.iterdir() if p.name.endswith(".part")] == []

    # Saved again, the same URL updates its file: the site still has one page.
    again = save(url, site)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["replaced"] is True
    assert [p.url for p in load_site(site).pages] == [url]


def test_an_unreachable_address_fails_clearly_and_writes_nothing(tmp_path):
    site_root = tmp_path / "shop"
    make_site(site_root)
    before = listing(site_root)
    url = f"http://127.0.0.1:{closed_port()}/page.html"
    done = save(url, site_root)
    assert done.returncode == 2
    assert f"{ERROR_PREFIX}cannot reach 127.0.0.1: the connection was refused" in done.stderr
    assert done.stdout == ""
    assert listing(site_root) == before
    missing = tmp_path / "new-site"
    assert save(url, missing).returncode == 2 and not missing.exists()


def test_a_response_that_is_not_html_is_refused(server, tmp_path):
    done = save(url_of(server, "/data.json"), tmp_path / "site")
    assert done.returncode == 2
    assert "is not an HTML page (it is application/json)" in done.stderr
    assert not (tmp_path / "site").exists()


def test_the_agent_window_saves_a_page_from_the_web_and_shows_it(qtbot, server, tmp_path):
    site_root = tmp_path / "shop"
    with agent_window_on_shop(site_root) as window:
        url = url_of(server, "/page.html")
        progress: list[str] = []
        window.web_saver.progress.connect(progress.append)
        assert window.save_from_web(url)
        assert window.save_progress is not None and window.save_progress.isVisible()
        qtbot.waitUntil(lambda: window.web_saver.result is not None, timeout=60_000)
        assert window.web_saver.result["ok"], window.web_saver.result
        assert any(p.startswith("loading ") for p in progress)
        assert window.save_progress is None
        qtbot.waitUntil(lambda: not window.browser.loading, timeout=10_000)
        assert window.browser.url == url and window.browser.in_site
        assert window.browser.site.resolve(url) == site_root / site_file_name(url)
        assert "Field notes" in window.browser.run_js("document.body.innerText")
        served = str(server.server_address[1])
        assert [u for u in window.browser.blocked_urls if served in u or "pic.png" in u] == []  # from the archive
        assert "saved as" in window.statusBar().currentMessage()

        # A failure is a message, and the site is left as it was.
        window._on_saved_from_web({"ok": False, "message": "cannot reach example.invalid"})
        assert window.save_result is not None and window.save_result.isVisible()
        assert "cannot reach example.invalid" in window.save_result.text()
        window.save_result.close()
