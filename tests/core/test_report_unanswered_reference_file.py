"""`agent tasks report` says a --references file that ends without an answer as what it is, a file of the folder
given, in the words `agent eval` uses (`references.unanswered_said`): it called it "kept, not used", as if the
project kept it, and when the project held an earlier reference that ends with an answer, "record them again"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from tests.core.test_reference_that_counts import project_with
from tests.demo_agent import RULES, demo_reference, stopped_reference


def report(folder: Path, references: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, dict]:
    capsys.readouterr()
    assert main(["agent", "tasks", "report", "--project", str(folder), "--references", str(references)]) == 0
    notes = capsys.readouterr().out
    assert main(["agent", "tasks", "report", "--project", str(folder), "--references", str(references), "--json"]) == 0
    return notes, json.loads(capsys.readouterr().out)


def stopped_file(tmp_path: Path) -> Path:
    folder = tmp_path / "refs"
    folder.mkdir()
    (folder / f"{RULES.id}.json").write_text(stopped_reference(RULES.id).to_json(), encoding="utf-8")
    return folder


def test_a_references_file_without_an_answer_is_said_as_the_folders(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project_with(tmp_path / "p", runs=False)  # the project holds rules-1 and no reference of it
    notes, table = report(tmp_path / "p", stopped_file(tmp_path), capsys)
    assert (f"note: the --references file of {RULES.id} ends without an answer (stopped before ANSWER): not used "
            "(not in the GT steps); no other reference of the task ends with one: record it again to the answer"
            ) in notes
    assert "kept" not in notes
    assert table["unanswered_ids"] == [RULES.id] and table["unanswered_files_ids"] == [RULES.id]


def test_a_references_file_without_an_answer_beside_the_projects_answered_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project_with(tmp_path / "p", demo_reference(RULES.id), runs=False)
    notes, table = report(tmp_path / "p", stopped_file(tmp_path), capsys)
    assert (f"note: the --references file of {RULES.id} ends without an answer (stopped before ANSWER): not used "
            "(not in the GT steps); the project's earlier reference of the task that ends with an answer counts "
            "instead") in notes
    assert "kept" not in notes and "record" not in notes
    assert table["total"]["with_reference"] == 1 and table["unanswered_files_ids"] == [RULES.id]


def test_the_projects_own_reference_without_an_answer_is_said_as_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project_with(tmp_path / "p", demo_reference(RULES.id), stopped_reference(RULES.id), runs=False)
    capsys.readouterr()
    assert main(["agent", "tasks", "report", "--project", str(tmp_path / "p"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unanswered_files_ids"] == []
