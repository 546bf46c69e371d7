"""`agent tasks generate --resume`: a generation that stopped part-way goes on without paying twice.

A stopped generation (an endpoint that failed, Ctrl+C, a category refused) could only be run again whole: running it
again was refused for the existing --out, and --replace asked (and paid for) every category again. Now the
categories answered are kept in `<out>.partial` as each is answered, the stop says how to finish, and `--resume`
asks only the categories not answered."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import load_candidates
from recordlens.core.llm.gemini import GeminiCaller
from tests.candidates_writers import ReviewInBetween
from tests.child_lines import LINE_TIMEOUT_S
from tests.core.cli_runs import run
from tests.core.generation_answers import CATEGORIES, SEEDS, category_of, generate_tasks, two_tasks, without_round
from tests.fake_gemini import FakeGemini, Step, answer_with, status


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)


def test_a_stopped_generation_resumes_asking_only_the_categories_not_answered(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def failing(body: dict) -> str | Step:
        category = category_of(body)
        if category == "rules":  # refused (HTTP 400): not answered, asked again on resume
            return status(400, "bad request")
        return status(500, "down") if category == "filtered search" else two_tasks(category)

    out = tmp_path / "candidates.jsonl"
    partial = tmp_path / "candidates.jsonl.partial"
    with FakeGemini(default=answer_with(failing)) as server:
        code, said, err = generate_tasks(capsys, server, out)
    assert code == 4 and partial.exists()
    assert "the same command with --resume asks only the others" in err, err
    assert [c.task.category for c in load_candidates(out)] == ["lookup"] * 2 + ["retrieval"] * 2

    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        code, said, err = generate_tasks(capsys, server, out)  # neither --resume nor --replace: refused, nothing asked
        assert (code, len(server.requests)) == (2, 0)
        assert "--resume asks only the others, --replace starts over" in err
        code, said, err = generate_tasks(capsys, server, out, "--resume")
        asked = [category_of(r.body) for r in server.requests]
    assert code == 0, err
    assert asked == ["rules", "filtered search", "content extraction", "comparison"]  # lookup, retrieval: paid for
    assert "6 of 6 categories answered, 2 of them by the run resumed" in said
    assert [c.task.category for c in load_candidates(out)] == [c for c in CATEGORIES for _ in (1, 2)]
    assert not partial.exists()  # every category answered: nothing left to resume


def test_a_resume_with_other_options_or_nothing_to_resume_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "candidates.jsonl"

    def failing(body: dict) -> str | Step:
        category = category_of(body)
        return status(500, "down") if category == "retrieval" else two_tasks(category)

    with FakeGemini(default=answer_with(failing)) as server:
        assert generate_tasks(capsys, server, out)[0] == 4
    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        code, said, err = generate_tasks(capsys, server, out, "--resume", "--per-category", "3")
        assert (code, len(server.requests)) == (2, 0)
        assert "was made with another per_category 2 (now 3)" in err, err
        code, said, err = generate_tasks(capsys, server, tmp_path / "other.jsonl", "--resume")
        assert (code, len(server.requests)) == (2, 0)
        assert "no stopped generation to resume" in err


def _seeds_copy(folder: Path) -> Path:
    seeds = folder / "seeds.jsonl"
    seeds.write_text(Path(SEEDS).read_text(encoding="utf-8"), encoding="utf-8")
    return seeds


def _rewrite_seeds(seeds: Path, change: Callable[[dict], dict | None]) -> None:
    """Each seed through `change` (None: left out)."""
    lines = [json.loads(line) for line in seeds.read_text(encoding="utf-8").splitlines() if line.strip()]
    seeds.write_text("".join(json.dumps(d) + "\n" for d in map(change, lines) if d is not None), encoding="utf-8")


def _stopped_at_retrieval(capsys: pytest.CaptureFixture[str], out: Path, seeds: Path) -> None:
    """A first generation that answers lookup and rules, then stops (the endpoint fails at retrieval)."""
    def failing(body: dict) -> str | Step:
        category = category_of(body)
        return status(500, "down") if category == "retrieval" else two_tasks(category)

    with FakeGemini(default=answer_with(failing)) as server:
        code, said, err = generate_tasks(capsys, server, out, "--seeds", str(seeds))
    assert code == 4
    assert "stopped at category 3 of 6, retrieval, not answered (the model endpoint failed; not asked: " in err, err


def test_a_resume_asks_again_a_category_whose_seeds_changed_and_sets_its_old_answers_aside(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The expert rewrote the lookup seeds after the stop (new ids, another answer kind): the candidates the stopped
    run made from the old ones named seeds that are no more, with their rules. Now lookup is asked again, said so,
    and its old answers are kept apart, not lost."""
    out, seeds = tmp_path / "candidates.jsonl", _seeds_copy(tmp_path)
    _stopped_at_retrieval(capsys, out, seeds)
    _rewrite_seeds(seeds, lambda d: {**d, "id": f"L-{d['id']}", "answer_kind": "number"}
                   if d["category"] == "lookup" else d)
    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        code, said, err = generate_tasks(capsys, server, out, "--seeds", str(seeds), "--resume")
        asked = [category_of(r.body) for r in server.requests]
    assert code == 0, err
    assert asked == ["lookup", "retrieval", "filtered search", "content extraction", "comparison"]  # not rules
    set_aside = tmp_path / "candidates.jsonl.set-aside.jsonl"
    assert (f"warning: lookup: answered by the stopped generation, asked again: its seeds changed; its 2 "
            f"candidate(s) are kept in {set_aside}, not in the candidates written") in err, err
    lookup_ids = {json.loads(line)["id"] for line in seeds.read_text().splitlines() if '"lookup"' in line}
    lookups = [c for c in load_candidates(out) if c.task.category == "lookup"]
    assert len(lookups) == 2 and all(set(c.seeds) <= lookup_ids for c in lookups)
    [kept] = [json.loads(line) for line in set_aside.read_text(encoding="utf-8").splitlines()]
    assert (kept["category"], len(kept["candidates"])) == ("lookup", 2)
    assert "asked again: its seeds changed" in kept["why"]


