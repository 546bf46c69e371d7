"""Hover and badges on large unseen pages (issue 12), in the main window on the pages where the bugs were seen:
`nexteval-synth-more` pages 14 (a long paragraph), 25 (a table at the left edge) and 101 (dates at the left edge).

The pointer is moved for real over the view; what the overlay drew is read back from the page.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.qt.event_loop import spin
from recordlens.annotator.settings import Settings
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project, open_project
from tests.app.page_helpers import js
from tests.app.test_main_window import FakeKeyStore
from tests.conftest import SHARED_DATA, require_shared

pytestmark = pytest.mark.app

MORE = SHARED_DATA / "nexteval-synth-more"
PAGES = ("14", "25", "101")
COSMETIC = "/body[1]/div[1]/div[1]/div[3]/div[2]/ul[1]/li[4]/div[1]/div[3]/p[1]"


@pytest.fixture(scope="module")
def window(qapp, tmp_path_factory):
    more = require_shared(MORE)
    data = tmp_path_factory.mktemp("more")
    (data / "html").mkdir()
    (data / "gt").mkdir()
    for name in PAGES:
        shutil.copy(more / "html" / f"{name}.html", data / "html")
        shutil.copy(more / "gt" / f"{name}.json", data / "gt")
    folder = data / "project"
    with init_project(folder) as project:
        assert import_paths(project, [data]).imported == list(PAGES)
    win = MainWindow(open_project(folder), settings=Settings(annotator="tester"),
                     settings_file=data / "settings.json", key_store=FakeKeyStore())
    win.show()
    win.activateWindow()
    assert win.page_view.wait_until_loaded(60_000)
    yield win
    win.close()


def crumb(window: MainWindow) -> str:
    label = window.breadcrumb
    return label.full_text() if hasattr(label, "full_text") else label.text()


def open_page(window: MainWindow, name: str) -> None:
    window.open_page(name)
    assert window.page_view.wait_until_loaded(60_000)
    window.page_view.wait_until_drawn(60_000)
    spin(100)


def hover(window: MainWindow, xpath: str) -> QPoint:
    """Move the pointer for real onto the element's first line box (from outside it) and wait for the report."""
    view = window.page_view
    view.scroll_to(xpath)
    spin(300)
    x, y = js(view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(xpath)}).getClientRects()[0];
        return [Math.round(r.left + Math.min(40, r.width / 2)), Math.round(r.top + r.height / 2)];
    }})()""")
    proxy = view.view.focusProxy()
    QTest.mouseMove(proxy, QPoint(x, max(1, y - 200)))
    spin(100)
    QTest.mouseMove(proxy, QPoint(x, y))
    for _ in range(100):
        if crumb(window).startswith(xpath):
            break
        spin(20)
    spin(300)
    return QPoint(x, y)


def test_hovering_a_long_paragraph_changes_no_width(window):
    open_page(window, "14")
    for _ in range(3):
        QTest.keySequence(window, "J")
    spin(300)
    splitter = window.centralWidget()
    width, sizes = window.width(), splitter.sizes()
    list_width = window.page_list.width()
    scroll_x = js(window.page_view, "window.scrollX")
    hover(window, COSMETIC)
    assert window.width() == width
    assert splitter.sizes() == sizes
    assert window.page_list.width() == list_width
    assert js(window.page_view, "window.scrollX") == scroll_x
    assert crumb(window).startswith(COSMETIC) and "Cosmetic Filters" in crumb(window)
    # The whole text stays available where it does not take room: the label's tooltip.
    assert "Cosmetic Filters" in window.breadcrumb.toolTip()
