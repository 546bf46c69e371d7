"""`agreement` knows a record by the elements its XPaths name, never by its text: two rows that read alike (two
"Add to cart" rows of the same lamp) are two records, each matched to the other side's record of the same row,
as NEXT-EVAL's score matches (text keys are XPaths: NEXT-EVAL-NOTES §4.1-4.3). The page is made for the test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.store.agreement import project_agreement
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project

ROWS = ("<html><body><table>" + "<tr><td>Lamp</td><td><button>Add to cart</button></td></tr>" * 2
        + "<tr><td>Chair</td><td><button>Add to cart</button></td></tr></table></body></html>")
ROW = "/body[1]/table[1]/tbody[1]/tr[{}]"


def folder(root: Path, records: list[list[str]], page: bool) -> Path:
    (root / "gt").mkdir(parents=True)
    (root / "gt" / "1.json").write_text(json.dumps(records), encoding="utf-8")
    if page:
        (root / "html").mkdir()
        (root / "html" / "1.html").write_text(ROWS, encoding="utf-8")
    return root


def compared(tmp_path: Path, ours: list[list[str]], theirs: list[list[str]]):  # noqa: ANN201 - a PageAgreement
    with init_project(tmp_path / "p") as project:
        import_paths(project, [folder(tmp_path / "ana", ours, page=True)])
        import_paths(project, [folder(tmp_path / "bea", theirs, page=False)], annotator="bea")
        return project_agreement(project, "project", "bea").pages[0]


ALL_ROWS = [[ROW.format(i)] for i in (1, 2, 3)]


def test_rows_that_read_alike_are_each_matched_to_their_own_row(tmp_path: Path) -> None:
    page = compared(tmp_path, ALL_ROWS, ALL_ROWS)
    assert (page.precision, page.recall, page.f1) == (1.0, 1.0, 1.0)
    assert page.review.score.predicted_records == page.review.score.true_records == 3
    assert page.disagreements == [] and page.other_xpaths == []


def test_a_row_left_out_is_missing_though_its_twin_was_labelled(tmp_path: Path) -> None:
    page = compared(tmp_path, ALL_ROWS, [ALL_ROWS[0], ALL_ROWS[2]])  # bea left out the second lamp
    assert (page.precision, page.recall) == (pytest.approx(2 / 3), 1.0)
    assert [(d.kind, d.a_number, d.b_number) for d in page.disagreements] == [("only A", 2, None)]


def test_the_cells_of_rows_alike_are_paired_row_by_row(tmp_path: Path) -> None:
    """bea labelled the rows' buttons: each pairs with its own row (overlap 1/2), never with the twin's."""
    buttons = [[ROW.format(i) + "/td[2]/button[1]"] for i in (1, 2, 3)]
    page = compared(tmp_path, ALL_ROWS, buttons)
    assert page.f1 == pytest.approx(0.5)
    pairs = [(d.a_number, d.b_number, d.overlap) for d in page.other_xpaths]
    assert pairs == [(1, 1, 0.5), (2, 2, 0.5), (3, 3, 0.5)]
