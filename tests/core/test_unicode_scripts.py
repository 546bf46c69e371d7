"""The script a character is written in has one home, `core/unicode_scripts.script` (the first word of its Unicode
name): the charset guess, the near-duplicate filter and synth's content changer each had their own copy."""

from __future__ import annotations

from recordlens.core.agent import near_duplicates
from recordlens.core.page import charset_detection
from recordlens.core.synth import content
from recordlens.core.unicode_scripts import script


def test_a_character_s_script_is_the_first_word_of_its_unicode_name() -> None:
    assert [script(c) for c in "aéжשא検かカ"] == ["LATIN", "LATIN", "CYRILLIC", "HEBREW", "HEBREW", "CJK",
                                                   "HIRAGANA", "KATAKANA"]
    assert script("\u0378") == script("\x85") == ""  # unassigned, a control: no name


def test_the_charset_guess_the_near_duplicate_filter_and_synth_share_it() -> None:
    assert not hasattr(near_duplicates, "_script")
    assert near_duplicates.script is content.script is charset_detection.script is script
    # the charset guess takes the scripts that mix in one word of Chinese, Japanese or Korean text as one
    assert {charset_detection._script(c) for c in "検かカｶ"} == {"CJK"}
    assert charset_detection._script("ж") == "CYRILLIC"


def test_synth_still_tells_latin_words_from_others() -> None:
    assert content._is_latin("Łódź") and content._is_latin("café")
    assert not content._is_latin("Привет") and not content._is_latin("東京")
