"""A page whose head is cut short (an iframe in it) has its `<title>` parsed into the body, a text of its text map
(`/body[1]/title[1]`). It is the document's title, not page chrome: remove_chrome dropped it from about half the
variants, and reorder_chrome moved it among the chrome."""

from __future__ import annotations

from recordlens.core.page.dom import parse_html
from recordlens.core.synth.pipeline import Source, SynthOptions, synthesise_page

PAGE = ('<!DOCTYPE html><html><head><meta charset="utf-8"><iframe></iframe><title>The shop</title></head><body>'
        '<div><nav><a href="/">Home</a></nav><p>Sale</p><ul><li><b>Acme</b><i>7</i></li><li><b>Beta</b><i>8</i></li>'
        '<li><b>Gamma</b><i>9</i></li></ul><footer>(c) shop</footer></div></body></html>')


def test_a_title_in_the_body_is_kept_by_every_chrome_transformation() -> None:
    page = parse_html(PAGE)
    title = next(e.xpath for e in page.elements if e.tag == "title")
    assert title.startswith("/body[1]/") and page.text_map[title] == "The shop"
    records = [[f"/body[1]/div[1]/ul[1]/li[{k}]"] for k in (1, 2, 3)]
    removed = 0
    for variant in range(1, 13):
        for transform in ("remove_chrome", "reorder_chrome"):
            result = synthesise_page(Source("p", PAGE, records), variant, SynthOptions(content=False),
                                     chosen=[transform])
            made = parse_html(result.html)
            assert "The shop" in made.text_map.values(), (transform, variant)
            removed += transform == "remove_chrome" and result.transforms[0]["count"] > 0
    assert removed  # chrome was removed all the same (the nav, the paragraph, the footer)
