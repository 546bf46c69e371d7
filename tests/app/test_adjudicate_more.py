"""Adjudication in the Review tab, as a three-annotator lab met it: a record the project has already is never
taken again (T, Shift+T, take-all), the take-all button leaves out what was kept with O, the rows shown selected
after O are those selected, and a restart left in Review on an annotator opens there again."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.settings import Settings
from tests.app.demo_project import HEADER
from tests.app.gui_waits import queued_work_done
from tests.app.review_helpers import kinds, review_bea
from tests.app.window_helpers import open_window, said

pytestmark = pytest.mark.app


def spelt_otherwise(xpaths: list[str]) -> list[str]:
    """The same record to the scorer: `/html[1]` in front, the XPaths in another order."""
    return ["/html[1]" + xpath for xpath in reversed(xpaths)]


def selected_rows(window) -> list[int]:
    rows = window.review_panel.records
    return sorted(rows.row(item) for item in rows.selectedItems())


def test_a_record_the_project_has_already_is_never_taken_again(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    # bea's set holds record 8 twice (the second spelt otherwise): the matching pairs one, the other is spurious
    project.annotators.set_page("bea", "1", [*truth, spelt_otherwise(truth[7]), [HEADER]])
    review_bea(qtbot, window)
    eighth = next(k + 1 for k, label in enumerate(window.labels) if list(label.xpaths) == truth[7])
    rows = window.review_panel.records
    spurious = [i for i, k in enumerate(kinds(window)) if k == "spurious"]
    twin = next(i for i in spurious if window.review.records[i].xpaths != (HEADER,))
    before = project.labels("1")

    for keys in ("T", "Shift+T"):
        rows.setCurrentRow(twin)
        QTest.keySequence(window, keys)
        assert f"page 1: bea's record is already in the project as record {eighth}: nothing taken" in said(window)
        assert project.labels("1") == before
    assert window.review_panel.take_all_words.text() == (
        "bea's record the project lacks on this page (left out: 1 in the project already)")

    rows.setCurrentRow(spurious[0])  # both chosen: the header alone is taken
    for i in spurious:
        rows.item(i).setSelected(True)
    QTest.keySequence(window, "T")
    assert [list(label.xpaths) for label in project.labels("1")] == [*[list(b.xpaths) for b in before], [HEADER]]
    assert f"page 1: take bea's record; bea's record is already in the project as record {eighth}: not taken again" \
        in said(window), said(window)
    QTest.keySequence(window, "Ctrl+Z")
    assert project.labels("1") == before

    QTest.keySequence(window, "Ctrl+T")  # take-all: the header only
    assert [list(label.xpaths) for label in project.labels("1")][len(before):] == [[HEADER]]
    assert ("page 1: took bea's only record the project lacked; left out 1 in the project already"
            in said(window)), said(window)


def test_take_all_leaves_out_the_records_kept_with_o(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    extra = [[HEADER], ["/body[1]/div[1]/footer[1]"]]
    project.annotators.set_page("bea", "1", [*truth, *extra])
    review_bea(qtbot, window)
    panel = window.review_panel
    assert panel.take_all_words.text() == "2 of bea's records the project lacks on this page"
    assert panel.take_all.text() == "Take all 2"
    panel.records.setCurrentRow(kinds(window).index("spurious"))
    QTest.keySequence(window, "O")  # the header: the project's version kept
    assert panel.take_all_words.text() == "bea's record the project lacks on this page (left out: 1 kept (O))"
    assert panel.take_all.text() == "Take it"
    QTest.keySequence(window, "Ctrl+T")
    assert [list(label.xpaths) for label in project.labels("1")][len(truth):] == [extra[1]]
    assert "left out 1 kept (O)" in said(window), said(window)
    QTest.keySequence(window, "Ctrl+Z")
    panel.records.setCurrentRow(next(i for i in range(panel.records.count())
                                     if "spurious" in panel.records.item(i).text() and "kept" not in
                                     panel.records.item(i).text()))
    QTest.keySequence(window, "O")  # the footer kept too: nothing left to take
    assert not panel.take_all.isVisible()
    QTest.keySequence(window, "Ctrl+T")
    assert "page 1: nothing left to take of bea's records the project lacks: 2 kept (O)" in said(window)
    assert len(project.labels("1")) == len(truth)


def test_after_o_only_the_row_chosen_next_is_shown_selected(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    project.annotators.set_page("bea", "1", [*truth[3:], [HEADER]])  # she left out records 1 to 3
    review_bea(qtbot, window)
    rows = window.review_panel.records
    missed = [i for i, k in enumerate(kinds(window)) if k == "missed"]
    rows.setCurrentRow(missed[0])
    for i in missed:
        rows.item(i).setSelected(True)
    assert len(selected_rows(window)) == 3

    QTest.keySequence(window, "O")
    assert "kept the project's version of 3 disagreements" in said(window)
    current = rows.currentRow()
    assert window.review.records[window.review_panel.current_index()].kind == "spurious"  # the next open one
    assert selected_rows(window) == [current]  # the kept rows are no longer shown selected
    assert window.review_panel.chosen_indices() == [window.review_panel.current_index()]


def test_a_restart_left_in_review_on_an_annotator_opens_there_again(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"
    first = open_window(project_dir, settings_file, qtbot=qtbot)
    try:
        truth = first.project.true_records("1")
        first.project.annotators.set_page("bea", "1", [*truth, [HEADER]])
        review_bea(qtbot, first)
        assert first.reviewing.active()
    finally:
        first.close()  # Ctrl+Q, in Review
    again = open_window(project_dir, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    try:
        qtbot.waitUntil(lambda: again.reviewing.active(), timeout=10_000)
        assert again.reviewing.annotator() == "bea" and again.page_name == "1"
        QTest.keySequence(again, "F6")  # back to the Records tab, and so left
        assert not again.reviewing.active()
    finally:
        again.close()
    third = open_window(project_dir, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    try:
        queued_work_done()  # Review would reopen a turn of the loop after the window opened
        assert not third.reviewing.active()  # left in the Records tab: it opens there
        QTest.keySequence(third, "F6")
        assert third.reviewing.active() and third.reviewing.annotator() == "bea"
    finally:
        third.close()


def test_take_all_says_a_record_repeated_in_their_labels_apart_from_one_the_project_has(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    footer = ["/body[1]/div[1]/footer[1]"]
    # Their header twice (the second spelt otherwise), and one of the project's records spelt otherwise
    project.annotators.set_page("bea", "1", [*truth, [HEADER], ["/html[1]" + HEADER], footer,
                                             ["/html[1]" + truth[0][0], *truth[0][1:]]])
    review_bea(qtbot, window)
    QTest.keySequence(window, "Ctrl+T")
    assert [list(label.xpaths) for label in project.labels("1")][len(truth):] == [[HEADER], footer]
    assert "1 repeated in their labels" in said(window), said(window)
