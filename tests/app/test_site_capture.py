"""`recordlens site capture`: the capture process against a multi-page site on 127.0.0.1 (links, a GET search
form with result pages, a redirect, a 404, a slow page, a robots.txt rule, a link cycle, an off-host link), a
capture killed and resumed, the captured site replayed offline, and the stored accessibility tree of a demo page
against the one Chromium's DevTools gives for it."""

from __future__ import annotations

import json
import os
import signal
import struct
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from recordlens.core.agent.axtree import compact_tree, format_axtree, named_roles, read_tree
from recordlens.core.agent.sites import load_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.snapshot import read_snapshot
from tests import loopback
from tests.capture_site import EXPECTED, ROBOTS_SKIPPED, capture_argv, serve
from tests.loopback import base_url

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
DEMO_SITE = ROOT / "resources" / "agent" / "demo-site"


# Run before the command where a page's settling time is not the point (the loopback pages have no scripts): the
# wait after each load (SETTLE_MS) lowered, so that a capture of many pages takes seconds less.
BRIEF_SETTLE = {"SETTLE_MS": 50}


def capture_command(url: str, site: Path, *more: str, **limits: object) -> list[str]:
    return capture_argv(url, "--site", str(site), "--json", "--timeout", "30", *more, **limits)


def checked_summary(returncode: int, stdout: str, stderr: str) -> dict:
    summary = json.loads(stdout.strip().splitlines()[-1]) if stdout.strip() else {}
    # 1 when a page failed, its summary printed all the same (the loopback site's missing page is a dead link: no
    # failure)
    assert returncode == (1 if summary.get("failed") else 0), stderr[-3000:]
    # A line per URL: Chromium's errors (no D-Bus here), its DevTools server's address and Qt's notes on its GL
    # context are not among them.
    noise = [line for line in stderr.splitlines()
             if any(n in line for n in ("Failed to connect to the bus", "QRhi", "DevTools listening on"))]
    assert not noise, noise[:3]
    return summary


def run_capture(url: str, site: Path, *more: str, **limits: object) -> dict:
    done = subprocess.run(capture_command(url, site, *more, **limits), capture_output=True, text=True,
                          timeout=300)
    return checked_summary(done.returncode, done.stdout, done.stderr)


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@dataclass
class Refused:
    """A second capture of the folder, run while the first one held it."""

    done: subprocess.CompletedProcess[str]
    took: float  # seconds
    first_pid: int
    first_returncode: int
    lock_seen: bool  # the first capture's lock was there when the second started


