"""Every ground-truth XPath the core resolves gets its box in the browser, on each of the 40 dev pages.

overlay.js resolves XPaths in the page by the cleaned-index rules; the core resolves them in its own tree. If
the two disagreed, the app would draw a record on other elements than the ones the scores count. One view
serves every page (as in the app), and each page is loaded and drawn once for all its checks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from recordlens.annotator.labelling.page_view import XPathBox
from tests.conftest import dev_page_numbers

pytestmark = pytest.mark.app


@dataclass(frozen=True)
class Drawn:
    gt: list[list[str]]
    core_paths: list[list[str | None]]  # the resolved element's key per XPath, None where the core finds nothing
    boxes: list[list[XPathBox]]
    boxes_drawn: int


@pytest.fixture(scope="module")
def drawn(page_view):
    cache: dict[int, Drawn] = {}

    def get(dev_dir: Path, number: int) -> Drawn:
        if number not in cache:
            gt = json.loads((dev_dir / "gt" / f"{number}.json").read_text(encoding="utf-8"))
            page_view.open(dev_dir / "html" / f"{number}.html")
            page_view.show_records([{"xpaths": record, "colour_index": i} for i, record in enumerate(gt)])
            assert page_view.wait_until_loaded(60_000), f"page {number} failed to load"
            summary = page_view.wait_until_drawn(60_000)
            core = page_view.core_page
            core_paths = [[(e.key if (e := core.resolve(x)) is not None else None) for x in r] for r in gt]
            cache[number] = Drawn(gt, core_paths, page_view.boxes(60_000), summary.boxes)
        return cache[number]

    return get


@pytest.mark.parametrize("number", dev_page_numbers())
def test_every_xpath_the_core_resolves_is_boxed(dev_dir, drawn, number):
    page = drawn(dev_dir, number)
    resolved_by_core = sum(p is not None for record in page.core_paths for p in record)
    boxed_in_browser = sum(b.resolved for record in page.boxes for b in record)
    assert boxed_in_browser == resolved_by_core
    assert [len(r) for r in page.boxes] == [len(r) for r in page.gt]


@pytest.mark.parametrize("number", dev_page_numbers())
def test_browser_and_core_resolve_to_the_same_element(dev_dir, drawn, number):
    page = drawn(dev_dir, number)
    differences = [
        (b.xpath, core_path, b.path)
        for core_record, record in zip(page.core_paths, page.boxes, strict=True)
        for core_path, b in zip(core_record, record, strict=True)
        if core_path != b.path
    ]
    assert differences == []
    # A drawn box is a resolved element with a rendered box; hidden ones (display: none) are resolved only.
    assert page.boxes_drawn == sum(b.visible for record in page.boxes for b in record)
