"""Windows on small, scaled, wide and dark screens (issue: the screens exploration). A first start on a screen
smaller than the default window opened it at 1530x920, with the right panel, its buttons and the status bar
off-screen; a window saved maximised on a wide screen came back oversize on a small one; the agent window and
the dialogs had fixed sizes too; the side panels kept fixed widths on any window; and the Review list's colours
were hard to read on a dark palette.

The suite's offscreen screen (800x800) is itself smaller than the default window; the dialogs are tried on a
fake screen rectangle through `screen_fit.available_area`."""

from __future__ import annotations

import base64
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QByteArray, QRect, QSize, Qt
from PySide6.QtGui import QColor, QPalette

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.qt import screen_fit
from recordlens.annotator.qt.contrast import READABLE, contrast, readable_on
from recordlens.annotator.qt.event_loop import spin
from recordlens.annotator.settings import Settings
from recordlens.core.store.project import open_project
from tests.app.demo_project import PRICE_1
from tests.app.window_helpers import FakeKeyStore
from tests.child_lines import first_line

pytestmark = pytest.mark.app

DEFAULT = QSize(1530, 920)


# -- the first place of a window, on screens of every shape --------------------------------------------------------

@pytest.mark.parametrize("area", [QRect(0, 0, 1366, 768), QRect(0, 0, 1280, 720),  # 1920x1080 at 150 %
                                  QRect(0, 0, 1080, 1920), QRect(0, 28, 1366, 740)])  # portrait; a top panel
def test_a_default_bigger_than_the_screen_opens_maximised_with_a_normal_size_that_fits(area):
    placement = screen_fit.first_placement(DEFAULT, area)
    assert placement.maximised
    assert area.contains(placement.geometry)
    assert placement.geometry.width() <= area.width() - screen_fit.MARGIN


def test_a_default_the_screen_holds_opens_at_that_size_in_the_middle():
    area = QRect(0, 0, 1920, 1080)
    placement = screen_fit.first_placement(DEFAULT, area)
    assert not placement.maximised and placement.geometry.size() == DEFAULT
    assert placement.geometry.center() == area.center()


# -- the main window ------------------------------------------------------------------------------------------------

def qt_saved_geometry(normal: QRect, *, maximised: bool, screen_width: int) -> str:
    """What QWidget.saveGeometry() writes (format 3.0), base64 as the settings keep it."""
    def rect(r: QRect) -> tuple[int, int, int, int]:
        return r.left(), r.top(), r.right(), r.bottom()

    data = struct.pack(">IHH4i4iiBBi4i", 0x1D9D0CB, 3, 0, *rect(normal), *rect(normal), 0, 2 if maximised else 0,
                       0, screen_width, *rect(normal))
    return base64.b64encode(data).decode("ascii")


@pytest.fixture
def unshown(qtbot, tmp_path: Path, project_dir: Path):
    """A main window as the app builds it, before `restore_geometry` and `show`; `make(settings)` builds it."""
    made: list[MainWindow] = []

    def make(settings: Settings) -> MainWindow:
        win = MainWindow(open_project(project_dir), settings=settings, settings_file=tmp_path / "settings.json",
                         key_store=FakeKeyStore())
        made.append(win)
        return win

    yield make
    for win in made:
        win.close()


def shown_on_the_screen(qtbot, win: MainWindow) -> QRect:
    """Show `win` and return its screen's available area, once the window is exposed."""
    win.show()
    qtbot.waitExposed(win)
    spin(100)
    return win.screen().availableGeometry()


def test_a_first_start_on_a_screen_smaller_than_the_default_fits_with_its_status_bar(qtbot, unshown):
    win = unshown(Settings(annotator="tester"))
    area = win.screen().availableGeometry()
    assert area.width() < DEFAULT.width()  # the offscreen screen: smaller than the default window
    assert not win.restore_geometry()  # nothing kept: the first place
    assert win.isMaximized() and area.contains(win.geometry())
    area = shown_on_the_screen(qtbot, win)
    assert area.contains(win.geometry())
    for part in (win.statusBar(), win.tabs):  # the messages, zoom and saved mark; the right panel's buttons
        assert area.contains(QRect(part.mapToGlobal(part.rect().topLeft()), part.size())), part


def test_a_window_saved_maximised_on_a_wide_screen_comes_back_maximised_on_a_small_one(qtbot, unshown):
    # Qt refuses a geometry saved on a screen of a much different width (3440 px here): it was then ignored, and
    # the window opened at the oversize default, not maximised.
    kept = qt_saved_geometry(QRect(0, 0, 3440, 1400), maximised=True, screen_width=3440)
    win = unshown(Settings(annotator="tester", window_geometry=kept))
    assert not win.restore_geometry()
    area = win.screen().availableGeometry()
    assert win.isMaximized() and area.contains(win.geometry())
    assert area.contains(shown_on_the_screen(qtbot, win).intersected(win.geometry()))
    assert area.contains(win.geometry())


