"""Answer normalisation's `numbers` rule read ASCII digits only: "1200 ر.س" was wrong against the gold "١٢٠٠ ر.س",
and `punctuation` made the Arabic decimal separator a space (`١٫٥` became `١ ٥`). Every script's decimal digits
are now its ASCII digits under `numbers`, the Arabic decimal and thousands separators between digits `.` and `,`
(before `punctuation` runs); `punctuation` keeps them between digits as it keeps `.` and `,`."""

from __future__ import annotations

import pytest

from recordlens.core.agent.answers import NORMALISE_RULES, normalise_answer

ALL = list(NORMALISE_RULES)


@pytest.mark.parametrize(("a", "b", "rules", "equal"), [
    ("1200 ر.س", "١٢٠٠ ر.س", ["numbers"], True),      # Arabic-Indic
    ("1200 تومان", "۱۲۰۰ تومان", ["numbers"], True),  # Persian (extended Arabic-Indic)
    ("1200", "१२००", ["numbers"], True),              # Devanagari
    ("150 บาท", "๑๕๐ บาท", ["numbers"], True),        # Thai
    ("42", "৪২", ["numbers"], True),                  # Bengali
    ("1.5", "١٫٥", ["numbers"], True),                # the Arabic decimal separator is a decimal point
    ("3.5", "٣٫٥٠", ["numbers"], True),               # ... whose trailing zeros go as any decimal's
    ("1024", "١٬٠٢٤", ["numbers"], True),             # the Arabic thousands separator groups thousands
    ("1200 ر.س", "١٢٠٠ ر.س", ALL, True),
    ("1.5 كغ", "١٫٥ كغ", ALL, True),
    ("15", "١٫٥", ALL, False),                        # the decimal separator is no punctuation to drop
    ("1200", "١٢٠٠", ["whitespace"], False),          # only `numbers` reads digits of other scripts
])
def test_digits_of_every_script(a: str, b: str, rules: list[str], equal: bool) -> None:
    assert (normalise_answer(a, rules) == normalise_answer(b, rules)) is equal


def test_punctuation_keeps_the_arabic_separators_inside_a_number() -> None:
    assert normalise_answer("١٫٥", ["punctuation"]) == "١٫٥"
    assert normalise_answer("١٬٠٢٤", ["punctuation"]) == "١٬٠٢٤"
    assert normalise_answer("نعم٬ لا", ["punctuation"]) == "نعم  لا"  # not between digits: a space as any mark
    assert normalise_answer("١٫٥", ["numbers", "punctuation"]) == "1.5"