def test_a_resume_asks_again_a_category_whose_description_changed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, seeds = tmp_path / "candidates.jsonl", _seeds_copy(tmp_path)
    _stopped_at_retrieval(capsys, out, seeds)
    described = tmp_path / "categories.json"
    described.write_text(json.dumps({"rules": "answer from the site's terms of use only"}), encoding="utf-8")
    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        code, said, err = generate_tasks(capsys, server, out, "--seeds", str(seeds), "--categories", str(described),
                                   "--resume")
        asked = [category_of(r.body) for r in server.requests]
    assert code == 0, err
    assert asked[0] == "rules" and "lookup" not in asked
    assert "rules: answered by the stopped generation, asked again: its description changed" in err


def test_a_category_no_seed_has_now_is_said_dropped_and_its_answers_are_kept_apart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The stopped run's rules answers, once its seeds are gone, were left out of the partial file at the next write
    without a word."""
    out, seeds = tmp_path / "candidates.jsonl", _seeds_copy(tmp_path)
    partial = tmp_path / "candidates.jsonl.partial"
    _stopped_at_retrieval(capsys, out, seeds)
    _rewrite_seeds(seeds, lambda d: None if d["category"] == "rules" else d)

    def failing(body: dict) -> str | Step:  # stops again: the partial file is written again, without rules
        category = category_of(body)
        return status(500, "down") if category == "content extraction" else two_tasks(category)

    with FakeGemini(default=answer_with(failing)) as server:
        code, said, err = generate_tasks(capsys, server, out, "--seeds", str(seeds), "--resume")
        asked = [category_of(r.body) for r in server.requests]
    assert code == 4, err
    assert list(dict.fromkeys(asked)) == ["retrieval", "filtered search", "content extraction"]  # with retries
    set_aside = tmp_path / "candidates.jsonl.set-aside.jsonl"
    assert ("warning: rules: answered by the stopped generation, no seed is of this category now: dropped from the "
            f"generation; its 2 candidate(s) are kept in {set_aside}") in err, err
    assert list(json.loads(partial.read_text(encoding="utf-8"))["categories"]) == ["lookup", "retrieval",
                                                                                  "filtered search"]
    [kept] = [json.loads(line) for line in set_aside.read_text(encoding="utf-8").splitlines()]
    assert [without_round(c["id"]) for c in kept["candidates"]] == ["gen-rules-1", "gen-rules-2"]


def test_a_generation_stopped_into_a_reviewed_file_resumes_into_another_as_the_refusal_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The refusal over a reviewed --out said "resume into another --out", and that other --out then had no stopped
    generation to resume. Now it gives the options that do: --resume-from the stopped file into another --out, whose
    partial file then holds the answers (a further stop there resumes with --resume), the reviewed file untouched."""
    out, seeds = tmp_path / "candidates.jsonl", _seeds_copy(tmp_path)
    other, other_partial = tmp_path / "rest.jsonl", tmp_path / "rest.jsonl.partial"
    _stopped_at_retrieval(capsys, out, seeds)
    [first] = [c.id for c in load_candidates(out) if without_round(c.id) == "gen-lookup-1"]
    assert run(capsys, "agent", "tasks", "review", "--candidates", str(out), "--id", first,
               "--status", "accepted")[0] == 0
    reviewed = out.read_text(encoding="utf-8")

    def failing(body: dict) -> str | Step:  # stops again, in the resumed run
        category = category_of(body)
        return status(500, "down") if category == "content extraction" else two_tasks(category)

    with FakeGemini(default=answer_with(failing)) as server:
        code, said, err = generate_tasks(capsys, server, out, "--seeds", str(seeds), "--resume")
        assert (code, len(server.requests)) == (2, 0)
        assert (f"{out} exists with 1 reviewed candidate(s): give --resume-from {out} --out OTHER.jsonl (in place "
                f"of --resume) to resume into another file, leaving {out} and its verdicts as they are") in err, err
        code, said, err = generate_tasks(capsys, server, other, "--seeds", str(seeds), "--resume-from", str(out))
        asked = [category_of(r.body) for r in server.requests]
    assert code == 4, err
    assert list(dict.fromkeys(asked)) == ["retrieval", "filtered search", "content extraction"]  # not lookup, rules
    assert out.read_text(encoding="utf-8") == reviewed and not Path(f"{out}.partial").exists()  # moved, not copied
    assert list(json.loads(other_partial.read_text(encoding="utf-8"))["categories"]) == [
        "lookup", "rules", "retrieval", "filtered search"]
    assert "the same command with --resume in place of --resume-from asks only the others" in err, err

    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        code, said, err = generate_tasks(capsys, server, other, "--seeds", str(seeds), "--resume-from", str(out))
        assert (code, len(server.requests)) == (2, 0)  # its answers are in rest.jsonl.partial now: said which
        assert "a generation into this --out stopped part-way too" in err, err
        code, said, err = generate_tasks(capsys, server, other, "--seeds", str(seeds), "--resume")
        asked = [category_of(r.body) for r in server.requests]
    assert code == 0, err
    assert asked == ["content extraction", "comparison"]
    assert "6 of 6 categories answered, 4 of them by the run resumed" in said
    # The rest: lookup and rules stay in the reviewed file alone (tests/core/test_task_generation_resume_into_
    # another_file.py).
    assert [c.task.category for c in load_candidates(other)] == [c for c in CATEGORIES[2:] for _ in (1, 2)]
    assert not other_partial.exists() and out.read_text(encoding="utf-8") == reviewed
    # Resumed twice, one round: the stopped run's, in every id (those it kept, and those asked since).
    stopped_round = first.split("-")[1]
    assert {c.generator["round"] for c in load_candidates(other)} == {stopped_round}
    assert first not in {c.id for c in load_candidates(other)}


