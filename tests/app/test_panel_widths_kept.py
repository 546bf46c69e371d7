"""The panels' widths a person dragged the dividers to come back at the next start (they went back to the default
shares): the same widths in a window of the same size, their share of a window of another size (another screen),
never below a pane's least width. Until a drag, and with a settings file that keeps none (an earlier version's) or
one that is damaged or stale, the shares apply as before."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QSplitter

from recordlens.annotator.labelling.main_window import PAGE_MIN_WIDTH, SIDE_PANELS, MainWindow
from recordlens.annotator.qt.event_loop import spin
from recordlens.annotator.qt.proportional_split import Share, shares_of_widths, split_widths
from recordlens.annotator.settings import Settings
from recordlens.core.store.project import open_project
from tests.app.window_helpers import FakeKeyStore

pytestmark = pytest.mark.app

SIZE = QSize(1400, 800)


@contextlib.contextmanager
def started(project_dir: Path, settings_file: Path, qtbot, size: QSize = SIZE) -> Iterator[MainWindow]:
    """The app started on the project with the settings file as the last quit left it, its window `size`; quit
    after (as Ctrl+Q does: the settings are saved)."""
    window = MainWindow(open_project(project_dir), settings=Settings.load(settings_file), settings_file=settings_file,
                        key_store=FakeKeyStore())
    window.resize(size)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.width() == size.width(), timeout=5_000)
    spin(50)  # the resize handled: the panels have their widths
    try:
        yield window
    finally:
        window.close()


def panels(window: MainWindow) -> QSplitter:
    splitter = window.centralWidget()
    assert isinstance(splitter, QSplitter)
    return splitter


def drag_divider(splitter: QSplitter, index: int, dx: int) -> None:
    """A person's drag of divider `index` (1: between the page list and the page; 2: before the side tabs) by `dx`
    px: press on it, move in steps, release. Each event is placed where the pointer is on the splitter, mapped to
    the divider as it is then (it follows the pointer)."""
    handle = splitter.handle(index)
    start = handle.geometry().center()
    QTest.mousePress(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, handle.rect().center())
    for step in range(1, 5):
        QTest.mouseMove(handle, handle.mapFrom(splitter, start + QPoint(dx * step // 4, 0)))
        spin(10)
    QTest.mouseRelease(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       handle.mapFrom(splitter, start + QPoint(dx, 0)))


def room(splitter: QSplitter) -> int:
    return splitter.width() - splitter.handleWidth() * (splitter.count() - 1)


def kept_in_the_file(settings_file: Path) -> object:
    return json.loads(settings_file.read_text(encoding="utf-8")).get("panel_widths")


_FIRST_START: dict[tuple[int, int], list[int]] = {}


def default_widths(project_dir: Path, tmp_path: Path, qtbot, size: QSize = SIZE) -> list[int]:
    """The panels' widths at `size` with no settings file at all (a first start): the same project for every test
    here, so measured once per test process."""
    if (size.width(), size.height()) not in _FIRST_START:
        with started(project_dir, tmp_path / "first-start.json", qtbot, size) as window:
            _FIRST_START[size.width(), size.height()] = panels(window).sizes()
    return list(_FIRST_START[size.width(), size.height()])


def test_the_widths_dragged_come_back_at_the_next_start_and_stay_until_dragged_again(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"
    with started(project_dir, settings_file, qtbot) as first:
        splitter = panels(first)
        before = splitter.sizes()
        drag_divider(splitter, 1, 90)  # the page list wider
        drag_divider(splitter, 2, -60)  # the side tabs wider
        dragged = splitter.sizes()
        assert dragged[0] >= before[0] + 80 and dragged[2] >= before[2] + 50, (before, dragged)
    kept = kept_in_the_file(settings_file)
    assert isinstance(kept, str)  # a string, as every setting is: an earlier version reads the file as before
    assert json.loads(kept) == dragged
    with started(project_dir, settings_file, qtbot) as again:
        qtbot.waitUntil(lambda: panels(again).sizes() == dragged, timeout=5_000)
    # Not dragged in that session: what the drag before it kept stays, and comes back again.
    assert json.loads(kept_in_the_file(settings_file)) == dragged
    with started(project_dir, settings_file, qtbot) as third:
        qtbot.waitUntil(lambda: panels(third).sizes() == dragged, timeout=5_000)
        drag_divider(panels(third), 1, -40)
        dragged_again = panels(third).sizes()
        assert dragged_again[0] < dragged[0]
    with started(project_dir, settings_file, qtbot) as fourth:
        qtbot.waitUntil(lambda: panels(fourth).sizes() == dragged_again, timeout=5_000)


def test_without_a_drag_the_shares_apply_and_nothing_is_kept(qtbot, tmp_path, project_dir):
    defaults = default_widths(project_dir, tmp_path, qtbot)
    settings_file = tmp_path / "settings.json"
    with started(project_dir, settings_file, qtbot) as first:
        assert panels(first).sizes() == defaults
        first.resize(1300, 800)  # the window resized, no divider dragged: the shares follow, nothing to keep
        qtbot.waitUntil(lambda: first.width() == 1300, timeout=5_000)
    assert kept_in_the_file(settings_file) in (None, "")
    with started(project_dir, settings_file, qtbot) as again:
        assert panels(again).sizes() == defaults


def test_in_a_window_of_another_size_the_panels_keep_their_share_within_their_least_width(qtbot, tmp_path,
                                                                                          project_dir):
    settings_file = tmp_path / "settings.json"
    with started(project_dir, settings_file, qtbot) as first:
        drag_divider(panels(first), 1, 80)
        drag_divider(panels(first), 2, -60)  # the side tabs wider
        dragged, whole = panels(first).sizes(), room(panels(first))
    share = [width / whole for width in dragged]
    with started(project_dir, settings_file, qtbot, QSize(1150, 800)) as narrower:  # a smaller screen
        splitter = panels(narrower)
        sizes = splitter.sizes()
        assert sizes[0] < dragged[0] and sizes[2] < dragged[2]  # they give way as the page does...
        assert abs(sizes[0] / room(splitter) - share[0]) < 0.01  # ...in their share
        assert sizes[2] >= SIDE_PANELS[2].least  # the side tabs not below their least width (its buttons)
        assert sizes[1] >= PAGE_MIN_WIDTH
    with started(project_dir, settings_file, qtbot, QSize(1800, 900)) as wider:  # a larger screen
        sizes = panels(wider).sizes()
        assert sizes[0] >= dragged[0] and sizes[2] >= dragged[2]  # never narrower than dragged on a wider window
        assert sizes[1] > dragged[1]
    with started(project_dir, settings_file, qtbot, QSize(900, 700)) as small:  # near the window's least width
        splitter = panels(small)
        sizes = splitter.sizes()
        for pane, width in zip((splitter.widget(k) for k in range(3)), sizes, strict=True):
            assert width >= pane.minimumSizeHint().width() and width >= pane.minimumWidth(), (sizes, pane)
    # The person's widths are kept as dragged, not as a smaller screen squeezed them.
    assert json.loads(kept_in_the_file(settings_file)) == dragged


@pytest.mark.parametrize("kept", ["not json", "null", "[]", "[250, 900]", "[250, 900, 380, 200]", "[0, 900, 380]",
                                  "[-5, 900, 380]", "[true, 900, 380]", '["250", "900", "380"]', "[250.5, 900, 380]",
                                  '{"widths": [250, 900, 380]}', "[250, null, 380]"])
def test_a_damaged_or_stale_value_is_ignored(qtbot, tmp_path, project_dir, kept):
    defaults = default_widths(project_dir, tmp_path, qtbot)
    settings_file = tmp_path / "settings.json"
    settings_file.write_text(json.dumps({"annotator": "tester", "panel_widths": kept}), encoding="utf-8")
    with started(project_dir, settings_file, qtbot) as window:
        assert panels(window).sizes() == defaults


def test_a_value_written_as_json_rather_than_a_string_is_read_as_the_string_would_be(qtbot, tmp_path, project_dir):
    # A hand-edited file: the list itself rather than a string holding it.
    defaults = default_widths(project_dir, tmp_path, qtbot)
    sizes = []
    for kept in ("[300, 700, 380]", [300, 700, 380]):
        settings_file = tmp_path / "settings.json"
        settings_file.write_text(json.dumps({"panel_widths": kept}), encoding="utf-8")
        with started(project_dir, settings_file, qtbot) as window:
            sizes.append(panels(window).sizes())
    assert sizes[0] == sizes[1] != defaults


def test_the_shares_of_dragged_widths_give_them_back_at_the_same_width():
    widths = [301, 689, 397]
    shares = shares_of_widths(widths, SIDE_PANELS)
    assert shares is not None and shares[1] is None
    assert split_widths(sum(widths), shares, [0, 0, 0]) == widths
    assert shares_of_widths([300, 700], SIDE_PANELS) is None  # another number of panels
    assert shares_of_widths([0, 700, 380], SIDE_PANELS) is None
    # A pane dragged beyond its share's least or most keeps that width as its bound.
    small = shares_of_widths([120, 1000, 600], (Share(0.16, least=180, most=360), None, Share(0.25, 350, 520)))
    assert small is not None
    assert (small[0].least, small[2].most) == (120, 600)
