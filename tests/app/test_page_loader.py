"""The offline page loader: nothing reaches the network, no page script runs, encodings are stated."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from PySide6.QtCore import QEventLoop, QTimer

from recordlens.annotator.qt.page_scripts import browser_dom
from tests.loopback import SHUTDOWN_POLL_S

pytestmark = pytest.mark.app


class _CountingServer(ThreadingHTTPServer):
    """Counts every TCP connection, so even a preconnect without a request would show."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.connections = 0
        self.paths: list[str] = []

    def verify_request(self, request, client_address) -> bool:
        self.connections += 1
        return True


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.paths.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(b"reached the network")

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def trap() -> Iterator[_CountingServer]:
    server = _CountingServer()
    thread = threading.Thread(target=server.serve_forever, args=(SHUTDOWN_POLL_S,), daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def spin(ms: int) -> None:
    """Let the browser work for a while (stray requests would arrive meanwhile)."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def test_no_request_reaches_the_network(offline_page, trap):
    base = f"http://127.0.0.1:{trap.server_address[1]}"
    offline_page.reset_blocked()
    offline_page.load_html(f"""<!doctype html><html><head>
        <link rel="preconnect" href="{base}/"><link rel="dns-prefetch" href="{base}/">
        <link rel="prefetch" href="{base}/prefetch"><link rel="stylesheet" href="{base}/style.css">
        <script src="{base}/script.js"></script></head>
        <body style="background-image: url({base}/background.png)">
        <img src="{base}/image.png"><iframe src="{base}/frame.html"></iframe>
        <script>fetch("{base}/page-fetch")</script></body></html>""")
    assert offline_page.wait_until_loaded()
    # Injected code can issue requests too; the same gate must stop them.
    offline_page.run_js(f"""fetch("{base}/injected-fetch").catch(() => 0);
        new WebSocket("ws://127.0.0.1:{trap.server_address[1]}/socket"); 1""")
    spin(1000)
    assert trap.connections == 0, trap.paths
    blocked = set(offline_page.blocked_urls)
    assert offline_page.blocked_count == len(blocked) > 0  # each address once, however often it was asked for
    for path in ("/style.css", "/image.png", "/frame.html", "/background.png", "/injected-fetch"):
        assert base + path in blocked


def test_page_scripts_never_run_but_injected_code_does(offline_page):
    offline_page.load_html("<title>before</title><script>document.title = 'script ran'</script>")
    assert offline_page.wait_until_loaded()
    assert offline_page.page.title() == "before"
    assert offline_page.run_js("document.title + '|' + (6 * 7)") == "before|42"


def test_large_page_keeps_its_encoding(offline_page):
    # Beyond setHtml's 2 MB limit, with text a charset guess would garble.
    filler = "<p>Größe – naïve café</p>\n" * 120_000
    offline_page.load_html(f"<html><body>{filler}<p id=end>Ünïcødé “end” 終</p></body></html>")
    assert offline_page.wait_until_loaded()
    assert offline_page.run_js("document.characterSet") == "UTF-8"
    assert offline_page.run_js("document.getElementById('end').textContent") == "Ünïcødé “end” 終"
    assert offline_page.run_js("document.querySelectorAll('p').length") == 120_001


def test_cid_reference_fails_at_once(offline_page):
    offline_page.reset_blocked()
    offline_page.load_html('<img src="cid:part1@example"><iframe src="cid:frame@example"></iframe>')
    assert offline_page.wait_until_loaded(5_000)  # a hang would raise TimeoutError here
    assert "cid:part1@example" in offline_page.blocked_urls


MHTML = """From: <Saved by Blink>
Snapshot-Content-Location: http://shop.example.com/list
Subject: Shop
MIME-Version: 1.0
Content-Type: multipart/related;
\ttype="text/html";
\tboundary="----Boundary"

------Boundary
Content-Type: text/html
Content-ID: <frame-1@mhtml.blink>
Content-Transfer-Encoding: quoted-printable
Content-Location: http://shop.example.com/list

<html><head><meta charset=3D"utf-8"><title>Sh=C3=B6p</title><link rel=3D"stylesheet" href=3D"cid:css-1@mhtml.=
blink"></head><body><p class=3D"x">Caf=C3=A9</p><img src=3D"http://shop.example.com/a.png"><img src=3D"{remote}"=
><script>document.title=3D"script ran"</script></body></html>
------Boundary
Content-Type: text/css
Content-Location: cid:css-1@mhtml.blink

p.x {{ color: rgb(255, 0, 0); }}
------Boundary
Content-Type: image/png
Content-Transfer-Encoding: base64
Content-Location: http://shop.example.com/a.png

iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==
------Boundary--
"""


def test_mhtml_loads_from_its_archive_only(offline_page, trap, tmp_path):
    remote = f"http://127.0.0.1:{trap.server_address[1]}/not-in-archive.png"
    path = tmp_path / "shop.mhtml"
    path.write_bytes(MHTML.format(remote=remote).replace("\n", "\r\n").encode("ascii"))
    offline_page.load_mhtml(path)
    assert offline_page.wait_until_loaded()
    spin(300)
    facts = json.loads(offline_page.run_js("""JSON.stringify({
        title: document.title,
        text: document.querySelector('p').textContent,
        color: getComputedStyle(document.querySelector('p')).color,
        widths: Array.from(document.images, i => i.naturalWidth)})"""))
    assert facts == {"title": "Shöp", "text": "Café", "color": "rgb(255, 0, 0)", "widths": [1, 0]}
    assert trap.connections == 0


def test_dom_rules_skip_removed_nodes_and_leave_the_page_alone(offline_page):
    offline_page.load_html(
        "<html><head><meta charset=utf-8><meta name=x content=y><title>T</title><style>p{}</style>"
        "<link rel=icon href=x></head><body><script>s</script><p>a<!-- c -->b</p><p> </p>"
        "<div><p>\u200b</p><span>one</span>two<span>x</span></div><template><p>t</p></template>"
        "<svg><linearGradient></linearGradient><title>pic</title></svg></body></html>")
    assert offline_page.wait_until_loaded()
    dom = browser_dom(offline_page)
    assert dom.xpaths == [
        "/", "/head[1]", "/head[1]/meta[1]", "/head[1]/title[1]", "/body[1]", "/body[1]/p[1]",
        "/body[1]/p[2]", "/body[1]/div[1]", "/body[1]/div[1]/p[1]", "/body[1]/div[1]/span[1]",
        "/body[1]/div[1]/span[2]", "/body[1]/template[1]", "/body[1]/svg[1]",
        "/body[1]/svg[1]/lineargradient[1]", "/body[1]/svg[1]/title[1]",
    ]
    # Last text wins at the first text's position; the lone zero-width space is dropped.
    assert list(dom.text_map.items()) == [
        ("/head[1]/title[1]", "T"), ("/body[1]/p[1]", "b"), ("/body[1]/div[1]/span[1]", "one"),
        ("/body[1]/div[1]", "two"), ("/body[1]/div[1]/span[2]", "x"), ("/body[1]/svg[1]/title[1]", "pic"),
    ]
    counts = offline_page.run_js(
        "[document.scripts.length, document.querySelectorAll('style, link, meta').length,"
        " document.querySelector('p').childNodes.length].join()")
    assert counts == "1,4,3"
    assert offline_page.run_js(
        "__recordlens.xpathOf(document.querySelector('svg title'))") == "/body[1]/svg[1]/title[1]"
