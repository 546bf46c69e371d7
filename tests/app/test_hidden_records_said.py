"""A record the page does not display (its element hidden with display: none, or of no size) is selected with
nothing drawn: the status bar says so and why, and the record list marks such records (a verifier's finding on a
"Please wait…" page whose other languages' blocks are hidden: 7 of its 8 records showed nothing when selected)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.labelling.record_panel import HIDDEN_MARK
from tests.app.window_helpers import key, record_rows, said, window_on_page

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Please wait</title></head><body>
<div class="lang"><h2>Please wait…</h2><p>The page loads.</p></div>
<div class="lang" style="display: none"><h2>Bitte warten…</h2><p>Die Seite lädt.</p></div>
<section style="display: none"><div class="lang"><h2>Veuillez patienter…</h2><p>La page charge.</p></div></section>
<div class="lang" style="width: 0; height: 0; overflow: hidden"></div>
<div class="lang"><h2>Espere…</h2><p>La página carga.</p></div>
</body></html>"""
TRUTH = [["/body[1]/div[1]"], ["/body[1]/div[2]"], ["/body[1]/section[1]/div[1]"], ["/body[1]/div[3]"],
         ["/body[1]/div[4]"]]
HIDDEN = {2: "its element is hidden (display: none)",
          3: "its element is hidden (display: none on an enclosing <section>)",
          4: "its element is of no size on the page (0 × 0 px)"}


@pytest.fixture
def window(qtbot, tmp_path: Path):
    with window_on_page(qtbot, tmp_path, PAGE, TRUTH) as win:
        yield win


def test_the_record_list_marks_the_records_the_page_does_not_display(qtbot, window):
    qtbot.waitUntil(lambda: sum(HIDDEN_MARK in line for line in record_rows(window)) == len(HIDDEN), timeout=10_000)
    lines = record_rows(window)
    assert [k + 1 for k, line in enumerate(lines) if HIDDEN_MARK in line] == sorted(HIDDEN)
    assert all(HIDDEN_MARK in line.splitlines()[1] for line in lines if HIDDEN_MARK in line)  # the second line
    tip = window.record_panel.list.item(2).toolTip()
    assert "not displayed on the page: " + HIDDEN[3] in tip
    # The finder finds them by the word, to judge them apart.
    window.record_panel.finder.setText("hidden")
    assert window.record_panel.found_ids() == [window.labels[n - 1].id for n in sorted(HIDDEN)]


def test_selecting_a_record_the_page_does_not_display_is_said_with_why(qtbot, window):
    for number in (1, 2, 3, 4, 5):
        key(window, "J")
        window.wait_until_drawn()
        if number in HIDDEN:  # after what J said of it ("record 2 selected, accepted: …")
            qtbot.waitUntil(lambda n=number: f"; record {n} is not displayed" in said(window), timeout=10_000)
            assert said(window).startswith(f"record {number} selected")
            assert said(window).endswith(f"; record {number} is not displayed on the page: {HIDDEN[number]}; its "
                                         "texts are in the record list")
        else:  # a record on show: nothing said, and the word of the hidden one before is gone with its selection
            assert "not displayed" not in said(window), number
    # Chosen in the list, the same.
    window.select_records([window.labels[2].id])
    window.wait_until_drawn()
    qtbot.waitUntil(lambda: said(window).startswith("record 3 is not displayed"), timeout=10_000)


def test_every_record_selected_says_how_many_of_them_the_page_does_not_display(qtbot, window):
    key(window, "Ctrl+A")
    window.wait_until_drawn()
    qtbot.waitUntil(lambda: "not displayed" in said(window), timeout=10_000)
    assert said(window) == ("5 records selected: A or R judges them all; 3 of them are not displayed on the page "
                            f"(records 2, 3, 4, marked “{HIDDEN_MARK}” in the list)")
    # Chosen with Ctrl+click in the list: said on its own.
    window.select_records([])
    window.record_panel.select_ids([window.labels[0].id, window.labels[1].id])
    window.record_panel.selection_changed.emit()
    window.wait_until_drawn()
    qtbot.waitUntil(lambda: "not displayed" in said(window), timeout=10_000)
    assert said(window) == ("1 of the 2 records selected is not displayed on the page (record 2, marked "
                            f"“{HIDDEN_MARK}” in the list)")
