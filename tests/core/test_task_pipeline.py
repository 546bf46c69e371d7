"""Building a benchmark's tasks: generation from seeds on the loopback Gemini fake, the offline near-duplicate
filter (WordLlama from its wheel) on pairs written for the test, review verdicts, and the funnel table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import Candidate, load_candidates
from recordlens.core.agent.demo.tasks import DEMO_TASKS
from recordlens.core.agent.funnel import format_funnel, funnel
from recordlens.core.agent.model import Task
from recordlens.core.agent.near_duplicates import WordLlamaEmbedder, filter_near_duplicates
from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from tests.core.generation_answers import FIRST_SEED, SEEDS, SITE, without_round
from tests.fake_gemini import FakeGemini, answer_with

DISTINCT = {
    "lookup": ("Which licence is paper 2311.00457 released under?", "Nobody Knows"),
    "rules": ("How many days does Paperfield take to moderate a new submission?", "3"),
    "retrieval": ("Find the paper about protein folding with graph networks and give its title.", "Folding"),
    "filtered search": ("How many robotics papers were posted in January 2024?", "2"),
    "content extraction": ("Which dataset does the abstract of 2312.00066 evaluate on?", "ImageNet"),
    "comparison": ("Which of the two papers 2310.00145 and 2401.00058 was posted earlier?", "2310.00145"),
}

PARAPHRASES = [  # (seed-like task, its paraphrase): dropped
    ("How many pages does paper 2402.00088 have, according to its comments?",
     "According to its comments, how many pages does paper 2402.00088 have?"),
    ("What is the title of the most recent paper in Computation and Language?",
     "What is the title of the newest paper in Computation and Language?"),
    ("How many papers are listed under Machine Learning?", "How many papers does the Machine Learning listing show?"),
    ("Which author wrote the paper on warm restarts of optimisers?",
     "Who wrote the paper about optimiser warm restarts?"),
]
DISTINCT_PAIRS = [  # kept
    ("How many characters may an abstract have at most?", "Who is the first author of the paper on warm restarts?"),
    ("How many papers are listed under Machine Learning?",
     "Which of the two papers has more pages, 2402.00088 or 2401.00012?"),
    ("What is the title of the most recent paper in Computation and Language?",
     "What licence does Paperfield apply to submissions?"),
]


@pytest.fixture(scope="module")
def embedder() -> WordLlamaEmbedder:
    return WordLlamaEmbedder()


def task(ident: str, instruction: str) -> Task:
    return Task(id=ident, instruction=instruction, answer="x", category="test")


@pytest.mark.parametrize(("kept", "candidate"), PARAPHRASES)
def test_paraphrases_are_dropped_naming_the_kept_task(embedder, kept: str, candidate: str) -> None:
    out = filter_near_duplicates([Candidate(task("c1", candidate))], embedder, kept=[task("seed", kept)])
    assert out[0].status == "similar" and out[0].similar_to == "seed" and out[0].similarity >= 0.8
    assert "seed" in out[0].reason


@pytest.mark.parametrize(("kept", "candidate"), DISTINCT_PAIRS)
def test_distinct_tasks_are_kept(embedder, kept: str, candidate: str) -> None:
    out = filter_near_duplicates([Candidate(task("c1", candidate))], embedder, kept=[task("seed", kept)])
    assert out[0].status == "candidate" and out[0].similar_to is None


def test_tasks_asking_for_answers_of_different_kinds_are_not_near_duplicates(embedder) -> None:
    founder = Task(id="seed", instruction="Who founded Tinyshop?", answer="Ada Smith", answer_kind="name")
    year = Task(id="c1", instruction="In which year was Tinyshop founded?", answer="2009", answer_kind="date")
    assert filter_near_duplicates([Candidate(year)], embedder, kept=[founder])[0].status == "candidate"
    # The same words with a kind left open ("text") are compared as before.
    open_kind = Task(id="c2", instruction="Who founded Tinyshop, please?", answer="Ada Smith", answer_kind="text")
    assert filter_near_duplicates([Candidate(open_kind)], embedder, kept=[founder])[0].status == "similar"
    # A year asked twice, once as a number and once as a date: the same question.
    as_number = Task(id="c3", instruction="In which year was Tinyshop founded?", answer="2009", answer_kind="number")
    assert filter_near_duplicates([Candidate(as_number)], embedder, kept=[year])[0].status == "similar"


def test_the_filter_is_deterministic_and_compares_candidates_with_each_other(embedder) -> None:
    first, second = PARAPHRASES[0]
    pool = [Candidate(task("a", first)), Candidate(task("b", second)), Candidate(task("c", DISTINCT_PAIRS[0][0]))]
    out = filter_near_duplicates(pool, embedder)
    assert [(c.id, c.status, c.similar_to) for c in out] == [("a", "candidate", None), ("b", "similar", "a"),
                                                             ("c", "candidate", None)]
    assert filter_near_duplicates(pool, embedder) == out
    # A stricter threshold keeps the paraphrase too; a reviewed candidate keeps its verdict.
    assert all(c.status == "candidate" for c in filter_near_duplicates(pool, embedder, threshold=0.999))
    reviewed = [pool[0], pool[1].reviewed("accepted")]
    assert filter_near_duplicates(reviewed, embedder)[1].status == "accepted"


def respond(body: dict) -> str:
    """The fake model: for each category a paraphrase of its first seed and one distinct task, plus junk."""
    prompt = body["contents"][0]["parts"][0]["text"]
    category = re.search(r"^Category: (.+)$", prompt, re.M).group(1)
    seed = FIRST_SEED[category]
    distinct, gold = DISTINCT[category]
    items = [{"instruction": seed.instruction.rstrip("?") + ", please?", "answer": seed.answer,
              "answer_kind": seed.answer_kind, "start_url": seed.start_url, "seeds": [seed.id]},
             {"instruction": distinct, "answer": gold, "answer_kind": "text", "start_url": "https://elsewhere/"},
             {"instruction": "", "answer": "no instruction"}]
    return "Here are the tasks:\n```json\n" + json.dumps(items) + "\n```"


def test_generate_says_when_no_answer_could_be_kept(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(lambda body: '```json\n[{"instruction": "", "answer": "x"}]\n```')) as server:
        out.write_text("kept\n", encoding="utf-8")  # an earlier file of candidates
        assert main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--model",
                     "fake-model", "--out", str(out), "--base-url", server.url, "--replace"]) == 2
    assert "recordlens: error: no candidate task" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "kept\n"


def test_generate_filter_review_and_report_on_the_demo_site(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--per-category",
                     "2", "--model", "fake-model", "--out", str(out), "--base-url", server.url]) == 0
        prompts = [r.prompt_text for r in server.requests]
    assert "start_url 'https://elsewhere/' is no page of the site" in capsys.readouterr().err  # replaced, and said
    assert len(prompts) == 6  # one per category
    assert "Seed tasks written by experts" in prompts[0] and "https://papers.example.org/about" in prompts[0]
    assert "What tasks of this category ask: find one fact" in prompts[0]
    candidates = load_candidates(out)
    assert len(candidates) == 12 and {c.task.category for c in candidates} == set(DISTINCT)
    lookup = [c for c in candidates if c.task.category == "lookup"]
    assert lookup[0].seeds == (FIRST_SEED["lookup"].id,) and lookup[0].model == "fake-model"
    assert lookup[1].seeds == tuple(t.id for t in DEMO_TASKS if t.category == "lookup")  # none named: all
    assert lookup[1].task.start_url == FIRST_SEED["lookup"].start_url  # not a page of the site: the seed's
    assert lookup[0].evidence and lookup[1].evidence == ""  # the seed's answer is on the site; the made-up is not
    assert "no instruction" not in out.read_text(encoding="utf-8")
    ident = {without_round(c.id): c.id for c in candidates}  # gen-lookup-2 -> its id, round tag and all

    assert main(["agent", "tasks", "filter", "--candidates", str(out), "--seeds", str(SEEDS)]) == 0
    text = capsys.readouterr().out
    assert "6 near-duplicate(s) marked similar at threshold 0.8 with wordllama" in text
    filtered = {without_round(c.id): c for c in load_candidates(out)}
    assert {i for i, c in filtered.items() if c.status == "similar"} == {f"gen-{c}-1" for c in
                                                                         ("lookup", "rules", "retrieval",
                                                                          "filtered-search", "content-extraction",
                                                                          "comparison")}
    assert filtered["gen-lookup-1"].similar_to == FIRST_SEED["lookup"].id

    verdicts = [("gen-lookup-2", "accepted", "", ["--answer", "CC BY 4.0"]),
                ("gen-rules-2", "unable", "the about page does not say", []),
                ("gen-retrieval-2", "expired", "the paper was withdrawn", []),
                ("gen-filtered-search-2", "accepted", "", []), ("gen-comparison-2", "accepted", "", [])]
    # A verdict that says the task is no good says why (the README's "with a reason").
    assert main(["agent", "tasks", "review", "--candidates", str(out), "--id", ident["gen-rules-2"], "--status",
                 "unable"]) == 2
    for short, status, reason, more in verdicts:
        assert main(["agent", "tasks", "review", "--candidates", str(out), "--id", ident[short], "--status", status,
                     "--reason", reason, *more]) == 0
    # Generating again into the reviewed file is refused before any request: the verdicts would be lost.
    before = out.read_bytes()
    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--model",
                     "fake-model", "--out", str(out), "--base-url", server.url]) == 2
        assert server.requests == []
    assert ("with 5 reviewed candidate(s) and 6 marked similar by the near-duplicate filter: give another --out, or "
            "--replace") in capsys.readouterr().err
    assert out.read_bytes() == before
    reviewed = {without_round(c.id): c for c in load_candidates(out)}
    assert reviewed["gen-lookup-2"].task.answer == "CC BY 4.0" and reviewed["gen-lookup-2"].edited
    assert reviewed["gen-lookup-2"].original["answer"] == "Nobody Knows"

    references = tmp_path / "references"
    references.mkdir()
    reference = json.loads(resource_path("agent", "reference", "lookup-1.json").read_text("utf-8"))
    reference["task"] = ident["gen-lookup-2"]
    (references / f"{ident['gen-lookup-2']}.json").write_text(json.dumps(reference), encoding="utf-8")
    capsys.readouterr()
    chart = tmp_path / "funnel.png"
    assert main(["agent", "tasks", "report", "--candidates", str(out), "--references", str(references), "--json",
                 "--chart", str(chart)]) == 0
    printed = capsys.readouterr()
    table = json.loads(printed.out)
    edited = ident["gen-lookup-2"]
    assert f"have an answer no one has looked for on the site (edited at review: {edited})" in printed.err
    total = table["total"]
    assert (total["generated"], total["similar"], total["unable"], total["expired"], total["refined"],
            total["pending"]) == (12, 6, 1, 1, 3, 1)
    # With the site the edited answer is looked for, and found on no page: counted, as a generated one would be
    assert main(["agent", "tasks", "report", "--candidates", str(out), "--site", str(SITE), "--json"]) == 0
    checked = capsys.readouterr()
    assert "no one has looked for" not in checked.err
    assert json.loads(checked.out)["total"]["answer_not_found"] == total["answer_not_found"] + 1
    assert ident["gen-lookup-2"] in json.loads(checked.out)["answer_not_found_ids"]
    # The table's note names the tasks whose gold answer is on no saved page, for the reviewer to look at.
    assert main(["agent", "tasks", "report", "--candidates", str(out), "--site", str(SITE)]) == 0
    note = next(line for line in capsys.readouterr().out.splitlines() if "found in no saved page" in line)
    assert note.split("found in no saved page: ", 1)[1].split(", ") == json.loads(checked.out)[
        "answer_not_found_ids"]
    assert total["gt_steps"] == len(reference["steps"]) and total["with_reference"] == 1
    rows = {r["category"]: r for r in table["categories"]}
    assert rows["lookup"]["refined"] == 1 and rows["lookup"]["steps_per_task"] == len(reference["steps"])
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    printed = format_funnel(funnel(load_candidates(out)))
    assert printed.splitlines()[0].split()[:4] == ["category", "generated", "similar", "unable"]

    exported = tmp_path / "tasks.jsonl"
    assert main(["agent", "tasks", "export", "--candidates", str(out), "--out", str(exported)]) == 0
    assert main(["agent", "tasks", "--check", str(exported)]) == 0
    assert "replaced" not in capsys.readouterr().err
    # An existing file (the experts' seeds, say) is not written over unasked, as generate's --out is not.
    seeds_copy = tmp_path / "seeds.jsonl"
    seeds_copy.write_bytes(SEEDS.read_bytes())
    assert main(["agent", "tasks", "export", "--candidates", str(out), "--out", str(seeds_copy)]) == 2
    assert f"{seeds_copy} exists with 12 task(s): give another --out, or --replace to write over it" in (
        capsys.readouterr().err)
    assert seeds_copy.read_bytes() == SEEDS.read_bytes()
    assert main(["agent", "tasks", "export", "--candidates", str(out), "--out", str(exported), "--replace"]) == 0
    assert f"replaced the earlier {exported}" in capsys.readouterr().err


def test_report_for_a_project_made_by_hand(tmp_path: Path, capsys) -> None:
    from recordlens.core.agent.model import Trajectory
    from recordlens.core.store.project import init_project

    project = init_project(tmp_path / "p")
    try:
        site_id = project.agent.site_id("demo-site", str(SITE))
        rows = {t.id: project.agent.save_task(site_id, t) for t in DEMO_TASKS}
        reference = Trajectory.from_json(resource_path("agent", "reference", "lookup-1.json").read_text("utf-8"))
        project.agent.add_trajectory(rows["lookup-1"], reference)
    finally:
        project.close()
    assert main(["agent", "tasks", "report", "--project", str(tmp_path / "p"), "--json"]) == 0
    total = json.loads(capsys.readouterr().out)["total"]
    # Written by hand, not generated: the table says where the tasks came from.
    assert (total["by_hand"], total["generated"], total["refined"], total["with_reference"]) == (12, 0, 12, 1)
    assert total["gt_steps"] == len(reference.steps)
    assert main(["agent", "tasks", "report", "--project", str(tmp_path / "p")]) == 0
    printed = capsys.readouterr()
    assert printed.out.splitlines()[0].split()[:4] == ["category", "by", "hand", "generated"]
    assert "counting the 12 task(s) of project" in printed.err
    # The note names the tasks still to record, not only their number.
    assert "note: 11 refined task(s) have no reference trajectory yet (not in the GT steps): " in printed.out
    assert "(11 in all)" in printed.out
    assert main(["agent", "tasks", "report"]) == 2
    init_project(tmp_path / "empty").close()
    assert main(["agent", "tasks", "report", "--project", str(tmp_path / "empty")]) == 0
    assert "holds no task: every count below is zero" in capsys.readouterr().err


def test_report_counts_every_task_of_a_tasks_file_and_names_those_without_a_reference(tmp_path: Path,
                                                                                     capsys) -> None:
    """The project holds only the tasks recorded (here 2 of 12): --tasks counts the benchmark's own file."""
    from recordlens.core.agent.model import Trajectory
    from recordlens.core.store.project import init_project

    project = init_project(tmp_path / "p")
    try:
        site_id = project.agent.site_id("demo-site", str(SITE))
        for ident in ("lookup-1", "rules-1"):
            row = project.agent.save_task(site_id, next(t for t in DEMO_TASKS if t.id == ident))
            project.agent.add_trajectory(row, Trajectory.from_json(
                resource_path("agent", "reference", f"{ident}.json").read_text("utf-8")))
    finally:
        project.close()
    assert main(["agent", "tasks", "report", "--project", str(tmp_path / "p"), "--tasks", str(SEEDS), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert (table["total"]["by_hand"], table["total"]["refined"], table["total"]["with_reference"]) == (12, 12, 2)
    assert len(table["without_reference_ids"]) == 10 and "lookup-1" not in table["without_reference_ids"]
    assert main(["agent", "tasks", "report", "--project", str(tmp_path / "p"), "--tasks", str(SEEDS)]) == 0
    note = capsys.readouterr().out.splitlines()[-1]
    assert note.startswith("note: 10 refined task(s) have no reference trajectory yet (not in the GT steps): ")
    assert note.endswith("… (10 in all)") and table["without_reference_ids"][0] in note
    assert main(["agent", "tasks", "report", "--candidates", str(SEEDS), "--tasks", str(SEEDS)]) == 2


def test_the_unchecked_note_calls_edited_only_the_candidates_a_reviewer_edited(tmp_path: Path, capsys) -> None:
    edited = Candidate(task=task("gen-a", "Which licence?"), model="m", status="accepted", evidence=None,
                       original={"answer": "y"})
    untouched = Candidate(task=task("gen-b", "Which rule?"), model="m", status="unable", reason="r", evidence=None)
    out = tmp_path / "c.jsonl"
    out.write_text("".join(json.dumps(c.as_dict()) + "\n" for c in (edited, untouched)), encoding="utf-8")
    assert main(["agent", "tasks", "report", "--candidates", str(out)]) == 0
    err = capsys.readouterr().err
    assert "(edited at review: gen-a; never checked: gen-b)" in err


def test_generate_stops_at_a_failing_endpoint_keeps_what_it_has_and_says_so(
        tmp_path: Path, monkeypatch, capsys) -> None:
    from recordlens.core.llm.gemini import GeminiCaller
    from tests.fake_gemini import status

    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)
    out = tmp_path / "candidates.jsonl"
    with FakeGemini([answer_with(respond)], default=status(500, "down")) as server:
        code = main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--per-category",
                     "2", "--model", "fake-model", "--out", str(out), "--base-url", server.url])
        asked = len(server.requests)
    said = capsys.readouterr()
    assert code == 4 and asked == 1 + 5  # the first category, then one category's five attempts: no more
    assert "1 of 6 categories answered" in said.out
    assert "stopped at category 2 of 6, rules, not answered (the model endpoint failed; not asked: " in said.err
    assert len(load_candidates(out)) == 2
    # A budget that runs out before anything is kept: exit 3, nothing written, the categories named.
    with FakeGemini(default=answer_with(respond)) as server:
        code = main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--model",
                     "fake-model", "--out", str(tmp_path / "none.jsonl"), "--base-url", server.url,
                     "--max-requests", "0"])
    said = capsys.readouterr().err
    assert code == 3 and "the request budget ran out; not asked: " in said and not (tmp_path / "none.jsonl").exists()


