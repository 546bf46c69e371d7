"""`agent tasks generate` and what the model or the seeds get wrong (verifier v33, taskgen).

A model item whose `seeds` was a number or true crashed the command with a traceback after every category was paid
for; seeds whose categories differ only in case ("Lookup", "lookup") were asked, then refused at the end for ids
used twice; seeds starting on a page the snapshot lacks, or labelled with another site, gave candidates no `agent
run` accepts; a category described in --categories with no seed was ignored without a word; a quota's stop was
called "the request budget"; a category whose every item was dropped counted as answered (exit 0); and candidates
did not say which endpoint made them. Each is now kept apart, refused before any request, or said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import load_candidates
from recordlens.core.agent.demo.tasks import DEMO_TASKS
from tests.core.cli_runs import run
from tests.core.generation_answers import SEEDS, SITE, category_of, task_items, without_round
from tests.fake_gemini import FakeGemini, Step, answer_with, status


def generate(capsys: pytest.CaptureFixture[str], server: FakeGemini, out: Path, seeds: Path = SEEDS,
             *extra: str) -> tuple[int, str, str]:
    return run(capsys, "agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(seeds), "--model",
               "fake-model", "--out", str(out), "--base-url", server.url, "--per-category", "2", *extra)


def seeds_file(folder: Path, change: dict[str, dict]) -> Path:
    """The demo seeds with some seeds' keys changed (by id)."""
    lines = [json.loads(line) for line in SEEDS.read_text("utf-8").splitlines() if line.strip()]
    path = folder / "seeds.jsonl"
    path.write_text("".join(json.dumps({**line, **change.get(line["id"], {})}) + "\n" for line in lines), "utf-8")
    return path


@pytest.fixture(autouse=True)
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")


@pytest.mark.parametrize("seeds", [1, True, {"id": "lookup-1"}])
def test_an_item_whose_seeds_is_no_list_follows_every_seed_and_nothing_is_lost(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], seeds: object) -> None:
    def model(body: dict) -> str:
        category = category_of(body)
        items = task_items(category, seeds=seeds) if category == "comparison" else task_items(category)
        if category == "rules":  # an instruction that is a list: that item alone is dropped
            items[1]["instruction"] = ["How", "many?"]
        return json.dumps(items)

    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(model)) as server:
        code, said, err = generate(capsys, server, out)
    assert code == 0, err
    candidates = load_candidates(out)
    assert len(candidates) == 11
    comparison = [c for c in candidates if c.task.category == "comparison"]
    every = tuple(t.id for t in DEMO_TASKS if t.category == "comparison")
    assert [c.seeds for c in comparison] == [every, every]
    assert f"{comparison[0].id} 'A new comparison question number 1?': its seeds" in err
    assert without_round(comparison[0].id) == "gen-comparison-1"
    assert "are not a list of seed ids: all the category's seeds instead" in err
    assert "warning: rules: an item whose instruction is not text" in err


@pytest.mark.parametrize("categories", [("Lookup", "lookup"), ("filtered search", "filtered-search")])
def test_categories_giving_the_same_ids_are_refused_before_any_request_and_said_by_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], categories: tuple[str, str]) -> None:
    seeds = seeds_file(tmp_path, {"lookup-1": {"category": categories[0]}, "lookup-2": {"category": categories[1]}})
    code, said, err = run(capsys, "agent", "tasks", "--check", str(seeds))
    assert code == 0 and "tasks;" in said
    assert f"warning: the categories {categories[0]!r} and {categories[1]!r}" in err
    assert "`agent tasks generate` refuses these seeds" in err
    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(lambda body: json.dumps(task_items("rules")))) as server:
        code, said, err = generate(capsys, server, out, seeds)
        asked = len(server.requests)
    assert (code, asked) == (2, 0) and not out.exists()
    assert "would give the same candidate ids" in err and "write each category one way" in err


