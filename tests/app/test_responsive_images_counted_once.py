"""The "N requests blocked" of one page was not the same from one opening to the next (53, 63, 78 for one page):
each opening reads the page in a fresh renderer, which sometimes takes a `<picture>`'s source for a view narrower
than it is, and fetches the right one too once the width reaches it. A responsive image now counts once,
whatever candidates of it were asked for; here the view's width changes under the page, which asks for another
candidate as surely."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QUrl

from recordlens.annotator.qt.page_loader import OfflinePage, responsive_images, srcset_urls

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><base href="https://shop.example/catalogue/"></head><body>
<picture>
  <source media="(min-width: 1000px)" srcset="wide.png 1x, wide@2.png 2x">
  <img alt="" src="narrow.png">
</picture>
<img alt="" src="a0.png" srcset="a1.png 1x, a2.png 2x">
<img alt="" src="plain.png">
</body></html>"""


@pytest.fixture
def page(qapp) -> Iterator[OfflinePage]:
    page = OfflinePage(with_view=True)
    page.view.resize(1280, 700)
    page.view.show()
    yield page
    page.close()


def test_srcset_candidates_are_read_as_the_standard_reads_them() -> None:
    assert srcset_urls("a.png 1x, b.png 2x,c.png") == ["a.png", "b.png", "c.png"]
    assert srcset_urls("a.png, b.png 640w") == ["a.png", "b.png"]  # a comma right after a URL ends it
    assert srcset_urls("a.png,b.png 2x") == ["a.png,b.png"]  # a comma inside a URL is part of it
    assert srcset_urls(" x.png 100w (a, b) , y.png") == ["x.png", "y.png"]
    assert srcset_urls("") == []


def test_a_responsive_images_candidates_lead_to_its_first_one() -> None:
    images = responsive_images(PAGE, QUrl("recordlens-page:/1/page.html"))
    base = "https://shop.example/catalogue/"
    assert {url: first for url, first in images.items()} == {
        f"{base}{name}": f"{base}wide.png" for name in ("wide.png", "wide@2.png", "narrow.png")} | {
        f"{base}{name}": f"{base}a1.png" for name in ("a1.png", "a2.png", "a0.png")}
    assert responsive_images("<img src='plain.png'>", QUrl("recordlens-page:/1/page.html")) == {}


def test_an_image_fetched_at_two_widths_is_one_blocked_request(qtbot, page: OfflinePage) -> None:
    page.load_html(PAGE)
    assert page.wait_until_loaded(30_000)
    qtbot.waitUntil(lambda: any(u.endswith("/wide.png") for u in page.blocked_urls), timeout=10_000)
    page.view.resize(600, 700)  # below the source's min-width: the picture asks for its image's own address
    qtbot.waitUntil(lambda: any(u.endswith("/narrow.png") for u in page.blocked_urls), timeout=10_000)
    qtbot.waitUntil(lambda: any(u.endswith("/plain.png") for u in page.blocked_urls), timeout=10_000)
    asked = {u.rsplit("/", 1)[1] for u in page.blocked_urls}
    assert {"wide.png", "narrow.png", "a1.png", "plain.png"} <= asked
    assert page.blocked_count == 3  # the picture, the image with a srcset, the plain image
