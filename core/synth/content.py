"""Content changes for synthetic pages: every text is replaced by a made-up text of the same kind.

A text's kind (number, price, date, time, name, e-mail address, URL, free text) decides how it is replaced, so
that a page keeps its look and its regularities while carrying none of the original's words:

- digits are redrawn digit by digit (separators, currency symbols and codes stay), so `$1,299.00` becomes another
  price of the same shape;
- dates and times become other valid dates and times written in the same format (`March 5, 2024`, `05/03/24`,
  `2:00 PM PST`), whether a text is one (`kind_of`) or holds them among other words (`May 20, 2024, 2:00 PM`,
  `Revised Aug 22, 2024`): both are read by one grammar (`_DATE_FORMS`, `_TIME_FORM`) and redrawn by one code
  (`ContentChanger.date`, `.time`); a duration's minutes stay below 60 (`2h 58m`); a number's unit (`10 kg`) and a
  time zone (`UTC`) stay, as currency codes do;
- a month and day without a year (`4/13`) is a date only where its context says so (a time after it, a weekday
  or a word that says when before it, another it makes a range with: `by 4/14`, `4/13 12:00`, `10/1-10/31`), and
  becomes another valid one; written so anywhere else, it is as likely a fraction, a rating or a count (`3/4 cup`,
  `9/10`, `24/7`), and its digits are redrawn as a number's (`_month_days_in`);
- names become other names (Faker), with as many parts; e-mail addresses and URLs point to example domains;
- words are swapped for English words of the same length and case, one fixed replacement per word and page, so
  that repeated labels ("Add to cart") stay repeated; letters of other scripts are redrawn within their block.

Strings without letters or digits (`|`, `›`, `★`) are kept: they are layout, not content. Everything is drawn
from one seeded `random.Random` and one seeded Faker, so the same seed gives the same page.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta
from functools import cache

from faker import Faker

from ..page.dom import JS_WHITESPACE
from ..unicode_scripts import script

KINDS = ("symbol", "email", "url", "date", "time", "price", "number", "name", "text")

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Currency codes stay as written: replacing `USD` by a random word would turn a price into text.
CURRENCY_CODES = frozenset({"usd", "eur", "gbp", "jpy", "cny", "inr", "aud", "cad", "chf", "sek", "nok", "dkk",
                            "krw", "rub", "brl", "mxn", "zar", "sgd", "hkd", "nzd", "try", "pln", "rs", "kr"})
CURRENCY_SYMBOLS = "$€£¥₹₩₽₺₪฿₫₴₦₱"
EXAMPLE_DOMAINS = ("example.com", "example.org", "example.net")
# Schemes whose value is not a location on the web: a fragment, an inline resource, a snapshot part.
KEPT_URL_PREFIXES = ("#", "data:", "cid:", "about:")

_TOKENS = re.compile(r"[^\W\d_]+|\d+|[\W_]+")
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_URL = re.compile(r"^(?:https?://|www\.)\S+$", re.IGNORECASE)
_URL_PARTS = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*:)?(?://(?P<host>[^/?#]*))?(?P<rest>.*)$",
                        re.IGNORECASE | re.DOTALL)
# Time zones written after a time, kept as written (they say how the time is read, as a currency code says what a
# price is in); upper case only, so that no word is taken for one.
TIME_ZONES = frozenset({"UTC", "GMT", "Z", "ET", "CT", "MT", "PT", "EST", "EDT", "CST", "CDT", "MST", "MDT", "PST",
                        "PDT", "AKST", "AKDT", "HST", "AST", "ADT", "NST", "NDT", "BST", "IST", "CET", "CEST", "EET",
                        "EEST", "WET", "WEST", "MSK", "JST", "KST", "HKT", "SGT", "AEST", "AEDT", "ACST", "AWST",
                        "NZST", "NZDT"})
# Units written after a number (`10 kg`, `2.5 lbs`, `16GB`), kept as written: they are the quantity's format, not
# content (a unit of one letter is kept as every word of one letter is).
UNITS = frozenset({
    "mg", "kg", "lb", "lbs", "oz", "ct", "mm", "cm", "km", "ft", "yd", "mi", "nm", "ml", "cl", "dl", "ltr", "gal",
    "qt", "pt", "fl", "sqft", "ha", "ms", "sec", "secs", "min", "mins", "hr", "hrs", "wk", "wks", "yr", "yrs", "kb",
    "mb", "gb", "tb", "kib", "mib", "gib", "kbps", "mbps", "gbps", "bit", "bits", "kw", "kwh", "mw", "mv", "ma",
    "mah", "hz", "khz", "mhz", "ghz", "px", "em", "rem", "dpi", "ppi", "pcs", "pc", "pk", "rpm", "psi", "kcal",
    "cal", "kj", "mph", "kmh", "kph", "fps", "mp", "in", "wh", "mwh",
})
_ZONE = "|".join(sorted(TIME_ZONES, key=len, reverse=True))
# A time: an hour with its minutes (and seconds, and an ISO time's offset after them, `09:17:00+01:00`), or an hour
# with AM/PM (`5 pm`); its zone, where one follows. Offset and zone are kept as written.
_TIME_FORM = (r"(?=\d{1,2}(?::\d{2}|\s?[ap]\.?m))(?P<h>\d{1,2})"
              r"(?::(?P<m>\d{2})(?::(?P<s>\d{2})(?P<offset>[+-]\d{2}:?\d{2})?)?)?"
              rf"(?P<ampm>\s?[ap]\.?m\.?)?(?P<zone>\s?(?-i:{_ZONE})(?:[+-]\d{{1,2}}(?::?\d{{2}})?)?)?")
_TIME = re.compile(f"^{_TIME_FORM}$", re.IGNORECASE)
_NAME_PART = re.compile(r"^(?:[A-Z][a-z]+|[A-Z]\.)$")

_MONTH = (r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_WEEKDAY = r"(?:(?P<weekday>mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?" \
           r"|sat(?:urday)?|sun(?:day)?)\.?,?\s+)?"
_DAY = r"(?P<day>\d{1,2})(?P<ordinal>st|nd|rd|th)?"
_YEAR = r"(?P<year>\d{4}|'\d{2})"
_DATE_FORMS = (
    rf"{_WEEKDAY}{_MONTH}\s+{_DAY},?\s+{_YEAR}",
    rf"{_WEEKDAY}{_DAY}\s+{_MONTH},?\s+{_YEAR}",
    rf"{_MONTH},?\s+{_YEAR}",
    rf"{_WEEKDAY}{_MONTH}\s+{_DAY}",
    rf"{_WEEKDAY}{_DAY}\s+{_MONTH}",
    r"(?P<year>\d{4})-(?P<month_n>\d{2})-(?P<day>\d{2})",
    r"(?P<year>\d{4})/(?P<month_n>\d{1,2})/(?P<day>\d{1,2})",
    r"(?P<first>\d{1,2})(?P<sep>[/.-])(?P<second>\d{1,2})(?P=sep)(?P<year>\d{4}|\d{2})",
)
_DATES = [re.compile(f"^{p}$", re.IGNORECASE) for p in _DATE_FORMS]
# The same forms inside a longer text: not a piece of a word or of a longer number (`1.12.05.24`); an ISO date may
# run into its time (`2024-12-15T09:17`), and a time may follow one so.
_DATES_INSIDE = [re.compile(rf"(?<![\w.]){p}(?:(?=T\d)|(?!\w|\.\d))", re.IGNORECASE) for p in _DATE_FORMS]
_TIME_INSIDE = re.compile(rf"(?:(?<![\w:.])|(?<=\dT)){_TIME_FORM}(?!\w|:|\.\d)", re.IGNORECASE)
# A month and day without a year (`4/13`, `Mon 4/13`), read as a date only where its context says it is one
# (`_month_days_in`): alone, `3/4` or `9/10` is as likely a fraction, a rating or a page of a list.
_MONTH_DAY_FORM = rf"{_WEEKDAY}(?P<first>\d{{1,2}})/(?P<second>\d{{1,2}})"
_MONTH_DAY = re.compile(f"^{_MONTH_DAY_FORM}$", re.IGNORECASE)
# Not a piece of a longer date, path, number or word (`4/13/2024`, `a/4/13`, `1.5/2`, `4/13px`)
_MONTH_DAYS_INSIDE = re.compile(rf"(?<![\w/.:]){_MONTH_DAY_FORM}(?![\w/]|[.,:]\d)", re.IGNORECASE)
# What makes a month/day a date (besides a weekday before it): a time after it (`4/13 12:00 PM`, `4/13, 9am`), a
# word that says when before it (`by 4/14`, `ends 12/31`), or another month/day it makes a range with (`10/1-10/31`)
_TIME_AFTER = re.compile(rf"\s*,?\s*(?:at\s+|@\s*)?{_TIME_FORM}(?!\w|:|\.\d)", re.IGNORECASE)
_WHEN_BEFORE = re.compile(r"(?<!\w)(?:on|by|before|after|until|till|thru|through|from|since|due|ends?|ending|"
                          r"expires?|expiring|begins?|beginning|starts?|starting)\.?:?\s+$", re.IGNORECASE)
_RANGE_DASH = re.compile(r"\s*[-\u2013\u2014]\s*")
_DASH_BEFORE = re.compile(r"[-\u2013\u2014]\s*$")  # `7-2/3`: a mixed number, where no month/day comes before
# A duration in hours and minutes (`2h 58m`, `1 hr 5 min`): its minutes stay below 60.
_DURATION_INSIDE = re.compile(r"(?<![\w.])\d+\s?h(?:rs?|ours?)?\s?(?P<m>\d{1,2})\s?m(?:ins?|inutes?)?(?!\w)",
                              re.IGNORECASE)


@cache
def _faker() -> Faker:
    # Building a Faker costs ~0.1 s: one per process; each page lends it its own random generator.
    return Faker("en_US")


@cache
def _word_list() -> dict[int, tuple[str, ...]]:
    """English words by length (Faker's en_US lorem list): a replacement keeps the width of the text."""
    from faker.providers.lorem.en_US import Provider

    by_length: dict[int, list[str]] = {}
    for word in Provider.word_list:
        if word.isascii() and word.isalpha():
            by_length.setdefault(len(word), []).append(word.lower())
    return {n: tuple(sorted(set(words))) for n, words in by_length.items()}


@cache
def _name_parts() -> tuple[frozenset[str], frozenset[str]]:
    from faker.providers.person.en_US import Provider

    return frozenset(Provider.first_names), frozenset(Provider.last_names)


def kind_of(text: str) -> str:
    """The kind of a trimmed text: one of KINDS."""
    if not any(c.isalnum() for c in text):
        return "symbol"
    if _EMAIL.match(text):
        return "email"
    if _URL.match(text):
        return "url"
    if _match_date(text):
        return "date"
    if _match_time(text):
        return "time"
    has_letters = any(c.isalpha() for c in text)
    if any(c.isdigit() for c in text) and _is_price(text):
        return "price"
    if not has_letters:
        return "number"
    if _is_name(text):
        return "name"
    return "text"


def _match_date(text: str) -> re.Match[str] | None:
    return next((m for pattern in _DATES if (m := pattern.match(text)) and _date_fields_valid(m)), None)


def _match_time(text: str) -> re.Match[str] | None:
    match = _TIME.match(text)
    return match if match and _time_fields_valid(match) else None


def _time_fields_valid(match: re.Match[str]) -> bool:
    """An hour of the clock it is written for (1 to 12 with AM/PM, 0 to 23 without), minutes and seconds below 60:
    `25:30` is a duration or a score, not a time."""
    hour = int(match["h"])
    if match["m"] is None and not match["ampm"]:  # `Top 20 Amazing`: the AM/PM looked for was a word's start
        return False
    if not (1 <= hour <= 12 if match["ampm"] else hour <= 23):
        return False
    return all(int(match[field]) <= 59 for field in ("m", "s") if match[field])


def _dates_and_times_in(text: str) -> list[tuple[int, int, str]]:
    """The dates, times and durations inside a text (start, end, kind), in order and apart: where two overlap, the
    one that starts first, and of two that start together the longer (`May 20, 2024` rather than `May 20`)."""
    if not any(c.isdigit() for c in text):  # every form holds a digit: most texts are passed at once
        return []
    found = [(m.start(), -m.end(), "date") for pattern in _DATES_INSIDE for m in pattern.finditer(text)
             if _date_fields_valid(m)]
    found += [(m.start(), -m.end(), "date") for m in _month_days_in(text)]
    found += [(m.start(), -m.end(), "time") for m in _TIME_INSIDE.finditer(text) if _time_fields_valid(m)]
    found += [(m.start(), -m.end(), "duration") for m in _DURATION_INSIDE.finditer(text) if int(m["m"]) <= 59]
    spans: list[tuple[int, int, str]] = []
    for start, minus_end, kind in sorted(found):
        if not spans or start >= spans[-1][1]:
            spans.append((start, -minus_end, kind))
    return spans


def _month_days_in(text: str) -> list[re.Match[str]]:
    """The months and days without a year inside a text that are dates: a valid month and day (in either order,
    as `_date_fields_valid` reads a date's first two fields) whose context says it is a date: a weekday before it
    (`Mon 4/13`), a time after it (`4/13 12:00`), a word that says when before it (`by 4/14`), or another such
    month/day it makes a range with (`10/1 - 10/31`). Anything else written so is left a number (`3/4 cup`, `9/10`,
    `24/7`, `page 1/45`): redrawn as its digits are, never made a date."""
    found = [m for m in _MONTH_DAYS_INSIDE.finditer(text) if _date_fields_valid(m)]
    pairs = list(zip(found, found[1:], strict=False))
    in_ranges = {id(m) for a, b in pairs if _RANGE_DASH.fullmatch(text, a.end(), b.start()) for m in (a, b)}
    return [m for m in found if id(m) in in_ranges or (not _DASH_BEFORE.search(text, 0, m.start())
                                                       and _reads_as_a_date(text, m))]


def _reads_as_a_date(text: str, month_day: re.Match[str]) -> bool:
    """Whether a month/day (no range) stands where a date does: after a weekday or a word that says when, or
    before a time."""
    time = _TIME_AFTER.match(text, month_day.end())
    return bool(month_day["weekday"] or (time is not None and _time_fields_valid(time))
                or _WHEN_BEFORE.search(text, 0, month_day.start()))


def _date_fields_valid(match: re.Match[str]) -> bool:
    groups = match.groupdict()
    numbers = [int(groups[k]) for k in ("day", "month_n", "first", "second") if groups.get(k)]
    if groups.get("first"):
        first, second = int(groups["first"]), int(groups["second"])
        return 1 <= min(first, second) <= 12 and max(first, second) <= 31
    if groups.get("month_n") and not 1 <= int(groups["month_n"]) <= 12:
        return False
    return all(1 <= n <= 31 for n in numbers)


def _is_price(text: str) -> bool:
    if any(c in CURRENCY_SYMBOLS for c in text):
        return True
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", text)]
    return bool(words) and all(w in CURRENCY_CODES for w in words)


def _is_name(text: str) -> bool:
    parts = text.split()
    if not 2 <= len(parts) <= 3 or not all(_NAME_PART.match(p) for p in parts):
        return False
    first_names, last_names = _name_parts()
    return parts[0] in first_names or parts[-1] in last_names


def _is_latin(word: str) -> bool:
    """Latin letters, accented or not (café, Łódź): these get English words, other scripts their own letters."""
    return all(c.isascii() or script(c) == "LATIN" for c in word)


def split_padding(text: str) -> tuple[str, str, str]:
    """(leading whitespace, trimmed text, trailing whitespace) by JavaScript's trim."""
    core = text.strip(JS_WHITESPACE)
    if not core:
        return text, "", ""
    start = text.index(core)
    return text[:start], core, text[start + len(core):]


def _with_case_of(model: str, word: str) -> str:
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[:1].isupper() and model[1:].islower():
        return word.capitalize()
    if model.islower():
        return word.lower()
    # Mixed case (iPhone, McDonald): copy the pattern letter by letter.
    return "".join(c.upper() if i < len(model) and model[i].isupper() else c.lower() for i, c in enumerate(word))


class ContentChanger:
    """Replaces the texts of one output page. The same original string gets the same replacement."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self._faker_rng = random.Random(seed + 1)
        self.kinds: Counter[str] = Counter()
        self._texts: dict[str, str] = {}
        self._words: dict[str, str] = {}
        self._hosts: dict[str, str] = {}
        self._urls: dict[str, str] = {}
        self._emails: dict[str, str] = {}
        self._replacers: dict[str, Callable[[str], str]] = {
            "symbol": lambda t: t, "email": self.email, "url": self.url, "date": self.date, "time": self.time,
            "duration": self.duration,
            "price": self.words, "number": self.words, "name": self.name, "text": self.words,
        }

    # -- texts ------------------------------------------------------------------------------------------

    def text(self, text: str) -> str:
        """A text node's replacement: same surrounding whitespace, same kind, different content."""
        before, core, after = split_padding(text)
        if not core:
            return text
        replaced = self._texts.get(core)
        if replaced is None:
            kind = kind_of(core)
            self.kinds[kind] += 1
            replaced = self._texts[core] = self._replacers[kind](core)
        return before + replaced + after

    def words(self, text: str) -> str:
        """Word by word: letters to other words, digit runs to other digits, everything else kept; but a date, a time
        or a duration among them becomes another valid one written alike (`date`, `time`, `duration`), as a text
        that is one does."""
        out: list[str] = []
        position = 0
        for start, end, kind in _dates_and_times_in(text):
            out += [self._tokens(text[position:start]), self._replacers[kind](text[start:end])]
            position = end
        out.append(self._tokens(text[position:]))
        return "".join(out)

    def _tokens(self, text: str) -> str:
        tokens = _TOKENS.findall(text)
        return "".join(token if _is_unit(tokens, i) else self._token(token) for i, token in enumerate(tokens))

    def _token(self, token: str) -> str:
        if token[0].isdigit():
            return self.digits(token)
        # One letter (a unit, an initial, `x`) carries no content; currency codes carry the kind, zones the time's.
        if not token[0].isalpha() or len(token) == 1 or token.lower() in CURRENCY_CODES or token in TIME_ZONES:
            return token
        return _with_case_of(token, self.word(token.lower()))

    def word(self, word: str) -> str:
        """The lowercase replacement of a lowercase word, fixed for the page."""
        found = self._words.get(word)
        if found is None:
            found = self._words[word] = self._new_word(word)
        return found

    def _new_word(self, word: str) -> str:
        calendar = _calendar_names(word)
        if calendar:
            full = self.rng.choice([n for n in calendar if not n.startswith(word[:3])])
            return full if len(word) > 4 else full[: len(word)]
        if not word.isascii() and not _is_latin(word):
            return "".join(self._letter_like(c) for c in word)
        choices = _word_list().get(len(word))
        if choices and len(choices) > 1:
            while (candidate := self.rng.choice(choices)) == word:
                pass
            return candidate
        return self._random_letters(word)

    def _random_letters(self, word: str) -> str:
        while (candidate := "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in word)) == word:
            pass
        return candidate

    def _letter_like(self, char: str) -> str:
        """Another letter of the same 128-code-point block (CJK stays CJK, Cyrillic stays Cyrillic)."""
        if not char.isalpha():
            return char
        block = ord(char) & ~0x7F
        for _ in range(32):
            candidate = chr(block + self.rng.randrange(128))
            if candidate.isalpha() and candidate != char and candidate.islower() == char.islower():
                return candidate
        return char

    def digits(self, run: str) -> str:
        """Another run of as many digits; a leading non-zero digit stays non-zero (the magnitude is kept)."""
        for _ in range(16):
            first = self.rng.choice("123456789" if run[0] != "0" or len(run) == 1 else "0123456789")
            candidate = first + "".join(self.rng.choice("0123456789") for _ in run[1:])
            if candidate != run:
                return candidate
        return run

    # -- kinds with their own grammar -------------------------------------------------------------------

    @property
    def faker(self) -> Faker:
        """The shared Faker, drawing from this page's own generator (so pages never disturb each other)."""
        faker = _faker()
        faker.random = self._faker_rng
        return faker

    def name(self, text: str) -> str:
        parts = text.split()
        first, last = self.faker.first_name(), self.faker.last_name()
        if len(parts) == 3:
            middle = self.faker.first_name()
            middle = middle[0] + "." if parts[1].endswith(".") else middle
            return f"{first} {middle} {last}"
        return f"{first} {last}"

    def email(self, text: str) -> str:
        found = self._emails.get(text)
        if found is None:
            user = re.sub(r"[^a-z0-9._-]", "", self.faker.user_name().lower()) or "user"
            found = self._emails[text] = f"{user}@{self.rng.choice(EXAMPLE_DOMAINS)}"
        return found

    def url(self, text: str) -> str:
        """A URL on an example domain with the same shape: scheme, path depth, query keys, fragment."""
        if text.startswith(KEPT_URL_PREFIXES) or not text.strip():
            return text
        lowered = text.lower()
        if lowered.startswith(("javascript:", "vbscript:")):
            return "#"
        if lowered.startswith("mailto:"):
            return "mailto:" + self.email(text[7:].split("?")[0])
        if lowered.startswith("tel:"):
            return "tel:" + self.words(text[4:])
        found = self._urls.get(text)
        if found is None:
            found = self._urls[text] = self._new_url(text)
        return found

    def _new_url(self, text: str) -> str:
        www = text.lower().startswith("www.")
        parts = _URL_PARTS.match("//" + text if www else text)
        assert parts is not None  # the pattern matches every string
        scheme, host, rest = parts["scheme"] or "", parts["host"], parts["rest"]
        if host is None:
            return scheme + self.words(rest)
        return f"{'' if www else scheme + '//'}{self._host(host, www)}{self.words(rest)}"

    def _host(self, host: str, www: bool) -> str:
        found = self._hosts.get(host)
        if found is None:
            label = self.word(re.sub(r"[^a-z]", "", host.split(".")[-2] if host.count(".") else host) or "site")
            found = self._hosts[host] = f"{'www.' if www else ''}{label}.{self.rng.choice(EXAMPLE_DOMAINS)}"
        return found

    def srcset(self, value: str) -> str:
        candidates = []
        for candidate in value.split(","):
            before, core, after = split_padding(candidate)
            url, _, descriptor = core.partition(" ")
            candidates.append(before + self.url(url) + (" " + descriptor if descriptor else "") + after)
        return ",".join(candidates)

    def time(self, text: str) -> str:
        """Another valid time in the same format: 12- or 24-hour, its fields and AM/PM written alike, its zone
        kept. Drawn again while it is the time it replaces."""
        match = _match_time(text)
        assert match is not None
        for _ in range(16):
            result = self._new_time(match)
            if result != text:
                break
        return result

    def _new_time(self, match: re.Match[str]) -> str:
        twelve = bool(match["ampm"])
        hour = self.rng.randrange(1, 13) if twelve else self.rng.randrange(24)
        # a 24-hour clock writes two digits; a 12-hour one, two where the hour is padded (`09:30 AM`)
        padded = match["h"].startswith("0") or (not twelve and len(match["h"]) == 2)
        result = str(hour).zfill(2 if padded else 1)
        if match["m"] is not None:
            result += f":{self.rng.randrange(60):02d}"
        if match["s"]:
            result += f":{self.rng.randrange(60):02d}" + (match["offset"] or "")
        if twelve:
            ampm = match["ampm"]
            flip = {"a": "p", "p": "a", "A": "P", "P": "A"}
            result += ampm if self.rng.random() < 0.5 else "".join(flip.get(c, c) for c in ampm)
        return result + (match["zone"] or "")

    def duration(self, text: str) -> str:
        """Another duration in hours and minutes, written alike: the hours' digits redrawn, the minutes below 60
        (with as many digits: `05m` stays padded)."""
        match = _DURATION_INSIDE.fullmatch(text)
        assert match is not None
        minutes = match["m"]
        low = 10 if len(minutes) == 2 and not minutes.startswith("0") else 0
        drawn = str(self.rng.randrange(low, 60 if len(minutes) == 2 else 10)).zfill(len(minutes))
        start, end = match.span("m")
        return self._tokens(text[:start]) + drawn + text[end:]  # what follows the minutes is their unit

    def date(self, text: str) -> str:
        """Another valid date in the same format: each field is rewritten in place, separators kept."""
        match = _match_date(text) or _MONTH_DAY.match(text)  # (a month/day found a date by its context)
        assert match is not None
        new = date(2016, 1, 1) + timedelta(days=self.rng.randrange(366 * 12))
        groups = match.groupdict()
        if groups.get("first"):
            # d/m or m/d: a field above 12 tells which; without one the US order is assumed.
            day_first = int(groups["first"]) > 12
            values = {"first": new.day if day_first else new.month, "second": new.month if day_first else new.day}
        else:
            values = {"day": new.day, "month_n": new.month}
        padded = _padded(groups)
        pieces: list[tuple[int, int, str]] = []
        for key, group in groups.items():
            if group is None or key == "sep":
                continue
            start, end = match.span(key)
            pieces.append((start, end, self._date_field(key, group, new, values, padded)))
        out, position = [], 0
        for start, end, replacement in sorted(pieces):
            out += [text[position:start], replacement]
            position = end
        out.append(text[position:])
        return "".join(out)

    def _date_field(self, key: str, group: str, new: date, values: dict[str, int], padded: bool) -> str:
        if key in values:
            return str(values[key]).zfill(2 if padded else 1)
        if key == "year":
            return f"'{new.year % 100:02d}" if group.startswith("'") else str(new.year)[-len(group):]
        if key == "ordinal":
            return _ordinal(new.day, group)
        if key == "month":
            return _like_name(MONTHS[new.month - 1], group)
        if key == "weekday":
            return _like_name(WEEKDAYS[new.weekday()], group)
        return group

    # -- attributes -------------------------------------------------------------------------------------

    def attribute(self, name: str, value: str) -> str:
        """An attribute's replacement: URLs by `url`, text a person reads by `text`; identifiers are kept."""
        if name in URL_ATTRIBUTES:
            return self.url(value.strip())
        if name == "srcset":
            return self.srcset(value)
        if name in TEXT_ATTRIBUTES or name.startswith("data-"):
            return self.text(value)
        if name == "style" and "url(" in value:
            return _CSS_URL.sub(lambda m: f"url({self.url(m.group(1).strip(chr(34) + chr(39)))})", value)
        return value


URL_ATTRIBUTES = frozenset({"href", "src", "action", "formaction", "poster", "cite", "background", "longdesc",
                            "xlink:href", "ping", "manifest", "codebase"})
# Attributes a person reads (tooltips, alternatives, placeholders, labels, values shown on buttons).
TEXT_ATTRIBUTES = frozenset({"alt", "title", "placeholder", "aria-label", "aria-description", "aria-placeholder",
                             "aria-roledescription", "aria-valuetext", "label", "summary", "abbr", "value",
                             "content", "datetime", "download"})
_CSS_URL = re.compile(r"url\(\s*([^)]*?)\s*\)")


MONTH_ABBREVIATIONS = frozenset({m[:3] for m in MONTHS} | {"sept"})


def _calendar_names(word: str) -> tuple[str, ...]:
    """The list a lowercase word is a name in (months or weekdays, full or abbreviated), else ()."""
    if word in MONTHS or word in MONTH_ABBREVIATIONS:
        return MONTHS
    if word in WEEKDAYS:
        return WEEKDAYS
    return ()


def _padded(groups: dict[str, str | None]) -> bool:
    """Whether a date writes its day and month with two digits: one of them is zero-padded (`05/20/2025`), or
    every one of two has two digits (`12/20/2025`, an ISO date, whose form needs them)."""
    fields = [groups[key] or "" for key in ("day", "month_n", "first", "second") if groups.get(key)]
    return any(f.startswith("0") for f in fields) or (len(fields) > 1 and all(len(f) == 2 for f in fields))


def _is_unit(tokens: list[str], position: int) -> bool:
    """Whether the token at `position` is a unit written after a number (`10 kg`, `10kg`)."""
    token = tokens[position]
    if token.lower() not in UNITS:
        return False
    before = tokens[position - 1] if position >= 1 else ""
    if before.isspace() and len(before) == 1 and position >= 2:
        before = tokens[position - 2]
    return before.isdigit()


def _ordinal(day: int, model: str) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return suffix.upper() if model.isupper() else suffix


def _like_name(full: str, model: str) -> str:
    """`full` (a month or weekday) written like `model`: in full or abbreviated, in the same case."""
    bare = model.rstrip(".").lower()
    if bare in MONTHS or bare in WEEKDAYS:
        name = full
    else:
        name = "sept" if full == "september" and bare == "sept" else full[: min(len(bare), 3)]
    return _with_case_of(model, name)
