"""Propose with Gemini cancelled while a page's answer is awaited keeps that page in its run as cancelled, with what
the page spent: before, the record written as the page's budget counted (`ProposalRun.record_spent`) stayed, and said
the run had been killed part way through the page, when it had been cancelled. An answer that comes later takes the
cancel's place, as it takes any record's of its page; it used to be kept as failed, for "Signal source has been
deleted": the call said the wait it would not make through the job, deleted by then. A budget tell that comes after
a page's own record (told as Cancel let go of the call's hook) leaves that record as it is, where it used to put
back the record of a page still being asked.

Against the loopback fake of Gemini, whose answer to the page never comes until the server ends."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from recordlens.annotator.labelling.propose import CANCELLED_PART_WAY, ProposalRun
from recordlens.annotator.qt.jobs import answers_on_their_way
from recordlens.core.llm import BudgetExceededError
from recordlens.core.llm.gemini import requests_of_call
from recordlens.core.runs import NOT_FINISHED, Spent, model_calls
from recordlens.core.store import open_project
from tests.app.gemini_helpers import SHOP_PAGE, with_gemini
from tests.app.window_helpers import imported_project, open_window
from tests.fake_gemini import FakeGemini, hang

pytestmark = pytest.mark.app

NEVER_S = 600.0  # the answer's wait: past the test, released when the server ends


def requests_kept(record: dict[str, object]) -> int:
    return sum(requests_of_call(call) for call in model_calls(record.get("raw")))


def page_kept(window, page: str) -> dict[str, object]:  # noqa: ANN001 - the MainWindow
    (stored,) = window.project.runs.all()
    return stored.cost["page_costs"][page]


def test_a_page_cancelled_while_its_answer_is_awaited_is_kept_as_cancelled_with_what_it_spent(
        qtbot, tmp_path: Path) -> None:
    folder = imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        with FakeGemini([hang(NEVER_S)]) as server:
            with_gemini(window, server)
            window.jobs.propose(["1"])
            qtbot.waitUntil(lambda: len(server.requests) == 1, timeout=60_000)
            window.jobs.do_cancel_job()
            qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
            (stored,) = window.project.runs.all()
            assert stored.status == "cancelled"
            kept = page_kept(window, "1")
            assert kept["status"] == NOT_FINISHED and kept["reason"] == CANCELLED_PART_WAY, kept
            assert requests_kept(kept) == 1, kept
        # The server's end closes the request: the call ends (no further attempt after Cancel), in its own words
        qtbot.waitUntil(lambda: answers_on_their_way() == 0, timeout=60_000)
        late = page_kept(window, "1")
        # not failed for the status bar's notice the call made as it ended (its job deleted by then)
        assert late["status"] == NOT_FINISHED, late
        assert str(late["reason"]).startswith("cancelled while waiting to retry after connection problem"), late
        assert requests_kept(late) == 1, late
    finally:
        window.close()


def test_a_budget_tell_after_the_pages_own_record_leaves_that_record(tmp_path: Path) -> None:
    folder = imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)})
    with open_project(folder) as project:
        run = ProposalRun(project.root, project.runs.start("gemini", {}))
        begun = time.monotonic()
        run.record_spent("1", begun, Spent(requests=1))
        run.record(project, "1", BudgetExceededError("the run's budget of 1 request is spent"))
        run.record_spent("1", begun, Spent(requests=1, tokens=120))  # told as the call's hook was let go
        kept = project.runs.get(run.run_id).cost["page_costs"]["1"]
    assert kept == {"status": NOT_FINISHED, "reason": "the run's budget of 1 request is spent"}, kept


def test_a_budget_tell_after_a_cancel_leaves_the_page_cancelled(tmp_path: Path) -> None:
    folder = imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)})
    with open_project(folder) as project:
        run = ProposalRun(project.root, project.runs.start("gemini", {}))
        begun = time.monotonic()
        run.record_spent("1", begun, Spent(requests=1))
        run.cancelled(project, "1")
        run.record_spent("1", begun, Spent(requests=2))  # on its way as Cancel came
        kept = project.runs.get(run.run_id).cost["page_costs"]["1"]
    assert kept["reason"] == CANCELLED_PART_WAY and requests_kept(kept) == 1, kept


def test_a_cancel_after_the_pages_own_record_leaves_that_record(tmp_path: Path) -> None:
    """The answer came (in its call's thread) before the job's Cancel came to the page: the answer's record stays."""
    folder = imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)})
    with open_project(folder) as project:
        run = ProposalRun(project.root, project.runs.start("gemini", {}))
        run.record_spent("1", time.monotonic(), Spent(requests=1))
        run.record(project, "1", BudgetExceededError("cancelled: no further Gemini call made"))
        run.cancelled(project, "1")
        kept = project.runs.get(run.run_id).cost["page_costs"]["1"]
    assert kept["reason"] == "cancelled: no further Gemini call made", kept
