"""An archive as QtWebEngine shows it and as the core reads it: the charset Chromium decoded its page in, and its
element XPaths and text map (dom_rules.js), compared with the core's (`read_snapshot`, `parse_html`)."""

from __future__ import annotations

from pathlib import Path

from recordlens.annotator.qt.page_scripts import browser_dom
from recordlens.core.page import read_snapshot
from recordlens.core.page.dom import parse_html


def shown(offline_page, path: Path) -> tuple[str, list[str], list[tuple[str, str]]]:  # noqa: ANN001
    """The charset QtWebEngine read an archive in, and its XPaths and text map (dom_rules.js)."""
    offline_page.load_mhtml(path)
    assert offline_page.wait_until_loaded(60_000), f"{path.name} failed to load"
    charset = offline_page.run_js("document.characterSet")
    browser = browser_dom(offline_page)
    return charset.lower(), browser.xpaths, list(browser.text_map.items())


def assert_core_reads_as_shown(offline_page, path: Path) -> None:  # noqa: ANN001
    charset, xpaths, text = shown(offline_page, path)
    snapshot = read_snapshot(path)
    core = parse_html(snapshot.html)
    assert snapshot.charset == charset
    assert core.element_xpaths() == xpaths
    assert list(core.text_map.items()) == text
