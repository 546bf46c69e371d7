"""Search folds away the characters a page holds that show nothing, as a browser's find passes over them: a
record listed as "Zerowidth one" (a zero-width space inside) is found by "zerowidth", "Donau­dampf" (a soft
hyphen) by "donaudampf". A verifier's finding: the finder said "none found" for a text the list showed."""

from __future__ import annotations

import pytest

from recordlens.core.text_search import folded


@pytest.mark.parametrize(("typed", "held"), [
    ("zerowidth", "Zero\u200bwidth one"),          # zero-width space
    ("joinertwo", "Joiner\u200c\u200dtwo"),        # zero-width non-joiner and joiner
    ("donaudampf", "Donau\xaddampf"),              # soft hyphen
    ("wordjoiner", "Word\u2060joiner"),            # word joiner
    ("left to right", "left\u200e to\u200f right"),  # direction marks
    ("isolated", "iso\u2066lat\u2069ed"),          # direction isolates
    ("bom", "\ufeffBOM"),
    ("cafe", "Cafe\u0301\u200b"),                  # with an accent too
    ("heart", "heart\ufe0f"),                      # a variation selector
])
def test_a_typed_word_finds_a_text_holding_invisible_characters(typed: str, held: str) -> None:
    assert folded(typed) in folded(held)


def test_the_query_is_folded_alike() -> None:
    assert folded("Zero\u200bwidth") == folded("zerowidth") == "zerowidth"


def test_visible_characters_stay() -> None:
    # A hyphen stays; a Persian word with its zero-width non-joiner folded away keeps its letters.
    assert folded("Donau-dampf") == "donau-dampf"
    assert folded("می\u200cخواهم") == "میخواهم"
