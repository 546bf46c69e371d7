"""`agent tasks report --candidates`: a task id is a site's own (site A's t1 and site B's t1 are two tasks). Its
unchecked candidates were keyed by id alone: with --site, each of two sites' t1 took the evidence of the last one
checked; without, the note on stderr named bare ids, which over several sites leaves the reader to guess which."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import Candidate
from recordlens.core.cli import task_pipeline
from recordlens.core.cli.command import main
from tests.demo_agent import RULES, SITE_DIR

FOUND = replace(RULES, id="t1", site="demo-site")  # its answer is on the demo site
NOT_FOUND = replace(RULES, id="t1", site="other-site", answer="no such answer anywhere")


@pytest.fixture
def two_sites_t1(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A candidates file of two sites' t1, neither checked (read as given: the file's reader keeps one id once)."""
    candidates = [Candidate(task=NOT_FOUND, model="m", status="accepted", original={"answer": "x"}),
                  Candidate(task=FOUND, model="m", status="accepted")]
    monkeypatch.setattr(task_pipeline, "load_candidates", lambda path: list(candidates))
    path = tmp_path / "candidates.jsonl"
    path.write_text("", encoding="utf-8")
    return path


def test_each_sites_task_of_one_id_keeps_its_own_answers_evidence(
        two_sites_t1: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agent", "tasks", "report", "--candidates", str(two_sites_t1), "--site", str(SITE_DIR), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert (table["answer_not_found_ids"], table["answer_not_found_sites"]) == (["t1"], ["other-site"])
    assert table["total"]["answer_not_found"] == 1


def test_the_unchecked_note_names_each_tasks_site_over_several_sites(
        two_sites_t1: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agent", "tasks", "report", "--candidates", str(two_sites_t1)]) == 0
    assert "(edited at review: t1 (site other-site); never checked: t1 (site demo-site))" in capsys.readouterr().err
