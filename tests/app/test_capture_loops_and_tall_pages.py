"""Pages that never settle and pages too tall for a screenshot, served on 127.0.0.1 and captured with the real
command: a meta-refresh loop (A → B → A, three pages round), a script that reloads its page for ever and an HTTP
redirect loop each fail as a loop that names its addresses, the same on every run (they failed as "the page failed
to load" or were saved as a "Redirecting…" page, depending on timing), while a page that reloads itself once (a
check page that sets a cookie) is saved as what it then shows, and a page whose meta refresh is to itself is saved as
it loaded, no loop (test_capture_refresh_to_the_page_itself.py); a page taller than the
screenshot limit says its screenshot was cut (warning and meta.json), and a page of too many elements says, in a
whole sentence, what is kept."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from recordlens.core.agent.sites import load_site
from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app


def _refresh(target: str, text: str) -> bytes:
    return (f'<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url={target}"><title>Redirecting'
            f"</title></head><body>{text}</body></html>").encode()


PAGES = {
    "/meta-a": _refresh("/meta-b", "A"),
    "/meta-b": _refresh("/meta-a", "B"),
    "/meta-self": _refresh("/meta-self", "itself"),
    "/tri-a": _refresh("/tri-b", "1"),
    "/tri-b": _refresh("/tri-c", "2"),
    "/tri-c": _refresh("/tri-a", "3"),
    "/reloading": (b"<!DOCTYPE html><html><head><title>Reloading</title></head><body>again<script>"
                   b"setTimeout(function () { location.reload(); }, 50);</script></body></html>"),
    "/tall": b"<!DOCTYPE html><html><head><title>Tall</title></head><body><div style='height:5000px'>tall</div>"
             b"</body></html>",
    "/many": b"<!DOCTYPE html><html><head><title>Many</title></head><body>" + b"<span>x</span> " * 300
             + b"</body></html>",
}
LOOPS = {  # root: the loop its failure names
    "/meta-a": "/meta-a → /meta-b → /meta-a",
    "/tri-a": "/tri-a → /tri-b → /tri-c → /tri-a",
    "/reloading": "/reloading → /reloading",
    "/loop-a": "/loop-a → /loop-b → /loop-a",
}
SCREENSHOT_LIMIT = 3000  # the capture's MAX_SCREENSHOT_HEIGHT in the test: /tall is cut without a page of 16,384 px


class _Site(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        if path in ("/loop-a", "/loop-b"):
            self.redirect("/loop-b" if path == "/loop-a" else "/loop-a")
        elif path == "/checked":  # a check page: sets a cookie and reloads; with the cookie, the page itself
            checked = "checked=1" in (self.headers.get("Cookie") or "")
            self.send(200, b"<!DOCTYPE html><html><head><title>Real page</title></head><body>the real page"
                           b"</body></html>" if checked else
                      b"<!DOCTYPE html><html><head><title>Checking</title></head><body>checking<script>"
                      b"document.cookie = 'checked=1; path=/'; location.reload();</script></body></html>")
        elif path in PAGES:
            self.send(200, PAGES[path])
        else:
            self.send(404, b"<p>no such page</p>")


def _capture(base: str, roots: list[str], folder: Path) -> tuple[dict, str, Path]:
    done = subprocess.run(capture_argv(*[base + root for root in roots], "--site", str(folder), "--json",
                                       "--depth", "0", "--ignore-robots", "--delay", "0", "--timeout", "30",
                                       MAX_SCREENSHOT_HEIGHT=SCREENSHOT_LIMIT, MAX_TREE_ELEMENTS=100),
                          capture_output=True, text=True, timeout=600)
    assert done.stdout.strip(), done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, folder


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[list[tuple[dict, str, Path]], str]]:
    """The loops captured twice, in two orders (one with a loop before each page: a loop's last, rejected
    navigation must not end the next page's load), then the tall pages: ([(summary, stderr, site folder), ...],
    the server's base URL)."""
    roots = [*LOOPS, "/checked", "/meta-self"]
    with loopback.serve(_Site) as server:
        base = base_url(server)
        runs = []
        for number, order in enumerate((roots, roots[::-1])):
            runs.append(_capture(base, order, tmp_path_factory.mktemp(f"loops{number}") / "site"))
        runs.append(_capture(base, ["/tall", "/many"], tmp_path_factory.mktemp("tall") / "site"))
        yield runs, base


def _meta(folder: Path, url: str) -> dict:
    return json.loads((folder / load_site(folder).page(url).side_file("meta")).read_text("utf-8"))


def test_every_loop_fails_as_a_loop_that_names_its_addresses_on_every_run(captured) -> None:
    runs, base = captured
    for summary, stderr, _ in runs[:2]:
        failed = dict(summary["failed"])
        assert set(failed) == {base + root for root in LOOPS}, (summary, stderr[-3000:])
        for root, loop in LOOPS.items():
            assert failed[base + root].startswith(f"it redirects in a loop ({loop}): "), failed[base + root]
        assert not any("Redirecting" in str(page) for page in summary["saved"])
    assert dict(runs[0][0]["failed"]) == dict(runs[1][0]["failed"])  # the same outcome, whatever the order


def test_a_page_that_reloads_itself_once_is_saved_as_it_then_shows(captured) -> None:
    runs, base = captured
    for summary, _, folder in runs[:2]:
        assert base + "/checked" in summary["saved"], summary
        assert _meta(folder, base + "/checked")["title"] == "Real page"


def test_a_page_whose_meta_refresh_is_to_itself_is_saved_as_it_loaded_on_every_run(captured) -> None:
    runs, base = captured
    for summary, _, _folder in runs[:2]:
        assert base + "/meta-self" in summary["saved"], summary


def test_a_screenshot_cut_at_the_limit_is_said_in_its_warning_and_meta(captured) -> None:
    runs, base = captured
    _, stderr, folder = runs[2]
    meta = _meta(folder, base + "/tall")
    assert meta["screenshot_size"][1] == SCREENSHOT_LIMIT and meta["screenshot_cut_at"] == SCREENSHOT_LIMIT
    assert meta["screenshot_cut"] is True and meta["page_height"] > SCREENSHOT_LIMIT
    warning = f"its screenshot shows only its top {SCREENSHOT_LIMIT} px of {meta['page_height']} px"
    assert any(w.startswith(warning) for w in meta["warnings"]), meta["warnings"]
    assert f"warning: {base}/tall: {warning}" in stderr, stderr[-3000:]
    assert "screenshot_cut_at" not in _meta(folder, base + "/many")  # a page within the limit is whole


def test_the_warning_of_a_page_of_too_many_elements_is_a_whole_sentence(captured) -> None:
    runs, base = captured
    folder = runs[2][2]
    warnings = _meta(folder, base + "/many")["warnings"]
    assert any(w.startswith("its accessibility tree is not kept") and w.endswith(
        "the page, its screenshot and its links are kept") for w in warnings), warnings


def test_a_meta_refresh_left_is_said_as_due_at_once_or_later() -> None:
    """A refresh due at once that had not gone when the page was captured (a renderer slower than its settling)
    is not said to be "due after it settled"."""
    from recordlens.annotator.agent.site_capture import _content_warnings

    assert _content_warnings({"refresh": "0; url=/next", "textStart": "wait"}, "http://127.0.0.1/page") == [
        "it has a meta refresh ('0; url=/next') due at once, which had not gone when it was captured: it is kept as "
        "it was before it"]
    assert _content_warnings({"refresh": "30;URL='/later'", "textStart": "wait"}, "http://127.0.0.1/page") == [
        "it has a meta refresh (\"30;URL='/later'\") due after it settled, which was not waited for: it is kept as "
        "it was before it"]
