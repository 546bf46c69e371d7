"""PgDn or PgUp held on heavy pages: every repeat of the key opened a page (read and parsed it, then loaded it in the
browser), and the repeats piled up behind each other. Now a page key pressed while the page of the one before is
still on its way only moves the page ahead (the page list shows it at once): one page is opened for all the keys
handled before the window's next turn, in place of the load under way. The keys that act on the page on show (J,
R, A, Del, a click on the page…) pressed meanwhile wait, and are carried out in order on the page the keys went to
once it has loaded, never on a page passed over (the one still drawn); if that page cannot be shown they are
dropped, and the status bar says so.

The keys are real key presses sent one after the other without the event loop turning in between, as a held key's
repeats queue while the window is busy: no load can end between them, so no timing decides what a test sees."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store.project import open_project
from tests.app.gui_waits import queued_work_done, until_it_holds
from tests.app.window_helpers import imported_project, open_window, recent_messages

pytestmark = pytest.mark.app

PAGES = 6
PAGE = (
    "<!doctype html><html><head><meta charset='utf-8'><title>page {n}</title></head><body><h1>Page {n}</h1>"
    + "".join(f"<p>Entry {{n}}.{k}: a line of words</p>" for k in (1, 2, 3))
    + "</body></html>"
)
TRUTH = [[f"/body[1]/p[{k}]"] for k in (1, 2, 3)]
HEADING = "/body[1]/h1[1]"  # in no record: a click there starts one
LOADED_MS = 60_000  # a busy 2-core machine


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A project of PAGES pages, each with three accepted records."""
    files = {f"html/{n}.html": PAGE.format(n=n) for n in range(1, PAGES + 1)}
    files |= {f"gt/{n}.json": json.dumps(TRUTH) for n in range(1, PAGES + 1)}
    return imported_project(tmp_path, files)


@pytest.fixture
def window(qtbot, tmp_path: Path, folder: Path) -> Iterator[MainWindow]:
    """The window on page 1, drawn; the pages it opens from then on are counted in `window.opened`."""
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    win.wait_until_drawn(LOADED_MS)
    assert win.page_name == "1"
    files = {win.project.snapshot_file(name).resolve(): name for name in win.page_list.all_names()}
    win.opened = []  # type: ignore[attr-defined]
    win.loaded = []  # type: ignore[attr-defined]
    real_open = win.page_view.open

    def counted_open(path: str | Path) -> None:
        win.opened.append(files.get(Path(path).resolve(), str(path)))  # type: ignore[attr-defined]
        real_open(path)

    win.page_view.open = counted_open  # type: ignore[method-assign]
    win.page_view.loaded.connect(lambda ok: win.loaded.append((win.page_name, ok)))  # type: ignore[attr-defined]
    yield win
    win.close()


def press(window: MainWindow, *keys: Qt.Key) -> None:
    """Real key presses on the window, one after the other, the event loop not turning in between."""
    for key in keys:
        QTest.keyClick(window, key)


def statuses(folder: Path) -> dict[str, list[str]]:
    """Every page's records' statuses, as the project's database holds them (read through a connection of its own)."""
    with open_project(folder) as project:
        return {name: [label.status for label in project.labels(name)] for name in project.page_names()}


def wait_until_on(qtbot, window: MainWindow, name: str) -> None:  # noqa: ANN001 - a QtBot
    """Until page `name` is on show, loaded and drawn, and what its load set off has run."""
    until_it_holds(qtbot, lambda: window.page_name == name and window.page_loaded, LOADED_MS)
    window.wait_until_drawn(LOADED_MS)
    queued_work_done()
    assert window.page_name == name and window.page_loaded


def test_held_page_keys_open_only_the_page_they_go_to_and_a_record_key_acts_there(qtbot, window, folder):
    before = statuses(folder)
    press(window, *[Qt.Key.Key_PageDown] * 4, Qt.Key.Key_J, Qt.Key.Key_R)  # J: the first record; R: reject it
    assert window.page_list.current_name() == "5"  # the list shows where the keys are going, at once
    assert statuses(folder) == before  # J and R wait for page 5: nothing of the page drawn is touched
    wait_until_on(qtbot, window, "5")
    until_it_holds(qtbot, lambda: statuses(folder)["5"][0] == "rejected", LOADED_MS)
    after = statuses(folder)
    assert after["5"] == ["rejected", "accepted", "accepted"]
    assert all(after[name] == before[name] for name in before if name != "5")
    # The first key opened page 2 at once (a single PgDn waits for nothing); the three after it, handled before the
    # window's next turn, only moved the page ahead, which then opened in place of page 2's load
    assert window.opened == ["2", "5"]
    assert [name for name, ok in window.loaded if ok] == ["5"]  # no page passed over was drawn
    assert window.record_panel.selected_ids() == [window.labels[0].id]


