"""The JSONL and CSV exports keep the adjudication trace: each record says the decisions in force on it (taken,
merged, kept: with whom, when, by whom), the page's first line those that concern no record exported (a keep where
the project has none, a record deleted on their word); a decision undone is not written, and a project with no
other annotator exports empty fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store import Provenance, init_project, open_project
from recordlens.core.store.exporter import CSV_COLUMNS, export_project
from recordlens.core.store.importer import import_paths
from tests.core.export_files import csv_rows, jsonl_lines
from tests.core.two_annotators import dataset, project_of_ana_and_bea

ANN = Provenance.person("ann")
MERGE_EXTRA = "/body[1]/p[99]"    # what bea's version of the project's record 2 adds (merged with Shift+T)
KEEP_EXTRA = "/body[1]/p[98]"     # what bea's version of record 3 adds (the project's kept with O)
TAKE = ["/body[1]/p[97]"]         # a record only bea made, taken with T
NOT_TAKEN = ["/body[1]/p[96]"]    # a record only bea made, not taken (O: the project keeps none there)


def bea(name: str, records: list) -> list:
    """bea leaves out page 1's first record, labels its second and third with an element more, and makes two
    records the project lacks; their other pages are the project's."""
    if name != "1":
        return records
    return [[*records[1], MERGE_EXTRA], [*records[2], KEEP_EXTRA], *records[3:], TAKE, NOT_TAKEN]


@pytest.fixture
def project_and_bea(dev_dir: Path, tmp_path: Path) -> Path:
    return project_of_ana_and_bea(dev_dir, tmp_path, bea)


def export(folder: Path, fmt: str, out: Path) -> None:
    with open_project(folder) as project:
        export_project(project, fmt, out)


def page_lines(out: Path, page: str = "1") -> list[dict]:
    return [line for line in jsonl_lines(out) if line["page"] == page]


def test_each_kind_of_decision_is_written_with_its_record_or_its_page(project_and_bea: Path, tmp_path: Path) -> None:
    with open_project(project_and_bea) as project:
        r0, r1, r2, _, r4 = project.labels("1")[:5]
        project.reject(r4.id, ANN)  # the project's own rejection, before the review
        # What the Review does: T on a record bea lacks, Shift+T, O, T on a record rejected, T, O on one of theirs
        project.delete(r0.id, ANN, adjudicated="bea")
        project.adjudication.merge("1", r1, "bea", [*r1.xpaths, MERGE_EXTRA], ANN)
        project.adjudication.keep("1", "bea", [*r2.xpaths, KEEP_EXTRA], r2.xpaths, ANN)
        project.accept(r4.id, ANN, adjudicated="bea")
        project.add_record("1", TAKE, Provenance.person("bea"), status="accepted", by=ANN, adjudicated="bea")
        project.adjudication.keep("1", "bea", NOT_TAKEN, None, ANN)
    export(project_and_bea, "jsonl", tmp_path / "jsonl")
    export(project_and_bea, "csv", tmp_path / "csv")

    lines = page_lines(tmp_path / "jsonl")
    assert [line["xpaths"] for line in lines[:2]] == [[*r1.xpaths, MERGE_EXTRA], list(r2.xpaths)]
    decided = {tuple(line["xpaths"]): line["adjudication"] for line in lines if line["adjudication"]}
    assert {xpaths: [(d["annotator"], d["decision"]) for d in ds] for xpaths, ds in decided.items()} == {
        (*r1.xpaths, MERGE_EXTRA): [("bea", "merged")], r2.xpaths: [("bea", "kept")],
        r4.xpaths: [("bea", "taken")], tuple(TAKE): [("bea", "taken")]}
    kept = decided[r2.xpaths][0]
    assert kept["theirs"] == [*r2.xpaths, KEEP_EXTRA] and kept["by"] == {"kind": "person", "name": "ann"}
    assert kept["at"] and decided[tuple(TAKE)][0]["theirs"] is None
    page = lines[0]["page_adjudication"]
    assert [(d["decision"], d["theirs"], d["ours"]) for d in page] == [
        ("deleted", None, list(r0.xpaths)), ("kept", NOT_TAKEN, None)]
    assert all(line["page_adjudication"] == [] for line in lines[1:])
    assert all(line["adjudication"] == line["page_adjudication"] == [] for line in jsonl_lines(tmp_path / "jsonl")
               if line["page"] != "1")

    rows = [row for row in csv_rows(tmp_path / "csv") if row["page"] == "1"]
    assert [row["adjudication"] for row in rows[:3]] == ["merged with bea", "", "kept over bea"]  # 2 XPaths
    assert rows[0]["page_adjudication"] == "deleted (bea made none); not taken from bea"
    assert {row["adjudication"] for row in rows if row["xpath"] in (r4.xpaths[0], TAKE[0])} == {"taken from bea"}
    assert all(row["page_adjudication"] == "" for row in rows[1:])


