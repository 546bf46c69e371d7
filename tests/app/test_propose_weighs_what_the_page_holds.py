"""Propose against what the page holds already, and Shift+G on a list of rejected records: a verifier's findings.

- A page held 8 accepted records at `li/div/div/div`; P proposed 8 more one level up (`ul/li[k]`) covering exactly
  their texts, and accepting one made `labels check` report a pair of records that cover the same text.
- A page held undecided proposals of the shipped model; after Learn, P said "done: nothing new on page 16" while
  most of those proposals were ones the learnt model no longer makes.
- With every record of a list rejected, Shift+G on one said the list held no other record.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core import extract
from recordlens.core.extract.base import Extraction
from recordlens.core.store import Provenance
from tests.app.window_helpers import imported_project, key, said

pytestmark = pytest.mark.app

# Two lists: the first's items wrap their texts three levels deep, the second's hold them directly; a footer apart.
ITEMS = "".join(f"<li><div><div><div><b>Item {k}</b> <i>{k}.50</i></div></div></div></li>" for k in range(1, 9))
OTHERS = "".join(f"<li><b>Other {k}</b> <i>{k}.99</i></li>" for k in range(1, 4))
PAGE = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>t</title></head><body><ul>{ITEMS}</ul>"
        f"<ol>{OTHERS}</ol><p><span>Contact</span> <span>Terms</span></p></body></html>")
DEEP = "/body[1]/ul[1]/li[{}]/div[1]/div[1]/div[1]"
ITEM = "/body[1]/ul[1]/li[{}]"
OTHER = "/body[1]/ol[1]/li[{}]"
SPAN = "/body[1]/p[1]/span[{}]"
SHIPPED = Provenance.extractor("selector", "1.0 model shipped")


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Page p, its 8 deep records accepted (imported with their labels)."""
    labels = "[" + ", ".join(f'["{DEEP.format(k)}"]' for k in range(1, 9)) + "]"
    return imported_project(tmp_path, {"html/p.html": PAGE, "gt/p.json": labels})


def proposing(name: str, records: list[list[str]], method: str | None = None) -> str:
    """An extractor registered as `name` that proposes `records` on any page, as `method` (another model of that
    extractor: a learnt selector's proposals are the selector's) or as itself."""
    class Fixed:
        version = "1"

        def extract(self, page):
            return Extraction([list(r) for r in records], method or name, self.version, {}, 0)

    Fixed.name = name
    extract.register(name, lambda **_: Fixed(), "fixed records, for a test")
    return name


def propose_with(qtbot, window, method: str) -> str:
    assert window.propose([window.page_name], method=method) is not None
    qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
    return said(window)


def statuses(window) -> dict[tuple[str, ...], str]:
    return {label.xpaths: label.status for label in window.project.labels(window.page_name)}


def test_propose_leaves_out_the_records_whose_text_the_pages_records_cover_and_says_so(qtbot, window) -> None:
    method = proposing("one-level-up-test", [[ITEM.format(k)] for k in range(1, 9)]
                       + [[OTHER.format(k)] for k in range(1, 4)])
    assert propose_with(qtbot, window, method) == (
        "done: 3 records proposed on page p; 8 left out: the page's records cover their texts already")
    assert [label.xpaths for label in window.project.labels("p", ["proposed"])] == [
        (OTHER.format(k),) for k in range(1, 4)]
    # Again: the second list is on the page now, and a rejected record covers its text as well as an accepted one
    first = window.project.labels("p")[0]
    window.project.reject(first.id, window.person)
    window.reload_labels([])
    assert propose_with(qtbot, window, method) == (
        "done: nothing new on page p; 8 left out: the page's records cover their texts already (1 by rejected "
        "records)")
    assert len(window.project.labels("p")) == 11


