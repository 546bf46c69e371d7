"""A page whose fields are named every way a page names them, and a model that types into its first link: what the
text browser's and the Qt browser's tests of names and typing share."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.sites import Site, build_site
from recordlens.core.llm.gemini import Answer
from recordlens.core.page.mhtml_writer import write_mhtml

HOME = "https://names.example.org/"
# The roles and names both browsers give its elements, in order.
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Names</title></head><body>
<nav><a href="/products">Products</a> <a href="/about" title="About us"><img src="x.png" alt="About"></a></nav>
<h2 id="find">Find an item</h2>
<form action="/search" method="get">
  <label>Search <input name="q" value="tea"></label>
  <label for="mail">Your e-mail</label> <input id="mail" name="m">
  <input name="a" aria-labelledby="find">
  <input name="b" aria-label="  Quantity ">
  <input name="c" title="Postcode" placeholder="e.g. 1000">
  <input name="d" placeholder="Town">
  <label for="elsewhere">Wrapped <input name="e"></label>
  <select name="sort"><option>Price</option><option>Name</option></select>
  <input type="submit" value="Go">
  <input type="reset">
</form>
</body></html>"""
NAMES = [("link", "Products"), ("link", "About"), ("textbox", "Search"), ("textbox", "Your e-mail"),
         ("textbox", "Find an item"), ("textbox", "Quantity"), ("textbox", "Postcode"), ("textbox", "Town"),
         ("textbox", ""), ("combobox", ""), ("button", "Go"), ("button", "Reset")]
LINK_REFUSED = ("element [1] is a link, not a text field: nothing was typed (Type fills a text box or a search box; a "
                "link or a button is clicked)")


def names_site(folder: Path) -> Site:
    write_mhtml(folder / "home.mhtml", PAGE, url=HOME)
    write_mhtml(folder / "products.mhtml", "<html><body><p>All products</p></body></html>", url=HOME + "products")
    return build_site(folder)


class TypesIntoTheLink:
    """The model: type into element [1], the page's first link, every step."""

    def generate(self, prompt: str, *, system: str | None = None, images: list[bytes] | None = None,
                 about: str | None = None) -> Answer:
        return Answer(text="Action: Type [1]; kettle", usage={}, attempts=1, seconds=0.0, finish_reason="STOP")