def test_keys_behind_a_page_key_wait_for_the_page_it_goes_to(qtbot, window, folder):
    before = statuses(folder)
    # On the way to page 3: J, R there; then PgDn, pressed behind them, for page 4, and J, J, R there
    press(
        window,
        Qt.Key.Key_PageDown,
        Qt.Key.Key_PageDown,
        Qt.Key.Key_J,
        Qt.Key.Key_R,
        Qt.Key.Key_PageDown,
        Qt.Key.Key_J,
        Qt.Key.Key_J,
        Qt.Key.Key_R,
    )
    assert statuses(folder) == before
    until_it_holds(qtbot, lambda: statuses(folder)["4"][1] == "rejected", LOADED_MS)
    wait_until_on(qtbot, window, "4")
    after = statuses(folder)
    assert after["3"] == ["rejected", "accepted", "accepted"]
    assert after["4"] == ["accepted", "rejected", "accepted"]
    assert all(after[name] == before[name] for name in ("1", "2", "5", "6"))
    assert window.opened == ["2", "3", "4"]


def test_keys_on_the_way_to_a_page_that_cannot_be_shown_are_dropped_and_said(qtbot, window, folder):
    before = statuses(folder)
    window.project.snapshot_file("4").unlink()  # page 4's saved copy gone: it cannot be shown
    press(window, *[Qt.Key.Key_PageDown] * 3, Qt.Key.Key_J, Qt.Key.Key_R)
    until_it_holds(qtbot, lambda: "not carried out" in window.statusBar().currentMessage(), LOADED_MS)
    said = window.statusBar().currentMessage()
    assert said.startswith("page 4 cannot be shown: "), said
    assert said.endswith("; 2 keys pressed on the way to it not carried out (J, R)"), said
    wait_until_on(qtbot, window, "2")  # the page the first key opened stays on show, as a page not shown leaves it
    assert window.page_list.current_name() == "2"
    assert statuses(folder) == before  # nothing landed on page 2 (passed over), nor anywhere else
    assert "not carried out (J, R)" in recent_messages(window)


def test_a_click_on_the_page_drawn_while_the_keys_are_on_their_way_is_not_taken(qtbot, window, folder):
    before = statuses(folder)
    press(window, Qt.Key.Key_PageDown, Qt.Key.Key_PageDown)
    window.page_view.element_clicked.emit(HEADING)  # as the page drawn (page 1's, still) reports a click
    assert window.statusBar().currentMessage() == (
        "that click was not taken: page 3 is on its way (the page drawn is not it yet)"
    )
    wait_until_on(qtbot, window, "3")
    assert statuses(folder) == before


def test_an_undo_on_the_way_undoes_on_the_page_the_keys_go_to(qtbot, window, folder):
    """Ctrl+Z where the page left has nothing to undo: it waits too, and takes back the last change of the page the
    keys go to (not "nothing to undo", said of the page left)."""
    window.open_page("4")
    wait_until_on(qtbot, window, "4")
    press(window, Qt.Key.Key_J, Qt.Key.Key_R)
    until_it_holds(qtbot, lambda: statuses(folder)["4"][0] == "rejected", LOADED_MS)
    window.open_page("1")
    wait_until_on(qtbot, window, "1")
    rejected = statuses(folder)
    press(window, *[Qt.Key.Key_PageDown] * 3)
    QTest.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert statuses(folder) == rejected
    until_it_holds(qtbot, lambda: statuses(folder)["4"][0] == "accepted", LOADED_MS)
    wait_until_on(qtbot, window, "4")
    assert statuses(folder)["4"] == ["accepted"] * 3
    assert "nothing to undo" not in recent_messages(window)
