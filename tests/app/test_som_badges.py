"""Set-of-mark badges never cover the text of the element they label: header links at the very top of the page
(no room above them) used to get their badge inside, over their first letters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml

pytestmark = pytest.mark.app

HEADER = ("<html><head><title>Shop</title><style>body{margin:0;font:16px sans-serif}"
          "nav a{display:inline-block;padding:0;margin:0 40px 0 0}</style></head><body>"
          "<nav><a href='/'>Home</a><a href='/cameras'>Cameras</a><a href='/lenses'>Lenses</a></nav>"
          "<main style='margin-top:60px'><a href='/about'>About us</a> <button>Buy</button></main></body></html>")

TEXT_BOX = """(() => {
  const el = __recordlens.som.resolve(%s);
  const range = document.createRange();
  range.selectNodeContents(el);
  const b = range.getBoundingClientRect();
  return JSON.stringify([b.left, b.top, b.width, b.height]);
})()"""


def overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.timeout(120)
def test_badges_do_not_cover_the_text_they_label(qapp, tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    write_mhtml(site / "home.mhtml", HEADER, url="https://shop.example/")
    build_site(site)
    with QtSiteBrowser(site, viewport=(900, 600)) as browser:
        browser.open("https://shop.example/")
        seen = browser.observe()
        badges = {b["label"]: b["bbox"] for b in browser.browser.js_json("__recordlens.som.labelBoxes()")}
        assert len(badges) == len(seen.elements) >= 5
        for element in seen.elements:
            text = browser.browser.js_json(TEXT_BOX % json.dumps(element.xpath))
            assert text[2] > 0, element
            for label, badge in badges.items():
                assert not overlaps(badge, text), f"badge {label} covers the text of [{element.label}] {element.text}"
