"""A month and day written without a year (`4/13`) where its context says it is a date (a time after it, a word
that says when or a weekday before it, a range of two) becomes another valid month and day written alike; redrawn
digit by digit, it came out as `4/39`. Written so anywhere else (`3/4 cup`, `9/10`, `24/7`), it is a fraction, a
rating or a count as likely as a date, and stays a number: its digits are redrawn, never made a date. Texts made
from a fixed seed."""

from __future__ import annotations

import random
import re
from datetime import date

from recordlens.core.synth.content import ContentChanger, _month_days_in

# Contexts that say "date" ({} is the month/day), and contexts that do not
DATED = ("Orders before {} 12:00 PM", "deliver by {}", "Sale ends {}", "Valid thru {}", "{} 18:00 deadline",
         "on {}, 9am", "Expires {} only", "Begins {}")
UNDATED = ("Add {} cup", "Rating {}", "{} stars", "page {}", "{}")
WEEKDAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
_MONTH_DAY = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?![\d/])")


def _month_days(rng: random.Random, count: int) -> list[str]:
    days = [date(2016, 1, 1).toordinal() + rng.randrange(366) for _ in range(count)]
    return [f"{d.month}/{d.day}" for d in map(date.fromordinal, days)]


def _valid(month: str, day: str) -> bool:
    try:
        date(2016, int(month), int(day))  # a leap year: 2/29 is a month and day
    except ValueError:
        return False
    return True


def test_a_month_day_read_as_a_date_becomes_a_valid_one_written_alike() -> None:
    rng = random.Random(7)
    texts = [rng.choice(DATED).format(value) for value in _month_days(rng, 300)]
    for seed, text in enumerate(texts):
        out = ContentChanger(seed).text(text)
        found = _MONTH_DAY.findall(out)
        assert len(found) == 1, (text, out)
        assert _valid(*found[0]), (text, out)
        assert out.count("/") == 1


def test_a_range_of_two_and_a_weekday_before_are_dates_too() -> None:
    for seed in range(100):
        out = ContentChanger(seed).text("open 10/1 - 10/31 daily")
        assert len(_MONTH_DAY.findall(out)) == 2 and " - " in out, out
        assert all(_valid(*pair) for pair in _MONTH_DAY.findall(out)), out
        weekday, month_day = ContentChanger(seed).text("Mon 4/13").split()
        assert weekday in WEEKDAYS and _valid(*month_day.split("/")), (weekday, month_day)


def test_a_fraction_a_rating_or_a_count_stays_a_number() -> None:
    rng = random.Random(11)
    for seed in range(300):
        numerator = rng.randrange(1, 9)
        text = rng.choice(UNDATED).format(f"{numerator}/{rng.randrange(numerator + 1, 10)}")
        out = ContentChanger(seed).text(text)
        # redrawn digit by digit: one digit each, as written (a date drawn would often take two)
        assert re.search(r"(?<!\d)\d/\d(?!\d)", out), (text, out)
    for text in ("24/7 support", "7-2/3 cups", '1/2" wrench', "Search 1/45", "3/4", "on 4/13/2024"):
        assert _month_days_in(text) == [], text
