"""What a variant keeps of its page's labels and texts: a label XPath written with a trailing "/" (the element's
descendants, not its own text: NEXT-EVAL-NOTES §4.1) keeps it, so that a prediction scores on an unchanged variant
as on its page; and the dates, times and quantities inside a longer text are replaced by valid ones written in the
same format, as a text that is one date or time is."""

from __future__ import annotations

import calendar
import re
from datetime import date

import pytest

from recordlens.core.page.dom import parse_html
from recordlens.core.records.model import TextKeyIndex
from recordlens.core.records.score import score_page
from recordlens.core.synth.content import ContentChanger
from recordlens.core.synth.pipeline import Source, SynthOptions, synthesise_page

ITEMS = ("<html><body><ul>" + "".join(f"<li>own text {c}<b>bold {c}</b></li>" for c in "ABC")
         + "</ul></body></html>")
# the first two name their item's descendants only, written two ways; the third names the item itself
LABELS = [["/body[1]/ul[1]/li[1]/"], ["/html/body/ul/li[2]/"], ["/body[1]/ul[1]/li[3]"]]
BOLD = [[f"/body[1]/ul[1]/li[{i}]/b[1]"] for i in (1, 2, 3)]


def f1(html: str, truth: list[list[str]], predicted: list[list[str]]) -> float:
    page = parse_html(html)
    return score_page(predicted, truth, TextKeyIndex(page.text_map), "p").f1


def test_a_label_of_descendants_keeps_its_trailing_slash_in_the_variant() -> None:
    variant = synthesise_page(Source("s", ITEMS, LABELS), 1, SynthOptions(transforms=(), content=False))
    assert variant.records == [["/body[1]/ul[1]/li[1]/"], ["/body[1]/ul[1]/li[2]/"], ["/body[1]/ul[1]/li[3]"]]
    assert f1(variant.html, variant.records, BOLD) == f1(ITEMS, LABELS, BOLD) < 1


def test_a_moved_label_of_descendants_names_its_elements_new_place_with_the_slash() -> None:
    variant = synthesise_page(Source("s", ITEMS, LABELS), 1,
                              SynthOptions(transforms=("wrap_records", "wrap_container"), rate=1.0, content=False))
    ends = [record[0].endswith("/") for record in variant.records]
    assert ends == [True, True, False] and all(record[0] != "/" for record in variant.records)
    page = parse_html(variant.html)
    assert [page.resolve(record[0]).text().startswith("own text") for record in variant.records] == [True] * 3


# -- dates, times and quantities inside texts -------------------------------------------------------------------

MONTH = "|".join(m[:3] for m in calendar.month_name[1:])
TIME = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(\s?[AaPp]\.?[Mm]\.?)?")


def valid_times(text: str) -> bool:
    for hour, minute, second, ampm in TIME.findall(text):
        if int(minute) > 59 or (second and int(second) > 59):
            return False
        if not (1 <= int(hour) <= 12 if ampm else int(hour) <= 23):
            return False
    return True


def valid_dates(text: str) -> bool:
    for month, day, year in re.findall(rf"\b({MONTH})[a-z]*\.? (\d{{1,2}}),? (\d{{4}})", text):
        if not 1 <= int(day) <= calendar.monthrange(int(year), list(calendar.month_abbr).index(month))[1]:
            return False
    for year, month, day in re.findall(r"\b(\d{4})-(\d{2})-(\d{2})\b", text):
        try:
            date(int(year), int(month), int(day))
        except ValueError:
            return False
    for first, second, _ in re.findall(r"\b(\d{2})/(\d{2})/(\d{4})\b", text):
        if not (1 <= int(first) <= 12 and 1 <= int(second) <= 31):
            return False
    return True


# each text, and the shape its replacement keeps (digits as 0, the words that say a format as written)
INSIDE = {
    "May 20, 2024, 2:00 PM": r"[A-Z][a-z]+ \d{1,2}, \d{4}, \d{1,2}:\d\d (AM|PM)",
    "2024-12-15 09:17": r"\d{4}-\d\d-\d\d \d\d:\d\d",
    "Revised Aug 22, 2024": r"[A-Z][a-z]{6} [A-Z][a-z]{2} \d{1,2}, \d{4}",
    "Tuesday 14:00": r"[A-Z][a-z]+day \d\d:\d\d",
    "05/20/2025 14:55:10 PST": r"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d PST",
    "Updated 2024-12-15T09:17:00Z": r"[A-Z][a-z]{6} \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",
    "Opens at 9am, closes 10:30 p.m. (UTC+2)": r"[A-Z][a-z]{4} [a-z]{2} \d{1,2}(am|pm), [a-z]{6} \d{1,2}:\d\d "
                                                r"(a|p)\.m\. \(UTC\+\d\)",
    "Wednesday, December 25, 10:21PM": r"[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{1,2}:\d\d(AM|PM)",
    "Top 20 Amazing deals": r"[A-Z][a-z]{2} \d\d [A-Z][a-z]{6} [a-z]{5}",  # no time: `Am` starts a word
    "10 kg": r"\d\d kg",
    "Runtime 2h 58m, 500 Wh": r"[A-Z][a-z]{6} \dh [1-5]\dm, \d{3} Wh",
    "1 hr 5 min": r"\d hr \d min",
    "Weight: 2.5 lbs, 30 cm wide": r"[A-Z][a-z]{5}: \d\.\d lbs, \d\d cm [a-z]{4}",
}


@pytest.mark.parametrize(("text", "shape"), INSIDE.items())
def test_dates_times_and_quantities_inside_a_text_become_valid_ones_of_the_same_format(text: str,
                                                                                       shape: str) -> None:
    for seed in range(40):
        replaced = ContentChanger(seed).text(text)
        assert re.fullmatch(shape, replaced), (seed, replaced)
        assert valid_times(replaced) and valid_dates(replaced), (seed, replaced)
    assert len({ContentChanger(seed).text(text) for seed in range(40)}) > 20  # the values change


def test_a_text_inside_a_longer_one_is_replaced_the_same_way_by_the_same_seed() -> None:
    texts = ["Posted May 20, 2024, 2:00 PM by the shop", "2024-12-15 09:17", "Weighs 10 kg"]
    assert [ContentChanger(5).text(t) for t in texts] == [ContentChanger(5).text(t) for t in texts]
    assert [ContentChanger(5).text(t) for t in texts] != [ContentChanger(6).text(t) for t in texts]


def test_a_time_and_a_date_alone_and_inside_a_text_are_read_alike() -> None:
    """One home for their grammar: a time with its zone, alone, is replaced as inside a text."""
    for seed in range(20):
        alone = ContentChanger(seed).text("14:55:10 PST")
        assert re.fullmatch(r"\d\d:\d\d:\d\d PST", alone) and valid_times(alone), alone
        hour = ContentChanger(seed).text("5 PM")
        assert re.fullmatch(r"([1-9]|1[0-2]) (AM|PM)", hour), hour
