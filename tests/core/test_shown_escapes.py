"""A text quoted in a message (`wording.shown`) is written as `text_forms` writes names: any lone surrogate
escaped (not only the bytes of a file name), a quote in it escaped, private-use and unassigned characters shown
as escapes; the label check's findings on such an XPath say it instead of failing."""

from __future__ import annotations

from recordlens.core.page.dom import parse_html
from recordlens.core.records.hygiene import check_page, summarise
from recordlens.core.text_forms import visible, written
from recordlens.core.wording import shown


def test_a_lone_surrogate_is_escaped_whatever_it_is() -> None:
    assert shown("li\ud800[2]") == '"li\\ud800[2]"'
    assert visible("caf\udce9") == "caf\\xe9"  # a byte of a file name that is not UTF-8, as before


def test_a_quote_inside_a_quoted_text_is_escaped() -> None:
    assert shown('say "hi"\u200b') == '"say \\"hi\\"\\u200b"'
    assert written("it's") == "'it\\'s'" and written('it"s', '"') == '"it\\"s"'


def test_private_use_and_unassigned_characters_are_shown_escaped() -> None:
    assert shown("a\ue000") == '"a\\ue000"'
    assert shown("x\u0378") == '"x\\u0378"'
    assert shown("Zoë 😀") == "Zoë 😀"


def test_the_label_check_says_an_xpath_holding_a_lone_surrogate() -> None:
    page = parse_html("<main><ul><li>a</li><li>b</li></ul></main>")
    check = check_page("1", page, [["/body[1]/main[1]/ul[1]/li\ud800[2]"]])
    assert '(first: "/body[1]/main[1]/ul[1]/li\\ud800[2]")' in summarise([check]).findings()[0]
