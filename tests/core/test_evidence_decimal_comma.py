"""The gold-answer check (`SiteText`) found "5" on a page that says "2,5" (a decimal comma: 2.5 kg), so an answer on
no page passed as found, and its evidence pointed at the wrong page. A comma between digits now reads as a careful
reader reads it: before exactly three digits it groups thousands ("4,213"); otherwise, the number's only comma, it
is a decimal comma ("2,5", "1.234,5"): both join the digits into one number. Only a run of commas that are not all
thousands lists numbers ("38,39,40")."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.candidates import SiteText
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import mhtml_bytes

SCALE = "http://shop.example/product/3"
OTHER = "http://shop.example/product/4"
NUMBERS = ("case", "numbers", "units", "punctuation", "whitespace")


def _text(folder: Path, pages: dict[str, tuple[str, str]]) -> SiteText:
    for name, (url, body) in pages.items():
        (folder / f"{name}.mhtml").write_bytes(mhtml_bytes(f"<html><body>{body}</body></html>", url=url))
    return SiteText(build_site(folder))


def test_no_part_of_a_number_with_a_decimal_comma_is_found(tmp_path: Path) -> None:
    text = _text(tmp_path, {"a-scale": (SCALE, "<h1>Scale</h1><p>Weighs 2,5 kg. Costs 1.234,50 euros. "
                                               "Rated 4,75 of 5 stars.</p>")})
    for part in ("2", "1", "234", "50", "4", "75"):  # a piece of 2,5 or 1.234,50 or 4,75
        assert text.locate(part, ()) == ("", 0), part
        assert text.locate(part, NUMBERS) == ("", 0), part
    assert text.locate("5", ()) == (SCALE, 1)  # the "of 5 stars", which stands alone
    for whole in ("2,5 kg", "1.234,50", "4,75"):  # the numbers themselves, as written
        assert text.locate(whole, ()) == (SCALE, 1), whole
        assert text.locate(whole, NUMBERS) == (SCALE, 1), whole
    assert text.locate("2,5", ()) == (SCALE, 1)  # (under `units`, the page's "2,5 kg" is the word "2,5kg")


def test_the_evidence_of_a_number_is_the_page_that_holds_it_alone(tmp_path: Path) -> None:
    """A page's "2,5" is no occurrence of the answer "5": the evidence is the page where 5 stands alone."""
    text = _text(tmp_path, {"a-scale": (SCALE, "<h1>Scale</h1><p>Warranty 2,5 years.</p>"),
                            "b-kettle": (OTHER, "<h1>Kettle</h1><p>Warranty 5 years.</p>")})
    assert text.locate("5", NUMBERS, first=SCALE, question="How many years of warranty?") == (OTHER, 1)


def test_lists_and_thousands_read_as_before(tmp_path: Path) -> None:
    """More than one comma, not all before three digits, lists numbers; one before three digits groups them."""
    text = _text(tmp_path, {"a-boot": (SCALE, "<p>Sizes 38,39,40. Sold 4,213 times. Packs of 1,2,3.</p>")})
    for listed in ("38", "39", "40", "1", "2", "3"):
        assert text.locate(listed, ()) == (SCALE, 1), listed
    for grouped_part in ("4", "213"):
        assert text.locate(grouped_part, ()) == ("", 0), grouped_part
    assert text.locate("4213", NUMBERS) == (SCALE, 1)
