"""How messages word counts and lists (core/wording.py)."""

from __future__ import annotations

from recordlens.core.wording import counted, listed, shortened


def test_counted_says_one_in_the_singular_and_groups_thousands() -> None:
    assert counted(1, "record") == "1 record"
    assert counted(1200, "entry", "entries") == "1,200 entries"


def test_listed_names_the_first_few_and_marks_the_rest() -> None:
    names = [f"p{i}" for i in range(1, 8)]
    assert listed(names[:3]) == "p1, p2, p3"
    assert listed(names) == "p1, p2, p3, p4, p5, ..."
    assert listed(names[:5]) == "p1, p2, p3, p4, p5"


def test_listed_with_a_total_says_how_many_where_the_line_does_not() -> None:
    names = [str(i) for i in range(1, 1502)]
    assert listed(names, 3, total=True) == "1, 2, 3, … (1,501 in all)"
    assert listed(names[:3], 3, total=True) == "1, 2, 3"


def test_shortened_cuts_after_a_whole_word() -> None:
    assert shortened("a short text", 40) == "a short text"
    assert shortened("one two three four", 12) == "one two…"
