"""Zooming the page as a browser does: the keys and Ctrl+wheel step through the stops, a real click still lands on
the element under the pointer, badges keep their size on screen, and the project reopens at its zoom."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.zoom import ZOOM_STOPS, stepped_zoom
from recordlens.annotator.qt.event_loop import spin
from recordlens.annotator.settings import MAX_ZOOM, MIN_ZOOM, Settings
from tests.app.page_helpers import click_element, js, turn_wheel
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Cards</title></head><body>
<h1>Cards</h1><div>
<div style="height: 600px; border: 1px solid #999"><b>First card</b> <i>$10</i></div>
<div style="height: 600px; border: 1px solid #999"><b>Second card</b> <i>$20</i></div>
<div style="height: 600px; border: 1px solid #999"><b>Third card</b> <i>$30</i></div>
</div></body></html>"""
TRUTH = '[["/body[1]/div[1]/div[1]"], ["/body[1]/div[1]/div[2]"], ["/body[1]/div[1]/div[3]"]]'
PRICE_2 = "/body[1]/div[1]/div[2]/i[1]"


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    return imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": TRUTH, "html/2.html": PAGE + "<!-- 2 -->"})


def _wait_for_zoom(window, factor: float) -> None:
    """Until the page is drawn at `factor` (Chromium's device pixel ratio is the zoom here); fails if it never is."""
    for _ in range(200):
        if abs(js(window.page_view, "window.devicePixelRatio") - factor) < 0.02:
            break
        spin(20)
    assert js(window.page_view, "window.devicePixelRatio") == pytest.approx(factor, abs=0.02)
    window.page_view.settled_image()


def _badge_widths(window) -> list[float]:
    return [b["rect"][2] for b in js(window.page_view, "JSON.parse(__recordlens.overlay.badgeRects())") if b]


def test_the_stops_are_the_browsers_and_a_zoom_between_two_moves_to_the_next_one():
    assert ZOOM_STOPS[0] == MIN_ZOOM and ZOOM_STOPS[-1] == MAX_ZOOM and list(ZOOM_STOPS) == sorted(ZOOM_STOPS)
    assert stepped_zoom(1.0, -1) == 0.9 and stepped_zoom(1.0, 1) == 1.1 and stepped_zoom(1.0, -3) == 0.75
    assert stepped_zoom(0.85, 1) == 0.9 and stepped_zoom(0.85, -1) == 0.8  # off the stops (Ctrl+wheel elsewhere)
    assert stepped_zoom(MIN_ZOOM, -1) == MIN_ZOOM and stepped_zoom(MAX_ZOOM, 5) == MAX_ZOOM


def test_the_settings_keep_a_zoom_per_project_and_refuse_one_out_of_reason(tmp_path: Path):
    settings = Settings()
    settings.remember_zoom("/a", 0.5)
    settings.save(tmp_path / "s.json")
    again = Settings.load(tmp_path / "s.json")
    assert again.zoom("/a") == 0.5 and again.zoom("/b") == 1.0
    for bad in ('{"/a": 40}', '{"/a": "0.5"}', '{"/a": true}', '{"/a": -1}', "[", '["/a"]'):
        assert Settings(zooms=bad).zoom("/a") == 1.0, bad


