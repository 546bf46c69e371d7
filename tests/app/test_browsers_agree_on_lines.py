"""The two agent browsers give the same page text line for line: core's text browser (HtmlSiteBrowser) reads a page
by the Qt browser's line rules (som.js pageText, core/agent/page_text.py). It used to give one line a text node, so
a table row of several cells, a term and its definition's inline parts and a paragraph's bold words read on lines
of their own where the Qt browser reads them as Chromium lays them out."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.agent_helpers import texts_of_both_browsers

pytestmark = pytest.mark.app

PAGE = "https://shop.example.org/"
BODY = """<h1>Oak <em>furniture</em></h1>
<table><caption>Prices</caption>
  <tr><th>Item</th><th>Price</th><th>Stock</th></tr>
  <tr><td>Chair</td><td>40</td><td><b>12</b> left</td></tr>
  <tr><td>Desk</td><td> 120 </td><td>none</td></tr>
</table>
<dl><dt>Colour</dt><dd>Oak, <i>oiled</i></dd><dt>Weight</dt><dd>4<abbr>kg</abbr></dd></dl>
<p>Hel<b>lo</b> <a href="/care">care guide</a>, <span>read it</span><br>before use.</p>
<ul><li>Chairs<ul><li>Dining</li><li>Office <strong>new</strong></li></ul></li><li>Tables</li></ul>
<form><label>Size <select><option>S</option><option selected>M</option></select></label>
<label><input type="checkbox"> Gift wrap</label> <button>Add</button></form>
<pre>  kept   as
written</pre>"""
LINES = ["Oak furniture", "Prices", "Item Price Stock", "Chair 40 12 left", "Desk 120 none", "Colour", "Oak, oiled",
         "Weight", "4kg", "Hello care guide, read it", "before use.", "Chairs", "Dining", "Office new", "Tables",
         "Size M Gift wrap Add", "  kept   as", "written"]


def _site(root: Path) -> Path:
    root.mkdir(parents=True)
    write_mhtml(root / "shop.mhtml", f"<!DOCTYPE html><html><head><title>Shop</title></head><body>{BODY}</body></html>",
                url=PAGE)
    build_site(root)
    return root


def test_both_browsers_give_the_same_lines(qapp, tmp_path):
    rendered, read = texts_of_both_browsers(_site(tmp_path / "site"), PAGE)
    assert read.splitlines() == rendered.splitlines()
    assert rendered.splitlines() == LINES
