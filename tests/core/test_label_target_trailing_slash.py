"""A label XPath written with a trailing "/" names its element's descendants, as the score reads it
(NEXT-EVAL-NOTES §4.1). The rule has one home, `page.dom` (`descendants_root`, `Page.label_target`), which
`Page.resolve` and synth both read: synth kept its own copy of it, which could drift from the page's."""

from __future__ import annotations

from recordlens.core.page.dom import descendants_root, parse_html
from recordlens.core.synth import SynthOptions, synthesise_page
from recordlens.core.synth.pipeline import Source

PAGE = "<main><ul><li>a</li><li>b</li></ul><p>after</p></main>"


def test_the_root_of_a_trailing_slash_is_said_by_one_function() -> None:
    assert descendants_root("/body[1]/main[1]/ul[1]/") == "/body[1]/main[1]/ul[1]"
    assert descendants_root("/body[1]/main[1]/ul[1]") is None
    assert descendants_root("/") is None and descendants_root("") is None  # the root: every text
    assert descendants_root("/body[1]/main[1]//") is None  # an empty step names nothing


def test_a_page_says_the_element_a_label_names_and_whether_only_its_descendants() -> None:
    page = parse_html(PAGE)
    ul = page.resolve("/body[1]/main[1]/ul[1]")
    assert page.label_target("/html/body/main/ul/") == (ul, True)
    assert page.label_target("/body[1]/main[1]/ul[1]") == (ul, False)
    assert page.label_target("/html[1]/") == (page.root, False) and page.label_target("/") == (page.root, False)
    assert page.label_target("/body[1]/main[1]/ul[9]/") == (None, False)
    assert page.label_target("/body[1]/main[1]/ul[1]//") == (None, False)


def test_synth_writes_the_trailing_slash_back_where_the_page_reads_one() -> None:
    records = [["/html/body/main/ul/", "/body[1]/main[1]/p[1]"], ["/html[1]/"]]
    variant = synthesise_page(Source("1", PAGE, records), 1, SynthOptions(transforms=(), content=False))
    written = parse_html(variant.html)
    assert [[written.label_target(x)[1] for x in record] for record in variant.records] == [[True, False], [False]]
    assert variant.records[0][0].endswith("/") and not variant.records[0][1].endswith("/")
