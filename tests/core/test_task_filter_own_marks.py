"""`agent tasks filter` writes in place by default, and used to keep its own earlier `similar` marks as if a reviewer
had given them: a second run at another --threshold changed nothing (said "0 marked" and kept the 3 marked at
0.5), and `agent tasks report` counted them without the threshold that made them. A mark now records that it is
the filter's and at which threshold; the filter makes its marks again on each run, a reviewer's verdict stays as
given, and the report says the threshold. A mark of a file written before (no `filter` key) is told by the
filter's own reason wording."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import Candidate, FilterMark, load_candidates, save_candidates
from recordlens.core.agent.model import Task
from recordlens.core.agent.tasks import save_tasks
from recordlens.core.cli import task_pipeline
from recordlens.core.cli.command import main

VECTORS = {  # instruction -> embedding: cosines with the seed 0.9 (c1), 0.6 (c2), 0 (c3, c5); c5 to c3 0.6
    "seed question": (1.0, 0.0, 0.0),
    "c1 question": (0.9, 0.43589, 0.0),
    "c2 question": (0.6, 0.0, 0.8),
    "c3 question": (0.0, 1.0, 0.0),
    "c4 question": (0.9, 0.43589, 0.0),
    "c5 question": (0.0, 0.6, -0.8),
}


class FakeEmbedder:
    name = "fake embedder"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [list(VECTORS[t]) for t in texts]


def task(ident: str) -> Task:
    return Task(id=ident, instruction=f"{ident} question", answer="x", category="lookup", answer_kind="text")


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setattr(task_pipeline, "make_embedder", lambda spec=None: FakeEmbedder())
    seeds = tmp_path / "seeds.jsonl"
    save_tasks(seeds, [task("seed")])
    candidates = tmp_path / "candidates.jsonl"
    reviewer = Candidate(task=task("c4"), model="m").reviewed("similar", "asks what seed asks")
    old_mark = Candidate(task=task("c5"), model="m", status="similar", similar_to="seed", similarity=0.95,
                         reason="similarity 0.950 to seed (threshold 0.5)")
    save_candidates(candidates, [Candidate(task=task(i), model="m") for i in ("c1", "c2", "c3")] + [reviewer, old_mark])
    lines = candidates.read_text(encoding="utf-8").splitlines()
    written_before = json.loads(lines[-1])
    del written_before["filter"]  # a line of a file written before marks recorded who made them
    candidates.write_text("\n".join([*lines[:-1], json.dumps(written_before)]) + "\n", encoding="utf-8")
    return candidates, seeds


def statuses(path: Path) -> dict[str, tuple[str, float | None]]:
    return {c.id: (c.status, c.filter.threshold if c.filter else None) for c in load_candidates(path)}


def test_another_threshold_makes_the_filters_marks_again_and_leaves_a_reviewers_verdict(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    candidates, seeds = files
    assert load_candidates(candidates)[-1].filter == FilterMark(0.5)  # told by the filter's own reason
    assert load_candidates(candidates)[3].filter is None  # a reviewer's similar
    filter_at = ["agent", "tasks", "filter", "--candidates", str(candidates), "--seeds", str(seeds)]
    assert main([*filter_at, "--threshold", "0.5"]) == 0
    out = capsys.readouterr().out
    assert ("3 near-duplicate(s) marked similar at threshold 0.5 with fake embedder (the 1 mark(s) of an earlier run "
            "at threshold 0.5 were made again: 1 still similar, 0 lifted); 1 similar verdict(s) of reviewers kept as "
            "given; 1 candidate(s) left to review") in out
    assert statuses(candidates) == {"c1": ("similar", 0.5), "c2": ("similar", 0.5), "c3": ("candidate", None),
                                    "c4": ("similar", None), "c5": ("similar", 0.5)}

    assert main(filter_at) == 0  # the default, 0.8
    out = capsys.readouterr().out
    assert ("1 near-duplicate(s) marked similar at threshold 0.8 with fake embedder (the 3 mark(s) of an earlier run "
            "at threshold 0.5 were made again: 1 still similar, 2 lifted: c2, c5)") in out
    after = {c.id: c for c in load_candidates(candidates)}
    assert statuses(candidates) == {"c1": ("similar", 0.8), "c2": ("candidate", None), "c3": ("candidate", None),
                                    "c4": ("similar", None), "c5": ("candidate", None)}
    assert after["c1"].filter == FilterMark(0.8, "fake embedder")
    assert after["c2"].reason == "" and after["c2"].similar_to is None and after["c2"].similarity is None
    assert after["c4"].reason == "asks what seed asks"

    assert main(["agent", "tasks", "report", "--candidates", str(candidates)]) == 0
    assert ("note: 1 of the 2 similar are marks of the near-duplicate filter at threshold 0.8, not reviewers' "
            "verdicts (the other 1 are); `agent tasks filter` at another --threshold makes them again") in \
        capsys.readouterr().out
    assert main(["agent", "tasks", "report", "--candidates", str(candidates), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["similar_by_filter"] == {"0.8": 1}

    # A reviewer who confirms a mark makes it a verdict: the filter at any threshold leaves it.
    assert main(["agent", "tasks", "review", "--candidates", str(candidates), "--id", "c1", "--status", "similar",
                 "--reason", "similarity 0.900 to seed (threshold 0.8)"]) == 0
    assert main([*filter_at, "--threshold", "0.99"]) == 0
    assert statuses(candidates)["c1"] == ("similar", None)
