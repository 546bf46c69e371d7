"""Records (sets of XPaths), the reference's XPath normalisation, expansion to text keys, and N.json files.

A record is a list of absolute element XPaths. Before scoring, every XPath is normalised exactly as
NEXT-EVAL's `mapResponseToFullXPath` does and expanded to the text-map keys equal to it or below it.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .. import atomic
from ..command_hints import hint_path
from ..errors import DatasetError, system_words
from ..file_kinds import read_regular_file, unreadable_kind
from ..wording import json_problem, listed

Record = list[str]
RecordList = list[Record]

# The reference's JavaScript `/\[\d+\]$/`: its `\d` is ASCII only and its `$` the end of the step alone (Python's
# `\d` takes any Unicode digit, `p[٣]`, and its `$` also matches before a trailing newline)
_INDEXED_STEP = re.compile(r"\[[0-9]+\]\Z")


def normalise_xpath(xpath: str) -> str:
    """The reference's normalisation, character for character (NEXT-EVAL-NOTES §4.1).

    `/html[1]` or else `/html` is stripped from the front (case-sensitively), then `[1]` is appended to every
    non-empty step without a trailing `[n]`. Empty steps are kept, so `//x` stays unmatchable.
    """
    if xpath.startswith("/html[1]"):
        xpath = xpath[len("/html[1]"):]
    elif xpath.startswith("/html"):
        xpath = xpath[len("/html"):]
    if not xpath:
        return xpath
    return "/".join(s if not s or _INDEXED_STEP.search(s) else s + "[1]" for s in xpath.split("/"))


def matches_everything(xpath: str) -> bool:
    """True for the expressions the reference lets match every key (`""`, `/`, `/html`, `/html[1]`)."""
    return normalise_xpath(xpath) in ("", "/")


def record_key(record: Sequence[str]) -> frozenset[str]:
    """A record's identity when comparing records: its set of normalised XPaths (order and spelling aside)."""
    return frozenset(normalise_xpath(x) for x in record)


def new_records(proposed: Sequence[Sequence[str]], existing: Sequence[Sequence[str]]) -> RecordList:
    """The proposed records not already on the page (in any status: a rejection is a decision to keep) and
    not repeated among themselves, in the order proposed."""
    seen = {record_key(r) for r in existing}
    fresh: RecordList = []
    for record in proposed:
        key = record_key(record)
        if key not in seen:
            seen.add(key)
            fresh.append(list(record))
    return fresh


class TextKeyIndex:
    """The text-map keys of one page, sorted for prefix lookups (expansion is a string-prefix match)."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = list(keys)
        self._sorted = sorted(self.keys)

    @cached_property
    def position(self) -> dict[str, int]:
        """Each key's place in the order the keys were given (a page's text map: page order)."""
        return {key: i for i, key in enumerate(self.keys)}

    def in_order(self, keys: Iterable[str]) -> list[str]:
        """`keys` in the order the index was given them; keys it does not hold first."""
        position = self.position
        return sorted(keys, key=lambda key: position.get(key, 0))

    def under(self, path: str) -> list[str]:
        """Keys that start with `path` (self or descendant, since normalised paths end in `]`)."""
        start = bisect_left(self._sorted, path)
        end = bisect_left(self._sorted, path + "\U0010ffff", lo=start)
        return self._sorted[start:end]

    def expand(self, record: Sequence[str]) -> frozenset[str]:
        found: set[str] = set()
        for xpath in record:
            found.update(self.under(normalise_xpath(xpath)))
        return frozenset(found)

    def expand_all(self, records: Sequence[Sequence[str]]) -> list[frozenset[str]]:
        return [self.expand(r) for r in records]


@dataclass(frozen=True)
class RecordsFile:
    """A parsed `N.json`: the records and what was wrong with the file, if anything could be kept."""

    records: RecordList
    warnings: tuple[str, ...] = ()


def parse_records(data: object, *, name: str = "records") -> RecordsFile:
    """Validate a decoded `N.json` (a list of records, each a list of XPath strings).

    A lone string record is accepted as a one-XPath record and a flat list of strings as one XPath per
    record (both are common in model answers), with a warning; anything else is a DatasetError.
    """
    if not isinstance(data, list):
        raise DatasetError(f"{name}: expected a list of records, found {type(data).__name__}")
    records: RecordList = []
    strings: list[int] = []  # the records written as a lone string, 1-based
    for i, item in enumerate(data):
        if isinstance(item, str):
            strings.append(i + 1)
            records.append([item])
        elif isinstance(item, list) and all(isinstance(x, str) for x in item):
            records.append(list(item))
        else:
            raise DatasetError(f"{name}: record {i + 1} is not a list of XPath strings: {str(item)[:80]}")
    return RecordsFile(records, _strings_said(name, strings))


def _strings_said(name: str, strings: Sequence[int]) -> tuple[str, ...]:
    """One warning for a file's records written as strings, however many (a model's flat list of thousands of
    strings would otherwise fill the screen with a line each)."""
    if not strings:
        return ()
    said = f"{name}: record {strings[0]} is a string, read as a one-XPath record"
    return (said if len(strings) == 1
            else f"{said}, and so are {len(strings) - 1:,} more (records {listed([str(n) for n in strings[1:]])})",)


def load_records(path: str | Path) -> RecordsFile:
    """A records file `N.json`, read; a DatasetError naming the file as a hint names a path (`hint_path`) when it
    cannot be, as `PATH: why` (`errors.said_without_path` gives the why alone)."""
    path = Path(path)
    named = hint_path(path)
    try:
        # Through the guarded reader, its kind asked before any read: a folder is said as one on every system
        # (Windows refuses to read it as a permission), a FIFO or a dangling link named N.json is said without
        # opening it (which would wait for a writer), and a file of the open project's database is never opened
        data = json.loads(read_regular_file(path).decode("utf-8-sig"))  # a byte-order mark, as Windows editors save
    except OSError as error:  # what it is, or permissions, a failing disk: said per file, so a check of many goes on
        said = unreadable_kind(path, error, "records file") or f"cannot be read ({system_words(error)})"
        raise DatasetError(f"{named}: {said}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DatasetError(f"{named}: not valid JSON ({json_problem(error)})") from None
    except RecursionError:
        raise DatasetError(f"{named}: nested too deeply to be a list of records") from None
    return parse_records(data, name=named)


def save_records(path: str | Path, records: Sequence[Sequence[str]]) -> Path:
    """Write `N.json` atomically: a crash leaves the old file or the new one, never half of one."""
    path = Path(path)
    atomic.write_text(path, json.dumps([list(r) for r in records], ensure_ascii=False, indent=1))
    return path
