"""What a model's run spent, counted and said where its runs are listed, and the earlier proposals of a page that
an extractor no longer makes told apart from another extractor's. A verifier's findings:

- A page whose request was sent and whose answer was never read (the app killed while it waited, or quit without
  it) was kept as 1 attempt with tokens {}: read as 0 tokens, where an answer given up at the time limit reads as
  one whose tokens are unknown. A page the app kept as failed, every attempt given up at the time limit, read as 0
  tokens too.
- `recordlens runs` said no run's requests nor tokens; `runs --json` had tokens but no request count ("calls": 1 for
  a page asked three times: 429, 429, 200).
- Proposals another extractor made were said as ones the model proposing now "no longer makes".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.llm.gemini import UNCOUNTED
from recordlens.core.runs import Spent, spent_record, summed_cost
from recordlens.core.store import Provenance, open_project
from tests.core.cli_runs import demo_project, run

# One page asked three times (two 429s, then an answer of 1,000 prompt and 200 completion tokens): one call record
ASKED_THRICE = {"status": "done", "seconds": 4.0, "tokens": {"prompt": 1000, "completion": 200, "total": 1200},
                "raw": {"answers": ["[]"], "calls": [{"attempts": 3, "statuses": [429, 429, 200],
                                                      "tokens": {"prompt": 1000, "completion": 200,
                                                                 "total": 1200}}]}}
SELECTOR = Provenance.extractor("selector", "1.0 model shipped")
GEMINI = Provenance.extractor("gemini", "1", "flat", seed=0)
OTHER_SELECTOR = Provenance.extractor("selector", "1.0 model 3f2a9c1b5d6e7f80")  # a learnt model of the selector


def stored_model_run(project_dir: Path, pages: dict[str, dict[str, object]], *, with_requests: bool = True) -> int:
    """A run of gemini stored as the app's Propose stores one: its pages' records in its cost, summed."""
    with open_project(project_dir) as project:
        run_id = project.runs.start("gemini", {"model": "gemini-2.5-pro"})
        cost = {**summed_cost(pages.values()), "calls": 1, "page_costs": pages}
        if not with_requests:  # as a run stored before requests were kept
            cost.pop("requests")
        project.runs.finish(run_id, status="finished", cost=cost)
    return run_id


def test_a_request_sent_whose_answer_was_not_read_counts_as_an_answer_whose_tokens_are_unknown() -> None:
    awaited = spent_record(Spent(requests=2, tokens=340), 12.0, unread=1)
    cost = summed_cost([awaited])
    assert cost["tokens"] == {"total": 340, UNCOUNTED: 1} and cost["requests"] == 2, cost
    assert "its tokens unknown, not 0" in awaited["warnings"][0]  # type: ignore[index]
    # read: nothing awaited
    assert summed_cost([spent_record(Spent(requests=2, tokens=340), 12.0)])["tokens"] == {"total": 340}
    # nothing counted but the request: tokens unknown, not a total of 0
    assert summed_cost([spent_record(Spent(requests=1), 3.0, unread=1)])["tokens"] == {UNCOUNTED: 1}


def test_a_failed_page_kept_as_the_app_keeps_it_counts_its_answers_given_up_at_the_time_limit() -> None:
    failed = {"status": "failed", "reason": "Gemini call failed after 2 attempt(s): no whole answer within 300 s",
              "tokens": {}, "raw": {"calls": [{"attempts": 2, "statuses": [0, 0], "given_up": 2}]}}
    assert summed_cost([failed])["tokens"] == {UNCOUNTED: 2}


def test_runs_lists_a_model_runs_requests_and_tokens_and_its_json_counts_every_request(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    project = demo_project(capsys, tmp_path / "p")
    awaited = spent_record(Spent(requests=1), 300.0, unread=1)
    first = stored_model_run(project, {"1": ASKED_THRICE})
    second = stored_model_run(project, {"1": ASKED_THRICE, "2": awaited}, with_requests=False)
    code, table, err = run(capsys, "runs", "--project", str(project))
    assert code == 0, err
    assert "    spent 3 requests, 1,200 tokens (1,000 prompt, 200 completion)" in table.splitlines(), table
    assert ("    spent 4 requests, 1,200 tokens (1,000 prompt, 200 completion) counted, and 1 answer without token "
            "counts (their tokens unknown, not 0)") in table.splitlines(), table
    code, listing, err = run(capsys, "runs", "--project", str(project), "--json")
    assert code == 0, err
    costs = {document["id"]: document["cost"] for document in json.loads(listing)}
    assert (costs[first]["requests"], costs[first]["calls"]) == (3, 1)
    assert costs[second]["requests"] == 4 and costs[second]["tokens"][UNCOUNTED] == 1  # counted from its pages
    with open_project(project) as opened:
        assert opened.runs.get(first).spent == "3 requests, 1,200 tokens (1,000 prompt, 200 completion)"


def test_a_run_of_a_method_that_calls_no_model_says_no_spend(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    project = demo_project(capsys, tmp_path / "p")
    with open_project(project) as opened:
        run_id = opened.runs.start("repeats", {})
        opened.runs.finish(run_id, cost={"pages": 1, "seconds": 0.1})
        assert opened.runs.get(run_id).spent == ""
    code, table, _ = run(capsys, "runs", "--project", str(project))
    assert code == 0 and "spent" not in table, table


def test_only_the_same_extractors_undecided_proposals_are_ones_it_no_longer_makes(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    project = demo_project(capsys, tmp_path / "p")
    with open_project(project) as opened:
        page = opened.pages()[0].name
        opened.add_records(page, [["/html[1]/body[1]/p[9]"]], SELECTOR)
        opened.add_records(page, [["/html[1]/body[1]/p[8]"]], GEMINI)
        by_gemini = opened.weigh_proposals(page, [["/html[1]/body[1]/p[7]"]], None, GEMINI)
        assert [label.xpaths for label in by_gemini.not_made] == [("/html[1]/body[1]/p[8]",)]
        assert [label.xpaths for label in by_gemini.others] == [("/html[1]/body[1]/p[9]",)]
        # a learnt selector's: the shipped one's are its own (the model of it changed), gemini's another's
        by_learnt = opened.weigh_proposals(page, [["/html[1]/body[1]/p[7]"]], None, OTHER_SELECTOR)
        assert [label.xpaths for label in by_learnt.not_made] == [("/html[1]/body[1]/p[9]",)]
        assert [label.xpaths for label in by_learnt.others] == [("/html[1]/body[1]/p[8]",)]
        # one that does not say who proposes: every undecided proposal, as before
        assert len(opened.weigh_proposals(page, [], None).not_made) == 2
