"""Every generation numbered its candidates `gen-<category>-1` up, so two rounds' refined tasks, exported and put in
one tasks file (or their reference trajectories, `<task id>.json`, in one folder), shared ids: the file was refused
("task id(s) used twice") or one task's reference taken for another's. Now an id carries its round's tag,
`gen-<round>-<category>-<n>`, drawn when a generation starts and kept by a resume; a partial file written before
rounds were still resumes, its candidates keeping their ids."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import load_candidates
from recordlens.core.agent.task_generation import ROUND_ALPHABET, ROUND_LENGTH
from recordlens.core.agent.tasks import load_tasks
from recordlens.core.llm.gemini import GeminiCaller
from tests.core.cli_runs import run
from tests.core.generation_answers import CATEGORIES, category_of, generate_tasks, two_tasks, without_round
from tests.fake_gemini import FakeGemini, Step, answer_with, status

ROUND_ID = re.compile(rf"gen-([{ROUND_ALPHABET}]{{{ROUND_LENGTH}}})-[a-z0-9-]+-[12]")


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)




def accept_all_and_export(capsys: pytest.CaptureFixture[str], candidates: Path, tasks: Path) -> None:
    for candidate in load_candidates(candidates):
        assert run(capsys, "agent", "tasks", "review", "--candidates", str(candidates), "--id", candidate.id,
                   "--status", "accepted")[0] == 0
    assert run(capsys, "agent", "tasks", "export", "--candidates", str(candidates), "--out", str(tasks))[0] == 0


def test_two_rounds_exported_into_one_tasks_file_share_no_id(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "round-1.jsonl", tmp_path / "round-2.jsonl"
    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        assert generate_tasks(capsys, server, first)[0] == 0
        assert generate_tasks(capsys, server, second)[0] == 0  # the same seeds, the same answers: a second round
    accept_all_and_export(capsys, first, tmp_path / "tasks-1.jsonl")
    accept_all_and_export(capsys, second, tmp_path / "tasks-2.jsonl")
    merged = tmp_path / "tasks.jsonl"
    merged.write_text((tmp_path / "tasks-1.jsonl").read_text("utf-8") + (tmp_path / "tasks-2.jsonl").read_text("utf-8"),
                      encoding="utf-8")
    tasks = load_tasks(merged)  # refused, ids used twice, before rounds were in the ids
    assert len(tasks) == 2 * 2 * len(CATEGORIES)
    rounds = [{ROUND_ID.fullmatch(c.id).group(1) for c in load_candidates(path)} for path in (first, second)]
    assert all(len(tags) == 1 for tags in rounds) and rounds[0] != rounds[1]  # one round a file, two rounds
    assert [without_round(c.id) for c in load_candidates(first)] == [
        f"gen-{category.replace(' ', '-')}-{n}" for category in CATEGORIES for n in (1, 2)]


def test_a_resumed_round_keeps_its_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def failing(body: dict) -> str | Step:
        category = category_of(body)
        return status(500, "down") if category == "retrieval" else two_tasks(category)

    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(failing)) as server:
        assert generate_tasks(capsys, server, out)[0] == 4
    stopped = [c.id for c in load_candidates(out)]
    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        assert generate_tasks(capsys, server, out, "--resume")[0] == 0
    resumed = [c.id for c in load_candidates(out)]
    assert resumed[:len(stopped)] == stopped  # the stopped run's ids, as they were
    assert len({ROUND_ID.fullmatch(i).group(1) for i in resumed}) == 1  # the categories asked since: its round


def test_a_partial_file_written_before_rounds_still_resumes(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    def failing(body: dict) -> str | Step:
        category = category_of(body)
        return status(500, "down") if category == "retrieval" else two_tasks(category)

    out, partial = tmp_path / "candidates.jsonl", tmp_path / "candidates.jsonl.partial"
    with FakeGemini(default=answer_with(failing)) as server:
        assert generate_tasks(capsys, server, out)[0] == 4
    data = json.loads(partial.read_text("utf-8"))
    for part in data["categories"].values():  # as written before: `gen-<category>-<n>`, no round recorded
        for candidate in part["candidates"]:
            candidate["id"] = without_round(candidate["id"])
            del candidate["generator"]["round"]
    partial.write_text(json.dumps(data), encoding="utf-8")
    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        code, said, err = generate_tasks(capsys, server, out, "--resume")
    assert code == 0, err
    ids = [c.id for c in load_candidates(out)]
    assert ids[:4] == ["gen-lookup-1", "gen-lookup-2", "gen-rules-1", "gen-rules-2"]  # kept as they were
    assert all(ROUND_ID.fullmatch(i) for i in ids[4:]) and len(set(ids)) == len(ids)