@dataclass
class FirstCapture:
    """The shared capture's process output; its summary checked by the test that reads it, so that a capture gone
    wrong fails that test, not the set-up of every test sharing it."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def summary(self) -> dict:
        return checked_summary(self.returncode, self.stdout, self.stderr)


@pytest.fixture(scope="module")
def captured(tmp_path_factory):
    """One capture of the loopback site, shared: (its output, site folder, server, the second capture of the same
    folder run while this one ran)."""
    with serve() as server:
        folder = tmp_path_factory.mktemp("captured") / "site"
        lock = folder / ".capture.lock"
        first = subprocess.Popen(capture_command(base_url(server) + "/", folder, **BRIEF_SETTLE),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while not lock.exists() and first.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            lock_seen = lock.exists()
            started = time.monotonic()
            second = subprocess.run(capture_command(base_url(server) + "/", folder), capture_output=True,
                                    text=True, timeout=120)
            took = time.monotonic() - started
            out, err = first.communicate(timeout=300)
        finally:
            if first.poll() is None:  # a step above timed out: no capture (and its Chromium) left running
                first.kill()
                first.communicate()
        yield (FirstCapture(first.returncode, out, err), folder, server,
               Refused(second, took, first.pid, first.returncode, lock_seen))


def test_capture_saves_exactly_the_expected_pages(captured) -> None:
    first, folder, server, _ = captured
    summary = first.summary
    assert {path_of(u) for u in summary["saved"]} == EXPECTED
    # the missing page is a dead link: the site's last word on it, listed, and not a failure to try again
    assert [(path_of(u), why) for u, why in summary["dead"]] == [("/missing", "HTTP 404 Not Found")]
    assert not summary["failed"]
    skipped = {path_of(u): why for u, why in summary["skipped"]}
    assert skipped == {"/private/secret": "disallowed by robots.txt", "/elsewhere": "another host (--same-host)"}
    requested = {urlsplit(p).path for p in server.requests}
    assert not requested & (ROBOTS_SKIPPED | {"/d", "/elsewhere"})  # refused before loading, too deep, off-host
    assert Counter(server.requests)["/a"] == 1  # the cycle A <-> B and home links: every page loaded once
    site = load_site(folder)
    assert {path_of(p.url) for p in site.pages} == EXPECTED
    for page in site.pages:
        path = folder / page.file
        assert read_snapshot(path).url == page.url
        tree = read_tree(folder / page.side_file("axtree"))
        assert tree["nodes"] and tree["nodes"][0]["role"] == "RootWebArea"
        width, height = png_size(folder / page.side_file("screenshot"))
        assert width == 1920 and height > 1080  # the full page, not the viewport
        meta = json.loads((folder / page.side_file("meta")).read_text(encoding="utf-8"))
        assert meta["final_url"] == page.url and meta["status"] == 200 and meta["viewport"] == [1920, 1080]
        assert "Chromium" in meta["engine"] and len(meta["sha256"]["mhtml"]) == 64
        assert meta["page_height"] == height and meta["screenshot_cut"] is False  # the page's own height, whole
    moved = site.page(base_url(server) + "/moved-here")
    meta = json.loads((folder / moved.side_file("meta")).read_text(encoding="utf-8"))
    assert path_of(meta["requested_url"]) == "/redirect-me"
    assert [(path_of(h["url"]), h["status"]) for h in meta["redirects"]] == [("/redirect-me", 302)]
    # The search form was submitted with its defaults and its result pages followed.
    home = read_tree(folder / site.page(base_url(server) + "/").side_file("axtree"))
    assert ("searchbox", "Query") in [(role, name.strip()) for role, name in named_roles(home)]
    assert any(n.get("xpath") == "/body[1]/nav[1]/a[1]" and n["role"] == "link" for n in home["nodes"])


def test_killed_capture_resumes_without_duplicates(tmp_path) -> None:
    folder = tmp_path / "site"
    with serve() as server:
        process = subprocess.Popen(capture_command(base_url(server) + "/", folder, **BRIEF_SETTLE),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        state = folder / "capture.json"
        deadline = time.monotonic() + 180
        saved = 0
        while time.monotonic() < deadline and process.poll() is None:
            try:
                outcomes = json.loads(state.read_text(encoding="utf-8"))["outcomes"].values()
                saved = sum(o["outcome"] == "saved" for o in outcomes)
            except (OSError, ValueError, KeyError):
                pass
            if saved >= 3:
                break
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        # Read again: a page may have been saved between the last look and the kill.
        outcomes = json.loads(state.read_text(encoding="utf-8"))["outcomes"].values()
        saved = sum(o["outcome"] == "saved" for o in outcomes)
        assert 3 <= saved < len(EXPECTED)
        first = list(server.requests)
        summary = run_capture(base_url(server) + "/", folder, **BRIEF_SETTLE)
        again = server.requests[len(first):]
    assert summary["resumed"] is True
    assert len(summary["saved"]) + saved == len(EXPECTED)  # each page saved once over the two runs
    site = load_site(folder)
    assert {path_of(p.url) for p in site.pages} == EXPECTED
    assert len(list((folder / "pages").glob("*.mhtml"))) == len(EXPECTED)
    assert not [p for p in folder.rglob("*") if p.name.startswith(".")]  # no temporary file left behind
    assert "/" not in again  # the home page was saved before the kill and is not loaded again


def test_captured_site_replays_offline(captured, qapp) -> None:
    from recordlens.annotator.agent.qt_browser import QtSiteBrowser

    _, folder, server, _ = captured
    site = load_site(folder)
    before = len(server.requests)
    browser = QtSiteBrowser(site)
    try:
        for page in site.pages:
            browser.open(page.url)
            observation = browser.observe()
            assert observation.title == page.title
    finally:
        browser.close()
    assert len(server.requests) == before  # nothing reached the network, loopback included


def test_stored_tree_names_what_devtools_names(tmp_path) -> None:
    """A demo page served over 127.0.0.1 and captured: its stored tree has the roles and accessible names of the
    tree Chromium's DevTools gives for the shipped page opened offline in another process."""
    original = DEMO_SITE / "home.mhtml"
    snapshot = read_snapshot(original)
    with serve({"/": snapshot.html.encode("utf-8")}) as server:
        summary = run_capture(base_url(server) + "/", tmp_path / "site", "--depth", "0")
    assert len(summary["saved"]) == 1
    site = load_site(tmp_path / "site")
    stored = read_tree(tmp_path / "site" / site.pages[0].side_file("axtree"))
    probe = subprocess.run([sys.executable, str(ROOT / "tests" / "app" / "devtools_probe.py"), str(original)],
                           capture_output=True, text=True, timeout=180)
    assert probe.returncode == 0, probe.stderr[-3000:]
    reference = compact_tree(json.loads(probe.stdout.strip().splitlines()[-1]), None, snapshot.url)
    ours, theirs = named_roles(stored), named_roles(reference)
    assert len(theirs) > 50
    assert Counter(ours) == Counter(theirs)
    # Every numbered element of the page is a node of Chromium's tree, by XPath: the tree shows its number.
    browser = HtmlSiteBrowser(site)
    browser.open(site.pages[0].url)
    elements = browser.observe().elements
    text = format_axtree(stored, {e.xpath: e.label for e in elements}, max_lines=10_000)
    assert elements and all(f"[{e.label}] " in text for e in elements)


