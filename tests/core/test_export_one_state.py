"""An export reads the project as one state, that of its start (`Project.reading`): a page that the app marks
back in progress and reworks while the export runs is exported as it was (labelled, with its records of then),
never as a page "labelled" with its unfinished records, a state the project never held (a verifier's finding:
`exp/gt/104.json` held the 74 records of a page being reworked, written as ground truth). The change made meanwhile
is stored all the same: the export's reading holds up no writer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.store import exporter
from recordlens.core.store.exporter import export_file, export_project
from recordlens.core.store.project import Project, Provenance, open_project
from tests.core.cli_runs import demo_project

ANA = Provenance.person("ana")
REWORKED = "3"  # not the first page exported: its records are read after the rework


def rework(project: Project, page: str) -> None:
    """What an annotator does in the app: marks the page back in progress, then deletes its records but one to
    redo them."""
    project.set_status(page, "proposed", ANA)
    for label in project.labels(page)[1:]:
        project.delete(label.id, ANA)


def reworked_during_the_export(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Page REWORKED reworked by another connection (the app's) when the export first checks a page's bytes: the
    page list is read by then, and the first page's files or records."""
    real, done = exporter._as_stored, []

    def reworking(data: bytes, digest: str) -> bool:
        if not done:
            done.append(True)
            with open_project(folder) as app:
                rework(app, REWORKED)
        return real(data, digest)

    monkeypatch.setattr(exporter, "_as_stored", reworking)


@pytest.fixture
def folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    folder = demo_project(capsys, tmp_path / "P")
    with open_project(folder) as project:
        assert project.page(REWORKED).finished and len(project.labels(REWORKED)) > 2
    return folder


def test_a_page_reworked_during_a_nexteval_export_is_exported_as_it_was(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_project(folder) as project:
        truth = project.true_records(REWORKED)
        reworked_during_the_export(monkeypatch, folder)
        summary = export_project(project, "nexteval", tmp_path / "exp")
    written = json.loads((tmp_path / "exp" / "gt" / f"{REWORKED}.json").read_text(encoding="utf-8"))
    assert written == truth
    assert summary.pages == 4 and summary.unlabelled == ()
    with open_project(folder) as project:  # the rework is stored: the next export leaves the page out
        assert project.page(REWORKED).status == "proposed" and len(project.labels(REWORKED)) == 1
        assert export_project(project, "nexteval", tmp_path / "next").unlabelled == (REWORKED,)


def test_a_page_reworked_during_a_jsonl_export_keeps_its_status_with_its_records(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_project(folder) as project:
        records = len(project.labels(REWORKED))
        reworked_during_the_export(monkeypatch, folder)
        export_project(project, "jsonl", tmp_path / "exp")
    lines = [json.loads(line) for line in export_file(tmp_path / "exp", "jsonl").read_text(encoding="utf-8")
             .splitlines()]
    page = [line for line in lines if line["page"] == REWORKED]
    assert {line["page_status"] for line in page} == {"labelled"}
    assert len(page) == records
