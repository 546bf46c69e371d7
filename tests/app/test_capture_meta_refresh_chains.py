"""A chain of 0-second meta refreshes is held to `MAX_CLIENT_HOPS` as a script's navigations are (a verifier's
finding): Chromium follows such a refresh during the page's load, and the capture counted only the navigations
that came after it, so a chain of 8 was followed to its end and saved, and one of 40 was followed to its end before
it failed. The guard now counts every navigation of the page's script or meta refresh as it is asked, and rejects
the 6th: the page fails with a chain of 6, the same on every run, and the address the 6th would have gone to is
never requested. The HTTP redirects between them are no such navigation: a chain of 5 meta refreshes, each through
a redirect, is saved. Served on 127.0.0.1 and captured with the real command."""

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


def _refresh(target: str) -> bytes:
    return (f'<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url={target}"><title>Redirecting'
            "</title></head><body>Redirecting</body></html>").encode()


def _real(title: str) -> bytes:
    return f"<!DOCTYPE html><html><head><title>{title}</title></head><body>{title}</body></html>".encode()


def _chain(name: str, length: int) -> dict[str, bytes]:
    """/NAME-0 refreshes at once to /NAME-1, and so on to /NAME-LENGTH, a page that settles."""
    pages = {f"/{name}-{n}": _refresh(f"/{name}-{n + 1}") for n in range(length)}
    return {**pages, f"/{name}-{length}": _real(f"The end of {name}")}


# /via-N answers with an HTTP redirect to /through-N: five meta refreshes, each by way of a redirect
THROUGH = {f"/through-{n}": _refresh(f"/via-{n + 1}") for n in range(5)} | {"/through-5": _real("Through")}
PAGES = {**_chain("eight", 8), **_chain("forty", 40), **_chain("five", 5), **THROUGH}


class _Site(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        self.server.requests.append(path)  # type: ignore[attr-defined]
        if path.startswith("/via-"):
            self.redirect(path.replace("/via-", "/through-"))
        elif path in PAGES:
            self.send(200, PAGES[path])
        else:
            self.send(404, b"<p>no such page</p>")


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[dict, str, str, list[str]]]:
    """(the summary, the capture's stderr, the server's base URL, the paths it was asked for)."""
    with loopback.serve(_Site) as server:
        base = base_url(server)
        folder = tmp_path_factory.mktemp("chains") / "site"
        roots = [base + root for root in ("/eight-0", "/forty-0", "/five-0", "/through-0")]
        done = subprocess.run(capture_argv(*roots, "--site", str(folder), "--json", "--depth", "0",
                                           "--ignore-robots", "--delay", "0", "--timeout", "30"),
                              capture_output=True, text=True, timeout=600)
        assert done.stdout.strip(), done.stderr[-3000:]
        yield json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, base, list(server.requests)


@pytest.mark.parametrize("name", ["eight", "forty"])
def test_a_chain_of_immediate_meta_refreshes_fails_at_the_sixth(captured, name: str) -> None:
    summary, stderr, base, requested = captured
    failed = dict(summary["failed"])
    assert base + f"/{name}-0" in failed, (summary, stderr[-3000:])
    chain = " → ".join(base + f"/{name}-{n}" for n in range(7))  # the page's own, then 6 refreshes
    assert failed[base + f"/{name}-0"] == (
        f"its script or meta refresh sent it on to another page more than 5 times in a row ({chain}): it never "
        "settled on a page to save, and is not followed further")
    assert [path for path in requested if path.startswith(f"/{name}-")] == [f"/{name}-{n}" for n in range(6)], \
        requested  # the 6th refresh was rejected as it was asked: its address never requested


def test_five_meta_refreshes_are_followed_and_the_page_saved(captured) -> None:
    summary, stderr, base, _ = captured
    assert base + "/five-5" in summary["saved"], (summary, stderr[-3000:])


def test_the_http_redirects_between_meta_refreshes_are_not_counted(captured) -> None:
    summary, stderr, base, requested = captured
    assert base + "/through-5" in summary["saved"], (summary, stderr[-3000:])
    assert "/via-5" in requested