# The --timeout of the capture of `_Mixed`'s pages: the PDF's and the JSON's answers come well within it however busy
# the machine (at 2 s, the JSON's answer after 1 s left a busy Chromium a second to take it in, or time out)
MIXED_TIMEOUT_S = 6


class _Mixed(loopback.LoopbackHandler):
    """A page that times out, then a PDF (a download, slow to answer), then JSON (slow too): late signals of
    one page would land in the next one's load (the slow page answers 2 s after its --timeout ran out)."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        self.server.requests.append(path)  # type: ignore[attr-defined]
        if path == "/":
            links = "".join(f'<a href="{link}">{link}</a> ' for link in
                            ("/slow", "/paper.pdf", "/data.json", "/after", "http://127.0.0.1:6000/"))
            self.send(200, f"<html><title>Home</title><body>{links}</body></html>".encode())
        elif path == "/slow":
            time.sleep(MIXED_TIMEOUT_S + 2)
            self.send(200, b"<html><title>Slow</title></html>")
        elif path == "/paper.pdf":
            time.sleep(0.5)
            self.send(200, b"%PDF-1.4\n%%EOF\n", "application/pdf")
        elif path == "/data.json":
            time.sleep(1)
            self.send(200, b'{"a": 1}', "application/json")
        elif path == "/after":
            self.send(200, b"<html><title>After</title></html>")
        else:
            self.send(404, b"no such page")


def test_each_url_gets_its_own_reason_after_a_page_that_timed_out(tmp_path) -> None:
    with loopback.serve(_Mixed) as server:
        summary = run_capture(base_url(server) + "/", tmp_path / "site", "--timeout", str(MIXED_TIMEOUT_S),
                              "--depth", "1", "--any-host", "--ignore-robots")
    failed = {path_of(u) if "6000" not in u else u: why for u, why in summary["failed"]}
    assert failed == {
        "/slow": f"did not finish loading within {MIXED_TIMEOUT_S} s",
        "http://127.0.0.1:6000/": "cannot load it: net::ERR_UNSAFE_PORT",  # the code said once
    }, failed
    # The site's final answers, no failures: not asked again when the capture runs again
    assert {path_of(u): why for u, why in summary["no_page"]} == {
        "/paper.pdf": "not an HTML page (the server sent application/pdf to download)",
        "/data.json": "not an HTML page (it is application/json)",
    }, summary
    assert {path_of(u) for u in summary["saved"]} == {"/", "/after"}


def test_a_second_capture_of_the_same_folder_is_refused_at_once(captured) -> None:
    first, folder, server, refused = captured
    assert refused.lock_seen  # the second capture was started once the first held the folder
    summary, second = first.summary, refused.done
    assert second.returncode == 2 and not second.stdout
    assert f"{folder} is being captured by process {refused.first_pid} on " in second.stderr, second.stderr
    assert refused.took < 30  # at once: a Python start on a busy machine, beside the first's Chromium starting
    assert refused.first_returncode == 0 and len(summary["saved"]) == len(EXPECTED)  # its one miss a dead link
    assert Counter(server.requests)["/a"] == 1  # every page loaded once
    assert not (folder / ".capture.lock").exists()


class _Elsewhere(loopback.LoopbackHandler):
    """Another host's server (127.0.0.2): it notes every request it gets."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        self.send(200, b"<html><title>Elsewhere</title><body>another site</body></html>")


# Another host is another loopback address: Linux answers on all of 127.0.0.0/8, macOS only on 127.0.0.1 unless
# an alias is added.
other_loopback_hosts = pytest.mark.skipif(
    sys.platform != "linux", reason="binds 127.0.0.2 and 127.0.0.3 as other hosts, which only Linux has by default")