@pytest.mark.parametrize("normal", [QRect(10, 10, 2295, 1379), QRect(5000, 3000, 600, 500)])  # larger; off it
def test_a_restored_window_is_never_larger_than_the_screen_nor_off_it(qtbot, unshown, normal):
    # Saved on a screen of this one's width (800 px), Qt restores it within the screen, at the size it was saved
    # with: larger than the screen, it comes back maximised, as at a first start; smaller than the window's least
    # width (762 px), it grew past the right edge, and is moved back in. (Another screen: the two-screen test.)
    kept = qt_saved_geometry(normal, maximised=False, screen_width=800)
    win = unshown(Settings(annotator="tester", window_geometry=kept))
    assert win.restore_geometry()
    area = shown_on_the_screen(qtbot, win)
    assert area.contains(win.geometry()), (win.geometry(), area)


def test_a_window_maximised_to_fit_a_small_screen_keeps_its_place_for_a_larger_one(qtbot, unshown):
    """One start on a small screen (the window maximised to fit) saved "maximised" at quit: back on the large screen
    the window came up maximised, not at the size and place the person had given it."""
    kept = qt_saved_geometry(QRect(10, 10, 1200, 900), maximised=False, screen_width=800)
    win = unshown(Settings(annotator="tester", window_geometry=kept))
    assert win.restore_geometry() and win.isMaximized()  # the screen is smaller than the window was
    shown_on_the_screen(qtbot, win)
    win.close()  # a quit saves where the window was
    assert win.settings.window_geometry == kept
    assert not screen_fit.saved_maximised(bytes(QByteArray.fromBase64(kept.encode("ascii")).data()))


def test_a_window_saved_on_a_screen_of_another_width_takes_its_first_place(qtbot, unshown):
    # Qt refuses a geometry saved on a screen much wider (1920 px, or this one at a 1.5 scale) than this one.
    kept = qt_saved_geometry(QRect(10, 10, 1700, 1000), maximised=False, screen_width=1920)
    win = unshown(Settings(annotator="tester", window_geometry=kept))
    assert not win.restore_geometry()
    area = win.screen().availableGeometry()
    assert win.isMaximized() and win.normalGeometry() == screen_fit.first_placement(DEFAULT, area).geometry
    win.close()  # maximised to fit this screen: the place kept for the wider one stays
    assert win.settings.window_geometry == kept