@pytest.mark.parametrize(("change", "words"), [
    ({"start_url": "https://papers.example.org/index.html"}, "start on a page the site 'demo-site' does not hold"),
    ({"site": "shop"}, "are for the site(s) 'shop', not 'demo-site'"),
])
def test_seeds_off_the_snapshot_are_refused_before_any_request(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict, words: str) -> None:
    seeds = seeds_file(tmp_path, {"lookup-2": change})
    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(lambda body: json.dumps(task_items("rules")))) as server:
        code, said, err = generate(capsys, server, out, seeds)
        asked = len(server.requests)
    assert (code, asked) == (2, 0) and not out.exists()
    assert "seed(s) lookup-2 " in err and words in err, err


def test_a_relative_start_url_is_resolved_against_the_site(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def model(body: dict) -> str:
        return json.dumps(task_items(category_of(body), start_url="/about"))

    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(model)) as server:
        code, said, err = generate(capsys, server, out)
    assert code == 0 and "is no page of the site" not in err
    assert {c.task.start_url for c in load_candidates(out)} == {"https://papers.example.org/about"}


def test_a_described_category_without_seeds_is_named_before_any_request(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    described = tmp_path / "categories.json"
    described.write_text(json.dumps({"navigation": "reach a page", "lookup": "find a fact"}), "utf-8")
    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(lambda body: json.dumps(task_items(category_of(body))))) as server:
        code, said, err = generate(capsys, server, out, SEEDS, "--categories", str(described))
    assert code == 0
    warning = f"warning: navigation: described in {described}, but no seed of {SEEDS} is of this category: not asked"
    assert warning in err and err.index(warning) < err.index("asking for")


def test_a_quota_stop_is_called_a_quota_not_the_request_budget(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def model(body: dict) -> str | Step:
        category = category_of(body)
        return status(429, "quota", {"Retry-After": "3600"}) if category == "retrieval" \
            else json.dumps(task_items(category))

    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(model)) as server:
        code, said, err = generate(capsys, server, out)
    assert code == 3
    assert "stopped at category 3 of 6, retrieval, not answered (the server's quota ran out" in err, err
    assert "request budget" not in err


def test_candidates_record_the_endpoint_and_temperature(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(lambda body: json.dumps(task_items(category_of(body))))) as server:
        code, said, err = generate(capsys, server, out, SEEDS, "--temperature", "0.3")
        url = server.url
    assert code == 0
    candidates = load_candidates(out)
    round_tag = candidates[0].generator["round"]
    assert {json.dumps(c.generator) for c in candidates} == {
        json.dumps({"endpoint": url, "temperature": 0.3, "round": round_tag})}
    assert all(c.id.startswith(f"gen-{round_tag}-") for c in candidates)
    assert all(json.loads(line)["generator"]["endpoint"] == url for line in out.read_text("utf-8").splitlines())


def test_a_category_whose_every_item_was_dropped_is_not_answered(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def model(body: dict) -> str:
        category = category_of(body)
        if category == "rules":
            return json.dumps([{"instruction": "Yes?", "answer": True}, {"instruction": "Q?", "answer": "1",
                                                                          "answer_kind": "currency"}])
        return json.dumps(task_items(category))

    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(model)) as server:
        code, said, err = generate(capsys, server, out)
    assert code == 1
    assert "5 of 6 categories answered" in said
    assert "no usable answer for rules (none of its 2 task(s) could be kept)" in err



def test_the_summary_names_the_candidates_whose_answer_is_on_no_page(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def model(body: dict) -> str:
        items = task_items(category_of(body))
        if category_of(body) == "lookup":
            items[1]["answer"] = "Juniper Sofa"  # on no saved page
        return json.dumps(items)

    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(model)) as server:
        code, said, err = generate(capsys, server, out)
    assert code == 0
    [flagged] = [c.id for c in load_candidates(out) if c.evidence == ""]
    assert without_round(flagged) == "gen-lookup-2"
    assert f"1 with a gold answer found in no saved page (flagged for review: {flagged})" in said