@other_loopback_hosts
def test_a_redirect_to_another_host_is_refused_before_any_request_reaches_it(tmp_path) -> None:
    with loopback.serve(_Elsewhere, "127.0.0.2") as other:
        elsewhere = f"http://127.0.0.2:{other.server_address[1]}/c.html"

        class Away(loopback.LoopbackHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                path = urlsplit(self.path).path
                self.server.requests.append(path)  # type: ignore[attr-defined]
                if path == "/away":
                    self.redirect(elsewhere)
                elif path == "/":
                    self.send(200, b'<html><title>Home</title><body><a href="/away">away</a> '
                                   b'<a href="/b">b</a></body></html>')
                elif path == "/b":
                    self.send(200, b"<html><title>B</title><body>b</body></html>")
                else:
                    self.send(404, b"no such page")

        with loopback.serve(Away) as server:
            summary = run_capture(base_url(server) + "/", tmp_path / "site", "--depth", "1")
    assert other.requests == []  # the other host got no request at all
    assert "/away" in server.requests
    assert [(path_of(u), why) for u, why in summary["skipped"]] == [
        ("/away", f"redirects to {elsewhere}: another host (--same-host)")]
    assert {path_of(u) for u in summary["saved"]} == {"/", "/b"} and not summary["failed"]


@other_loopback_hosts
def test_redirects_to_a_dead_other_host_never_stop_the_capture_of_the_site(tmp_path) -> None:
    """Six links redirect to a port of 127.0.0.3 where nothing listens, then two normal pages: followed (--any-host)
    or refused (--same-host), those failures are not the site's, and both normal pages are captured in one run."""
    import socket

    with socket.socket() as probe:  # a free port of 127.0.0.3, closed again: nothing listens there
        probe.bind(("127.0.0.3", 0))
        dead = f"http://127.0.0.3:{probe.getsockname()[1]}"

    class Hub(loopback.LoopbackHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            path = urlsplit(self.path).path
            if path.startswith("/out"):
                self.redirect(f"{dead}/partner{path}")
            elif path == "/":
                links = "".join(f'<a href="/out{i}">out {i}</a> ' for i in range(6))
                self.send(200, f'<html><title>Hub</title><body>{links}<a href="/z1">z1</a> <a href="/z2">z2</a>'
                               "</body></html>".encode())
            elif path in ("/z1", "/z2"):
                self.send(200, f"<html><title>{path}</title><body>{path}</body></html>".encode())
            else:
                self.send(404, b"no such page")

    with loopback.serve(Hub) as server:
        followed = run_capture(base_url(server) + "/", tmp_path / "any", "--depth", "1", "--any-host",
                               "--ignore-robots", **BRIEF_SETTLE)
        refused = run_capture(base_url(server) + "/", tmp_path / "same", "--depth", "1", **BRIEF_SETTLE)
    for summary in (followed, refused):
        assert {path_of(u) for u in summary["saved"]} == {"/", "/z1", "/z2"}, summary
        assert not summary["queued"] and not any("stopped answering" in n for n in summary["notes"])
    assert len(followed["failed"]) == 6 and "ERR_CONNECTION_REFUSED" in followed["failed"][0][1]
    assert len(refused["skipped"]) == 6 and not refused["failed"]


@other_loopback_hosts
@pytest.mark.xfail(strict=True, reason=(
    "the page is dropped as a redirect refused: Qt calls a script's navigation a redirect too, and told apart (the "
    "page committed first), the page rejected stays frozen: Chromium gives it no frame, so no screenshot"))
def test_a_page_whose_script_goes_to_another_host_before_it_loaded_is_kept(tmp_path) -> None:
    """A page served whole (200) whose script sends the tab to another host at once: not a redirect, so not the
    page refused; the script's navigation is what the capture does not follow, and nothing reaches that host."""
    with loopback.serve(_Elsewhere, "127.0.0.2") as other:
        elsewhere = f"http://127.0.0.2:{other.server_address[1]}/c.html"

        class Leaves(loopback.LoopbackHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                path = urlsplit(self.path).path
                self.server.requests.append(path)  # type: ignore[attr-defined]
                if path == "/":
                    self.send(200, f'<html><title>Home</title><script>location.href = "{elsewhere}";</script>'
                                   '<body>home</body></html>'.encode())
                else:
                    self.send(404, b"no such page")

        with loopback.serve(Leaves) as server:
            summary = run_capture(base_url(server) + "/", tmp_path / "site", "--depth", "0")
    assert other.requests == []
    assert [path_of(u) for u in summary["saved"]] == ["/"], summary
    assert not summary["skipped"] and not summary["failed"]
