"""`recordlens site capture` on pages that misbehave, served on 127.0.0.1: frames (their links followed and their
accessibility trees under their Iframe nodes, a frame of another origin left out), HTTP basic authentication and
204 No Content (said as such, the server asked once), a page whose capture hangs after it loaded (bounded by
--timeout and the capture's margin) and a page too large for its tree to be kept (said, with a note in the tree);
and the Qt platform's notes that `agent run --browser qt` would print between its result lines."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from recordlens.core.agent.axtree import format_axtree, read_tree
from recordlens.core.agent.sites import load_site
from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]


def capture(url: str, site: Path, *more: str, **limits: object) -> tuple[dict, str, float]:
    """Run the capture process: (its JSON summary, its stderr, the seconds it took). `limits`: the capture
    module's, lowered (`capture_argv`)."""
    started = time.monotonic()
    done = subprocess.run(capture_argv(url, "--site", str(site), "--json", *more, **limits),
                          capture_output=True, text=True, timeout=300)
    took = time.monotonic() - started
    assert done.stdout.strip(), done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, took


def failures(summary: dict) -> dict[str, str]:
    return {urlsplit(url).path: why for url, why in summary["failed"]}


def _page(title: str, body: str) -> bytes:
    return f"<!doctype html><html><head><meta charset=utf-8><title>{title}</title></head><body>{body}</body></html>" \
        .encode()


# -- frames ---------------------------------------------------------------------------------------------------------


