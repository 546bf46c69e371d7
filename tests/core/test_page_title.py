"""A page's title is what document.title gives: the first HTML <title>, never an SVG one (checked in QtWebEngine
by tests/app/test_odd_pages_conformance.py)."""

from __future__ import annotations

import pytest

from recordlens.core.page.snapshot import read_html, title_from_html


@pytest.mark.parametrize(
    ("html", "title"),
    [
        ("<html><body><svg><title>svg title</title></svg><p>x</p></body></html>", None),
        ("<body><svg><g><title>svg title</title></g></svg><title> Page  &amp; co </title></body>", "Page & co"),
        ("<body><math><title>m</title></math><template><title>t</title></template><title>real</title></body>",
         "real"),
        ("<body><svg/><title>after a closed svg</title></body>", "after a closed svg"),
        ("<head><title>head</title></head><body><svg><title>svg</title></svg></body>", "head"),
    ],
)
def test_the_title_is_the_first_html_title(html: str, title: str | None) -> None:
    assert title_from_html(html) == title
    assert read_html(html.encode()).title == title
