"""Ctrl+A, then A or R, on a page of hundreds (in use: 10,000) of proposed rows: one step that reads the window's
selection once, not once per record (10,000 reads of a 10,000-row selection froze the window for a minute), and
its history opened with Ctrl+H without replaying the page once per change for keeps it does not hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.labelling import history_dialog
from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import Provenance, history_records
from tests.app.window_helpers import imported_project, key, said

pytestmark = pytest.mark.app

ROWS = 300
TABLE = ("<html><body><table><tbody>"
         + "".join(f"<tr><td>Row {k}</td><td>{k * 3} EUR</td></tr>" for k in range(1, ROWS + 1))
         + "</tbody></table></body></html>")


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    return imported_project(tmp_path, {"html/1.html": TABLE})


@pytest.fixture
def proposed(window: MainWindow) -> MainWindow:
    """The window with every row of the table proposed as a record, all of them selected (Ctrl+A)."""
    rows = [[f"/body[1]/table[1]/tbody[1]/tr[{k}]"] for k in range(1, ROWS + 1)]
    window.project.add_records("1", rows, Provenance.extractor("mdr", "1", "flat"))
    window.reload_labels()
    key(window, "Ctrl+A")
    assert said(window).startswith(f"{ROWS} records selected")
    return window


def _count_selection_reads(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    panel = window.record_panel
    read = panel.selected_ids

    def counted() -> list[int]:
        reads.append(1)
        return read()

    monkeypatch.setattr(panel, "selected_ids", counted)
    return reads


@pytest.mark.parametrize(("press", "status"), [("A", "accepted"), ("R", "rejected")])
def test_judging_every_record_reads_the_selection_a_few_times(proposed: MainWindow, monkeypatch: pytest.MonkeyPatch,
                                                              press: str, status: str) -> None:
    reads = _count_selection_reads(proposed, monkeypatch)
    key(proposed, press)
    assert {label.status for label in proposed.project.labels("1")} == {status}
    assert len(reads) < 20, f"the selection was read {len(reads)} times for one step of {ROWS} records"
    assert said(proposed).startswith(f"{status.removesuffix('ed')}ed {ROWS} records")


def test_the_step_undone_selects_the_records_again(proposed: MainWindow) -> None:
    key(proposed, "A")
    key(proposed, "Ctrl+Z")
    assert {label.status for label in proposed.project.labels("1")} == {"proposed"}
    assert len(proposed.record_panel.selected_ids()) == ROWS


def test_history_of_the_step_opens_without_replaying_the_page_per_change(proposed: MainWindow,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    replayed: list[int] = []
    replay = history_records

    def counted(history):  # each state of the page it yields is a sort of all its records
        for records in replay(history):
            replayed.append(1)
            yield records

    # The dialog no longer imports it (its one replay numbers the page: test_history_replayed_once.py); any use
    # of it is counted all the same
    monkeypatch.setattr(history_dialog, "history_records", counted, raising=False)
    key(proposed, "A")
    key(proposed, "Ctrl+H")
    dialog = proposed.tools.history_dialog
    assert dialog is not None and dialog.isVisible()
    newest = dialog.entries.topLevelItem(0)
    assert newest.text(3) == f"accept record ({ROWS} changes)"
    assert newest.childCount() == ROWS
    assert not replayed
    dialog.close()
