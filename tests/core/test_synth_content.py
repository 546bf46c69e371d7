"""Content changes keep each text's kind, replace its content, and depend only on the seed."""

from __future__ import annotations

import re

import pytest

from recordlens.core.synth.content import ContentChanger, kind_of

EXAMPLES = {
    "$1,299.00": "price", "12,50 €": "price", "USD 45": "price", "£35,000.00": "price",
    "March 5, 2024": "date", "Mon, 5 Mar 2024": "date", "2024-03-05": "date", "05/03/24": "date",
    "Jan. 3rd, 2020": "date", "Sept 2023": "date",
    "10:30 AM": "time", "23:15": "time",
    "42": "number", "2.85%": "number", "15,387,921": "number", "+44 (0)20 7946 0958": "number",
    "John Smith": "name", "Mary J. Watson": "name",
    "jane.doe@shop.co.uk": "email",
    "https://www.real-shop.com/kitchen/pans?id=123#top": "url", "www.foo.com/abc": "url",
    "Add to cart": "text", "8.12K following": "text", "Москва": "text",
    "★": "symbol", "|": "symbol", "–": "symbol",
}


@pytest.mark.parametrize(("text", "kind"), EXAMPLES.items())
def test_kinds_are_recognised(text: str, kind: str) -> None:
    assert kind_of(text) == kind


@pytest.mark.parametrize(("text", "kind"), EXAMPLES.items())
def test_a_replacement_keeps_the_kind_and_changes_the_content(text: str, kind: str) -> None:
    for seed in range(5):
        replaced = ContentChanger(seed).text(text)
        if kind == "symbol":
            assert replaced == text
            continue
        assert replaced != text
        assert kind_of(replaced) == kind, (text, replaced)


@pytest.mark.parametrize("text", ["$1,299.00", "12,50 €", "2024-03-05", "Mon, 5 Mar 2024", "10:30 AM", "2.85%"])
def test_numbers_prices_dates_and_times_keep_their_format(text: str) -> None:
    def skeleton(value: str) -> str:
        return re.sub(r"[^\W\d_]+", "a", re.sub(r"\d+", "0", value))

    for seed in range(10):
        assert skeleton(ContentChanger(seed).text(text)) == skeleton(text)


def test_words_keep_length_and_case_and_repeat_consistently() -> None:
    changer = ContentChanger(1)
    first, second = changer.text("Add to CART"), changer.text("Add to CART")
    assert first == second
    assert [len(w) for w in first.split()] == [3, 2, 4]
    assert first.split()[0].istitle() and first.split()[2].isupper()


def test_whitespace_around_a_text_is_kept() -> None:
    assert re.fullmatch(r"\n  \S+ \S+\u00a0", ContentChanger(0).text("\n  Hello world\u00a0"))


def test_the_same_seed_gives_the_same_texts() -> None:
    texts = ["Add to cart", "John Smith", "$5.00", "March 5, 2024", "a@b.com", "https://x.org/y"]
    assert [ContentChanger(7).text(t) for t in texts] == [ContentChanger(7).text(t) for t in texts]
    assert [ContentChanger(7).text(t) for t in texts] != [ContentChanger(8).text(t) for t in texts]


def test_urls_and_emails_point_to_example_domains() -> None:
    changer = ContentChanger(3)
    assert re.fullmatch(r"https://\w+\.example\.(com|org|net)/\w+/\w+\?\w+=\d+#\w+",
                        changer.attribute("href", "https://shop.real.com/pans/steel?id=123#top"))
    assert re.fullmatch(r"[\w.-]+@example\.(com|org|net)", changer.text("jane@real.com"))
    assert changer.attribute("href", "#main") == "#main"
    assert changer.attribute("href", "javascript:void(0)") == "#"
    assert changer.attribute("class", "price big") == "price big"  # identifiers are structure, not content
    assert changer.attribute("alt", "Red kettle") != "Red kettle"


def test_other_scripts_keep_their_script() -> None:
    replaced = ContentChanger(2).text("東京タワー Москва")
    assert replaced != "東京タワー Москва"
    assert all("\u0400" <= c <= "\u04ff" for c in replaced.split()[1])
