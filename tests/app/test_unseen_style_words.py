"""The words a record selected with nothing drawn is said in, for the reasons overlay.js gives of a record laid
out but painted nowhere (tests/app/test_unseen_styles_hidden.py draws them): each its own, the element around
it that set it named by its tag, as display: none on an enclosing element is."""

from __future__ import annotations

import pytest

from recordlens.annotator.labelling.page_view import unseen_words

pytestmark = pytest.mark.app


@pytest.mark.parametrize(("why", "words"), [
    ("visibility", "its element is hidden (visibility: hidden)"),
    ("visibility:section", "its element is hidden (visibility: hidden on an enclosing <section>)"),
    ("opacity", "its element is transparent (opacity: 0)"),
    ("opacity:section", "its element is transparent (opacity: 0 on an enclosing <section>)"),
    ("offpage", "its element is placed wholly off the page, where no scrolling reaches"),
    ("clipped", "its element is cut to no height or width on the page (overflow: hidden)"),
    ("none:div", "its element is hidden (display: none on an enclosing <div>)"),
])
def test_each_reason_is_said_in_its_own_words(why: str, words: str) -> None:
    assert unseen_words(why) == words
