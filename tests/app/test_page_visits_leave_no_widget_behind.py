"""Going from page to page keeps no widget of the pages gone: Chromium makes the widget that takes the page's keys
and wheel anew as pages load, and each one the window looked up stayed held (dead) by the view until it shut."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget
from shiboken6 import Shiboken

from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

PAGES = 8


def _dead_widgets() -> int:
    """Python widgets whose Qt widget is gone, still held by something."""
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, QWidget) and not Shiboken.isValid(thing))


def test_visiting_pages_leaves_no_dead_widget_per_page(qtbot, tmp_path: Path):
    files = {f"html/{n}.html": f"<!doctype html><html><body><h1>Page {n}</h1><p>text</p></body></html>"
             for n in range(1, PAGES + 1)}
    window = open_window(imported_project(tmp_path, files), tmp_path / "settings.json", qtbot=qtbot)
    try:
        names = [page.name for page in window.project.pages()]
        before = _dead_widgets()
        for _lap in range(2):
            for name in names:
                window.open_page(name)
                window.wait_until_drawn()
                window.page_view.setFocus()  # the focus moves as the keys come to the page
                window.page_list.list.setFocus()
        assert _dead_widgets() - before <= 2, "a widget kept for each page visited"
    finally:
        window.close()