def test_zoomed_out_a_click_lands_on_its_element_badges_stay_readable_and_the_project_keeps_the_zoom(
        qtbot, tmp_path: Path, project_dir: Path):
    settings_file = tmp_path / "settings.json"
    window = open_window(project_dir, settings_file, qtbot=qtbot)
    try:
        window.wait_until_drawn()
        at_full_size = _badge_widths(window)
        assert len(at_full_size) == 3
        for _ in range(3):
            QTest.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
        assert window.page_view.zoom == 0.75
        # Ctrl+wheel over the page: one notch out, then half a notch twice (a touchpad), one stop more.
        target = window.page_view.view.focusProxy()
        turn_wheel(target, (-120, -60, -60), QPoint(100, 100), Qt.KeyboardModifier.ControlModifier)
        assert window.page_view.zoom == 0.5
        _wait_for_zoom(window, 0.5)
        assert window.zoom.label.isVisible() and window.zoom.label.text() == "zoom 50 %"
        # The badges are as wide on screen as at 100 %: twice as wide in the page's own pixels.
        for full, zoomed in zip(at_full_size, _badge_widths(window), strict=True):
            assert zoomed * 0.5 == pytest.approx(full, abs=1.5)

        window.select_records([])
        QTest.keyClick(window, Qt.Key.Key_Escape)
        QTest.keyClick(window, Qt.Key.Key_N)  # a record of the price alone, inside its card's record
        click_element(window.page_view, PRICE_2)  # a real click at the element's place on the zoomed view
        qtbot.waitUntil(lambda: any(PRICE_2 in label.xpaths for label in window.labels), timeout=10_000)

        window.do_next_page()
        assert window.page_view.wait_until_loaded(30_000)
        _wait_for_zoom(window, 0.5)  # another page keeps the zoom
    finally:
        window.close()

    reopened = open_window(project_dir, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    try:
        assert reopened.page_view.zoom == 0.5
        _wait_for_zoom(reopened, 0.5)
        QTest.keyClick(reopened, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
        assert reopened.page_view.zoom == 1.0 and not reopened.zoom.label.isVisible()
        assert Settings.load(settings_file).zoom(reopened.project_key()) == 1.0
        assert reopened.statusBar().currentMessage() == "zoom 100 %"  # said once, as the bar's word hides
        QTest.keyClick(reopened, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
        # One zoom on show at a time: the bar's word, not beside it the message of the zoom before.
        assert reopened.zoom.label.text() == "zoom 110 %" and reopened.statusBar().currentMessage() == ""
    finally:
        reopened.close()


ROW = "<p style='height:90px;margin:0;border:1px solid #999'>Row {0} <i>${0}</i></p>"
TALL = ("<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:0'>"
        + "".join(ROW.format(k) for k in range(1, 81)) + "</body></html>")


def _screen_top(window, xpath: str) -> float:
    """The element's top on screen, in the view's own pixels (the page's CSS pixels times the zoom)."""
    top = js(window.page_view, f"__recordlens.resolve('{xpath}').getBoundingClientRect().top")
    return top * window.page_view.zoom


def test_a_zoom_keeps_the_selected_record_and_the_point_under_the_wheel_where_they_were(qtbot, tmp_path: Path):
    window = open_window(imported_project(tmp_path, {"html/1.html": TALL}), tmp_path / "settings.json", qtbot=qtbot)
    try:
        row = "/body[1]/p[40]"
        record = window.project.add_record("1", [row], window.person).record.id
        window.reload_labels([record])
        window.select_records([record])
        qtbot.waitUntil(lambda: 100 < _screen_top(window, row) < 700, timeout=10_000)
        before = _screen_top(window, row)
        for factor in (0.9, 0.8, 0.75):
            QTest.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
            _wait_for_zoom(window, factor)
            qtbot.waitUntil(lambda: abs(_screen_top(window, row) - before) < 4, timeout=5_000)

        # Keys pressed fast, before the view has zoomed: the record stays in place all the same.
        for _ in range(2):
            QTest.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
        _wait_for_zoom(window, 0.5)
        qtbot.waitUntil(lambda: abs(_screen_top(window, row) - before) < 6, timeout=5_000)
        for _ in range(2):
            QTest.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
        _wait_for_zoom(window, 0.75)
        # The note lapses (3 s after the last step): the overlay's clock is put 3.2 s on rather than waited out,
        # so the wheel below takes its own note.
        assert js(window.page_view, "(() => { const now = Date.now; Date.now = () => now() + 3200; return 1; })()")

        # Ctrl+wheel: the row under the pointer stays under it.
        window.select_records([])
        under = "/body[1]/p[45]"
        point = QPoint(200, round(_screen_top(window, under) + 20))
        turn_wheel(window.page_view.view.focusProxy(), (120,), point, Qt.KeyboardModifier.ControlModifier)
        _wait_for_zoom(window, 0.8)
        qtbot.waitUntil(lambda: js(window.page_view, f"__recordlens.xpathOf(document.elementFromPoint("
                                                     f"200, {point.y()} / 0.8))") == under, timeout=5_000)
    finally:
        window.close()
