"""Answer normalisation: the rules under which an agent's answer and a task's gold answer are compared, and the
exact match judged after them (`tasks.RULES_TEXT` says the same in prose; README "Answer normalisation")."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import Protocol

from ..errors import AgentError

NORMALISE_RULES = ("numbers", "units", "punctuation", "whitespace", "case")  # in the order they are applied


class Gold(Protocol):
    """What an answer is judged against: a task's gold answer and its normalisation rules."""

    @property
    def answer(self) -> str: ...
    @property
    def normalise(self) -> tuple[str, ...]: ...


def is_correct(task: Gold, answer: str | None) -> bool:
    """Exact match after the task's normalisation; no answer is never correct."""
    if answer is None:
        return False
    return normalise_answer(answer, task.normalise) == normalise_answer(task.answer, task.normalise)


def normalise_answer(text: str, rules: Iterable[str]) -> str:
    wanted = set(rules)
    unknown = wanted - set(NORMALISE_RULES)
    if unknown:
        raise AgentError(f"unknown normalisation rule(s) {', '.join(sorted(unknown))}")
    result = unicodedata.normalize("NFKC", text).strip()
    for name in NORMALISE_RULES:  # the fixed order, whatever order the task lists them in
        if name in wanted:
            result = _RULES[name](result)
    return result.strip()


_UNITS = {
    "%": ("percent", "per cent", "pct"),
    "km": ("kilometres", "kilometers", "kilometre", "kilometer"),
    "cm": ("centimetres", "centimeters", "centimetre", "centimeter"),
    "mm": ("millimetres", "millimeters", "millimetre", "millimeter"),
    "m": ("metres", "meters", "metre", "meter"),
    "kg": ("kilograms", "kilogram", "kilos"),
    "g": ("grams", "gram"),
    "min": ("minutes", "minute", "mins"),
    "h": ("hours", "hour", "hrs", "hr"),
    "s": ("seconds", "second", "secs", "sec"),
    "MB": ("megabytes", "megabyte"),
    "GB": ("gigabytes", "gigabyte"),
}
_UNIT_SYMBOLS = sorted(_UNITS, key=len, reverse=True)
_NUMBER_BEFORE = r"(?<=\d)\s*"
_SPELLED_UNIT = re.compile(
    _NUMBER_BEFORE + r"(" + "|".join(sorted((re.escape(w) for ws in _UNITS.values() for w in ws), key=len,
                                            reverse=True)) + r")\b", re.IGNORECASE)
_SPACED_UNIT = re.compile(r"(?<=\d)\s+(" + "|".join(re.escape(s) for s in _UNIT_SYMBOLS) + r")(?![^\W\d_])",
                          re.IGNORECASE)
_WORD_TO_UNIT = {w: symbol for symbol, words in _UNITS.items() for w in words}


def _units(text: str) -> str:
    text = _SPELLED_UNIT.sub(lambda m: _WORD_TO_UNIT[" ".join(m.group(1).lower().split())], text)
    return _SPACED_UNIT.sub(lambda m: m.group(1), text)


_SMALL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
          "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_NUMBER_WORD = re.compile(
    r"\b(?:(" + "|".join(_TENS) + r")(?:[\s-]+(" + "|".join(_SMALL[1:10]) + r"))?|(" + "|".join(_SMALL) + r"))\b",
    re.IGNORECASE)
_GROUPED = re.compile(r"(?<![\d,.])\d{1,3}(?:,\d{3})+(?=(?:\.\d+)?(?![\d,]|\.\d))")
# A point after the digits that no digit follows ends a sentence ("$24.50."), as for `_GROUPED`: the number is still
# a decimal; one that a digit follows makes a version or an address (`1.2.3`), no decimal.
_DECIMAL = re.compile(r"(?<![\d.])(\d+)\.(\d+)(?!\d|\.\d)")


def _number_word(match: re.Match[str]) -> str:
    tens, ones, small = match.group(1), match.group(2), match.group(3)
    if small:
        return str(_SMALL.index(small.lower()))
    return str(_TENS[tens.lower()] + (_SMALL.index(ones.lower()) if ones else 0))


