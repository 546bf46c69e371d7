"""A multi-page site on 127.0.0.1 for capture tests: links, a GET search form with result pages, a redirect, a
404, a slow page, a robots.txt rule, a link cycle, an off-host link, and every page taller than the viewport.

`EXPECTED` is what a capture from "/" with depth 2 must save (paths with their query). `SMALL_PAGES`, served with
`serve(SMALL_PAGES)`, is a home page and three pages it links to (`SMALL_EXPECTED`), each taller than the viewport
(and than it is wide): for the app's tests of a capture, where what the site holds is not the point."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from recordlens.core.agent import Site, load_site
from tests import loopback

SLOW_S = 2.0
TALL = '<div style="height:2600px">tall content</div>'
EXPECTED = {"/", "/a", "/b", "/c", "/search?q=", "/search?q=&page=2", "/moved-here", "/slow"}
FAILED = {"/missing"}
ROBOTS_SKIPPED = {"/private/secret"}


def _page(title: str, body: str) -> bytes:
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><h1>{title}</h1>{body}{TALL}<footer><a href=\"/\">Home</a></footer></body></html>"
            ).encode()


def _pages(port: int) -> dict[str, bytes]:
    return {
        "/": _page("Home", '<nav><a href="/a">Page A</a> <a href="/b#part">Page B</a> '
                           '<a href="/redirect-me">Moved</a> <a href="/missing">Broken</a> '
                           '<a href="/slow">Slow</a> <a href="/private/secret">Secret</a> '
                           f'<a href="http://localhost:{port}/elsewhere">Elsewhere</a> '
                           '<a href="mailto:someone@example.org">Mail</a></nav>'
                           '<form action="/search" method="get" role="search"><label>Query '
                           '<input name="q" type="search"></label><button>Search</button></form>'),
        "/a": _page("Page A", '<p>Alpha.</p><a href="/b">to B</a> <a href="/">back home</a>'),
        "/b": _page("Page B", '<p>Beta.</p><a href="/a">to A</a> <a href="/c">to C</a>'),
        "/c": _page("Page C", '<p>Gamma.</p><a href="/d">to D, too deep</a>'),
        "/d": _page("Page D", "<p>Delta.</p>"),
        "/moved-here": _page("Moved here", "<p>The redirect's target.</p>"),
        "/slow": _page("Slow page", "<p>It took a while.</p>"),
        "/private/secret": _page("Secret", "<p>Robots may not come here.</p>"),
    }


SMALL_PAGES = {
    "/": _page("Home", '<nav><a href="/a">Page A</a> <a href="/b">Page B</a> <a href="/c">Page C</a></nav>'),
    "/a": _page("Page A", "<p>Alpha.</p>"),
    "/b": _page("Page B", "<p>Beta.</p>"),
    "/c": _page("Page C", "<p>Gamma.</p>"),
}
SMALL_EXPECTED = set(SMALL_PAGES)


class _Handler(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        server = self.server
        server.requests.append(self.path)  # type: ignore[attr-defined]
        parts = urlsplit(self.path)
        if parts.path == "/robots.txt":
            self.send(200, b"User-agent: *\nDisallow: /private/\n", "text/plain")
        elif parts.path == "/redirect-me":
            self.redirect("/moved-here")
        elif parts.path == "/search":
            page = parse_qs(parts.query).get("page", ["1"])[0]
            other = "2" if page == "1" else "1"
            items = "".join(f"<li>Result {page}.{i}</li>" for i in range(1, 6))
            self.send(200, _page(f"Results page {page}", f'<ol>{items}</ol><a href="/search?q=&amp;page={other}">'
                                                          f"Results page {other}</a>"))
        else:
            body = server.pages.get(parts.path)  # type: ignore[attr-defined]
            if body is None:
                self.send(404, _page("Not found", "<p>No such page.</p>"))
                return
            if parts.path == "/slow":
                time.sleep(SLOW_S)
            self.send(200, body)


@contextmanager
def serve(pages: dict[str, bytes] | None = None) -> Iterator[ThreadingHTTPServer]:
    """The site on a free port of 127.0.0.1; `server.requests` lists every path asked for, in order."""
    with loopback.serve(_Handler) as httpd:
        httpd.pages = pages if pages is not None else _pages(httpd.server_address[1])  # type: ignore[attr-defined]
        yield httpd


def capture_argv(*args: str, **limits: object) -> list[str]:
    """`recordlens site capture ARGS` as a process of its own, with limits of the capture module
    (`annotator/agent/site_capture.py`: CAPTURE_MARGIN_S, SETTLE_MS, MAX_TREE_ELEMENTS, ...) set in it first, for
    tests where waiting out their defaults is not the point. A limit the module does not have fails here, so a
    renamed one is not set in vain."""
    if not limits:
        return [sys.executable, "-m", "recordlens.annotator.cli", "site", "capture", *args]
    from recordlens.annotator.agent import site_capture

    unknown = [name for name in limits if not hasattr(site_capture, name)]
    assert not unknown, f"the capture module has no {unknown}"
    settings = "; ".join(f"capture.{name} = {value!r}" for name, value in limits.items())
    program = (f"import sys; import recordlens.annotator.agent.site_capture as capture; {settings}; "
               "from recordlens.annotator.cli import main; sys.exit(main(sys.argv[1:]))")
    return [sys.executable, "-c", program, "site", "capture", *args]


def captured_with_depth_1(url: str, folder: Path) -> Site:
    """The site a quick capture of `url` (depth 1, no delay, short settle) writes into `folder`, every page saved."""
    done = subprocess.run(capture_argv(url, "--site", str(folder), "--json", "--timeout", "30", "--depth", "1",
                                       "--delay", "0", SETTLE_MS=50), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert not summary["failed"], done.stderr[-3000:]
    return load_site(folder)


def capture_summary(url: str, folder: Path, *more: str) -> tuple[int, dict, str]:
    """`site capture URL --site FOLDER --json --depth 1` of a loopback site, robots.txt ignored: its exit status,
    its JSON summary and its stderr."""
    done = subprocess.run(capture_argv(url, "--site", str(folder), "--json", "--depth", "1", "--timeout", "30",
                                       "--ignore-robots", *more, SETTLE_MS=50),
                          capture_output=True, text=True, timeout=300)
    assert done.stdout.strip(), done.stderr[-3000:]
    return done.returncode, json.loads(done.stdout.strip().splitlines()[-1]), done.stderr