TWO_SCREENS = {"screens": [
    {"name": "A", "x": 0, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
    {"name": "B", "x": 1920, "y": 0, "width": 2560, "height": 1440, "logicalDpi": 96, "logicalBaseDpi": 96,
     "dpr": 1}]}


def test_a_window_saved_on_the_second_screen_comes_back_there(tmp_path, project_dir):
    # It came back on the main screen: the area it was kept on was read before the restore, from the hidden
    # window's screen (the main one until it is shown). In a child process: the suite's application has one screen.
    screens = tmp_path / "screens.json"
    screens.write_text(json.dumps(TWO_SCREENS), encoding="utf-8")
    environment = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    child = subprocess.Popen([sys.executable, "-m", "tests.app.two_screens_child", str(screens), str(project_dir),
                              str(tmp_path / "settings.json")], cwd=Path(__file__).resolve().parents[2],
                             env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        normal = json.loads(first_line(child, timeout_s=120))
        maximised = json.loads(first_line(child, timeout_s=120))
        reaching_out = json.loads(first_line(child, timeout_s=120))
    finally:
        child.kill()
        child.communicate(timeout=60)
    assert normal == {"restored": True, "geometry": [2200, 100, 1600, 1000], "screen": "B", "maximised": False}
    assert maximised["restored"] and maximised["screen"] == "B" and maximised["maximised"]
    # Qt keeps a window that reached out of the second screen within it, at the size it had.
    x, y, width, height = reaching_out["geometry"]
    assert reaching_out["screen"] == "B" and not reaching_out["maximised"] and (width, height) == (1000, 600)
    assert x >= 1920 and x + width <= 1920 + 2560 and y >= 0 and y + height <= 1440, reaching_out


# -- the side panels ------------------------------------------------------------------------------------------------

def test_the_side_panels_take_a_share_of_the_window_until_a_divider_is_dragged(qtbot, window):
    splitter = window.centralWidget()

    def widths_at(width: int) -> list[int]:
        window.resize(width, 700)
        qtbot.waitUntil(lambda: window.width() == width, timeout=5_000)
        spin(50)
        return splitter.sizes()

    page_list, centre, panel = widths_at(1066)
    # The right panel at its least (its buttons' grid needs ~350 px); the page list gives way, not only the page
    assert panel <= 360 and page_list <= 200 and centre >= 1066 - 200 - 360 - 2 * splitter.handleWidth()
    page_list, centre, panel = widths_at(3440)
    assert 450 <= panel <= 520 and 300 <= page_list <= 360 and centre > 2400  # 380 px fixed before
    page_list, _centre, panel = widths_at(1530)
    assert abs(panel - 380) <= 20 and abs(page_list - 250) <= 20  # the old split, on the old default size
    # A divider dragged: the person's widths stay, the page takes what the window grows by.
    splitter.moveSplitter(splitter.sizes()[0] + 60, 1)
    dragged = splitter.sizes()
    page_list, _centre, panel = widths_at(2400)
    assert (page_list, panel) == (dragged[0], dragged[2])


# -- the dialogs ----------------------------------------------------------------------------------------------------

NETBOOK = QRect(0, 0, 800, 560)


def dialogs(project) -> list:  # noqa: ANN001 - a core Project
    from recordlens.annotator.agent.capture_panel import CaptureDialog
    from recordlens.annotator.agent.review_queue import ReviewQueue
    from recordlens.annotator.agent.trajectory_viewer import StoredTrajectoryPicker
    from recordlens.annotator.agent.window import AgentWindow
    from recordlens.annotator.labelling.history_dialog import HistoryDialog
    from recordlens.annotator.labelling.messages_dialog import MessagesDialog
    from recordlens.annotator.labelling.shortcuts import ShortcutSheet

    return [AgentWindow(person="tester"), StoredTrajectoryPicker(project), CaptureDialog(),
            ReviewQueue(), ShortcutSheet(), MessagesDialog(), HistoryDialog()]


def test_the_agent_window_and_the_dialogs_fit_a_small_screen(qtbot, project_dir, monkeypatch):
    monkeypatch.setattr(screen_fit, "available_area", lambda _widget: NETBOOK)
    project = open_project(project_dir)
    made = dialogs(project)
    try:
        for widget in made:
            size = widget.size()
            assert size.width() <= NETBOOK.width() - screen_fit.MARGIN, type(widget).__name__
            assert size.height() <= NETBOOK.height() - screen_fit.MARGIN, type(widget).__name__
    finally:
        for widget in made:
            widget.close()
        project.close()


# -- the Review list's colours --------------------------------------------------------------------------------------

DARK_BASE = QColor(45, 45, 45)  # Adwaita dark's view background


@pytest.mark.parametrize("colour", ["#000000", "#ffffff", "#2b8a3e", "#7048e8", "#e8590c", "#ffff00", "#0000ff"])
@pytest.mark.parametrize("base", ["#2d2d2d", "#1e1e1e", "#777777", "#808080", "#ffffff", "#000000"])
def test_a_colour_made_readable_reads_on_any_base_black_and_white_included(colour, base):
    # Black or white was left as it was: on a dark base, black read at 1.52:1; on mid-grey, white at 3.95:1.
    assert contrast(readable_on(colour, QColor(base)), QColor(base)) >= READABLE


@settings(derandomize=True, max_examples=500, deadline=None)
@given(st.integers(0, 0xFFFFFF), st.integers(0, 0xFFFFFF))
def test_every_colour_made_readable_reads_on_every_base(colour, base):
    assert contrast(readable_on(QColor(colour), QColor(base)), QColor(base)) >= READABLE


@pytest.mark.parametrize("base", [DARK_BASE, QColor("white")])
def test_the_review_list_reads_on_a_dark_or_light_base_and_the_page_keeps_its_colours(qtbot, window, base):
    from recordlens.annotator.labelling.page_view import STATE_COLOURS

    records = window.review_panel.records
    palette = records.palette()
    palette.setColor(QPalette.ColorRole.Base, base)
    records.setPalette(palette)
    truth = window.project.true_records("1")
    run = window.project.runs.add("handmade")
    spurious = [["/body[1]/div[1]/header[1]"], [PRICE_1]]
    window.project.runs.add_predictions(run, {"1": [*truth[:10], *spurious]})
    window.project.runs.finish(run)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    kinds = {window.review.records[int(records.item(row).data(Qt.ItemDataRole.UserRole))].kind
             for row in range(records.count())}
    assert kinds == {"matched", "missed", "spurious"}
    for row in range(records.count()):
        shade = records.item(row).foreground().color()
        assert contrast(shade, base) >= READABLE, (records.item(row).text()[:30], shade.name())
    # The boxes on the page keep the page's colours.
    assert {r["colour"] for r in window.page_view._records} == {STATE_COLOURS[k] for k in kinds}
