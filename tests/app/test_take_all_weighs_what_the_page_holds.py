"""Review's take-all (Ctrl+T) against what the page holds, as Propose weighs its proposals (`weigh_proposals`):
take-all compared the annotator's records with the project's true ones by their XPaths alone, so it added, accepted,
a record covering the very text of one the page held proposed (a pair `labels check` calls duplicates), or of one
the project had rejected (a rejection overturned unseen, under another XPath), and both of two records of theirs
covering one text. Those are left out now, and said; the records the page lacks are taken as before.

A record of theirs the page holds only as a proposal (the same XPaths, or a proposal covering its text) was then
left out too, "A accepts them in the Records tab", while T on its row accepts that proposal as their record: take-all
now takes it as T does, the proposal accepted in the same one undo step as the records it adds, and says so. With
nothing to take, what it leaves out was hidden with its button, learnt only by pressing Ctrl+T: it is said still."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import history_steps
from tests.app.review_helpers import kinds, review_bea
from tests.app.window_helpers import said
from tests.app.wrapped_items_page import FOOTER, ITEM, WRAPPER, statuses, window_on_the_page

pytestmark = pytest.mark.app


@pytest.fixture
def window(qtbot, tmp_path: Path):
    """The page of five items (`wrapped_items_page`), bea's records every item at the `li` (item 5 at its wrapper
    too) and the footer."""
    with window_on_the_page(qtbot, tmp_path, [[ITEM.format(k)] for k in range(1, 6)]
                            + [[WRAPPER.format(5)], [FOOTER]]) as win:
        yield win


def test_take_all_leaves_out_what_the_page_covers_already_and_says_so(qtbot, window: MainWindow) -> None:
    review_bea(qtbot, window)
    spurious = sorted(tuple(r.xpaths) for r in window.review.records if r.kind == "spurious")
    assert spurious == sorted([(ITEM.format(3),), (ITEM.format(4),), (ITEM.format(5),), (WRAPPER.format(5),),
                               (FOOTER,)])  # items 1 and 2 match the project's wrappers: the same text
    left_out = "left out: 1 whose text the project's record 4 covers already, 1 repeated in their labels"
    accepting = "1 by accepting the project's proposed record 3"  # item 3: its text is the proposal's, as T takes it
    assert window.review_panel.take_all_words.text() == (
        f"3 of bea's records the project lacks on this page ({accepting}; {left_out})")
    assert window.review_panel.take_all.text() == "Take all 3"
    before = statuses(window)

    QTest.keySequence(window, "Ctrl+T")
    labels = window.project.labels("p")
    added = sorted(tuple(label.xpaths) for label in labels[len(before):])
    assert len(added) == 2 and (FOOTER,) in added  # and one record of item 5, not both
    assert {ITEM.format(5), WRAPPER.format(5)} & {added[0][0], added[1][0]}
    assert [label.status for label in labels] == ["accepted"] * 3 + ["rejected"] + ["accepted"] * 2
    assert said(window).startswith(f"page p: took all 3 of bea's records the project lacked, as one step, "
                                   f"{accepting}; {left_out.replace(':', '')}"), said(window)
    assert next(r.kind for r in window.review.records if r.xpaths == (ITEM.format(3),)) == "matched"  # decided

    QTest.keySequence(window, "Ctrl+Z")  # one step: the proposal proposed again, the records added gone
    assert statuses(window) == before


def test_take_all_accepts_a_record_the_page_holds_proposed_as_t_does(qtbot, window: MainWindow) -> None:
    """The same XPaths as a proposal of the page: take-all refused the whole step as if another window had made it,
    then left it out ("A accepts it"); T accepts the proposal as their record, and so does take-all now."""
    window.project.annotators.set_page("bea", "p", [[WRAPPER.format(3)], [FOOTER]])
    review_bea(qtbot, window)
    before = statuses(window)
    assert window.review_panel.take_all_words.text() == (
        "2 of bea's records the project lacks on this page (1 by accepting the project's proposed record 3)")
    QTest.keySequence(window, "Ctrl+T")
    assert statuses(window) == [*before[:2], ("accepted", [WRAPPER.format(3)]), *before[3:], ("accepted", [FOOTER])]
    assert said(window).startswith("page p: took all 2 of bea's records the project lacked, as one step, 1 by "
                                   "accepting the project's proposed record 3"), said(window)
    history = window.project.history("p")
    accept = next(change for change in history if change.action == "accept")
    assert accept.detail.get("adjudicated") == "bea"  # a decision with bea, as T's
    assert history_steps(history)[-1] == history[-2:]  # the accept and the add: one step of work
    assert "spurious" not in kinds(window)  # both decided

    QTest.keySequence(window, "Ctrl+Z")
    assert statuses(window) == before


def test_take_all_of_a_proposal_alone_says_it_is_accepted(qtbot, window: MainWindow) -> None:
    window.project.annotators.set_page("bea", "p", [[WRAPPER.format(1)], [WRAPPER.format(2)], [ITEM.format(3)]])
    review_bea(qtbot, window)
    panel = window.review_panel
    assert panel.take_all_words.text() == (
        "bea's record the project lacks on this page (by accepting the project's proposed record 3)")
    assert panel.take_all.text() == "Take it"
    QTest.keySequence(window, "Ctrl+T")
    assert window.project.labels("p")[2].status == "accepted"
    assert said(window).startswith("page p: took bea's only record the project lacked, by accepting the project's "
                                   "proposed record 3"), said(window)


def test_with_nothing_to_take_what_take_all_leaves_out_is_said_still(qtbot, window: MainWindow) -> None:
    """Its note went with its button: a reviewer learnt of the records it leaves out only by pressing Ctrl+T."""
    window.project.annotators.set_page("bea", "p", [[WRAPPER.format(1)], [WRAPPER.format(2)], [ITEM.format(4)],
                                                    [FOOTER]])
    review_bea(qtbot, window)
    panel = window.review_panel
    assert panel.take_all.isVisible() and panel.take_all_words.text() == (
        "bea's record the project lacks on this page (left out: 1 whose text the project's record 4 covers already)")
    panel.records.setCurrentRow(next(i for i, r in enumerate(window.review.records) if r.xpaths == (FOOTER,)))
    QTest.keySequence(window, "O")  # the footer: the project's version kept

    assert not panel.take_all.isVisible()  # nothing to take
    assert panel.take_all_words.isVisible()
    assert panel.take_all_words.text() == (
        "nothing to take: 2 records of bea's left out (1 kept (O), 1 whose text the project's record 4 covers "
        "already)")
    QTest.keySequence(window, "Ctrl+Z")
    assert panel.take_all.isVisible() and panel.take_all_words.text().startswith("bea's record the project lacks")
