"""Set-of-mark badges keep off the page's own text, not only the numbered elements' text: on a product page the
badge of the "lighting" link sat above it, over the Weight cell ("1,250 g", the answer an agent was asked for),
and the search field's badge covered the "h" of its "Search" label. Where no free place is left, the place hiding
least text is taken; the same rectangles give the same places."""

from __future__ import annotations

import json

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml

pytestmark = pytest.mark.app

URL = "https://timber.example/product/1"
PRODUCT = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Alder Desk Lamp</title>
<style>body{font-family:sans-serif;margin:20px} header{background:#eee;padding:8px} li{margin:6px 0}</style></head>
<body><header><a href="/">Timber Shop</a> | <a href="/products">All products</a>
 | <a href="/category/lighting">Lighting</a> | <a href="/category/furniture">Furniture</a>
 | <a href="/cart">Cart</a> | <a href="/about">About</a>
<form action="/search" method="get" role="search"><label for="q">Search</label> <input id="q" name="q" type="text"
 placeholder="Search products"> <button type="submit">Go</button></form></header>
<main><h1>Alder Desk Lamp</h1><img src="/img/lighting.png" alt="Alder Desk Lamp picture" width=160 height=120>
<table><tr><th>Price</th><td>€24.50</td></tr><tr><th>Weight</th><td>1,250 g</td></tr>
<tr><th>Category</th><td><a href="/category/lighting">lighting</a></td></tr></table>
<p>A warm lamp made of alder wood.</p>
<form action="/cart" method="get"><label for="qty">Quantity</label> <input id="qty" name="qty" value="1" size=3>
 <button type="submit">Add to cart</button></form></main><footer>Timber Shop, invented for testing.</footer>
</body></html>"""

# Every line of every text node in view, found independently of som.js (the app's layer is not under <body>).
ALL_TEXT = """(() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim()) continue;
    range.selectNodeContents(node);
    for (const b of range.getClientRects()) {
      if (b.width > 0 && b.height > 0) out.push({text: node.data.trim(), bbox: [b.left, b.top, b.width, b.height]});
    }
  }
  return JSON.stringify(out);
})()"""


def overlap(a: list[float], b: list[float]) -> float:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0.5 and h > 0.5 else 0.0


@pytest.fixture(scope="module")
def browser(qapp, tmp_path_factory):
    site = tmp_path_factory.mktemp("timber")
    write_mhtml(site / "product-1.mhtml", PRODUCT, url=URL)
    build_site(site)
    with QtSiteBrowser(site, viewport=(1280, 800)) as agent:
        agent.open(URL)
        yield agent


@pytest.mark.timeout(120)
def test_no_badge_covers_any_text_of_the_page(browser) -> None:
    seen = browser.observe()
    badges = browser.browser.js_json("__recordlens.som.labelBoxes()")
    assert len(badges) == len(seen.elements) >= 10
    texts = browser.browser.js_json(ALL_TEXT)
    assert any(t["text"] == "1,250 g" for t in texts)
    covered = [(b["label"], t["text"]) for b in badges for t in texts if overlap(b["bbox"], t["bbox"])]
    assert covered == []
    # and the numbers are still read as their own elements': the lighting link's badge is beside it, not on the
    # Weight row
    lighting = next(e for e in seen.elements if e.text == "lighting")
    badge = next(b["bbox"] for b in badges if b["label"] == lighting.label)
    x, y, w, h = lighting.bbox
    assert badge[1] >= y - 2 and abs((badge[0] + badge[2] / 2) - (x + w / 2)) < w + 40


@pytest.mark.timeout(120)
def test_where_every_place_holds_text_the_one_hiding_least_wins_and_always_the_same(browser) -> None:
    element = {"left": 200, "top": 200, "right": 260, "bottom": 220, "width": 60, "height": 20}  # as a DOMRect
    item = {"r": element, "texts": [element], "w": 20, "h": 16}
    # Text all around the element: the line above, words left and right, the line below; the line below is
    # only half as tall on its left (where "below" puts the badge), so that place hides least.
    page = [{"left": 100, "top": 184, "right": 400, "bottom": 200},
            {"left": 100, "top": 200, "right": 199, "bottom": 220},
            {"left": 261, "top": 200, "right": 400, "bottom": 220},
            {"left": 100, "top": 228, "right": 225, "bottom": 236},
            {"left": 225, "top": 220, "right": 400, "bottom": 236}]
    call = f"__recordlens.som.placeBadges({json.dumps([item])}, {json.dumps(page)})"
    chosen = browser.browser.js_json(call)
    assert chosen == [{"left": 200, "top": 220, "right": 220, "bottom": 236}]  # below: 20 x 8 covered
    assert browser.browser.js_json(call) == chosen

    # With a free place (nothing to the element's right), that one is taken, text-free.
    free = [t for t in page if t["left"] != 261]
    chosen = browser.browser.js_json(f"__recordlens.som.placeBadges({json.dumps([item])}, {json.dumps(free)})")
    assert chosen == [{"left": 264, "top": 202, "right": 284, "bottom": 218}]  # after its text, on its line


def box(left: float, top: float, width: float, height: float) -> dict[str, float]:
    """A rectangle as som.js reads a DOMRect."""
    return {"left": left, "top": top, "right": left + width, "bottom": top + height, "width": width, "height": height}


@pytest.mark.timeout(120)
def test_page_text_all_around_never_puts_a_badge_in_the_next_elements_box(browser) -> None:
    """Page text is avoided second: a link in a table cell, with text left and right of it and a header row above,
    had every place touch some text, and its badge was put 11 px into the next row's link, to be read as its."""
    a = {"r": box(100, 100, 100, 20), "texts": [box(100, 100, 100, 20)], "w": 16, "h": 16}
    b = {"r": box(100, 125, 100, 20), "texts": [box(100, 125, 40, 20)], "w": 16, "h": 16}
    page = [box(0, 80, 400, 20),  # the header row
            box(0, 100, 99, 20), box(201, 100, 199, 20),  # the cells left and right of A
            box(0, 125, 99, 20), box(201, 125, 199, 20)]  # and of B
    call = f"__recordlens.som.placeBadges({json.dumps([a, b])}, {json.dumps(page)})"
    badge_a, badge_b = browser.browser.js_json(call)
    assert badge_a == {"left": 100, "top": 84, "right": 116, "bottom": 100}  # above A, over the header's text
    for badge, other in ((badge_a, b), (badge_b, a)):
        corners = [badge["left"], badge["top"], badge["right"] - badge["left"], badge["bottom"] - badge["top"]]
        theirs = other["r"]
        assert overlap(corners, [theirs["left"], theirs["top"], theirs["width"], theirs["height"]]) == 0