def test_decisions_by_two_annotators_on_one_record_are_both_said(project_and_bea: Path, dev_dir: Path,
                                                                tmp_path: Path) -> None:
    with open_project(project_and_bea) as project:
        import_paths(project, [dataset(dev_dir, tmp_path / "ben", lambda name, records: (
            [*records, [*TAKE, MERGE_EXTRA]] if name == "1" else records))], annotator="ben")
        taken = project.add_record("1", TAKE, Provenance.person("bea"), status="accepted", by=ANN,
                                   adjudicated="bea").record
        assert taken is not None
        project.adjudication.merge("1", taken, "ben", [*TAKE, MERGE_EXTRA], ANN)
    export(project_and_bea, "csv", tmp_path / "csv")
    rows = [row for row in csv_rows(tmp_path / "csv") if row["xpath"] == TAKE[0]]
    assert [row["adjudication"] for row in rows] == ["taken from bea; merged with ben"]


def test_a_decision_undone_or_overtaken_is_not_written(project_and_bea: Path, tmp_path: Path) -> None:
    with open_project(project_and_bea) as project:
        before = project.last_change_id("1")
        project.add_record("1", TAKE, Provenance.person("bea"), status="accepted", by=ANN, adjudicated="bea")
        done = project.adjudication.keep("1", "bea", NOT_TAKEN, None, ANN).id
        project.restore("1", before, ANN, why="undo")
    export(project_and_bea, "jsonl", tmp_path / "undone")
    lines = page_lines(tmp_path / "undone")
    assert all(line["adjudication"] == line["page_adjudication"] == [] for line in lines)
    assert TAKE not in [line["xpaths"] for line in lines]

    with open_project(project_and_bea) as project:
        project.restore("1", done, ANN, why="redo")
    export(project_and_bea, "jsonl", tmp_path / "redone")
    lines = page_lines(tmp_path / "redone")
    assert [d["decision"] for d in lines[0]["page_adjudication"]] == ["kept"]
    assert [line["adjudication"][0]["decision"] for line in lines if line["xpaths"] == TAKE] == ["taken"]

    with open_project(project_and_bea) as project:  # ann's own edit of the record taken: it is hers now
        taken = next(label for label in project.labels("1") if list(label.xpaths) == TAKE)
        project.edit(taken.id, ["/body[1]/p[95]"], ANN)
    export(project_and_bea, "jsonl", tmp_path / "edited")
    assert all(line["adjudication"] == [] for line in page_lines(tmp_path / "edited"))


def test_a_project_without_other_annotators_exports_empty_fields(dev_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "p"
    with init_project(folder) as project:
        import_paths(project, [dataset(dev_dir, tmp_path / "ana")])
    export(folder, "jsonl", tmp_path / "jsonl")
    export(folder, "csv", tmp_path / "csv")
    lines = jsonl_lines(tmp_path / "jsonl")
    assert lines and all(line["adjudication"] == line["page_adjudication"] == [] for line in lines)
    assert list(lines[0])[-3:] == ["texts", "adjudication", "page_adjudication"]  # added after the fields there were
    rows = csv_rows(tmp_path / "csv")
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert all(row["adjudication"] == row["page_adjudication"] == "" for row in rows)
