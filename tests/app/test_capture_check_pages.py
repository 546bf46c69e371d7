"""A page whose chain came back to an address once and then moved on (a check page: the page sends the browser to
an interstitial once, which sets a cookie and sends it back, and the page then goes on) failed as "it redirects in
a loop (/gate → /check → /gate)" whenever its chain went on past `MAX_CLIENT_HOPS`, though it never went round
again: any address met twice was taken for a loop. A loop is now a chain that goes round: an address requested a
third time, or one come back to that the chain leaves again as it did the first time (by the same next address);
a chain that came back once and went elsewhere is no loop: saved where it ends, or, when it goes on past
`MAX_CLIENT_HOPS`, said as a chain too long. Served on 127.0.0.1 and captured with the real command."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from recordlens.annotator.agent.site_capture import _Hops, _loop_closed, _NavigationGuard
from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app


def _refresh(target: str, text: str, cookie: str = "") -> bytes:
    script = f"<script>document.cookie = '{cookie}=1; path=/';</script>" if cookie else ""
    return (f'<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url={target}"><title>Redirecting'
            f"</title>{script}</head><body>{text}</body></html>").encode()


def _sent_on(target: str, text: str) -> bytes:
    """A page whose script sends it on once it has loaded: a navigation while it settles, one of MAX_CLIENT_HOPS."""
    return (f"<!DOCTYPE html><html><head><title>Redirecting</title><script>addEventListener('load', function () "
            f"{{ setTimeout(function () {{ location.href = '{target}'; }}, 300); }});</script></head>"
            f"<body>{text}</body></html>").encode()


def _real(title: str) -> bytes:
    return f"<!DOCTYPE html><html><head><title>{title}</title></head><body>{title}</body></html>".encode()


# How long a page settles: its script's navigation (300 ms after its load) comes well within it, so that each is one
# of the capture's MAX_CLIENT_HOPS, whatever the machine's load.
SETTLE_MS = 3000
ON = [f"/on-{n}" for n in range(1, 7)]  # where the long chain goes on to, each a page not met before
PAGES = {
    "/check-back": _refresh("/gate-back", "checking", cookie="back"),
    "/check-on": _sent_on("/gate-on", "<script>document.cookie = 'on=1; path=/';</script>checking"),
    **{page: _sent_on(after, f"step {n}")
       for n, (page, after) in enumerate(zip(ON, [*ON[1:], "/on-end"], strict=True), 1)},
    "/on-end": _real("The end"),
    **{f"/round-{a}": _refresh(f"/round-{b}", a) for a, b in zip("abcd", "bcda", strict=True)},  # four pages round
}


class _Site(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path, cookies = urlsplit(self.path).path, self.headers.get("Cookie") or ""
        if path == "/gate-back":  # to the check page once; with its cookie, the page itself
            if "back=1" in cookies:
                self.send(200, _real("Real page"))
            else:
                self.redirect("/check-back")
        elif path == "/gate-on":  # to the check page once; with its cookie, on and on to other pages
            self.redirect("/on-1" if "on=1" in cookies else "/check-on")
        elif path in PAGES:
            self.send(200, PAGES[path])
        else:
            self.send(404, b"<p>no such page</p>")


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[dict, str, str]]:
    """(the summary, the capture's stderr, the server's base URL), each root captured in a profile of its own."""
    with loopback.serve(_Site) as server:
        base = base_url(server)
        folder = tmp_path_factory.mktemp("checks") / "site"
        done = subprocess.run(capture_argv(*[base + root for root in ("/gate-back", "/gate-on", "/round-a")],
                                           "--site", str(folder), "--json", "--depth", "0", "--ignore-robots",
                                           "--delay", "0", "--timeout", "30", SETTLE_MS=SETTLE_MS),
                              capture_output=True, text=True, timeout=600)
        assert done.stdout.strip(), done.stderr[-3000:]
        yield json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, base


def test_a_check_page_that_sends_the_page_back_once_is_no_loop(captured) -> None:
    summary, stderr, base = captured
    assert base + "/gate-back" in summary["saved"], (summary, stderr[-3000:])


def test_a_chain_that_came_back_once_and_went_on_is_too_long_not_a_loop(captured) -> None:
    summary, stderr, base = captured
    failed = dict(summary["failed"])
    reason = failed[base + "/gate-on"]
    assert "loop" not in reason, reason
    assert reason.startswith("its script or meta refresh sent it on to another page more than 5 times in a row"), \
        reason


def test_a_chain_that_goes_round_again_is_still_a_loop(captured) -> None:
    summary, stderr, base = captured
    failed = dict(summary["failed"])
    assert failed[base + "/round-a"].startswith(
        "it redirects in a loop (/round-a → /round-b → /round-c → /round-d → /round-a): "), failed[base + "/round-a"]


class _Request:
    """A main-frame navigation as the guard is asked about it (QWebEngineNavigationRequest's part it reads)."""

    def __init__(self, url: str) -> None:
        self.address, self.rejected = url, False

    def isMainFrame(self) -> bool:  # noqa: N802 (Qt's name)
        return True

    def url(self) -> _Request:
        return self

    def toString(self) -> str:  # noqa: N802 (Qt's name)
        return self.address

    def reject(self) -> None:
        self.rejected = True


def _rejected(paths: str) -> list[bool]:
    """Whether the guard rejects each navigation of a page loading the first of `paths`, the others asked in turn."""
    guard = _NavigationGuard()
    first, *rest = [f"http://site.test{path}" for path in paths.split()]
    guard.watch(first, lambda target: None)
    requests = [_Request(url) for url in (first, *rest)]
    for request in requests:
        guard.on_navigation(request)
    return [request.rejected for request in requests]


def test_the_guard_stops_a_chain_only_when_it_goes_round() -> None:
    assert not any(_rejected("/gate /check /gate /welcome /on /more"))  # back once, then elsewhere
    assert not any(_rejected("/page /page /next"))  # a page that reloads itself once, then goes on
    assert _rejected("/a /b /a /b") == [False, False, False, True]  # /a → /b again
    assert _rejected("/a /b /c /d /a /b") == [False] * 5 + [True]
    assert _rejected("/a /b /a /c /a") == [False] * 4 + [True]  # /a a third time: back twice
    assert _rejected("/s /s /s") == [False, False, True]


def test_a_loop_is_said_from_where_it_began_to_where_it_came_back() -> None:
    def said(paths: str) -> list[str]:
        return [url.removeprefix("http://site.test") for url in _loop_closed([f"http://site.test{p}"
                                                                              for p in paths.split()])]
    assert said("/a /b /c /a /b") == ["/a", "/b", "/c", "/a"]
    assert said("/s /s /s") == ["/s", "/s"]
    assert said("/a /b /a /c /a") == ["/a", "/b", "/a", "/c", "/a"]
    assert said("/gate /check /gate /welcome") == []


def _held(steps: str) -> tuple[list[bool], _NavigationGuard]:
    """Whether the guard rejects each navigation of a page loading the first of `steps`, the others asked in turn:
    `/x` a navigation of its script or meta refresh (the document asked before was shown first), `>/x` an HTTP
    redirect's hop (nothing shown since the navigation asked before); no navigation: `+` the document asked before
    is shown now (else it is when `/x` comes), `~` the page's script edits the history entry it shows
    (history.replaceState, pushState). Nothing says whether the page had loaded: a 0-second meta refresh Chromium
    follows during the load is asked so."""
    guard = _NavigationGuard()
    shown = [0, ""]  # the page's history entry (a new one each time a document is shown, or it is edited), its URL
    first, *rest = steps.split()
    guard.watch(f"http://site.test{first}", lambda target: None, shown=lambda: (shown[0], shown[1]))
    requests: list[_Request] = []
    shown_since_asked = False
    for step in (first, *rest):
        if step in ("+", "~") or (requests and not step.startswith(">") and not shown_since_asked):
            edited = f"http://site.test/edited-{shown[0]}"
            shown[:] = [shown[0] + 1, edited if step == "~" else requests[-1].address]
            shown_since_asked = shown_since_asked or step != "~"
            guard.note_shown()  # (the page's urlChanged)
        if step in ("+", "~"):
            continue
        requests.append(_Request(f"http://site.test{step.removeprefix('>')}"))
        guard.on_navigation(requests[-1])
        shown_since_asked = False
    return [request.rejected for request in requests], guard


def test_the_guard_rejects_the_sixth_navigation_of_a_script_or_meta_refresh() -> None:
    rejected, guard = _held("/p0 /p1 /p2 /p3 /p4 /p5 /p6 /p7")
    assert rejected == [False] * 6 + [True, True]
    assert guard.too_long == [f"http://site.test/p{n}" for n in range(7)] and guard.halted and not guard.loop
    assert not any(_held("/p0 /p1 /p2 /p3 /p4 /p5")[0])  # five: followed


def test_the_http_redirects_of_a_chain_are_not_counted() -> None:
    rejected, guard = _held("/p0 >/r0 /p1 >/r1 /p2 >/r2 /p3 >/r3 /p4 >/r4 /p5 >/r5")
    assert not any(rejected) and guard.hops.count == 5 and not guard.halted
    assert _held(">/p0 >/r0 >/r1 /p1 /p2 /p3 /p4 /p5 /p6")[0][-1]  # the sixth, after the page's own redirects


def test_a_history_entry_the_page_edits_is_no_document_shown() -> None:
    # sent on once, the page edits its entry while the (slow) redirects of that navigation come: one navigation
    rejected, guard = _held("/p0 ~ /p1 ~ >/r1 ~ >/r2 ~ >/r3 ~ >/r4 ~ >/r5 ~ >/r6 ~ >/end")
    assert not any(rejected) and guard.hops.count == 1, guard.hops.count
    # a document shown is noted as it is: the page that edits its entry before it sends the page on still does
    rejected, guard = _held("/p0 + ~ /p1 + ~ /p2 + ~ /p3 + ~ /p4 + ~ /p5 + ~ /p6")
    assert rejected == [False] * 6 + [True] and guard.too_long


def test_the_guards_count_and_the_leaves_render_sees_are_held_to_the_limit_apart() -> None:
    """Which of the two sees a navigation first depends on the machine's load: one count fed by both counted some
    twice on a busy machine (a chain of 5 meta refreshes, each through an HTTP redirect, failed as 6)."""
    hops = _Hops()
    for _ in range(5):
        hops.sent_on()  # the guard's, as each is asked
        hops.left_while_settling()  # render saw the same go
    assert (hops.count, hops.leaves) == (5, 5) and not hops.too_many and not hops.left_too_often
    hops.left_while_settling()  # a 6th the guard took for a redirect's hop
    assert hops.left_too_often and not hops.too_many
    hops.sent_on()
    assert hops.too_many
    assert hops.failure(["/a", "/b"]).args[0].startswith(
        "its script or meta refresh sent it on to another page more than 5 times in a row (/a → /b): ")


def test_a_loop_is_said_as_a_loop_though_it_is_also_the_sixth() -> None:
    rejected, guard = _held("/a /b /c /d /e /a /b")
    assert rejected == [False] * 6 + [True] and guard.loop and not guard.too_long
