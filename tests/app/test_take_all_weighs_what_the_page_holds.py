"""Review's take-all (Ctrl+T) against what the page holds, as Propose weighs its proposals (`weigh_proposals`):
take-all compared the annotator's records with the project's true ones by their XPaths alone, so it added, accepted,
a record covering the very text of one the page held proposed (a pair `labels check` calls duplicates), or of one
the project had rejected (a rejection overturned unseen, under another XPath), and both of two records of theirs
covering one text. Those are left out now, and said; the records the page lacks are taken as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import Provenance
from tests.app.review_helpers import review_bea
from tests.app.window_helpers import imported_project, open_window, said

pytestmark = pytest.mark.app

# Five items whose texts sit in one wrapper each, and a footer apart.
ITEMS = "".join(f"<li><div><b>Item {k}</b> <i>{k}.50</i></div></li>" for k in range(1, 6))
PAGE = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>t</title></head><body><ul>{ITEMS}</ul>"
        "<p><span>Contact</span></p></body></html>")
ITEM = "/body[1]/ul[1]/li[{}]"
WRAPPER = ITEM + "/div[1]"
FOOTER = "/body[1]/p[1]/span[1]"
MDR = Provenance.extractor("mdr", "0.3", "html")


@pytest.fixture
def window(qtbot, tmp_path: Path):
    """Page p: items 1 and 2 labelled at their wrappers (accepted), item 3's wrapper proposed, item 4's rejected;
    bea labelled every item at the `li` (item 5 at its wrapper too) and the footer."""
    folder = imported_project(tmp_path, {"html/p.html": PAGE,
                                         "gt/p.json": f'[["{WRAPPER.format(1)}"], ["{WRAPPER.format(2)}"]]'})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    project = win.project
    project.add_records("p", [[WRAPPER.format(3)], [WRAPPER.format(4)]], MDR)
    project.reject(project.labels("p")[3].id, win.person)
    project.annotators.set_page("bea", "p", [[ITEM.format(k)] for k in range(1, 6)]
                                + [[WRAPPER.format(5)], [FOOTER]])
    win.reload_labels()
    yield win
    win.close()


def test_take_all_leaves_out_what_the_page_covers_already_and_says_so(qtbot, window: MainWindow) -> None:
    review_bea(qtbot, window)
    spurious = sorted(tuple(r.xpaths) for r in window.review.records if r.kind == "spurious")
    assert spurious == sorted([(ITEM.format(3),), (ITEM.format(4),), (ITEM.format(5),), (WRAPPER.format(5),),
                               (FOOTER,)])  # items 1 and 2 match the project's wrappers: the same text
    left_out = ("left out: 2 whose text the project's records 3, 4 cover already, 1 repeated in their labels")
    assert window.review_panel.take_all_words.text() == (
        f"2 of bea's records the project lacks on this page ({left_out})")
    before = {label.id for label in window.project.labels("p")}

    QTest.keySequence(window, "Ctrl+T")
    labels = window.project.labels("p")
    added = sorted(tuple(label.xpaths) for label in labels if label.id not in before)
    assert len(added) == 2 and (FOOTER,) in added  # and one record of item 5, not both
    assert {ITEM.format(5), WRAPPER.format(5)} & {added[0][0], added[1][0]}
    assert [label.status for label in labels][:4] == ["accepted", "accepted", "proposed", "rejected"]
    assert said(window).startswith(f"page p: took all 2 of bea's records the project lacked, as one step; "
                                   f"{left_out.replace(':', '')}")


def test_take_all_leaves_out_a_record_the_page_holds_proposed(qtbot, window: MainWindow) -> None:
    """The same XPaths as a proposal of the page: take-all refused the whole step as if another window had made it."""
    window.project.annotators.set_page("bea", "p", [[WRAPPER.format(3)], [FOOTER]])
    review_bea(qtbot, window)
    count = len(window.project.labels("p"))
    QTest.keySequence(window, "Ctrl+T")
    labels = window.project.labels("p")
    assert len(labels) == count + 1 and list(labels[-1].xpaths) == [FOOTER]
    assert said(window).startswith("page p: took bea's only record the project lacked; left out 1 proposed in the "
                                   "project already (A accepts it in the Records tab)"), said(window)