class _Elsewhere(loopback.LoopbackHandler):
    """Another origin's page shown in a frame (127.0.0.2), with a link of its own."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        self.send(200, _page("Elsewhere", '<p>Foreign words</p><a href="/foreign-link.html">foreign link</a>'))


def test_frames_of_the_page_are_followed_and_in_its_tree_a_foreign_frame_is_not(tmp_path: Path) -> None:
    with loopback.serve(_Elsewhere, "127.0.0.2") as other:
        foreign = f"http://127.0.0.2:{other.server_address[1]}/framed.html"

        class Framed(loopback.LoopbackHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                path = urlsplit(self.path).path
                self.server.requests.append(path)  # type: ignore[attr-defined]
                pages = {
                    "/frame.html": _page("Frame host", "<h1>Frame host</h1>"
                                         "<iframe src='/framed.html' width=600 height=200></iframe>"
                                         f"<iframe src='{foreign}' width=600 height=200></iframe>"),
                    "/framed.html": _page("Framed", "<p>Inside the frame</p>"
                                          "<iframe src='/inner.html' width=500 height=100></iframe>"
                                          "<a href='/only-in-iframe.html'>only in iframe</a>"),
                    "/inner.html": _page("Inner", "<a href='/only-in-inner.html'>deeper still</a>"),
                    "/only-in-iframe.html": _page("Only in iframe", "<p>reached via the frame</p>"),
                    "/only-in-inner.html": _page("Only in inner", "<p>reached via the inner frame</p>"),
                }
                if path in pages:
                    self.send(200, pages[path])
                else:
                    self.send(404, b"no such page")

        with loopback.serve(Framed) as server:
            # --any-host: the foreign frame's link is left out as a frame of another origin, not by the host rule
            summary, stderr, _ = capture(base_url(server) + "/frame.html", tmp_path / "site", "--depth", "1",
                                         "--any-host", "--ignore-robots", "--timeout", "30")
    saved = {urlsplit(u).path for u in summary["saved"]}
    assert saved == {"/frame.html", "/only-in-iframe.html", "/only-in-inner.html"}, (summary, stderr[-2000:])
    assert "/foreign-link.html" not in other.requests
    site = load_site(tmp_path / "site")
    page = next(p for p in site.pages if p.url.endswith("/frame.html"))
    tree = read_tree(tmp_path / "site" / str(page.side_file("axtree")))
    text = format_axtree(tree)
    assert 'link "only in iframe"' in text and 'link "deeper still"' in text, text
    assert "Foreign words" not in text and "foreign link" not in text, text
    # Each frame's tree hangs under its Iframe node, nested frames under theirs: read as one tree.
    lines = text.splitlines()
    frame_at = next(i for i, line in enumerate(lines) if line.strip().startswith("Iframe"))
    depth = len(lines[frame_at]) - len(lines[frame_at].lstrip())
    link_at = next(i for i, line in enumerate(lines) if 'link "only in iframe"' in line)
    assert link_at > frame_at and len(lines[link_at]) - len(lines[link_at].lstrip()) > depth, text
    ids = [n["id"] for n in tree["nodes"]]
    assert len(ids) == len(set(ids))
    # A frame's elements have no XPath: core's XPaths address the page's own document, not its frames'.
    framed = [n for n in tree["nodes"] if n["name"] in ("only in iframe", "deeper still")]
    assert framed and all("xpath" not in n for n in framed)


# -- answers that are no page ---------------------------------------------------------------------------------------


class _Answers(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        self.server.requests.append(path)  # type: ignore[attr-defined]
        if path == "/":
            self.send(200, _page("Home", '<a href="/auth/">members</a> <a href="/to-members">via</a> '
                                         '<a href="/204">nothing</a> <a href="/after.html">after</a>'))
        elif path == "/to-members":
            self.redirect("/auth/inner")
        elif path.startswith("/auth/"):
            body = _page("Unauthorized", "<p>login needed</p>")
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="members"')
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif path == "/204":
            self.send_response(204)
            self.end_headers()
        elif path == "/after.html":
            self.send(200, _page("After", "<p>after</p>"))
        else:
            self.send(404, b"no such page")


def test_a_login_is_asked_for_once_and_a_204_is_said_as_such(tmp_path: Path) -> None:
    with loopback.serve(_Answers) as server:
        summary, stderr, _ = capture(base_url(server) + "/", tmp_path / "site", "--depth", "1", "--ignore-robots",
                                     "--timeout", "30")
    login = "HTTP 401 Unauthorized (the page needs a login)"  # which no capture sends: a dead link, not tried again
    assert not failures(summary), stderr[-2000:]  # the site's answers, each final: none is a failure
    assert {urlsplit(u).path: why for u, why in summary["no_page"]} == {"/204": "HTTP 204 No Content (nothing to "
                                                                                "save)"}
    assert {urlsplit(u).path: why for u, why in summary["dead"]} == {"/auth/": login, "/to-members": login}
    # Not Chromium's 32 tries with an empty login, a redirect's target neither
    assert server.requests.count("/auth/") == 1 and server.requests.count("/auth/inner") == 1, server.requests
    assert {urlsplit(u).path for u in summary["saved"]} == {"/", "/after.html"}  # the next page is its own


# -- time and size --------------------------------------------------------------------------------------------------


class _Hangs(loopback.LoopbackHandler):
    """A page that loads at once, then blocks its renderer for a minute when the full-page screenshot resizes its
    view: every DevTools call after that waits, and so would the next page of the site, loaded in that renderer."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        if path == "/":
            self.send(200, _page("Hub", '<a href="/hangs.html">hangs</a> <a href="/after.html">after</a>'))
        elif path == "/hangs.html":
            self.send(200, b"<html><head><title>Hangs</title></head><body style='height:3000px'><p>tall</p><script>"
                           b"addEventListener('resize', () => {"
                           b"  const end = Date.now() + 60000; while (Date.now() < end); });"
                           b"</script></body></html>")
        else:
            self.send(200, _page("After", "<p>after</p>"))


