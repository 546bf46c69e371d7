"""`agent tasks generate` and answers it cannot use, and its stops. A JSON list cut short with finishReason STOP
had its first whole item kept as if it were the model's list (exit 0, no word); an answer in prose alone counted as
an answered category (exit 0), while the same answer as the only category exited 2; Ctrl+C or SIGTERM threw away
the categories already answered (and paid for) without a word. Now such an answer is named, none of it is used and
its category is not answered (exit 1, whether or not it is the only category), and a stop writes the candidates of
the categories answered and says so before it exits as interrupted (130, 143)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import load_candidates
from recordlens.core.agent.task_generation import NoTaskList, read_items
from recordlens.core.cli.command import main
from tests.core.generation_answers import SEEDS, SITE, category_of, two_tasks
from tests.ctrl_c import ctrl_c_raises
from tests.fake_gemini import FakeGemini, Step, answer_with, hang


def generate(server: FakeGemini, out: Path, seeds: Path = SEEDS) -> int:
    return main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(seeds), "--model", "fake-model",
                 "--out", str(out), "--base-url", server.url, "--per-category", "2"])


@pytest.fixture(autouse=True)
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")


# --- reading the answer -----------------------------------------------------------------------------------------

def test_a_list_cut_short_is_no_list_even_when_its_first_items_are_whole() -> None:
    whole = two_tasks("lookup")
    cut = whole[:-1] + ', {"instruction": "How many days may an item be'
    with pytest.raises(NoTaskList, match="cut short"):
        read_items(cut)
    with pytest.raises(NoTaskList, match="cut short"):
        read_items("```json\n" + cut)
    with pytest.raises(NoTaskList, match="cut short"):
        read_items('{"tasks": ' + whole[:-1])  # the object holding the list, cut too
    with pytest.raises(NoTaskList, match=r"does not read as JSON"):
        read_items(whole[:-1] + ", ]")  # closed, but broken: not the list meant either
    with pytest.raises(NoTaskList, match="holds no JSON list"):
        read_items("I could not find any rules on this site worth asking about.")


def test_a_whole_list_is_read_with_prose_and_fences_around_it() -> None:
    whole = two_tasks("lookup")
    assert len(read_items(whole)) == 2
    assert len(read_items(f"Here they are [two of them]:\n```json\n{whole}\n```\nHope it helps")) == 2
    assert read_items("No task fits: []") == []
    assert len(read_items('{"tasks": ' + whole + "}")) == 2


# --- answers of no use ------------------------------------------------------------------------------------------

def test_a_list_cut_short_with_finish_stop_is_named_and_not_answered(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    def model(body: dict) -> str:
        category = category_of(body)
        return two_tasks(category)[:-60] if category == "comparison" else two_tasks(category)

    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(model)) as server:
        code = generate(server, out)
    said = capsys.readouterr()
    assert code == 1
    assert "5 of 6 categories answered" in said.out
    assert "warning: comparison: its JSON list of tasks is cut short: it never closes: its answer is not used" \
        in said.err
    assert "no usable answer for comparison (its JSON list of tasks is cut short: it never closes)" in said.err
    assert "comparison" not in {c.task.category for c in load_candidates(out)}  # not even its whole first item
    assert len(load_candidates(out)) == 10


def test_an_answer_in_prose_is_named_and_exits_1_whether_or_not_it_is_the_only_category(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prose = "I could not find any rules on this site worth asking about."

    def model(body: dict) -> str:
        category = category_of(body)
        return prose if category == "rules" else two_tasks(category)

    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(model)) as server:
        code = generate(server, out)
    said = capsys.readouterr()
    assert code == 1 and "5 of 6 categories answered" in said.out
    assert "no usable answer for rules (the answer holds no JSON list of tasks)" in said.err
    # The same answer as the only category: the same status, nothing written
    seeds = tmp_path / "rules.jsonl"
    seeds.write_text("".join(line + "\n" for line in SEEDS.read_text("utf-8").splitlines()
                             if json.loads(line)["category"] == "rules"), encoding="utf-8")
    alone = tmp_path / "alone.jsonl"
    with FakeGemini(default=answer_with(model)) as server:
        code = generate(server, alone, seeds)
    err = capsys.readouterr().err
    assert code == 1 and not alone.exists()
    assert "recordlens: error: no candidate task: no usable answer for rules (the answer holds no JSON list" in err


# --- Ctrl+C, SIGTERM --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("signum", "status", "by"), [(signal.SIGINT, 130, "Ctrl+C"),
                                                      (signal.SIGTERM, 143, "SIGTERM")])
def test_a_stop_writes_the_categories_answered_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           signum: int, status: int, by: str) -> None:
    def model(body: dict) -> str | Step:
        category = category_of(body)
        if category == "retrieval":  # the third category: stopped while its answer is awaited
            os.kill(os.getpid(), signum)
            return hang(30)
        return two_tasks(category)

    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(model)) as server, ctrl_c_raises():  # a suite run in the background ignores it
        code = generate(server, out)
        asked = len(server.requests)
    said = capsys.readouterr()
    assert code == status and asked == 3
    assert "2 of 6 categories answered" in said.out
    assert (f"warning: stopped at category 3 of 6, retrieval, not answered (interrupted by {by}; not asked: "
            "filtered search, content extraction, comparison); the candidates of the categories answered are "
            "written") in said.err
    assert said.err.rstrip().endswith("recordlens: interrupted" + (" (SIGTERM)" if by == "SIGTERM" else ""))
    assert [c.task.category for c in load_candidates(out)] == ["lookup"] * 2 + ["rules"] * 2


def test_a_stop_before_any_answer_writes_nothing_and_says_so(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    def model(body: dict) -> Step:
        os.kill(os.getpid(), signal.SIGINT)
        return hang(30)

    out = tmp_path / "candidates.jsonl"
    out.write_text("kept\n", encoding="utf-8")  # an earlier file of candidates
    with FakeGemini(default=answer_with(model)) as server, ctrl_c_raises():
        code = main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--model",
                     "fake-model", "--out", str(out), "--base-url", server.url, "--replace"])
    err = capsys.readouterr().err
    assert code == 130 and out.read_text(encoding="utf-8") == "kept\n"
    assert ("recordlens: no candidate task: stopped at category 1 of 6, lookup, not answered (interrupted by Ctrl+C; "
            "not asked: ") in err


def test_a_numbered_reference_in_the_prose_is_not_taken_for_the_list_of_tasks() -> None:
    answer = 'As [1] and [2, 3] show, here they are: [{"instruction": "Find the price", "answer": "3"}]'
    assert read_items(answer) == [{"instruction": "Find the price", "answer": "3"}]
