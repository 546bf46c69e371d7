"""`recordlens site capture` keeps a page served under two addresses as one page and an alias when the page has an
inline `<style>` or a frame: Chromium's MHTML writer saves each as a part of its own, named by an id it makes up
anew with every capture (`cid:css-…@mhtml.blink`, `cid:frame-…@mhtml.blink`), so the two copies' HTML is never the
same character for character. Two pages whose HTML is the same but whose `<style>` says something else stay two
pages. Captured from a server on 127.0.0.1."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from recordlens.core.agent.sites import load_site
from recordlens.core.page.snapshot import read_snapshot
from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app

HOME_LINKS = ("/list", "/list?page=1", "/tint?c=red", "/tint?c=blue", "/framed", "/framed?x=1")


def _styled(title: str, rule: str, body: str) -> bytes:
    return (f"<!doctype html><html><head><meta charset=utf-8><title>{title}</title><style>{rule}</style></head>"
            f'<body><a href="/">Home</a>{body}</body></html>').encode()


class _Twins(loopback.LoopbackHandler):
    """/list and /list?page=1: one page with a <style>; /framed and /framed?x=1: one page with a frame whose own
    document has a <style>; /tint?c=red and /tint?c=blue: the same HTML but for the rule of their <style>."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        parts = urlsplit(self.path)
        if parts.path == "/":
            links = " ".join(f'<a href="{link}">{link}</a>' for link in HOME_LINKS)
            self.send(200, f"<!doctype html><html><head><title>Home</title></head><body>{links}</body></html>"
                      .encode())
        elif parts.path == "/list":
            self.send(200, _styled("Kettles", "body { margin: 20px }", "<p>Three kettles.</p>"))
        elif parts.path == "/tint":
            colour = "red" if parts.query == "c=red" else "blue"
            self.send(200, _styled("Tint", f"p {{ color: {colour} }}", "<p>A tint.</p>"))
        elif parts.path == "/framed":
            self.send(200, _styled("Framed", "iframe { border: 0 }", '<iframe src="/inner"></iframe>'))
        elif parts.path == "/inner":
            self.send(200, _styled("Inner", "p { font-weight: bold }", "<p>Inside the frame.</p>"))
        else:
            self.send(404, b"no such page")


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def test_a_page_with_a_style_or_a_frame_under_two_addresses_is_one_page(tmp_path: Path) -> None:
    folder = tmp_path / "site"
    with loopback.serve(_Twins) as server:
        done = subprocess.run(capture_argv(base_url(server) + "/", "--site", str(folder), "--json", "--depth", "1",
                                           "--timeout", "30", "--ignore-robots", SETTLE_MS=50),
                              capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert sorted((_path(url), _path(saved)) for url, saved in summary["same_content"]) == [
        ("/framed?x=1", "/framed"), ("/list?page=1", "/list")], summary
    assert sorted(_path(url) for url in summary["saved"]) == ["/", "/framed", "/list", "/tint?c=blue",
                                                              "/tint?c=red"], summary
    site = load_site(folder)
    assert len(site.pages) == 5 and site.page(base_url(server) + "/list?page=1", exact=True).url.endswith("/list")
    # The two tints are two pages by their style sheets alone: their HTML, as Chromium saved it, is the same once
    # the ids it made up are left out (else this would not show that the sheets are compared).
    red, blue = (read_snapshot(folder / site.page(base_url(server) + f"/tint?c={c}", exact=True).file).html
                 for c in ("red", "blue"))
    made_up = re.compile(r"cid:[^\"']+@mhtml\.blink")
    assert made_up.search(red) and made_up.sub("", red) == made_up.sub("", blue)
