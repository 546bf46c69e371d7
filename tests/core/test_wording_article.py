"""`with_article`: "a" or "an" by how the word sounds ("an unable verdict" was written "a unable verdict")."""

from __future__ import annotations

import pytest

from recordlens.core.wording import with_article


@pytest.mark.parametrize(("word", "said"), [
    ("unable", "an unable"), ("expired", "an expired"), ("accepted", "an accepted"), ("similar", "a similar"),
    ("candidate", "a candidate"), ("unique id", "a unique id"), ("user", "a user"), ("one-off", "a one-off"),
    ("hour", "an hour"), ("honest answer", "an honest answer"), ("house", "a house"),
    ("URL", "a URL"), ("HTML page", "an HTML page"), ("XPath", "an XPath"), ("PNG", "a PNG"), ("MHTML", "an MHTML"),
    ("", "a "),
])
def test_the_article_follows_the_sound(word: str, said: str) -> None:
    assert with_article(word) == said
