"""`numbers` kept a decimal's trailing zeros when a full stop (or an ellipsis) followed it: "$24.50." was scored
wrong against "$24.50" under all five rules, while "24.5.", "1,250." and "2.50;" matched. A point that no digit
follows ends the sentence: the number before it is a decimal as any other (a point followed by a digit still makes
a version, `1.2.30`, no decimal)."""

from __future__ import annotations

import pytest

from recordlens.core.agent.answers import NORMALISE_RULES, is_correct, normalise_answer
from recordlens.core.agent.model import Task

ALL = NORMALISE_RULES


@pytest.mark.parametrize(("answer", "gold"), [
    ("$24.50.", "$24.50"),
    ("24.50.", "24.50"),
    ("3.0.", "3"),
    ("-3.50.", "-3.5"),
    ("1,024.00.", "1024"),
    ("2.50\u2026", "2.5"),  # an ellipsis (NFKC: three points)
    ("24.5.", "24.5"),
    ("1,250.", "1250"),
    ("2.50;", "2.5"),
    ("The price is 3.50.", "the price is 3.5"),
])
def test_a_decimal_that_ends_a_sentence_loses_its_trailing_zeros(answer: str, gold: str) -> None:
    assert normalise_answer(answer, ALL) == normalise_answer(gold, ALL)


@pytest.mark.parametrize(("answer", "gold"), [
    ("1.2.30", "1.2.3"),     # a version: no decimal, its zero kept
    ("1.2.30.", "1.2.3"),
    ("1.000.", "1"),         # may be one thousand: left as written, a full stop after it or not
    ("3.51.", "3.5"),
])
def test_what_is_no_decimal_or_another_number_stays_apart(answer: str, gold: str) -> None:
    assert normalise_answer(answer, ALL) != normalise_answer(gold, ALL)


def test_the_numbers_rule_alone_keeps_the_full_stop_as_written() -> None:
    assert normalise_answer("24.50.", ["numbers"]) == "24.5."
    assert normalise_answer("2.50\u2026", ["numbers"]) == "2.5..."


def test_an_agents_answer_ending_a_sentence_is_correct() -> None:
    task = Task("lookup-1", "What is the price of the Alder Kettle?", "$24.50", answer_kind="number",
                normalise=tuple(ALL))
    assert is_correct(task, "$24.50.") and is_correct(task, "$24.50") and not is_correct(task, "$24.05.")
