"""The text browser's page text held the text of elements its own style makes invisible (`style="visibility:
hidden"`), which the Qt browser's leaves out (som.js `pageText` reads no text whose computed visibility is not
`visible`). Visibility is inherited, and a part made `visibility: visible` again inside an invisible element shows
(tests/app/test_qt_browser_agrees_on_hidden_parts.py holds the Qt browser to the same page)."""

from __future__ import annotations

from recordlens.core.agent.loop import LOOP_RULES
from recordlens.core.agent.page_text import page_text
from recordlens.core.page.dom import parse_html
from tests.core.hidden_parts_page import INVISIBLE_TEXTS, page_of


def test_invisible_text_is_not_the_pages_text() -> None:
    for body, expected in INVISIBLE_TEXTS:
        page = parse_html(page_of(body))
        assert page_text(page) == expected, body
    assert LOOP_RULES["text_leaves_invisible_out"] is True


def test_an_invisible_body_shows_only_what_is_made_visible_again() -> None:
    page = parse_html('<html style="visibility: hidden"><body><p>None</p><p style="visibility: visible">Some</p>'
                      "</body></html>")
    assert page_text(page) == "Some"
