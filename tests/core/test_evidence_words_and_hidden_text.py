"""The gold-answer check (`SiteText`) found "5" in "$24.50" and "1" in "1.7 litres", so a task's evidence pointed at
the wrong page and an answer on no page passed; and it read text the page hides (a `hidden` element, `display:
none`), which no agent's browser shows, and quoted it to the model. Now a number is found only as a number of its
own, and the pages are read as the agents' browsers read them (`page_text`)."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.candidates import SiteText
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import mhtml_bytes

KETTLE = "http://shop.example/product/1"
LIVING = "http://shop.example/category/living"
HIDDEN = "http://shop.example/hidden"
NUMBERS = ("case", "numbers", "units", "punctuation", "whitespace")


def _site(folder: Path):  # noqa: ANN202
    pages = {"a-kettle": (KETTLE, "<h1>Alder Kettle</h1><p>Price $24.50. Holds 1.7 litres. Sold 4,213 times.</p>"),
             "b-living": (LIVING, "<h1>Living</h1><p>Living 5 products.</p>"),
             "c-hidden": (HIDDEN, "<p>Welcome.</p><div hidden>Staff discount code 4242</div>"
                                  "<p style=\"display:none\">Warehouse shelf 777</p>")}
    for name, (url, body) in pages.items():
        (folder / f"{name}.mhtml").write_bytes(mhtml_bytes(f"<html><body>{body}</body></html>", url=url))
    return build_site(folder)


def test_a_number_is_not_found_inside_a_decimal_or_a_longer_number(tmp_path: Path) -> None:
    text = SiteText(_site(tmp_path))
    assert text.locate("5", NUMBERS, question="How many products are in the Living category?") == (LIVING, 1)
    assert text.locate("7", NUMBERS) == ("", 0)  # only the "7" of "1.7"
    assert text.locate("1", NUMBERS) == ("", 0)  # only the "1" of "1.7" (and "product/1" is no text)
    assert text.locate("4", ()) == ("", 0)  # only the "4" of "4,213" as written
    assert text.locate("1.7", NUMBERS) == (KETTLE, 1)  # the decimal itself, and the price and count, are found
    assert text.locate("24.50", NUMBERS) == (KETTLE, 1)
    assert text.locate("4213", NUMBERS) == (KETTLE, 1)


def test_text_the_page_hides_is_not_on_the_site(tmp_path: Path) -> None:
    text = SiteText(_site(tmp_path))
    assert text.locate("4242") == ("", 0) and text.locate("777") == ("", 0)
    assert text.written()[HIDDEN] == "Welcome."  # what a prompt quotes of the page


SIZES = "http://shop.example/product/2"


def test_a_comma_groups_thousands_only_before_exactly_three_digits(tmp_path: Path) -> None:
    """ "38,39,40" lists three numbers: "39" is on the page. "4,213" and "12,345,678" are each one number."""
    body = "<h1>Boot</h1><p>Sizes 38,39,40. Packs of 1,2,3. Sold 4,213 times; 12,345,678 views.</p>"
    (tmp_path / "a-boot.mhtml").write_bytes(mhtml_bytes(f"<html><body>{body}</body></html>", url=SIZES))
    text = SiteText(build_site(tmp_path))
    for listed_number in ("38", "39", "40", "1", "2", "3"):
        assert text.locate(listed_number, ()) == (SIZES, 1), listed_number
        assert text.locate(listed_number, NUMBERS) == (SIZES, 1), listed_number
    for grouped_part in ("4", "213", "12", "345", "678"):  # parts of one number, as written
        assert text.locate(grouped_part, ()) == ("", 0), grouped_part
    assert text.locate("4,213", ()) == (SIZES, 1)
    assert text.locate("12345678", NUMBERS) == (SIZES, 1)
