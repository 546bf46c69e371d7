"""Pages that move while or after they load, served on 127.0.0.1 and captured with the real command: a page whose
script keeps changing it is kept as one moment (its tree, saved page and element list agree), a page whose image
of another server hangs is saved as it was when --timeout ran out with that image named, a script's or meta
refresh's navigation while the page settles is followed and recorded as a redirect, history.pushState does not
rename the page, and pages that are no page (an attachment, an empty 200, a PDF sent as HTML, a 429 that asks to
come back) are said as what they are."""

from __future__ import annotations

import json
import re
import subprocess
import threading
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

RELEASE = threading.Event()  # set at the end: the hanging image's handlers end


def _page(title: str, body: str) -> bytes:
    return (f"<!DOCTYPE html><html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"
            ).encode()


class _Slow(loopback.LoopbackHandler):
    """"Another site" whose image never comes (a tracker that hangs)."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        RELEASE.wait(60)
        self.send(200, b"", "image/png")


def _pages(other: str) -> dict[str, bytes]:
    return {
        "/churn": _page("Churn", "<div id=c>0</div><script>var i = 0; setInterval(function () { i++; "
                                 "document.getElementById('c').innerHTML = '<a href=/churn-link?i=' + i + '>churn ' + "
                                 "i + '</a>'; }, 20);</script>"),
        "/grow": _page("Grow", "<ul id=g></ul><script>setInterval(function () { var li = "
                               "document.createElement('li'); li.textContent = 'row'; "
                               "document.getElementById('g').appendChild(li); }, 5);</script>"),
        "/tracked": _page("Tracked", f"<p>the page itself</p><img src='{other}/pixel.png' width=10 height=10>"),
        "/leaving": _page("Redirecting", "<p>before</p><script>setTimeout(function () { location.href = "
                                         "'/arrived?from=script'; }, 200);</script>"),
        "/leaving-off": _page("Off", f"<p>before</p><script>setTimeout(function () {{ location.href = "
                                     f"'{other}/landing'; }}, 200);</script>"),
        "/refreshing": (b"<!DOCTYPE html><html><head><title>Refresh</title><meta http-equiv=refresh "
                        b"content='0; url=/arrived?from=refresh'></head><body>wait</body></html>"),
        "/later": (b"<!DOCTYPE html><html><head><title>Later</title><meta http-equiv=refresh "
                   b"content='30; url=/arrived?from=later'></head><body>in a while</body></html>"),
        "/pushing": _page("Pushing", "<p>pushed</p><script>history.pushState({}, '', '/pushed-url?x=1');</script>"),
        "/empty": b"",
        "/pdf-as-html": b"%PDF-1.4 binary \x01\x02\x03\x04\x05\x06 stuff\n%%EOF",
        "/busy": _page("Busy", "<p>came back later</p>"),
    }


class _Moving(loopback.LoopbackHandler):
    other = ""
    busy_once = True

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        path = urlsplit(self.path).path
        pages = _pages(self.other)
        if path == "/attachment":
            body = _page("Attachment", "<p>an HTML page sent to download</p>")
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Disposition", "attachment; filename=page.html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif path == "/busy" and type(self).busy_once:
            type(self).busy_once = False
            self.send_response(429)
            self.send_header("Retry-After", "1")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/arrived":  # a page of its own for each way it was reached
            self.send(200, _page("Arrived", f"<p>the target, reached by {urlsplit(self.path).query}</p>"))
        elif path in pages:
            self.send(200, pages[path])
        else:
            self.send(404, _page("Not found", ""))


ROOTS = ["/churn", "/grow", "/tracked", "/leaving", "/leaving-off", "/refreshing", "/later", "/pushing",
         "/attachment", "/empty", "/pdf-as-html", "/busy"]


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[dict, str, Path, str, str, list[str]]]:
    """One capture of every moving page (depth 0, --timeout 6): (its summary, its stderr, the site folder, the
    server's base URL, the other server's, the paths the other server was asked for)."""
    folder = tmp_path_factory.mktemp("moving") / "site"
    with loopback.serve(_Slow) as slow, loopback.serve(_Moving) as server:
        _Moving.other = base_url(slow)
        base = base_url(server)
        done = subprocess.run(capture_argv(*[base + p for p in ROOTS], "--site", str(folder), "--json", "--depth",
                                           "0", "--ignore-robots", "--timeout", "6"),
                              capture_output=True, text=True, timeout=300)
        RELEASE.set()
        assert done.stdout.strip(), done.stderr[-3000:]
        yield (json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, folder, base, base_url(slow),
               list(slow.requests))


def _meta(folder: Path, url: str) -> dict:
    return json.loads((folder / load_site(folder).page(url).side_file("meta")).read_text("utf-8"))


def _tree_names(folder: Path, url: str) -> str:
    return (folder / load_site(folder).page(url).side_file("axtree")).read_text("utf-8")


def test_a_page_that_keeps_changing_is_kept_as_one_moment(captured) -> None:
    summary, _, folder, base, _, _ = captured
    html = read_snapshot(folder / load_site(folder).page(base + "/churn").file).html
    shown = re.findall(r"churn (\d+)", html)
    assert shown, html[-500:]
    assert f'churn {shown[0]}' in _tree_names(folder, base + "/churn")  # the tree names the link the page shows
    rows = read_snapshot(folder / load_site(folder).page(base + "/grow").file).html.count("<li>")
    assert rows and _tree_names(folder, base + "/grow").count('"listitem"') == rows
    assert not any("changed while it was captured" in w for w in _meta(folder, base + "/grow").get("warnings", []))


def test_a_hanging_image_of_another_server_leaves_the_page_saved_and_named(captured) -> None:
    summary, stderr, folder, base, other, _ = captured
    assert base + "/tracked" in summary["saved"], summary["failed"]
    warning = next(w for w in _meta(folder, base + "/tracked")["warnings"] if "--timeout of 6 s ran out" in w)
    assert f"{other}/pixel.png" in warning and f"{other}/pixel.png" in stderr
    assert "the page itself" in read_snapshot(folder / load_site(folder).page(base + "/tracked").file).html


def test_a_navigation_while_the_page_settles_is_followed_and_recorded(captured) -> None:
    summary, _, folder, base, _, asked_elsewhere = captured
    for start, kind in (("/leaving", "script"), ("/refreshing", "refresh")):
        target = f"{base}/arrived?from={kind}"
        assert target in summary["saved"], summary
        hops = _meta(folder, target)["redirects"]
        assert [(urlsplit(h["url"]).path, h.get("kind")) for h in hops] == [(start, "script or meta refresh")]
        assert load_site(folder).page(base + start).url == target  # a link to the start reaches the target
    off = dict(summary["skipped"])[base + "/leaving-off"]  # one the rules refuse is never requested
    assert "another site, not captured" in off and "/landing" not in asked_elsewhere
    assert base + "/later" in summary["saved"]  # the page after it loads as any other
    later = _meta(folder, base + "/later")["warnings"]  # a refresh due after it settled: said, not waited for
    assert any("meta refresh ('30; url=/arrived?from=later') due after it settled" in w for w in later), later


def test_push_state_does_not_rename_the_page(captured) -> None:
    summary, _, folder, base, _, _ = captured
    assert base + "/pushing" in summary["saved"] and not any("pushed-url" in u for u in summary["saved"])
    assert any("history.pushState" in w for w in _meta(folder, base + "/pushing")["warnings"])
    assert load_site(folder).page(base + "/pushing").url == base + "/pushing"


def test_pages_that_are_no_page_are_said_as_what_they_are(captured) -> None:
    summary, _, folder, base, _, _ = captured
    assert dict(summary["no_page"])[base + "/attachment"].startswith(  # the site's final answer, no failure
        "the server sent the page as a file to download (Content-Disposition: attachment)"), summary
    assert any("holds nothing" in w for w in _meta(folder, base + "/empty")["warnings"])
    assert any("looks like a file's bytes ('%PDF" in w for w in _meta(folder, base + "/pdf-as-html")["warnings"])
    assert base + "/busy" in summary["saved"]  # 429 with Retry-After: 1, tried again after that second
    assert any("Retry-After: 1 s" in n for n in summary["notes"])
