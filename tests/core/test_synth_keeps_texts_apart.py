"""A variant keeps apart the texts its page holds apart (a comment, a script, chrome removed between them): parsed
again, they are not one text, so that `--no-content` keeps the text map NEXT-EVAL builds (comments removed
without merging text nodes, NEXT-EVAL-NOTES §2.1), and Flat, Hier and outline inputs read the same texts."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.page.dataset import load_page, page_files
from recordlens.core.page.dom import Page, js_trim, parse_html
from recordlens.core.records.model import load_records
from recordlens.core.synth.pipeline import Source, SynthOptions, synthesise_page
from recordlens.core.synth.transforms import CHROME_TEXTS, NAV_TEXTS

# React's server rendering writes `<!-- -->` between texts; a script and SVG text hold texts apart too.
PAGE = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body>'
        '<div>before<nav><a href="/">Home</a></nav>after<ul>'
        '<li><b>Pharma Inc.<!-- -->Pharma Inc.</b><i>(<!-- -->12<!-- -->)</i></li>'
        '<li><b>Acme</b><i>(7)</i><p>one<script>var x;</script>two</p></li>'
        '<li><b>Beta</b> <svg><text>left<!---->right</text></svg></li></ul></div></body></html>')
RECORDS = [["/body[1]/div[1]/ul[1]/li[1]"], ["/body[1]/div[1]/ul[1]/li[2]"], ["/body[1]/div[1]/ul[1]/li[3]"]]


def texts(page: Page) -> Counter[str]:
    """Every text node of the page, trimmed (blank ones aside)."""
    return Counter(t for e in page.elements for c in e.children if isinstance(c, str) and (t := js_trim(c)))


def test_no_content_at_rate_0_keeps_the_text_map_in_the_html_and_the_mhtml(tmp_path: Path) -> None:
    (tmp_path / "in" / "html").mkdir(parents=True)
    (tmp_path / "in" / "gt").mkdir()
    (tmp_path / "in" / "html" / "p.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "in" / "gt" / "p.json").write_text(str(RECORDS).replace("'", '"'), encoding="utf-8")
    assert main(["synth", "--pages", str(tmp_path / "in" / "html"), "--gt", str(tmp_path / "in" / "gt"), "--out",
                 str(tmp_path / "out"), "--variants", "1", "--rate", "0", "--no-content", "-q"]) == 0
    source = parse_html(PAGE)
    assert source.text_map["/body[1]/div[1]/ul[1]/li[1]/b[1]"] == "Pharma Inc."
    for variant in (tmp_path / "out" / "html" / "p_v1.html", tmp_path / "out" / "mhtml" / "p_v1.mhtml"):
        page = load_page(variant).page
        assert list(page.text_map.items()) == list(source.text_map.items()), variant
        assert texts(page) == texts(source)


def test_chrome_removed_between_two_texts_leaves_them_apart() -> None:
    source = parse_html(PAGE)
    result = synthesise_page(Source("p", PAGE, RECORDS), 1, SynthOptions(content=False), chosen=["remove_chrome"])
    assert result.transforms[0]["count"] == 1  # the <nav>, the only element beside the records' ancestors
    page = parse_html(result.html)
    assert "Home" not in page.text_map.values()
    assert page.text_map["/body[1]/div[1]"] == "after"  # not "beforeafter"
    assert texts(page) == texts(source) - Counter({"Home": 1})


def test_the_40_dev_pages_keep_their_text_map_at_rate_0_and_no_transformation_merges_texts(dev_dir: Path) -> None:
    pages = page_files(dev_dir / "html")
    assert len(pages) == 40
    inserted = set(CHROME_TEXTS) | set(NAV_TEXTS)
    changed, merged = [], []
    for name, path in pages.items():
        loaded = load_page(path)
        source = Source(name, loaded.snapshot.html, load_records(dev_dir / "gt" / f"{name}.json").records)
        kept = parse_html(synthesise_page(source, 1, SynthOptions(rate=0.0, content=False)).html)
        if list(kept.text_map.items()) != list(loaded.page.text_map.items()):
            changed.append(name)
        # every transformation: a text of the variant is one of its page's, or one of the chrome inserted
        transformed = parse_html(synthesise_page(source, 1, SynthOptions(rate=1.0, content=False, seed=3)).html)
        new = [t for t in texts(transformed) - texts(loaded.page) if t not in inserted]
        if new:
            merged.append(f"{name}: {new[0]!r}")
    assert not changed, f"text maps changed on {changed}"
    assert not merged, f"texts merged on {merged}"


@pytest.mark.parametrize("content", [True, False])
def test_a_variant_keeps_its_text_map_keys_and_the_count_of_texts(content: bool) -> None:
    source = parse_html(PAGE)
    page = parse_html(synthesise_page(Source("p", PAGE, RECORDS), 2, SynthOptions(rate=0.0, content=content)).html)
    assert list(page.text_map) == list(source.text_map)
    assert sum(texts(page).values()) == sum(texts(source).values())
