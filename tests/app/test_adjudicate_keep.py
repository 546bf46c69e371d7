"""O keeps the project's version of a disagreement with another annotator: listed apart as kept, passed by when
the next disagreement is chosen and by W, the figures unchanged, in the page's history as the person's
adjudication, undone and redone as one step, and remembered by the project."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from recordlens.core.store import open_project
from tests.app.demo_project import HEADER
from tests.app.review_helpers import kinds, review_bea
from tests.app.window_helpers import said

pytestmark = pytest.mark.app


def toggles(window) -> dict[str, str]:
    panel = window.review_panel
    return {toggle.text().split()[0]: toggle.text() for toggle in (*panel.kind_toggles.values(), panel.kept_toggle)}


def test_o_keeps_the_projects_version_apart_undoably_and_remembered(qtbot, window, project_dir):
    project = window.project
    truth = project.true_records("1")
    project.annotators.set_page("bea", "1", [*truth[1:], [HEADER]])  # she left out record 1, added the header
    review_bea(qtbot, window)
    labels, figures = project.labels("1"), window.review_panel.page_figures.text()
    means = window.reviewing.agreements["bea"]
    assert window.review_panel.kept_toggle.isVisible()
    window.review_panel.records.setCurrentRow(kinds(window).index("missed"))

    QTest.keySequence(window, "O")
    assert "page 1: kept the project's version of 1 disagreement with bea; no label changed" in said(window)
    assert project.labels("1") == labels and window.review_panel.page_figures.text() == figures
    assert window.reviewing.agreements["bea"].f1 == means.f1
    assert toggles(window)["missed"] == "missed (0)" and toggles(window)["kept"] == "kept (1)"
    chosen = window.review_panel.current_index()
    assert chosen is not None and kinds(window)[chosen] == "spurious"  # the next open disagreement
    row = next(window.review_panel.records.item(k).text() for k in range(window.review_panel.records.count())
               if "kept" in window.review_panel.records.item(k).text())
    assert "missed (kept: the project's version)" in row
    entry = project.history("1")[-1]
    assert (entry.action, entry.actor, entry.detail["adjudicated"]) == ("keep", window.person, "bea")

    QTest.keySequence(window, "Ctrl+Z")
    assert toggles(window)["missed"] == "missed (1)" and toggles(window)["kept"] == "kept (0)"
    QTest.keySequence(window, "Ctrl+Shift+Z")
    assert toggles(window)["kept"] == "kept (1)"
    with open_project(project_dir) as again:  # another process, as after a restart
        assert len(again.adjudication.kept("1", "bea")) == 1

    QTest.keySequence(window, "O")  # the spurious header kept too: page 1 has no open disagreement left
    assert toggles(window)["kept"] == "kept (2)"
    QTest.keySequence(window, "W")
    assert "every page's disagreements with bea are kept" in said(window)
    window.review_panel.records.setCurrentRow(kinds(window).index("matched"))
    QTest.keySequence(window, "O")
    assert "nothing to keep: the chosen record is no open disagreement with bea" in said(window)