def test_a_page_whose_capture_hangs_is_given_up_within_its_timeout_and_the_margin(tmp_path: Path) -> None:
    margin_s = 3  # the capture's margin (CAPTURE_MARGIN_S) lowered: the hanging page waits all of it
    with loopback.serve(_Hangs) as server:
        summary, stderr, took = capture(
            base_url(server) + "/", tmp_path / "site", "--depth", "1", "--ignore-robots", "--timeout", "3",
            CAPTURE_MARGIN_S=margin_s)
    reason = failures(summary).get("/hangs.html", "")
    assert reason.startswith("capturing it took too long:") and "--timeout" in reason, (summary, stderr[-2000:])
    assert f"and {margin_s} s more to be captured" in reason, reason  # the margin given, not the default
    assert {urlsplit(u).path for u in summary["saved"]} == {"/", "/after.html"}, stderr[-2000:]  # not held up
    # Chromium's start and end, and the two other pages, take some 12 s here (more on a busy machine); each
    # DevTools call used to wait 60 s of its own.
    assert took < 3 + margin_s + 45, took


def test_a_page_too_large_for_its_tree_is_kept_with_a_note_instead_of_the_tree(tmp_path: Path) -> None:
    paragraphs = "".join(f"<p>paragraph {i}</p>" for i in range(40))

    class Large(loopback.LoopbackHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self.send(200, _page("Large", paragraphs))

    with loopback.serve(Large) as server:
        summary, stderr, _ = capture(
            base_url(server) + "/", tmp_path / "site", "--depth", "0", "--ignore-robots", "--timeout", "30",
            MAX_TREE_ELEMENTS=30)
    assert len(summary["saved"]) == 1, (summary, stderr[-2000:])
    warning = next(line for line in stderr.splitlines() if "warning" in line)
    assert summary["saved"][0] in warning and "accessibility tree" in warning and "30" in warning, warning
    site = load_site(tmp_path / "site")
    text = format_axtree(read_tree(tmp_path / "site" / str(site.pages[0].side_file("axtree"))))
    assert text.splitlines()[0] == 'RootWebArea "Large"' and "not kept" in text and "paragraph 3" not in text, text


# -- Qt's notes -----------------------------------------------------------------------------------------------------


def test_the_browser_of_agent_runs_says_no_platform_notes_but_real_warnings(tmp_path: Path) -> None:
    """`agent run --browser qt` prints a line per run: Qt's offscreen platform would add "This plugin does not
    support propagateSizeHints()" between them, which says nothing to a user; a real warning still shows."""
    program = f"""
import os
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.sites import load_site
site = load_site({str(ROOT / "resources" / "agent" / "demo-site")!r})
for page in site.pages[:2]:
    with QtSiteBrowser(site) as browser:
        browser.open(page.url)
        browser.observe()
from PySide6.QtCore import qWarning
qWarning("a real warning")
print("done")
"""
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0 and "done" in done.stdout, done.stderr[-3000:]
    assert "propagateSizeHints" not in done.stdout + done.stderr, done.stderr[-3000:]
    assert "a real warning" in done.stderr


# -- the app's capture dialog ---------------------------------------------------------------------------------------


def test_the_capture_dialog_speaks_of_its_own_fields_and_has_the_commands_timeout(qtbot) -> None:
    from recordlens.annotator.agent.capture_panel import CaptureDialog
    from recordlens.core.cli.capture import DEFAULT_TIMEOUT_S

    dialog = CaptureDialog()
    qtbot.addWidget(dialog)
    try:
        given = dialog.arguments()
        assert given[given.index("--timeout") + 1] == f"{DEFAULT_TIMEOUT_S:g}"  # the command's default
        dialog.timeout.setValue(5)
        given = dialog.arguments()
        assert given[given.index("--timeout") + 1] == "5"
        dialog._on_progress(2, 5, "skipped http://elsewhere.example/: another host (--same-host)  |####....|")
        dialog.process._on_progress("warning: http://site.example/huge: its accessibility tree is not kept")
        dialog._on_finished({"ok": True, "message": "2 URL(s) still queued: the site holds --max-pages 1 pages, run "
                             "again with a larger --max-pages to continue", "notes": []})
        log = dialog.log.toPlainText()
        assert "another host" in log and "--same-host" not in log and "--max-pages" not in log, log
        assert "root pages" in log and "Max pages" in log, log
        assert "warning: http://site.example/huge: its accessibility tree is not kept" in log, log
    finally:
        dialog.close()
