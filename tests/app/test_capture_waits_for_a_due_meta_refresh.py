"""A page whose 0-second meta refresh has not gone by the end of the settling time (SETTLE_MS) is not saved: the
capture waits for the refresh (within the page's --timeout) and follows it. On a busy machine a renderer slower
than the settling had not started the refresh yet, and a chain of such pages was saved at one of its "Redirecting"
pages, with a warning that its refresh "had not gone". Here the renderer is slow by the page's own doing: a script
that keeps it busy for 1.5 s right after the load, before the refresh can go. The chain limit and the loop check
still hold for such pages, and a refresh due later than the settling is still not waited for. Served on 127.0.0.1
and captured with the real command."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app

# Right after the load, the renderer's one thread is kept busy for 1.5 s: the refresh, due once the load ended,
# waits behind it, three times the capture's settling time.
BUSY = ("<script>addEventListener('load', () => setTimeout(() => { const end = Date.now() + 1500; "
        "while (Date.now() < end) {} }, 0));</script>")


def _slow_refresh(target: str, delay: int = 0) -> bytes:
    return (f'<!DOCTYPE html><html><head><meta http-equiv="refresh" content="{delay}; url={target}">'
            f"<title>Redirecting</title>{BUSY}</head><body>Redirecting</body></html>").encode()


def _real(title: str) -> bytes:
    return f"<!DOCTYPE html><html><head><title>{title}</title></head><body>{title}</body></html>".encode()


def _chain(name: str, length: int) -> dict[str, bytes]:
    """/NAME-0 refreshes at once, once busy, to /NAME-1, and so on to /NAME-LENGTH, a page that settles."""
    pages = {f"/{name}-{n}": _slow_refresh(f"/{name}-{n + 1}") for n in range(length)}
    return {**pages, f"/{name}-{length}": _real(f"The end of {name}")}


PAGES = {**_chain("three", 3), **_chain("seven", 7),
         "/loop-a": _slow_refresh("/loop-b"), "/loop-b": _slow_refresh("/loop-a"),
         "/later": _slow_refresh("/arrived", delay=30), "/arrived": _real("Arrived")}


class _Site(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        self.server.requests.append(path)  # type: ignore[attr-defined]
        if path in PAGES:
            self.send(200, PAGES[path])
        else:
            self.send(404, b"<p>no such page</p>")


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[dict, str, str, list[str], object]]:
    """(the summary, the capture's stderr, the server's base URL, the paths it was asked for, the site folder)."""
    with loopback.serve(_Site) as server:
        base = base_url(server)
        folder = tmp_path_factory.mktemp("slow-refresh") / "site"
        roots = [base + root for root in ("/three-0", "/seven-0", "/loop-a", "/later")]
        done = subprocess.run(capture_argv(*roots, "--site", str(folder), "--json", "--depth", "0",
                                           "--ignore-robots", "--delay", "0", "--timeout", "60"),
                              capture_output=True, text=True, timeout=600)
        assert done.stdout.strip(), done.stderr[-3000:]
        yield json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, base, list(server.requests), folder


def test_a_refresh_due_at_once_is_waited_for_and_the_chain_saved_at_its_end(captured) -> None:
    summary, stderr, base, requested, folder = captured
    assert base + "/three-3" in summary["saved"], (summary, stderr[-3000:])
    assert not any(f"/three-{n}" in url for n in range(3) for url in summary["saved"]), summary
    assert "due at once" not in stderr, stderr[-3000:]  # no page kept before a refresh that was due
    meta = next(folder.glob("pages/*three-3*.meta.json"))
    hops = json.loads(meta.read_text())["redirects"]
    assert [(urlsplit(h["url"]).path, h.get("kind")) for h in hops] == [
        (f"/three-{n}", "script or meta refresh") for n in range(3)], hops
    assert [path for path in requested if path.startswith("/three-")] == [f"/three-{n}" for n in range(4)]


def test_the_chain_limit_holds_for_slow_refreshes(captured) -> None:
    summary, stderr, base, requested, _ = captured
    failed = dict(summary["failed"])
    chain = " → ".join(base + f"/seven-{n}" for n in range(7))  # the page's own, then 6 refreshes
    assert failed.get(base + "/seven-0") == (
        f"its script or meta refresh sent it on to another page more than 5 times in a row ({chain}): it never "
        "settled on a page to save, and is not followed further"), (summary, stderr[-3000:])
    assert [path for path in requested if path.startswith("/seven-")] == [f"/seven-{n}" for n in range(6)]


def test_a_loop_of_slow_refreshes_fails_as_a_loop(captured) -> None:
    summary, stderr, base, _, _ = captured
    failed = dict(summary["failed"])
    assert failed.get(base + "/loop-a", "").startswith("it redirects in a loop ("), (summary, stderr[-3000:])


def test_a_refresh_due_after_the_settling_is_not_waited_for(captured) -> None:
    summary, stderr, base, requested, _ = captured
    assert base + "/later" in summary["saved"] and "/arrived" not in requested, (summary, stderr[-3000:])
    assert "meta refresh ('30; url=/arrived') due after it settled, which was not waited for" in stderr