def test_the_evidence_is_an_answer_standing_as_words_and_the_prompt_quotes_the_page_as_written() -> None:
    from recordlens.core.agent.candidates import SiteText
    from recordlens.core.agent.sites import load_site

    text = SiteText(load_site(SITE))
    assert text.find("x") == ""  # inside other words only ("six", "index"): not evidence
    written = " ".join(text.written().values())
    assert "Paperfield" in written and written != written.lower()


def test_a_category_whose_request_is_refused_is_named_and_the_others_are_asked(
        tmp_path: Path, monkeypatch, capsys) -> None:
    from tests.fake_gemini import status

    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    out = tmp_path / "candidates.jsonl"
    with FakeGemini([status(400, "the prompt is too long")], default=answer_with(respond)) as server:
        code = main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--per-category",
                     "2", "--model", "fake-model", "--out", str(out), "--base-url", server.url])
    said = capsys.readouterr()
    assert code == 1 and "5 of 6 categories answered" in said.out
    assert "the request of lookup was refused" in said.err and len(load_candidates(out)) == 10


def test_generate_keeps_an_answer_that_is_the_number_0_and_drops_a_yes_or_no_given_as_true(
        tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")

    def answers(body: dict) -> str:
        return json.dumps([{"instruction": "How many papers were withdrawn?", "answer": 0, "answer_kind": "number"},
                           {"instruction": "How many pages has 2402.00088?", "answer": 12.5,
                            "answer_kind": "number"},
                           {"instruction": "Is the archive open on Sundays?", "answer": False}])

    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(answers)) as server:
        assert main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--model",
                     "fake-model", "--out", str(out), "--base-url", server.url, "--per-category", "3"]) == 0
    kept = load_candidates(out)
    assert {c.task.answer for c in kept} == {"0", "12.5"}
    assert len(kept) == 2 * len({t.category for t in DEMO_TASKS})
    assert "an item whose answer is true or false, not the answer's words" in capsys.readouterr().err
