"""A tiny snapshot site for the agent-benchmark app tests: a shop home page, two products, a search page.

Pages are MHTML files written by the core, each saved from its URL; the home page links to a page the site
does not hold and to a local HTTP server (given), which must never see a request.
"""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.sites import Site, build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.page.snapshot import Resource

BASE = "https://shop.example.com"
HOME = f"{BASE}/"
LAMP = f"{BASE}/product/lamp"
CHAIR = f"{BASE}/product/chair"
SEARCH_LAMP = f"{BASE}/search?q=desk+lamp"
MISSING = f"{BASE}/about"
PNG_1PX = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d4944415478da63f8cfc0f01f0005000201a0f4b3f10000000049454e44ae426082")

_STYLE = "body{font:16px/1.6 sans-serif;margin:24px} a,button,input{font-size:18px} .tall{height:1600px}"


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>"
            f"<link rel='stylesheet' href='{BASE}/static/site.css'></head><body>{body}</body></html>")


def make_site(root: Path, server_url: str = "http://127.0.0.1:9/") -> Site:
    css = Resource(f"{BASE}/static/site.css", None, "text/css", _STYLE.encode())
    logo = Resource(f"{BASE}/static/logo.png", None, "image/png", PNG_1PX)
    home = _page("Shop", f"""
      <h1><img id="logo" src="{BASE}/static/logo.png" width="20" height="20" alt="logo"> Shop</h1>
      <nav><a href="/product/lamp">Desk lamp</a> · <a href="{CHAIR}">Chair</a> · <a href="/about">About us</a>
       · <a href="{server_url}probe">Partner</a></nav>
      <form action="/search" method="get"><label for="q">Search</label>
        <input id="q" name="q" placeholder="Search products"><button type="submit">Go</button></form>
      <div class="tall"></div><a href="/product/chair">Chair at the bottom</a>
      <img src="{server_url}tracker.png" width="1" height="1" alt="">""")
    lamp = _page("Desk lamp", """<h1>Desk lamp</h1><p>Price: <b id="price">$24.90</b></p>
      <a href="/">Home</a> <button aria-label="Add to basket">+</button>""")
    chair = _page("Chair", "<h1>Chair</h1><p>Price: <b>$79.00</b></p><a href='/'>Home</a>")
    search = _page("Search: desk lamp", """<h1>Results for desk lamp</h1>
      <ul><li><a href="/product/lamp">Desk lamp — $24.90</a></li></ul><a href="/">Home</a>""")
    root.mkdir(parents=True, exist_ok=True)
    for name, html, url in (("home", home, HOME), ("lamp", lamp, LAMP), ("chair", chair, CHAIR),
                            ("search", search, SEARCH_LAMP)):
        write_mhtml(root / f"{name}.mhtml", html, url=url, resources=[css, logo] if name == "home" else [css])
    return build_site(root)
