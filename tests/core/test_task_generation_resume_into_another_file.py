"""`agent tasks generate --resume-from cand.jsonl --out rest.jsonl`: the rest of a stopped generation, in a file of
its own.

rest.jsonl was written with cand.jsonl's candidates again, same ids, every verdict gone ("candidate"): reviewing it
did the work twice, `report` over both files counted those candidates twice, and exporting both gave two tasks of
one id. Now rest.jsonl holds the candidates generated since (the rest), and the message names the file that holds
the others; a category asked again gets ids cand.jsonl does not use. And `generate` refused over a filtered file with
"N reviewed candidate(s)", counting the near-duplicate filter's marks as reviewers' verdicts: now said apart."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import FilterMark, load_candidates, save_candidates
from recordlens.core.llm.gemini import GeminiCaller
from tests.core.cli_runs import run
from tests.core.generation_answers import CATEGORIES, SEEDS, category_of, generate_tasks, two_tasks, without_round
from tests.fake_gemini import FakeGemini, Step, answer_with, status


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)


def _seeds_copy(folder: Path) -> Path:
    seeds = folder / "seeds.jsonl"
    seeds.write_text(Path(SEEDS).read_text(encoding="utf-8"), encoding="utf-8")
    return seeds


def _failing_at(*down: str) -> Callable[[dict], str | Step]:
    """The fake model: two tasks a category, the endpoint down (HTTP 500) for the categories `down`."""
    def respond(body: dict) -> str | Step:
        category = category_of(body)
        return status(500, "down") if category in down else two_tasks(category)
    return respond


def _stopped_and_reviewed(capsys: pytest.CaptureFixture[str], cand: Path, seeds: Path) -> str:
    """A generation that answered lookup and rules, then stopped at retrieval; its first lookup accepted. Its id."""
    with FakeGemini(default=answer_with(_failing_at("retrieval"))) as server:
        assert generate_tasks(capsys, server, cand, "--seeds", str(seeds))[0] == 4
    [first] = [c.id for c in load_candidates(cand) if without_round(c.id) == "gen-lookup-1"]
    assert run(capsys, "agent", "tasks", "review", "--candidates", str(cand), "--id", first,
               "--status", "accepted")[0] == 0
    return first


def _ids(path: Path) -> set[str]:
    return {c.id for c in load_candidates(path)}


def test_the_rest_file_holds_only_the_candidates_generated_since(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cand, rest, seeds = tmp_path / "cand.jsonl", tmp_path / "rest.jsonl", _seeds_copy(tmp_path)
    first = _stopped_and_reviewed(capsys, cand, seeds)
    reviewed = cand.read_text(encoding="utf-8")
    with FakeGemini(default=answer_with(_failing_at())) as server:
        code, said, err = generate_tasks(capsys, server, rest, "--seeds", str(seeds), "--resume-from", str(cand))
        asked = [category_of(r.body) for r in server.requests]
    assert code == 0, err
    assert asked == CATEGORIES[2:]  # lookup and rules: paid for by the stopped run
    assert [c.task.category for c in load_candidates(rest)] == [c for c in CATEGORIES[2:] for _ in (1, 2)]
    assert not _ids(rest) & _ids(cand) and first not in _ids(rest)  # one id, one file, one verdict
    assert all(c.status == "candidate" for c in load_candidates(rest))
    assert (f"{rest}: 8 candidate(s) from 12 seed(s), 6 of 6 categories answered, 2 of them by the run resumed, "
            f"whose 4 candidate(s) are in {cand} (lookup, rules), not written again; ") in said, said
    assert cand.read_text(encoding="utf-8") == reviewed  # its verdicts as they are
    # The two files together are the whole generation, each candidate once: the stopped run's round throughout.
    assert len(_ids(cand) | _ids(rest)) == 12
    assert {c.generator["round"] for c in load_candidates(rest)} == {first.split("-")[1]}


def test_a_rest_stopped_again_and_resumed_still_leaves_the_first_file_s_candidates_to_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cand, rest, seeds = tmp_path / "cand.jsonl", tmp_path / "rest.jsonl", _seeds_copy(tmp_path)
    _stopped_and_reviewed(capsys, cand, seeds)
    with FakeGemini(default=answer_with(_failing_at("content extraction"))) as server:
        code, said, err = generate_tasks(capsys, server, rest, "--seeds", str(seeds), "--resume-from", str(cand))
    assert code == 4, err
    assert [c.task.category for c in load_candidates(rest)] == ["retrieval"] * 2 + ["filtered search"] * 2
    with FakeGemini(default=answer_with(_failing_at())) as server:
        code, said, err = generate_tasks(capsys, server, rest, "--seeds", str(seeds), "--resume")
        asked = [category_of(r.body) for r in server.requests]
    assert code == 0, err
    assert asked == ["content extraction", "comparison"]
    assert [c.task.category for c in load_candidates(rest)] == [c for c in CATEGORIES[2:] for _ in (1, 2)]
    assert f"4 of them by the run resumed, whose 4 candidate(s) are in {cand} (lookup, rules), not written" in said
    assert not _ids(rest) & _ids(cand)


def test_a_category_asked_again_in_the_rest_gets_ids_the_first_file_does_not_use(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """lookup's seeds changed after the stop: asked again into rest.jsonl, its new candidates would have taken the
    ids of the old ones that cand.jsonl keeps (the same round, numbered from 1 again)."""
    cand, rest, seeds = tmp_path / "cand.jsonl", tmp_path / "rest.jsonl", _seeds_copy(tmp_path)
    _stopped_and_reviewed(capsys, cand, seeds)
    lines = [json.loads(line) for line in seeds.read_text(encoding="utf-8").splitlines() if line.strip()]
    seeds.write_text("".join(json.dumps({**d, "answer_kind": "number"} if d["category"] == "lookup" else d) + "\n"
                             for d in lines), encoding="utf-8")
    with FakeGemini(default=answer_with(_failing_at())) as server:
        code, said, err = generate_tasks(capsys, server, rest, "--seeds", str(seeds), "--resume-from", str(cand))
    assert code == 0, err
    assert "lookup: answered by the stopped generation, asked again: its seeds changed" in err, err
    lookups = [without_round(c.id) for c in load_candidates(rest) if c.task.category == "lookup"]
    assert lookups == ["gen-lookup-3", "gen-lookup-4"]  # cand.jsonl keeps gen-…-lookup-1 and -2
    assert not _ids(rest) & _ids(cand)
    assert f"whose 2 candidate(s) are in {cand} (rules), not written again" in said, said


def test_candidates_the_stopped_file_does_not_hold_are_written_into_the_rest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A stopped file removed (or written over by another generation) since: its candidates, kept in the partial
    file alone, go into rest.jsonl rather than be lost."""
    cand, rest, seeds = tmp_path / "cand.jsonl", tmp_path / "rest.jsonl", _seeds_copy(tmp_path)
    with FakeGemini(default=answer_with(_failing_at("retrieval"))) as server:
        assert generate_tasks(capsys, server, cand, "--seeds", str(seeds))[0] == 4
    cand.unlink()
    with FakeGemini(default=answer_with(_failing_at())) as server:
        code, said, err = generate_tasks(capsys, server, rest, "--seeds", str(seeds), "--resume-from", str(cand))
    assert code == 0, err
    assert [c.task.category for c in load_candidates(rest)] == [c for c in CATEGORIES for _ in (1, 2)]
    assert "not written again" not in said


def test_a_filtered_file_s_marks_are_not_counted_as_reviewers_verdicts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cand.jsonl"
    with FakeGemini(default=answer_with(_failing_at())) as server:
        assert generate_tasks(capsys, server, out)[0] == 0
    candidates = load_candidates(out)
    marked = [replace(c, status="similar", reason="similarity 0.91 to a seed (threshold 0.8)",
                      filter=FilterMark(0.8, "wordllama")) for c in candidates[:2]]  # as `agent tasks filter` marks
    judged = [c.reviewed("accepted") for c in candidates[2:9]]
    save_candidates(out, marked + judged + candidates[9:])
    with FakeGemini(default=answer_with(_failing_at())) as server:
        code, said, err = generate_tasks(capsys, server, out)
        assert (code, len(server.requests)) == (2, 0)
    assert (f"{out} exists with 7 reviewed candidate(s) and 2 marked similar by the near-duplicate filter: give "
            "another --out, or --replace") in err, err
    save_candidates(out, marked + candidates[2:])
    code, said, err = generate_tasks(capsys, server, out)
    assert f"{out} exists with 2 candidate(s) marked similar by the near-duplicate filter: give another" in err, err
