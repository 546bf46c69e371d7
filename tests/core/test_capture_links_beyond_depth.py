"""The summary's "N link(s) on pages at --depth not followed (a larger --depth follows them)": N is the number of
distinct pages a larger --depth would add, however many pages at --depth link to each, and it stays so when the
crawl is stopped and resumed or continued at a larger --depth. (The real capture of a shop of products linked from
several pages is tests/app/test_capture_links_beyond_depth.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.agent.capture import CaptureInterrupted, CaptureRules, capture_site
from tests.core.canned_web import NO_ROBOTS, Web

ROOT = "https://shop.example/"
PRODUCTS = [f"/product/{n}" for n in range(1, 5)]


def shop() -> dict[str, tuple[str, list[str]]]:
    """A shop whose four products are each linked from the listing, a category and the search page (depth 1), and
    each links to the other products and to a review page of its own (depth 2 and 3)."""
    def full(paths: list[str]) -> list[str]:
        return ["https://shop.example" + p for p in paths]

    pages = {
        ROOT: ("Home", ["/all", "/category/tea", "/category/pots", "/search?q="]),
        full(["/all"])[0]: ("All products", ["/", *PRODUCTS]),
        full(["/category/tea"])[0]: ("Tea", ["/", *PRODUCTS[:2]]),
        full(["/category/pots"])[0]: ("Pots", ["/", *PRODUCTS[2:]]),
        full(["/search?q="])[0]: ("Search", ["/", *PRODUCTS, "/product/1#reviews"]),
    }
    for product in PRODUCTS:
        pages[full([product])[0]] = (product, ["/", *PRODUCTS, f"{product}/reviews"])
        pages[full([f"{product}/reviews"])[0]] = ("Reviews", ["/", product])
    return pages


def test_a_page_many_pages_link_to_is_counted_once(tmp_path: Path) -> None:
    summary = capture_site([ROOT], tmp_path, Web(shop()), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert len(summary.saved) == 5
    assert summary.beyond_depth == 4  # the four products, not 4 + 2 + 2 + 4 links to them
    assert "4 link(s) on pages at --depth not followed" in summary.message()
    deeper = capture_site([ROOT], tmp_path, Web(shop()), CaptureRules(depth=2), robots=NO_ROBOTS)
    assert sorted(deeper.saved) == ["https://shop.example" + p for p in PRODUCTS]  # what the count promised
    assert deeper.beyond_depth == 4  # the products' review pages, each linked from its product only
    deepest = capture_site([ROOT], tmp_path, Web(shop()), CaptureRules(depth=3), robots=NO_ROBOTS)
    assert len(deepest.saved) == 4 and deepest.beyond_depth == 0
    assert "not followed" not in deepest.message()


def test_a_resumed_crawl_counts_the_links_of_the_whole_crawl_once(tmp_path: Path) -> None:
    with pytest.raises(CaptureInterrupted) as stopped:
        capture_site([ROOT], tmp_path, Web(shop(), interrupt_after=3), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert stopped.value.summary.beyond_depth == 4  # /all and /category/tea saved: all four products
    summary = capture_site([ROOT], tmp_path, Web(shop()), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert summary.resumed and len(summary.saved) == 2
    assert summary.beyond_depth == 4  # the pages saved before the stop count too, and their links once
    again = capture_site([ROOT], tmp_path, Web(shop()), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert again.complete_since and again.beyond_depth == 4


def test_a_link_found_since_through_another_path_is_no_longer_counted(tmp_path: Path) -> None:
    pages = shop()
    capture_site([ROOT], tmp_path, Web(pages), CaptureRules(depth=1), robots=NO_ROBOTS)
    # A new root at depth 0 links to a product: it is queued now, so a larger --depth would not be what adds it.
    pages["https://shop.example/offers"] = ("Offers", ["/product/1"])
    summary = capture_site([ROOT, "https://shop.example/offers"], tmp_path, Web(pages), CaptureRules(depth=1),
                           robots=NO_ROBOTS)
    assert "https://shop.example/product/1" in summary.saved
    assert summary.beyond_depth == 3 + 1  # products 2 to 4, and product 1's review page (it is at depth 1)