def test_propose_says_the_earlier_proposals_the_model_no_longer_makes_and_selects_them_for_r(qtbot, window) -> None:
    earlier = [[OTHER.format(k)] for k in range(1, 4)] + [[SPAN.format(1)], [SPAN.format(2)]]
    window.project.add_records("p", earlier, SHIPPED)
    window.reload_labels([])
    action = window.actions_by_name["select_not_made"]
    action.trigger()  # before any Propose of the page: nothing to select, and said why
    assert said(window) == ("page p has not been proposed for in this window: P proposes, and says which earlier "
                            "proposals the model no longer makes")
    assert action.text().replace("&", "").startswith("Select earlier proposals the model no longer makes")

    learnt = proposing("learnt-model-test", [[OTHER.format(1)], [OTHER.format(2)]], method="selector")
    assert propose_with(qtbot, window, learnt) == (
        "done: nothing new on page p; 3 earlier proposals the model no longer makes are still undecided: Propose → "
        "Select earlier proposals the model no longer makes, then R rejects them")
    # Machine output not yet decided: kept, undecided
    assert [statuses(window)[tuple(r)] for r in earlier] == ["proposed"] * 5

    action.trigger()
    not_made = [label.id for label in window.labels if label.xpaths in {(OTHER.format(3),), (SPAN.format(1),),
                                                                        (SPAN.format(2),)}]
    assert window.record_panel.selected_ids() == not_made
    assert said(window) == ("3 earlier proposals the model no longer makes selected: R rejects them all, Esc clears "
                            "the selection")
    key(window, "R")
    assert [statuses(window)[tuple(r)] for r in earlier] == ["proposed"] * 2 + ["rejected"] * 3
    assert {status for xpaths, status in statuses(window).items() if xpaths[0].startswith("/body[1]/ul[1]")} == {
        "accepted"}  # exactly those: the accepted records are as they were
    window.undo_group.undo()  # one step brings them back, undecided
    assert [statuses(window)[tuple(r)] for r in earlier] == ["proposed"] * 5
    # Rejected, they are no longer undecided: the action says so, rather than select decided records
    window.select_records([])
    window.undo_group.redo()
    action.trigger()
    assert said(window) == "no earlier proposal that the last Propose of page p did not make is still undecided"


def test_a_propose_that_adds_records_says_the_earlier_ones_it_no_longer_makes_too(qtbot, window) -> None:
    window.project.add_records("p", [[SPAN.format(1)]], SHIPPED)
    window.reload_labels([])
    learnt = proposing("learnt-model-adds-test", [[OTHER.format(k)] for k in range(1, 4)], method="selector")
    assert propose_with(qtbot, window, learnt) == (
        "done: 3 records proposed on page p; 1 earlier proposal the model no longer makes is still undecided: "
        "Propose → Select earlier proposals the model no longer makes, then R rejects them")


def test_shift_g_on_a_rejected_record_selects_its_rejected_list_and_elsewhere_says_the_rejected_ones(qtbot,
                                                                                                      window) -> None:
    for label in window.labels:
        window.project.reject(label.id, window.person)
    window.reload_labels([window.labels[4].id])
    ids = [label.id for label in window.labels]
    key(window, "Shift+G")
    # Pointing at a rejection, the list as rejected: A takes it back whole
    assert window.record_panel.selected_ids() == ids
    assert said(window).startswith("8 records of record 5's list selected: A or R judges them all")
    key(window, "A")
    assert set(statuses(window).values()) == {"accepted"}
    window.undo_group.undo()
    assert set(statuses(window).values()) == {"rejected"}
    # A record not rejected among rejected ones: they stay out (A there overturns no rejection), and it is said
    window.project.accept(ids[0], window.person)
    window.reload_labels([ids[0]])
    key(window, "Shift+G")
    assert window.record_panel.selected_ids() == [ids[0]]
    assert said(window) == ("record 1's list holds no other record that is not rejected: its 7 other records are "
                            "rejected (records 2, 3, 4, 5, 6, ...); Shift+G on a rejected one selects them all")