def test_a_stop_names_the_category_it_was_asking(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"stopped at category 3 of 6 (the model endpoint failed; …)" named the categories not asked, not the one asked
    and not answered (and at the last category, none at all)."""
    out, seeds = tmp_path / "candidates.jsonl", _seeds_copy(tmp_path)
    _stopped_at_retrieval(capsys, out, seeds)

    def failing_last(body: dict) -> str | Step:
        category = category_of(body)
        return status(500, "down") if category == "comparison" else two_tasks(category)

    with FakeGemini(default=answer_with(failing_last)) as server:
        code, said, err = generate_tasks(capsys, server, out, "--seeds", str(seeds), "--resume")
    assert code == 4, err
    assert "stopped at category 6 of 6, comparison, not answered (the model endpoint failed)" in err, err


def test_a_verdict_given_while_a_resume_asks_the_model_is_not_written_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--resume looked at --out for verdicts at its start only: one given while it asked the model (`agent tasks
    review` in another terminal) was written over as it wrote --out whole, lost unsaid. It looks again under the
    file's lock before writing: refused as at the start, the answers kept, and written into another file as the
    refusal says, without a request."""
    out, seeds, other = tmp_path / "candidates.jsonl", _seeds_copy(tmp_path), tmp_path / "rest.jsonl"
    _stopped_at_retrieval(capsys, out, seeds)
    [first] = [c.id for c in load_candidates(out) if without_round(c.id) == "gen-lookup-1"]
    with ReviewInBetween(out, first, "accepted", "") as shell:
        def reviewed_meanwhile(body: dict) -> str:
            if category_of(body) == "retrieval":  # the resume's first request: the reviewer at work meanwhile
                # its verdict written before the answer comes (nothing holds the file meanwhile): waited for to its
                # end, not for a second, which a busy machine could outlast, the resume then writing first
                shell.go(wait_s=LINE_TIMEOUT_S)
            return two_tasks(category_of(body))

        with FakeGemini(default=answer_with(reviewed_meanwhile)) as server:
            code, said, err = generate_tasks(capsys, server, out, "--seeds", str(seeds), "--resume")
        assert shell.ended()[0] == 0
    assert code == 2, err
    assert (f"{out} was written by another command while this generation ran (it now exists with 1 reviewed "
            f"candidate(s)): not written over; the answers of this generation are kept in {out}.partial: give "
            f"--resume-from {out} --out OTHER.jsonl to write them into another file") in err, err
    assert {c.id: c.status for c in load_candidates(out)}[first] == "accepted"
    reviewed = out.read_text(encoding="utf-8")
    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        code, said, err = generate_tasks(capsys, server, other, "--seeds", str(seeds), "--resume-from", str(out))
        assert (code, len(server.requests)) == (0, 0), err
    assert [c.task.category for c in load_candidates(other)] == [c for c in CATEGORIES[2:] for _ in (1, 2)]
    assert out.read_text(encoding="utf-8") == reviewed


def test_a_file_another_command_wrote_while_a_generation_ran_is_not_written_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --resume or --replace, --out was refused only when it was there at the start."""
    out = tmp_path / "candidates.jsonl"

    def written_meanwhile(body: dict) -> str:
        if category_of(body) == "comparison":  # the last request
            out.write_text("", encoding="utf-8")
        return two_tasks(category_of(body))

    with FakeGemini(default=answer_with(written_meanwhile)) as server:
        code, said, err = generate_tasks(capsys, server, out)
    assert code == 2 and out.read_text(encoding="utf-8") == "", err
    assert f"{out} was written by another command while this generation ran (it now exists): not written over" in err
    assert Path(f"{out}.partial").exists()
