"""The element cursor: on a page with no link or field, which Tab cannot stop in, the keys alone reach any element
and make a record of it as a click does. E with nothing under the keys shows the cursor, Ctrl+Right / Ctrl+Left
move it through the page's elements in document order, Ctrl+Up / Ctrl+Down to the element around it and the first
inside it; it is drawn as an outline of its own and brought into view. The keys are the page's: Ctrl+Down in the
record list still moves there without selecting."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.records import normalise_xpath
from tests.app.page_helpers import click_element, js
from tests.app.window_helpers import imported_project, open_window, said

pytestmark = pytest.mark.app

FILLER = "".join(f"<p>Filler paragraph number {k} of the notes.</p>\n" for k in range(1, 41))
NOTES = f"""<!doctype html><html><head><meta charset="utf-8"><title>Notes</title></head><body>
<div class="note"><p>Alpha note</p><p>alpha detail</p></div>
<div class="note"><p>Beta note</p><p>beta detail</p></div>
<div class="note"><p>Gamma note</p><p>gamma detail</p></div>
{FILLER}<div class="note"><p>Omega note</p><p>omega detail</p></div>
</body></html>"""
FIRST = "/body[1]/div[1]"
BETA = "/body[1]/div[2]"
BETA_TITLE = "/body[1]/div[2]/p[1]"
LAST = "/body[1]/div[4]/p[2]"
MOVES = 300  # more presses than the page has elements: a walk that does not stop fails, it does not hang


@pytest.fixture
def notes(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {"html/1.html": NOTES})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    yield win
    win.close()


def keys_to_the_page(qtbot, win: MainWindow) -> QWidget:
    """Ctrl+2, as a person gives the page the keys; the widget that then has them."""
    QTest.keySequence(win, "Ctrl+2")
    target = win.page_view.view.focusProxy()
    assert target is not None
    qtbot.waitUntil(target.hasFocus, timeout=5_000)
    return target


def press(target: QWidget, key: Qt.Key, times: int = 1) -> None:
    for _ in range(times):
        QTest.keyClick(target, key, Qt.KeyboardModifier.ControlModifier)


def cursor_on(win: MainWindow) -> str | None:
    return js(win.page_view, "__recordlens.overlay.focusedPath()")


def cursor_box(win: MainWindow) -> list[float] | None:
    return js(win.page_view, "JSON.parse(__recordlens.overlay.cursorBox())")


def records(win: MainWindow) -> list[list[str]]:
    return [[normalise_xpath(x) for x in label.xpaths] for label in win.project.labels(win.page_name)]


def walk_until(target: QWidget, win: MainWindow, key: Qt.Key, words: str) -> None:
    """Press Ctrl+`key` until the status bar says `words` (the cursor can go no further that way)."""
    for _ in range(MOVES):
        press(target, key)
        if words in said(win):
            return
    raise AssertionError(f"never said {words!r}; last: {said(win)!r}")


def test_keys_alone_make_a_record_of_a_block_on_a_page_without_links_or_fields(qtbot, notes):
    target = keys_to_the_page(qtbot, notes)
    QTest.keyClick(target, Qt.Key.Key_E)  # nothing under the keys yet: the cursor shows, no record is made
    assert records(notes) == []
    assert said(notes).startswith("no element of the page had the keys: the element cursor is on <")
    assert cursor_box(notes) is not None and cursor_on(notes) is not None
    walk_until(target, notes, Qt.Key.Key_Left, "no previous element")  # from wherever it showed, to the first
    assert cursor_on(notes) == FIRST
    press(target, Qt.Key.Key_Right, 4)  # div 1, its two paragraphs, div 2, its title: document order
    assert cursor_on(notes) == BETA_TITLE
    assert "“Beta note”" in said(notes)
    press(target, Qt.Key.Key_Up)  # the element around it
    assert cursor_on(notes) == BETA
    press(target, Qt.Key.Key_Down)  # and back to the first inside it
    assert cursor_on(notes) == BETA_TITLE
    press(target, Qt.Key.Key_Up)
    assert "click: new record" in said(notes)  # what E will do there, as the line above the page says for a click
    drawn = cursor_box(notes)
    box = notes.page_view.locate([BETA])[0].rect
    scroll = js(notes.page_view, "[window.scrollX, window.scrollY]")
    assert drawn is not None and box is not None
    gap = 4  # the outline runs just outside the element
    assert drawn == pytest.approx([box[0] - scroll[0] - gap, box[1] - scroll[1] - gap, box[2] + 2 * gap,
                                   box[3] + 2 * gap], abs=1.5)
    QTest.keyClick(target, Qt.Key.Key_E)  # as a click on it: a new record of the block
    qtbot.waitUntil(lambda: records(notes) == [[BETA]], timeout=5_000)
    assert said(notes).startswith("new record 1")


def test_the_cursor_reaches_the_last_element_and_brings_it_into_view(qtbot, notes):
    target = keys_to_the_page(qtbot, notes)
    QTest.keyClick(target, Qt.Key.Key_E)
    walk_until(target, notes, Qt.Key.Key_Right, "no next element")
    assert cursor_on(notes) == LAST
    press(target, Qt.Key.Key_Down)
    assert said(notes).startswith("no element inside this one")
    drawn = cursor_box(notes)
    height = js(notes.page_view, "document.documentElement.clientHeight")
    assert drawn is not None and drawn[1] >= 0 and drawn[1] + drawn[3] <= height + 1  # scrolled to, in view
    assert js(notes.page_view, "window.scrollY") > 0
    press(target, Qt.Key.Key_Up, 2)  # its block, then nothing around that but the whole page
    assert cursor_on(notes) == "/body[1]/div[4]"
    assert said(notes).startswith("no element around this one but the whole page")


def test_a_pointers_press_and_esc_take_the_cursor_away(qtbot, notes):
    target = keys_to_the_page(qtbot, notes)
    QTest.keyClick(target, Qt.Key.Key_E)
    assert cursor_box(notes) is not None
    click_element(notes.page_view, BETA_TITLE)  # the pointer's click is what counts then: its record
    qtbot.waitUntil(lambda: records(notes) == [[BETA_TITLE]], timeout=5_000)
    assert cursor_box(notes) is None
    target = keys_to_the_page(qtbot, notes)
    press(target, Qt.Key.Key_Right)  # back, from where it starts
    assert cursor_box(notes) is not None
    QTest.keyClick(target, Qt.Key.Key_Escape)  # the keys leave the page, the cursor with them
    qtbot.waitUntil(notes.record_panel.list.hasFocus, timeout=5_000)
    assert cursor_box(notes) is None


def test_ctrl_arrows_outside_the_page_are_the_record_lists_and_move_no_cursor(qtbot, notes):
    for xpath in ("/body[1]/div[1]", "/body[1]/div[3]"):
        notes.project.add_record("1", [xpath], notes.person)
    notes.reload_labels([])
    rows = notes.record_panel.list
    QTest.keySequence(notes, "Ctrl+3")
    qtbot.waitUntil(rows.hasFocus, timeout=5_000)
    rows.setCurrentRow(0)
    QTest.keyClick(rows, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert rows.currentRow() == 1
    assert cursor_box(notes) is None