_MINUS = re.compile(r"\u2212(?=\.?\d)")
# A dash that typeset pages use as a minus (an en dash, a figure dash; a small and a fullwidth hyphen-minus, which
# NFKC makes `-` already), or the minus sign, where it begins a number: first, or after a space or a parenthesis,
# before a digit or a decimal point and digit (`–3 °C`). Between two numbers (`10–12`) it is a range: left alone.
_SIGN_DASH = re.compile(r"(?<![^\s(])[\u2212\u2013\u2012\ufe63\uff0d](?=\.?\d)")
_LEADING_POINT = re.compile(r"(?<![\w.,])\.(?=\d)")
# 1 to 3 digits (not 0), a point and 3 digits: a decimal in English, a whole number where "." groups thousands
# (1.000 € is one thousand): left as written, so that neither reading is taken for the other.
_MAYBE_GROUPED = re.compile(r"[1-9]\d{0,2}\.\d{3}")


def _decimal(match: re.Match[str]) -> str:
    if _MAYBE_GROUPED.fullmatch(match.group(0)):
        return match.group(0)
    fraction = match.group(2).rstrip("0")
    return match.group(1) + ("." + fraction if fraction else "")


# The decimal point and the thousands separator that Arabic-script pages write between their digits (١٫٥, ١٬٠٢٤);
# NFKC leaves them, as it leaves the digits of every script but the full-width ones.
_ARABIC_SEPARATORS = {"\u066b": ".", "\u066c": ","}
_ARABIC_SEPARATOR = re.compile(r"(?<=\d)[\u066b\u066c](?=\d)")


def _ascii_digits(text: str) -> str:
    """Every script's decimal digits as ASCII ones (١٢٠٠, ۱۲۰۰, १२००, ๑๒๐๐ are 1200), the Arabic separators between
    digits as `.` and `,`: a model answers one page's number in either writing."""
    text = "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in text)
    return _ARABIC_SEPARATOR.sub(lambda m: _ARABIC_SEPARATORS[m.group(0)], text)


def _numbers(text: str) -> str:
    text = _ascii_digits(text)  # first: the rules below read ASCII digits and separators
    text = _NUMBER_WORD.sub(_number_word, text)
    text = _MINUS.sub("-", _SIGN_DASH.sub("-", text))
    text = _LEADING_POINT.sub("0.", text)
    text = _GROUPED.sub(lambda m: m.group(0).replace(",", ""), text)
    return _DECIMAL.sub(_decimal, text)


_APOSTROPHES = "'\u2019\u02bc"
_NUMBER_SEPARATORS = ".," + "".join(_ARABIC_SEPARATORS)


def _punctuation(text: str) -> str:
    text = _SIGN_DASH.sub("-", text)  # a sign kept as the sign `-3` is, not a dash made a space (`–3` = `-3`)
    out: list[str] = []
    for i, char in enumerate(text):
        if char in _APOSTROPHES:
            continue
        out.append(char if _kept(text, i) else " ")
    return "".join(out)


def _kept(text: str, i: int) -> bool:
    char = text[i]
    if char == "%" or not unicodedata.category(char).startswith("P"):
        return True
    before, after = text[i - 1] if i else "", text[i + 1:i + 3]
    # A decimal point or a thousands separator inside a number is part of the number (the Arabic ones too).
    if char in _NUMBER_SEPARATORS and before.isdigit() and after[:1].isdigit():
        return True
    # So is a sign or a decimal point that begins one (-3, .5, -.5): not after a letter or digit (a hyphen there).
    return (char in "-." and not before.isalnum()
            and (after[:1].isdigit() or (char == "-" and after[:1] == "." and after[1:].isdigit())))


_RULES: dict[str, Callable[[str], str]] = {
    "case": str.casefold,
    "numbers": _numbers,
    "units": _units,
    "punctuation": _punctuation,
    "whitespace": lambda text: " ".join(text.split()),
}
