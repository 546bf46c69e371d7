"""What a captured page's scripts send that no request is: a WebSocket (its handshake is a GET), WebRTC (STUN and TURN
servers the page names, over UDP and TCP, its RTCPeerConnection taken from a frame it has just made too) and
WebTransport (HTTP/3 over UDP), each aimed at a listener on 127.0.0.1 that must hear nothing; a form its script posts
in the middle of the page (never sent, and the page kept whole, not cut where the script ran); and redirects to file:
and ftp: addresses, skipped for their scheme (no connection made) rather than failed with Chromium's error code."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import threading
import time
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

ITEMS = "<ul>" + "".join(f"<li>Item {i}</li>" for i in range(1, 6)) + "</ul>"


def _page(title: str, body: str) -> bytes:
    return (f"<!DOCTYPE html><html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"
            ).encode()


def _pages(tcp: int, udp: int) -> dict[str, bytes]:
    servers = (f"{{iceServers: [{{urls: 'stun:127.0.0.1:{udp}'}}, {{urls: 'turn:127.0.0.1:{tcp}?transport=tcp', "
               "username: 'secret', credential: 'secret'}]}")
    offer = "pc.createDataChannel('d'); pc.createOffer().then((o) => pc.setLocalDescription(o));"
    return {
        "/ws": _page("WebSocket", f"<script>const ws = new WebSocket('ws://127.0.0.1:{tcp}/');"
                                  "ws.onopen = () => ws.send('secret');</script>"),
        "/rtc": _page("WebRTC", f"<script>try {{ const pc = new RTCPeerConnection({servers}); {offer} }} "
                                "catch (e) {}</script>"),
        # its first, empty document is read before any of the page's documents is made in it
        "/rtc-frame": _page("WebRTC of a frame", "<script>const f = document.createElement('iframe');"
                                                 "document.body.appendChild(f); try { const pc = new "
                                                 f"f.contentWindow.RTCPeerConnection({servers}); {offer} }} "
                                                 "catch (e) {}</script>"),
        "/wt": _page("WebTransport", f"<script>try {{ new WebTransport('https://127.0.0.1:{udp}/send'); }} "
                                     "catch (e) {}</script>"),
        "/post": _page("Posts", "<form id='f' method='post' action='/submitted'><input name='a' value='1'></form>"
                                f"<script>document.getElementById('f').submit()</script>{ITEMS}"),
    }


class _Site(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        server = self.server
        path = urlsplit(self.path).path
        if path == "/to-file":
            self.redirect(server.file_url)  # type: ignore[attr-defined]
        elif path == "/to-ftp":
            self.redirect(f"ftp://127.0.0.1:{server.tcp_port}/file")  # type: ignore[attr-defined]
        elif path in server.pages:  # type: ignore[attr-defined]
            self.send(200, server.pages[path])  # type: ignore[attr-defined]
        else:
            self.send(404, _page("Not found", ""))

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        self.server.requests.append(f"POST {self.path}")  # type: ignore[attr-defined]
        self.send(200, _page("Posted", ""))


class _Ears:
    """A TCP and a UDP port of 127.0.0.1 that note whatever reaches them (a WebSocket's handshake, a TURN or STUN
    request, WebTransport's QUIC, an FTP connection)."""

    def __init__(self) -> None:
        self.heard: list[str] = []
        self.tcp = socket.socket()
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(8)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.tcp_port, self.udp_port = self.tcp.getsockname()[1], self.udp.getsockname()[1]
        for listen in (self._tcp, self._udp):
            threading.Thread(target=listen, daemon=True).start()

    def _tcp(self) -> None:
        while True:
            try:
                connection, _ = self.tcp.accept()
            except OSError:  # closed
                return
            connection.settimeout(1)
            try:
                self.heard.append(f"TCP {connection.recv(200)!r}")
            except OSError:
                self.heard.append("TCP (a connection)")
            connection.close()

    def _udp(self) -> None:
        while True:
            try:
                data = self.udp.recv(65536)
            except OSError:  # closed
                return
            self.heard.append(f"UDP {data[:40]!r}")

    def close(self) -> None:
        for sock in (self.tcp, self.udp):
            with contextlib.suppress(OSError):  # (ends the thread's wait)
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Iterator[tuple[dict, str, list[str], Path, str, list[str], Path]]:
    """One capture of every page, and of the two redirects off the web: (its summary, stderr, the site's requests,
    the folder, the base URL, what the listeners heard, the file a redirect points at)."""
    root = tmp_path_factory.mktemp("sends")
    secret = root / "secret.txt"
    secret.write_text("not for the capture\n", encoding="utf-8")
    ears = _Ears()
    try:
        with loopback.serve(_Site) as server:
            server.pages = _pages(ears.tcp_port, ears.udp_port)  # type: ignore[attr-defined]
            server.tcp_port = ears.tcp_port  # type: ignore[attr-defined]
            server.file_url = secret.as_uri()  # type: ignore[attr-defined]
            base = base_url(server)
            urls = [base + p for p in ("/ws", "/rtc", "/rtc-frame", "/wt", "/post", "/to-file", "/to-ftp")]
            done = subprocess.run(capture_argv(*urls, "--site", str(root / "site"), "--json", "--depth", "0",
                                               "--ignore-robots", "--timeout", "30"),
                                  capture_output=True, text=True, timeout=300)
            time.sleep(1)  # (a STUN request is sent again and again: one on its way is heard by now)
            assert done.stdout.strip(), done.stderr[-3000:]
            yield (json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, list(server.requests),
                   root / "site", base, list(ears.heard), secret)
    finally:
        ears.close()


def _warning(stderr: str, url: str) -> str:
    said = [line for line in stderr.splitlines() if line.startswith(f"recordlens: warning: {url}: ")]
    return "\n".join(said)


def test_no_websocket_webrtc_or_webtransport_reaches_anywhere_and_each_is_named(captured) -> None:
    summary, stderr, _, _, base, heard, _ = captured
    saved = {urlsplit(u).path for u in summary["saved"]}
    assert {"/ws", "/rtc", "/rtc-frame", "/wt", "/post"} <= saved, summary
    assert heard == [], heard  # no handshake, no STUN or TURN request, no QUIC packet
    assert "WebSocket ws://127.0.0.1:" in _warning(stderr, base + "/ws"), stderr[-3000:]
    assert "requests that send data were blocked" in _warning(stderr, base + "/ws")
    assert "WebRTC stun:127.0.0.1:" in _warning(stderr, base + "/rtc"), stderr[-3000:]
    assert "WebRTC stun:127.0.0.1:" in _warning(stderr, base + "/rtc-frame"), stderr[-3000:]
    assert "WebTransport https://127.0.0.1:" in _warning(stderr, base + "/wt"), stderr[-3000:]


def test_a_form_its_script_posts_is_not_sent_and_the_page_is_kept_whole(captured) -> None:
    summary, stderr, requests, folder, base, _, _ = captured
    assert not [r for r in requests if r.startswith("POST")], requests
    page = load_site(folder).page(base + "/post")
    assert page is not None, summary
    html = read_snapshot(folder / page.file).html
    assert html.count("<li>") == 5, html  # all of the page as served, not what came before its script
    assert _warning(stderr, base + "/post") == (f"recordlens: warning: {base}/post: requests that send data were "
                                                "blocked (nothing is submitted to a site): a form submission (POST "
                                                f"{base}/submitted)"), stderr[-3000:]


def test_a_redirect_to_a_file_or_ftp_address_is_skipped_for_its_scheme(captured) -> None:
    summary, _, _, _, base, heard, secret = captured
    skipped = dict(summary["skipped"])
    assert skipped[base + "/to-file"] == (f"redirects to {secret.as_uri()}: not a web address (file:), which a "
                                          "capture does not load (http and https only)"), summary
    assert skipped[base + "/to-ftp"].endswith(": not a web address (ftp:), which a capture does not load (http "
                                              "and https only)"), summary
    assert not [u for u, _ in summary["failed"] if u.startswith(base + "/to-")], summary
    assert heard == [], heard  # (the ftp: address is on the TCP listener's port)
