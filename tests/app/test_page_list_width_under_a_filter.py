"""The page list keeps its width whatever its filter: set to "new" (or any status, or a search), its footer says
"N / M labelled · K of M shown", a longer line than "N / M labelled", and the label asked the panel for that
width: in a window whose page list stood at its least width, the panel grew by 15 px or more as the filter was
set (the page beside it shrank), and shrank back as it was cleared. The footer now wraps where the panel is too
narrow for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.gui_waits import queued_work_done
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

PAGES = 40  # "0 / 40 labelled · 40 of 40 shown": wider than the panel's least width


@pytest.fixture
def window(qtbot, tmp_path: Path):
    files = {f"html/{n}.html": f"<html><head><title>page {n}</title></head><body><p>{n}</p></body></html>"
             for n in range(1, PAGES + 1)}
    win = open_window(imported_project(tmp_path, files), tmp_path / "settings.json", qtbot=qtbot)
    yield win
    win.close()


def test_the_page_list_keeps_its_width_as_its_filter_is_set(window, qtbot):
    window.resize(1000, 700)  # the page list at its least share of the width
    pages = window.page_list
    qtbot.waitUntil(lambda: window.panels.width() <= 1000)
    queued_work_done()  # the width to keep is the settled one
    width, footer = pages.width(), pages.progress_label.text()
    pages.status_filter.setCurrentIndex(pages.status_filter.findData("new"))
    qtbot.waitUntil(lambda: pages.progress_label.text() != footer)
    assert "shown" in pages.progress_label.text()
    queued_work_done()  # the layout settles: a growth the longer footer asks for has happened by now
    assert pages.width() == width
    assert pages.progress_label.isVisible() and pages.progress_label.width() <= pages.width()
    pages.status_filter.setCurrentIndex(0)
    queued_work_done()
    assert pages.width() == width and pages.progress_label.text() == footer
