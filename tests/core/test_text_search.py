"""Search folding: what the user types finds what a page holds, whatever Unicode form, case or accents either has
(as a browser's find does), and a mark that makes another word in its script is kept."""

from __future__ import annotations

import unicodedata

import pytest

from recordlens.core.text_search import folded


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


@pytest.mark.parametrize(("typed", "held"), [
    ("résumé", nfd("Café résumé naïve")),            # typed NFC, saved NFD (macOS, some CMSes)
    ("RÉSUMÉ", nfd("Café résumé naïve")),
    ("Hà Nội", nfd("Tiếng Việt có dấu: Hà Nội")),
    ("STRASSE", "Straße"),                           # casefold, not lower
    ("nandu", "ñandú"),                              # accents ignored
    ("istanbul", "İstanbul"),
    ("istanbul", nfd("İstanbul")),
    ("zoe angstrom", nfd("Zoë Ångström")),
    ("fi", "ﬁne"),                                   # compatibility forms
    ("abc", "ＡＢＣ"),
    ("ελληνικα", nfd("Ελληνικά")),
])
def test_a_typed_word_finds_the_text_in_any_form(typed, held):
    assert folded(typed) in folded(held)


def test_a_mark_that_makes_another_word_is_kept():
    assert folded("か") not in folded("が")                     # a Japanese voicing mark is not an accent
    assert folded("が") in folded(nfd("がっこう"))                # ... but its forms are one
    assert folded("कल") not in folded("कुल")                      # nor is a Devanagari vowel sign


def test_folding_is_idempotent():
    for text in ("İstanbul ıIiİ", nfd("Ḗ ṏ ǖ ẞtraße"), "ﬃ ℌ"):
        assert folded(folded(text)) == folded(text)
