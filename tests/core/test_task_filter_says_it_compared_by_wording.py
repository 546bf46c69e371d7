"""`agent tasks filter` on Arabic candidates said nothing of the shipped embedder reading the Latin script only; it
now says, once, that such tasks were compared by their wording and that --embedder with a multilingual model is the
way to compare their meaning. On English tasks it says nothing new."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.agent.candidates import Candidate, save_candidates
from recordlens.core.agent.model import Task
from recordlens.core.cli.command import main


def task(ident: str, instruction: str, answer: str) -> Task:
    return Task(id=ident, instruction=instruction, answer=answer, category="lookup", answer_kind="text")


def filtered(tmp_path: Path, capsys: pytest.CaptureFixture[str], tasks: list[Task]) -> str:
    candidates = tmp_path / "candidates.jsonl"
    save_candidates(candidates, [Candidate(task=t, model="m") for t in tasks])
    assert main(["agent", "tasks", "filter", "--candidates", str(candidates)]) == 0
    return capsys.readouterr().out


def test_arabic_tasks_are_said_to_be_compared_by_their_wording(tmp_path: Path, capsys) -> None:
    out = filtered(tmp_path, capsys, [task("a1", "ما سعر الهاتف الذكي؟", "١٢٠٠ ر.س"),
                                      task("a2", "من هو مؤلف هذا الكتاب؟", "نجيب محفوظ")])
    assert "0 near-duplicate(s) marked similar" in out
    note = next(line for line in out.splitlines() if line.startswith("note: "))
    assert note.startswith("note: 2 tasks written mostly outside the Latin script wordllama")
    assert "give --embedder a multilingual sentence-transformers model folder" in note


def test_english_tasks_get_no_note(tmp_path: Path, capsys) -> None:
    out = filtered(tmp_path, capsys, [task("e1", "Who founded Alder?", "Ada"),
                                      task("e2", "What does the Alder Kettle cost?", "$24.50")])
    assert "note:" not in out
