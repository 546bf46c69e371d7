"""`recordlens site capture` of a shop on 127.0.0.1 whose products are each linked from several pages: the summary's
"N link(s) on pages at --depth not followed (a larger --depth follows them)" counts each product once, and the same
command at a larger --depth saves exactly that many pages more. (The crawl's counting in detail, with canned pages:
tests/core/test_capture_links_beyond_depth.py.)"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.capture_site import capture_argv, serve
from tests.loopback import base_url

pytestmark = pytest.mark.app

PRODUCTS = [f"/product/{n}" for n in range(1, 5)]
NAV = '<nav><a href="/">Home</a> <a href="/all">All products</a> <a href="/about">About</a></nav>'


def page(title: str, links: list[str]) -> bytes:
    anchors = " ".join(f'<a href="{link}">{link}</a>' for link in links)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body>{NAV}<h1>{title}</h1><p>{anchors}</p></body></html>").encode()


# Home (depth 0) leads to four pages (depth 1) that link to the four products 2 to 4 times each; each product
# (depth 2) links to a review page of its own (depth 3).
SHOP = {
    "/": page("Bramble Goods", ["/category/tea", "/category/pots"]),
    "/all": page("All products", PRODUCTS),
    "/about": page("About", []),
    "/category/tea": page("Tea", PRODUCTS[:2]),
    "/category/pots": page("Pots", PRODUCTS[2:]),
    **{p: page(f"Product {p[-1]}", [*PRODUCTS, f"{p}/reviews"]) for p in PRODUCTS},
    **{f"{p}/reviews": page(f"Reviews of product {p[-1]}", [p]) for p in PRODUCTS},
}


def capture(url: str, folder: Path, depth: int) -> dict:
    done = subprocess.run(capture_argv(url, "--site", str(folder), "--json", "--timeout", "30", "--delay", "0",
                                       "--depth", str(depth), SETTLE_MS=50),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_links_beyond_depth_are_the_pages_a_larger_depth_saves(tmp_path: Path) -> None:
    folder = tmp_path / "shop"
    with serve(SHOP) as server:
        first = capture(base_url(server) + "/", folder, depth=1)
        assert len(first["saved"]) == 5 and first["pages"] == 5
        assert first["beyond_depth"] == 4  # the four products, each once (not 4 + 2 + 2 links to them)
        deeper = capture(base_url(server) + "/", folder, depth=2)
    assert sorted(url.removeprefix(base_url(server)) for url in deeper["saved"]) == PRODUCTS
    assert deeper["pages"] == 9 and deeper["beyond_depth"] == 4  # now the review pages, one per product
