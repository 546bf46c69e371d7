"""A, R or J whose next record is one the page does not display: the status bar said only "record 2 is not
displayed on the page…", and what the key did ("rejected record 1; next proposal: record 2") was left to Recent
messages. Both are said now, in one message, what the key did first."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.demo_project import MDR
from tests.app.window_helpers import key, said, window_on_page

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Please wait</title></head><body>
<div class="lang"><h2>Please wait…</h2><p>The page loads.</p></div>
<div class="lang" style="display: none"><h2>Bitte warten…</h2><p>Die Seite lädt.</p></div>
<div class="lang"><h2>Espere…</h2><p>La página carga.</p></div>
</body></html>"""
HIDDEN_NOTE = ("record 2 is not displayed on the page: its element is hidden (display: none); its texts are in the "
               "record list")


@pytest.fixture
def window(qtbot, tmp_path: Path):
    with window_on_page(qtbot, tmp_path, PAGE, [["/body[1]/div[1]"]]) as win:
        win.project.add_records("1", [["/body[1]/div[2]"], ["/body[1]/div[3]"]], MDR)
        win.reload_labels([win.labels[0].id])
        win.wait_until_drawn()
        yield win


def test_r_onto_a_hidden_proposal_says_the_rejection_then_that_it_is_hidden(qtbot, window):
    key(window, "R")
    window.wait_until_drawn()
    qtbot.waitUntil(lambda: "not displayed" in said(window), timeout=10_000)
    # Record 1 was accepted (the page's labels): R on it says so first, as of a list of records
    assert said(window) == (f"rejected record 1 (record 1 was accepted: Ctrl+Z takes the whole step back); next "
                            f"proposal: record 2; {HIDDEN_NOTE}")


def test_j_onto_a_hidden_record_says_it_is_selected_then_that_it_is_hidden(qtbot, window):
    key(window, "J")
    window.wait_until_drawn()
    qtbot.waitUntil(lambda: "not displayed" in said(window), timeout=10_000)
    assert said(window).startswith("record 2 selected"), said(window)
    assert said(window).endswith(f"; {HIDDEN_NOTE}"), said(window)
