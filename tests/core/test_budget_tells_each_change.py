"""A `Budget` tells `on_change` after each change of its counts (a request reserved or given back, an answer's tokens
or its lack of them counted), and of nothing else: what keeps a record of the counts (an agent run's stored cost)
writes them as they change, with no subclass copying the budget's state. It is told outside the budget's lock, so it
may read the counts (as the agent run's cost does), from another thread too."""

from __future__ import annotations

import logging
import sqlite3
import threading

import pytest

from recordlens.core.llm.gemini import Budget, BudgetExceededError


def test_each_change_of_the_counts_is_told_with_the_counts_as_they_are_now() -> None:
    told: list[tuple[int, int]] = []
    budget = Budget(max_requests=2)
    budget.on_change = lambda: told.append(budget.counts())
    budget.reserve_request()
    budget.add_tokens(120)
    budget.reserve_request()
    budget.release_request()  # its connection refused: never sent
    budget.add_uncounted()
    assert told == [(1, 0), (1, 120), (2, 120), (1, 120), (1, 120)]


def test_a_request_refused_by_the_cap_is_no_change() -> None:
    told: list[str] = []
    budget = Budget(max_requests=1, on_change=lambda: told.append("changed"))
    budget.reserve_request()
    with pytest.raises(BudgetExceededError):
        budget.reserve_request()
    assert told == ["changed"]
    assert budget.counts() == (1, 0)


def test_it_is_told_outside_the_lock() -> None:
    budget = Budget()
    read_elsewhere: list[tuple[int, int]] = []

    def read_in_another_thread() -> None:
        reader = threading.Thread(target=lambda: read_elsewhere.append(budget.counts()))
        reader.start()
        reader.join(10)

    budget.on_change = read_in_another_thread
    budget.reserve_request()
    assert read_elsewhere == [(1, 0)]


def test_a_budget_without_one_counts_as_before_and_compares_without_it() -> None:
    budget = Budget(max_tokens=1000)
    budget.reserve_request()
    budget.add_tokens(10)
    assert budget.counts() == (1, 10)
    assert Budget(max_tokens=1000, on_change=print) == Budget(max_tokens=1000)


def test_a_record_that_cannot_be_written_sends_no_request_and_loses_no_answer(caplog) -> None:
    """What keeps the counts fails (its database locked, a full disk): a request it could not record is not sent
    (taken back, the failure raised), but an answer already paid for is kept and counted, the failure said on the
    log (a reviewer's finding: the failure escaped `add_tokens`, and the answer read was thrown away)."""
    def cannot_write() -> None:
        raise sqlite3.OperationalError("database is locked")

    budget = Budget(max_requests=5)
    budget.reserve_request()
    budget.on_change = cannot_write
    with pytest.raises(sqlite3.OperationalError):
        budget.reserve_request()
    assert budget.requests == 1
    with caplog.at_level(logging.WARNING):
        budget.add_tokens(1234)
        budget.add_uncounted()
        budget.release_request()
    assert (budget.requests, budget.tokens, budget.uncounted) == (0, 1234, 1)
    assert sum("database is locked" in record.getMessage() for record in caplog.records) == 3
