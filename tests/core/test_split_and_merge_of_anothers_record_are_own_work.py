"""A person's split or merge of another person's record makes records of their own work (new ids that keep the
source record's origin): their labels hold them, and no note takes them for an unnoted adjudication take."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.store.agreement import own_labels
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Project, Provenance, init_project

ALICE, BOB = Provenance.person("alice"), Provenance.person("bob")
PAGE = "<html><body>" + "".join(f"<div><p>item {k}</p><span>detail {k}</span></div>" for k in range(1, 6)) + \
    "</body></html>"


def cell(k: int, tag: str) -> str:
    return f"/body[1]/div[{k}]/{tag}[1]"


def _project(tmp_path: Path) -> Project:
    (tmp_path / "pages" / "html").mkdir(parents=True)
    (tmp_path / "pages" / "html" / "1.html").write_text(PAGE, encoding="utf-8")
    project = init_project(tmp_path / "p")
    import_paths(project, [tmp_path / "pages"])
    return project


def test_a_persons_split_of_anothers_record_gives_them_its_pieces(tmp_path: Path) -> None:
    project = _project(tmp_path)
    project.add_record("1", [cell(1, "p"), cell(1, "span"), cell(2, "p"), cell(2, "span")], BOB)  # two in one
    project.split(project.labels("1")[0].id, [[cell(1, "p"), cell(1, "span")], [cell(2, "p"), cell(2, "span")]],
                  ALICE)
    project.add_record("1", [cell(3, "p"), cell(3, "span")], ALICE)
    project.set_status("1", "labelled", ALICE)
    own = own_labels(project, "1", "alice")
    assert own is not None
    assert own.records == tuple(tuple(record) for record in project.true_records("1"))
    assert own.unsure == ""


def test_a_persons_merge_of_anothers_records_gives_them_the_merged_record(tmp_path: Path) -> None:
    project = _project(tmp_path)
    project.add_records("1", [[cell(1, "p")], [cell(1, "span")]], BOB)
    project.merge([label.id for label in project.labels("1")], ALICE)
    project.set_status("1", "labelled", ALICE)
    own = own_labels(project, "1", "alice")
    assert own is not None
    assert own.records == ((cell(1, "p"), cell(1, "span")),)
    assert own.unsure == ""
