"""A start puts the page back where the last quit left it, and with it the record selected then. The settings keep
the scroll offset and, when the selected record showed in the view at the quit, where it started on the page: a
page laid out otherwise at the next start (a larger font with QT_FONT_DPI=144, another scale, zoom or window width)
has the record elsewhere, and the offset is moved by as much as the record moved, so that the record is at the same
place in the view rather than off the screen (verifier's report v38, finding 3). On a page laid out as it was the
move is none: the offset comes back exactly. A record the user had scrolled out of view leaves the offset exactly
as it was, as do settings from a RecordLens that kept no such place.

The larger font is the browser's default font size, set larger for the second start's page (what a larger system
font does to a page that leaves its text at the default size)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWebEngineCore import QWebEngineSettings

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.qt import page_loader
from recordlens.annotator.settings import Settings
from recordlens.core.store.project import open_project
from tests.app.window_helpers import TALL_TRUTH, tall_project, window_as_started

pytestmark = pytest.mark.app

AT = 150  # CSS px: where the selected record is left in the view
LARGER = 24  # px: the larger default font (Chromium's is 16)


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    return tall_project(tmp_path)


def a_larger_font(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages made from now on show their text at a larger default font size."""
    lock_down = page_loader._lock_down

    def larger(settings: QWebEngineSettings) -> None:
        lock_down(settings)
        settings.setFontSize(QWebEngineSettings.FontSize.DefaultFontSize, LARGER)

    monkeypatch.setattr(page_loader, "_lock_down", larger)


def top_of(window: MainWindow, record: int) -> float:
    return window.page_view.locate(TALL_TRUTH[record - 1])[0].rect[1]


def place_in_view(window: MainWindow, record: int) -> float:
    """Where the record starts in the view (CSS px from its top edge; negative: above it)."""
    return top_of(window, record) - window.page_view.offline.run_js("window.scrollY")


def settled(qtbot, window: MainWindow) -> int:
    """The page's scroll once the window has heard of it."""
    qtbot.waitUntil(lambda: window.page_view.scroll_y == window.page_view.offline.run_js("window.scrollY"),
                    timeout=10_000)
    return window.page_view.scroll_y


def left_at(qtbot, folder: Path, settings_file: Path, record: int, place: float) -> int:
    """A session that selects the `record`-th record, scrolls it `place` px below the top of the view and quits;
    the scroll it quit at."""
    window = window_as_started(qtbot, folder, settings_file)
    try:
        window.select_records([window.labels[record - 1].id])
        y = round(top_of(window, record) - place)
        window.page_view.scroll_to_y(y)
        qtbot.waitUntil(lambda: window.page_view.scroll_y == y, timeout=10_000)
    finally:
        window.close()
    return y


def kept_at(folder: Path, settings_file: Path, record: int, scroll_y: int) -> None:
    """Settings as a RecordLens that kept only the offset leaves them at quit: page 1 open, its `record`-th record
    selected, the page scrolled to `scroll_y`."""
    with open_project(folder) as project:
        chosen = project.labels("1")[record - 1].id
    settings = Settings(annotator="tester")
    key = str(folder.resolve())
    settings.remember_page(key, "1")
    settings.remember_selection(key, "1", [chosen], scroll_y)
    settings.save(settings_file)


def test_a_record_seen_at_the_quit_is_at_its_place_in_the_view_after_a_start_at_a_larger_font(
        qtbot, tmp_path, project_dir, monkeypatch):
    settings_file = tmp_path / "settings.json"
    left = left_at(qtbot, project_dir, settings_file, 30, AT)
    a_larger_font(monkeypatch)
    window = window_as_started(qtbot, project_dir, settings_file)
    try:
        assert window.record_panel.selected_ids() == [window.labels[29].id]
        # the larger font has moved it below the view at the offset kept
        assert top_of(window, 30) > left + window.page_view.offline.run_js("document.documentElement.clientHeight")
        qtbot.waitUntil(lambda: abs(place_in_view(window, 30) - AT) <= 2, timeout=10_000)
        assert settled(qtbot, window) > left
    finally:
        window.close()


def test_a_record_seen_at_the_quit_is_at_its_place_in_the_view_after_a_start_at_another_zoom(
        qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"
    left_at(qtbot, project_dir, settings_file, 30, AT)
    settings = Settings.load(settings_file)  # the project zoomed since (by another window on it, say)
    settings.remember_zoom(str(project_dir.resolve()), 1.5)
    settings.save(settings_file)
    window = window_as_started(qtbot, project_dir, settings_file)
    try:
        assert window.page_view.zoom == 1.5
        qtbot.waitUntil(lambda: abs(place_in_view(window, 30) - AT) <= 2, timeout=10_000)
    finally:
        window.close()


def test_a_page_laid_out_as_it_was_comes_back_at_the_offset_exactly(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"
    left = left_at(qtbot, project_dir, settings_file, 30, AT)
    window = window_as_started(qtbot, project_dir, settings_file)
    try:
        qtbot.waitUntil(lambda: window.page_view.scroll_y == left, timeout=10_000)
        assert settled(qtbot, window) == left
    finally:
        window.close()


def test_a_record_scrolled_out_of_view_at_the_quit_leaves_the_offset_as_it_was(
        qtbot, tmp_path, project_dir, monkeypatch):
    settings_file = tmp_path / "settings.json"
    left = left_at(qtbot, project_dir, settings_file, 10, -1200)  # the user looks 1,200 px below the record
    a_larger_font(monkeypatch)
    window = window_as_started(qtbot, project_dir, settings_file)
    try:
        qtbot.waitUntil(lambda: window.page_view.scroll_y == left, timeout=10_000)
        assert settled(qtbot, window) == left
    finally:
        window.close()


def test_settings_that_kept_only_the_offset_bring_the_page_back_there(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"
    kept_at(project_dir, settings_file, 40, 1200)  # record 40 far below the view at 1,200
    window = window_as_started(qtbot, project_dir, settings_file)
    try:
        assert window.record_panel.selected_ids() == [window.labels[39].id]
        qtbot.waitUntil(lambda: window.page_view.scroll_y == 1200, timeout=10_000)
        assert settled(qtbot, window) == 1200
    finally:
        window.close()
