"""The core's DOM rules agree with the embedded browser's on the 40 dev pages.

Each page is loaded once through the app's offline loader and dom_rules.js is run on it; the core parses the
same text. Element XPaths (full list, same order) and the text map (keys, order, texts) must be identical:
that is what makes the core's figures comparable with labels made in the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from recordlens.annotator.qt.page_scripts import browser_dom
from recordlens.core.page.dom import parse_html
from tests.conftest import dev_page_numbers

pytestmark = pytest.mark.app


def read_page_text(path: Path) -> str:
    try:
        from recordlens.core.page.snapshot import read_snapshot
    except ImportError:
        return path.read_text(encoding="utf-8")
    return read_snapshot(path).html


@dataclass(frozen=True)
class Both:
    browser_xpaths: list[str]
    browser_text: list[tuple[str, str]]
    core_xpaths: list[str]
    core_text: list[tuple[str, str]]


@pytest.fixture(scope="module")
def measured(offline_page):
    """Page number -> both sides' results, computed once per page (one load, one script run)."""
    cache: dict[int, Both] = {}

    def get(dev_dir: Path, number: int) -> Both:
        if number not in cache:
            html = read_page_text(dev_dir / "html" / f"{number}.html")
            offline_page.load_html(html, f"{number}.html")
            assert offline_page.wait_until_loaded(60_000), f"page {number} failed to load"
            browser = browser_dom(offline_page)
            core = parse_html(html)
            cache[number] = Both(browser.xpaths, list(browser.text_map.items()),
                                 core.element_xpaths(), list(core.text_map.items()))
        return cache[number]

    return get


def describe_difference(name: str, browser: list, core: list) -> str:
    """A short account of where two sequences part: lengths, first divergence, what only one side has."""
    first = next((i for i, (a, b) in enumerate(zip(browser, core, strict=False)) if a != b),
                 min(len(browser), len(core)))
    only_browser = [x for x in browser if x not in set(core)]
    only_core = [x for x in core if x not in set(browser)]
    return "\n".join([
        f"{name}: browser {len(browser)}, core {len(core)}; first difference at index {first}",
        f"  browser[{first}:{first + 3}] = {browser[first:first + 3]!r}",
        f"  core[{first}:{first + 3}]    = {core[first:first + 3]!r}",
        f"  only in browser ({len(only_browser)}): {only_browser[:5]!r}",
        f"  only in core ({len(only_core)}): {only_core[:5]!r}",
    ])


@pytest.mark.parametrize("number", dev_page_numbers())
def test_element_xpaths_match_browser(dev_dir, measured, number):
    both = measured(dev_dir, number)
    assert both.browser_xpaths == both.core_xpaths, describe_difference(
        "element xpaths", both.browser_xpaths, both.core_xpaths)


@pytest.mark.parametrize("number", dev_page_numbers())
def test_text_map_matches_browser(dev_dir, measured, number):
    both = measured(dev_dir, number)
    assert both.browser_text == both.core_text, describe_difference(
        "text map", both.browser_text, both.core_text)
