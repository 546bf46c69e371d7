"""Label hygiene: what in a set of labelled pages makes their figures or their training signal unreliable.

Contract. `check_page(page, records)` reports, for one page's true records:
- `unresolved`: XPaths that name no element, or an element that holds no text (they expand to nothing), with
  their records (`unresolved_in`, the first `LISTED` (record, XPath) pairs; `unresolved_records`), and apart from
  them the records none of whose XPaths names any text (`naming_nothing`, `naming_nothing_count`), which lower
  the ceiling where a record with one dead XPath beside live ones does not;
- `empty`: records without any XPath (a record begun and never filled: only a prediction of nothing matches it);
- `whole_page`: records holding `""`, `/` or `/html`, which the reference expands to every text entry of the page
  (as `score` warns of them);
- `twice`: pairs of records that cover the same text entries (a wrapper and its only child, or one record
  listed twice): scoring counts one of them as missed or spurious whatever an extractor does. They are counted
  (`twice_pairs`) and grouped (`twice_groups`: records that cover one text, `twice_group_count` such groups), and
  only the first `LISTED` pairs and groups are listed: a file that repeats a record thousands of times has
  millions of pairs, which would fill the memory, the project's database and the command's JSON;
- `nested`: pairs of records whose text lies wholly inside another record's (a card and a field of it both
  labelled), counted (`nested_pairs`, `nested_records` records inside another) and the first `LISTED` listed;
- `overlapping`: pairs of records that share an element (some text) while neither holds the other (`[li1, li2]`
  and `[li2, li3]`): a text of the page that belongs to two records at once; counted (`overlapping_pairs`) and the
  first `LISTED` listed (the app's review warns of a record taken that shares an element with another, and
  sends the user here);
the *ceiling* the labels allow an extractor that proposes no record twice (the F1 of predicting each distinct true
record with text once, NEXT-EVAL's clean oracle; its matching lets a run that proposes a listed-twice record twice
score above it), and the page's *policy*: whether its labels include records in page chrome (`in_chrome`, the first
`LISTED` of them): records more than half of whose text lies in page chrome as `page.chrome` judges it, by
structure (`nav`, `aside`, the landmark roles, the page's own `header` and `footer`, and blocks of the layout
beside the main content that are mostly links; never by class words), so that one incidental element (an image
in a menu) makes neither a record nor its page chrome. `summarise`, over pages already checked, adds
`policy_outliers`: the pages whose policy differs from the majority of the set (a page labelled as holding no
record has none; with as many pages one way as the other there is no majority, and no page is unlike it).
Nothing is changed; the report only states what it found, in words with `CheckReport.findings` (a line per page
with a problem) and `CheckReport.summary`.

The rule of `twice` (`text_covered`) is also what the app's Propose weighs an extractor's records by against the
records a page holds (`weigh_proposals`): one that covers the same text as a record there is left out, as accepting
it would make such a pair.

`recordlens labels check` (core/cli/labels.py) prints it for a dataset (`dataset_labels`) or a project;
`recordlens score --ceiling` prints the ceiling beside a run's F1, and `recordlens import` the report of the
labelled pages it imported (core/store/importer.py).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..command_hints import hint_path
from ..errors import DatasetError, RecordLensError
from ..page.chrome import PageChrome
from ..page.dataset import (
    OddPageEntry,
    load_page,
    not_a_folder,
    odd_page_entries,
    page_files,
    record_files,
    unfinished_dataset,
)
from ..page.dom import Page
from ..text_forms import unicode_form
from ..wording import counted, listed, shown
from .model import RecordList, TextKeyIndex, load_records, matches_everything, record_key
from .score import PageScore, score_expanded

# Bump when `check_page` finds something else in the same labels: checks a project remembers are then made anew.
# 2: records without any XPath; 3: pages read as Chromium reads charsets and shadow roots; 4: whole-page records,
# and pairs counted rather than all listed; 5: records that share an element (overlapping); 6: an article's own
# header or footer is not page chrome, and XPaths naming nothing and records in chrome are tied to their records;
# 7: page chrome judged by structure (blocks beside the main content that are mostly links) and a record in it by
# the share of its text (`page.chrome`)
CHECK_VERSION = 7

# Of a page's pairs of records (twice, nested) and groups of records alike, the first this many are listed and the
# rest counted; of a group, its first this many records.
LISTED = 20


@dataclass
class RecordGroup:
    """Records that cover the same text: how many, and the 1-based numbers of the first `LISTED` of them."""

    size: int
    records: list[int]


@dataclass
class PageCheck:
    page: str
    records: int
    unresolved: list[str] = field(default_factory=list)
    twice: list[tuple[int, int]] = field(default_factory=list)  # the first LISTED pairs, 1-based record numbers
    nested: list[tuple[int, int]] = field(default_factory=list)  # the first LISTED (inner, outer) pairs, 1-based
    chrome_records: int = 0
    ceiling: float = 1.0  # the F1 of predicting each distinct true record with text once (see the module's docstring)
    empty: list[int] = field(default_factory=list)  # 1-based numbers of records without any XPath
    whole_page: list[int] = field(default_factory=list)  # 1-based numbers of records holding "", "/" or "/html"
    twice_pairs: int = 0  # every pair of records that cover the same text (`twice` lists the first)
    twice_groups: list[RecordGroup] = field(default_factory=list)  # the first LISTED groups, by their first record
    twice_group_count: int = 0  # groups of two or more records that cover the same text
    nested_pairs: int = 0  # every (inner, outer) pair (`nested` lists the first)
    nested_records: int = 0  # records inside at least one other
    overlapping: list[tuple[int, int]] = field(default_factory=list)  # the first LISTED pairs sharing an element
    overlapping_pairs: int = 0  # every pair of records that share some text, neither holding the other
    # Of `unresolved`, the first LISTED (record, XPath) pairs, so a finding can be traced to its record
    unresolved_in: list[tuple[int, str]] = field(default_factory=list)
    unresolved_records: int = 0  # records with an XPath that expands to no text
    # Records with XPaths none of which expands to any text (they lower the ceiling; a record with one dead XPath
    # beside live ones does not): the first LISTED, and how many
    naming_nothing: list[int] = field(default_factory=list)
    naming_nothing_count: int = 0
    in_chrome: list[int] = field(default_factory=list)  # the first LISTED of the `chrome_records` records

    @property
    def includes_chrome(self) -> bool:
        return self.chrome_records > 0

    @property
    def clean(self) -> bool:
        return not (self.unresolved or self.empty or self.whole_page or self.twice or self.nested
                    or self.overlapping)

    @classmethod
    def from_dict(cls, data: dict) -> PageCheck:
        """The check `asdict` wrote (record pairs come back as tuples)."""
        return cls(str(data["page"]), int(data["records"]), [str(x) for x in data["unresolved"]],
                   [(int(a), int(b)) for a, b in data["twice"]], [(int(a), int(b)) for a, b in data["nested"]],
                   int(data["chrome_records"]), float(data["ceiling"]), [int(n) for n in data.get("empty", [])],
                   [int(n) for n in data.get("whole_page", [])], int(data.get("twice_pairs", len(data["twice"]))),
                   [RecordGroup(int(g["size"]), [int(n) for n in g["records"]]) for g in data.get("twice_groups", [])],
                   int(data.get("twice_group_count", 0)), int(data.get("nested_pairs", len(data["nested"]))),
                   int(data.get("nested_records", 0)), [(int(a), int(b)) for a, b in data.get("overlapping", [])],
                   int(data.get("overlapping_pairs", 0)),
                   [(int(n), str(x)) for n, x in data.get("unresolved_in", [])],
                   int(data.get("unresolved_records", 0)), [int(n) for n in data.get("naming_nothing", [])],
                   int(data.get("naming_nothing_count", 0)), [int(n) for n in data.get("in_chrome", [])])


@dataclass
class CheckReport:
    pages: list[PageCheck]
    # The majority's chrome policy: None where there is none (as many voting pages label page chrome as do not,
    # or no page votes), and then no page is an outlier
    majority_includes_chrome: bool | None
    policy_outliers: list[str]
    # The pages that have a chrome policy (hold records) and made the majority: with none, there is no majority to
    # say (None: not counted, a report made otherwise)
    voters: int | None = None

    @property
    def ceiling(self) -> float:
        """The mean per-page F1 the labels allow (NEXT-EVAL's metric, each distinct true record with text once);
        1.0 over no page, which `summary` and `as_dict` do not show as a figure (it would read as perfect labels)."""
        return sum(p.ceiling for p in self.pages) / len(self.pages) if self.pages else 1.0

    @property
    def flagged(self) -> list[str]:
        """The pages with label problems (unresolved XPaths, whole-page records, records twice, nested records,
        records that share an element)."""
        return [p.page for p in self.pages if not p.clean]

    def as_dict(self) -> dict[str, object]:
        return {"pages": [asdict(p) | {"includes_chrome": p.includes_chrome} for p in self.pages],
                "majority_includes_chrome": self.majority_includes_chrome, "policy_outliers": self.policy_outliers,
                # null over no page, as `summary` says "no page checked"; `voters` 0: no page holds records
                "ceiling": self.ceiling if self.pages else None, "voters": self.voters}

    def findings(self) -> list[str]:
        """A line per page with a label problem or a policy unlike the majority's: `page N: what was found`."""
        lines = []
        for c in self.pages:
            if c.clean and c.page not in self.policy_outliers:
                continue
            parts = []
            if c.unresolved:
                parts.append(_unresolved_words(c))
            if c.empty:
                parts.append(f"{len(c.empty)} record(s) without any XPath (first: record {c.empty[0]})")
            if c.whole_page:  # in the words `score` warns of them with
                parts.append(f"{len(c.whole_page)} true record(s) hold '', '/' or '/html', which the reference "
                             f"expands to every text entry of the page (first: record {c.whole_page[0]})")
            if c.twice:
                parts.append(f"{c.twice_pairs} pair(s) of records cover the same text (first: records {c.twice[0]})"
                             + _groups_of_many(c))
            if c.nested:
                parts.append(f"{c.nested_records} record(s) inside another (first: record {c.nested[0][0]} in "
                             f"{c.nested[0][1]})")
            if c.overlapping:
                first = c.overlapping[0]
                parts.append(f"{c.overlapping_pairs} pair(s) of records share an element, neither holding the other "
                             f"(first: records {first[0]} and {first[1]})")
            if c.page in self.policy_outliers:
                parts.append("labels page chrome (navigation, header, footer, aside), unlike most pages: "
                             + _chrome_records(c) if c.includes_chrome else "labels no page chrome, unlike most pages")
            lines.append(f"page {c.page}: " + "; ".join(parts))
        return lines

    def summary(self) -> str:
        if not self.pages:
            return "no page checked"  # a mean over no page would read as perfect labels
        if self.voters == 0:  # every page labelled as holding no record: none has a policy, so none is the majority's
            policy = " (no page has a chrome policy: none holds records)"
        elif self.majority_includes_chrome is None:
            policy = (" (no chrome policy has a majority: as many pages label page chrome as do not, so no page is "
                      "flagged as unlike most)")
        else:
            majority = "labels" if self.majority_includes_chrome else "does not label"
            policy = (f", {len(self.policy_outliers)} whose policy differs from the majority (majority {majority} "
                      "page chrome)")
        return (f"{counted(len(self.pages), 'page')}: {len(self.flagged)} with label problems{policy}; proposing "
                f"each distinct true record with text once scores a mean F1 of {self.ceiling:.4f}")


def _unresolved_words(check: PageCheck) -> str:
    """The XPaths that expand to no text and their records, those that name nothing at all (which lower the
    ceiling: only an empty prediction matches them) said apart from those with a dead XPath beside live ones:
    `7 XPath(s) name no element or one without text (first: X), in 6 records (5, 10, 63, ...); 5 of them name
    nothing at all (5, 63, ...)`."""
    # "nothing" would read as no element; an element without text is as empty to the score
    said = f"{len(check.unresolved)} XPath(s) name no element or one without text (first: {shown(check.unresolved[0])})"
    if check.unresolved_records:  # a check remembered before records were counted has none
        numbers = [str(n) for n in dict.fromkeys(n for n, _ in check.unresolved_in)]
        said += f", in {counted(check.unresolved_records, 'record')} ({listed(numbers)})"
        if check.naming_nothing_count:
            verb = "names" if check.naming_nothing_count == 1 else "name"
            said += (f"; {check.naming_nothing_count:,} of them {verb} nothing at all ("
                     f"{listed([str(n) for n in check.naming_nothing])})")
    return said


def _chrome_records(check: PageCheck) -> str:
    """`42 of 75 records (1, 2, 3, 4, 5, ...)`: the records in page chrome, by number."""
    return (f"{check.chrome_records:,} of {counted(check.records, 'record')}"
            + (f" ({listed([str(n) for n in check.in_chrome])})" if check.in_chrome else ""))


def _groups_of_many(check: PageCheck) -> str:
    """Where a text is covered by more than two records, the groups they make, which the count of pairs hides
    (2,500 copies of a record are 3,123,750 pairs): `, in 4 group(s) of records alike (first: 2500 records, 1, 5,
    ...)`."""
    if check.twice_pairs == check.twice_group_count or not check.twice_groups:  # pairs only: the pairs say it all
        return ""
    first = check.twice_groups[0]
    return (f", in {check.twice_group_count} group(s) of records alike (first: {first.size} records, "
            f"{listed([str(n) for n in first.records])})")


def check_page(name: str, page: Page, records: Sequence[Sequence[str]]) -> PageCheck:
    keys = TextKeyIndex(page.text_map)
    chrome = PageChrome(page)
    result = PageCheck(name, len(records))
    # Each distinct record is read once and each distinct text held once: a file that repeats its records thousands
    # of times costs little more than one that lists them once.
    read: dict[tuple[str, ...], _Reading] = {}
    texts: dict[frozenset[str], frozenset[str]] = {}
    expanded: list[frozenset[str]] = []
    for number, record in enumerate(records, 1):
        if not record:
            result.empty.append(number)
        written = tuple(record)
        reading = read.get(written)
        if reading is None:
            reading = read[written] = _read(record, chrome, keys, texts)
        if reading.whole_page:
            result.whole_page.append(number)
        _count_unresolved(result, number, reading)
        if reading.in_chrome:
            result.chrome_records += 1
            if len(result.in_chrome) < LISTED:
                result.in_chrome.append(number)
        expanded.append(reading.keys)
    result.ceiling = ceiling_score(expanded).f1
    _find_alike(result, expanded)
    return result


def _count_unresolved(result: PageCheck, number: int, reading: _Reading) -> None:
    """Add record `number`'s XPaths that expand to no text, tied to it."""
    if not reading.unresolved:
        return
    result.unresolved += reading.unresolved
    result.unresolved_records += 1
    result.unresolved_in += [(number, x) for x in reading.unresolved[:LISTED - len(result.unresolved_in)]]
    if not reading.keys:  # every XPath of it dead: a record that names nothing at all
        result.naming_nothing_count += 1
        if len(result.naming_nothing) < LISTED:
            result.naming_nothing.append(number)


@dataclass(frozen=True)
class _Reading:
    """A record as read against its page: its text keys, its XPaths that expand to no text, whether it lies in
    page chrome, and whether it holds an XPath the reference expands to the whole page."""

    keys: frozenset[str]
    unresolved: tuple[str, ...]
    in_chrome: bool
    whole_page: bool


def _read(record: Sequence[str], chrome: PageChrome, keys: TextKeyIndex,
          texts: dict[frozenset[str], frozenset[str]]) -> _Reading:
    """`texts`: each text set read so far, so that records alike share one."""
    # As the score reads it: an XPath that expands to some text names something, written as it may be (a trailing
    # "/", say, that no element lookup would accept).
    unresolved = xpaths_without_text(record, keys)
    expanded = text_covered(record, keys)
    # By the record's text, as the score reads it: an image or a link of a menu beside a card's texts is incidental
    in_chrome = not chrome.keys.isdisjoint(expanded) and chrome.holds(expanded)
    return _Reading(texts.setdefault(expanded, expanded), unresolved, in_chrome,
                    any(matches_everything(x) for x in record))


def text_covered(record: Sequence[str], keys: TextKeyIndex) -> frozenset[str]:
    """The text a record covers, as the score reads it: the text keys its XPaths expand to. Two records cover the
    same text (`twice`) when theirs are the same and not empty: to the score they are one record, whatever element
    each names (a wrapper and its only child), so accepting both makes a pair that one of counts as missed."""
    return keys.expand(record)


@dataclass(frozen=True)
class WeighedProposals:
    """An extractor's records for a page weighed against the records the page holds (`weigh_proposals`)."""

    new: RecordList  # the records to propose, in the order proposed
    # Of each record left out because records of the page cover the same text with other XPaths: those records
    # (their indices in `held`)
    covered_by: list[list[int]]
    # The records of `held` that a record proposed is (the same XPaths) or covers the same text as: made again
    made_again: frozenset[int]


def weigh_proposals(records: Sequence[Sequence[str]], held: Sequence[Sequence[str]],
                    keys: TextKeyIndex | None) -> WeighedProposals:
    """Which of `records` (an extractor's, for a page) are new to a page that holds `held` (its records in any
    status). A record is not new where the page holds it already (the same XPaths however spelled, `record_key`),
    or holds a record that covers the same text (`text_covered`: what `labels check` flags as a pair of records
    that cover the same text, such as the items of a list proposed one level above those accepted); nor where it
    repeats an earlier one of `records` in either way. A rejected record counts as held: to the score a record of
    the same text is the same record, and its rejection is a decision a proposal does not ask again. `keys` None
    (the page's text not read): by XPaths alone."""
    by_key: dict[frozenset[str], list[int]] = {}
    by_text: dict[frozenset[str], list[int]] = {}
    for i, record in enumerate(held):
        by_key.setdefault(record_key(record), []).append(i)
        text = _text_or_none(record, keys)
        if text:
            by_text.setdefault(text, []).append(i)
    new: RecordList = []
    covered_by: list[list[int]] = []
    made_again: set[int] = set()
    kept_keys: set[frozenset[str]] = set()  # of the records kept so far, their XPaths and their texts
    kept_texts: set[frozenset[str]] = set()
    for record in records:
        key, text = record_key(record), _text_or_none(record, keys)
        same = by_key.get(key, [])
        alike = by_text.get(text, []) if text else []
        made_again.update(same, alike)
        if same:  # on the page already: nothing new, as before any text was read
            continue
        if alike:
            covered_by.append(alike)
        elif key not in kept_keys and text not in kept_texts:
            kept_keys.add(key)
            if text:
                kept_texts.add(text)
            new.append(list(record))
    return WeighedProposals(new, covered_by, frozenset(made_again))


def _text_or_none(record: Sequence[str], keys: TextKeyIndex | None) -> frozenset[str]:
    return text_covered(record, keys) if keys is not None else frozenset()


def xpaths_without_text(record: Sequence[str], keys: TextKeyIndex) -> tuple[str, ...]:
    """The XPaths of a record that name no element or one without text: they expand to no text, so the score reads
    them as empty. What `labels check` flags as unresolved, and what the exports mark as not resolving."""
    return tuple(xpath for xpath in record if not keys.expand([xpath]))


def _find_alike(result: PageCheck, expanded: Sequence[frozenset[str]]) -> None:
    """Fill in the records that cover the same text and those inside another. Records are grouped by their text,
    and groups compared through an index of their keys: memory grows with the page's records and distinct texts,
    not with the pairs (a text covered by n records makes n(n-1)/2 pairs, counted and the first few listed)."""
    members: dict[frozenset[str], list[int]] = {}  # each text with text keys -> its records (0-based), in order
    for i, keyset in enumerate(expanded):
        if keyset:
            members.setdefault(keyset, []).append(i)
    alike = [group for group in members.values() if len(group) > 1]
    result.twice_pairs = sum(len(group) * (len(group) - 1) // 2 for group in alike)
    result.twice_group_count = len(alike)
    result.twice_groups = [RecordGroup(len(group), [i + 1 for i in group[:LISTED]]) for group in alike[:LISTED]]
    place = {keyset: 0 for keyset in members}  # how many of its group's records are behind, record by record
    for i, keyset in enumerate(expanded):
        if len(result.twice) == LISTED:
            break
        if not keyset:
            continue
        after = place[keyset] = place[keyset] + 1
        result.twice += [(i + 1, j + 1) for j in members[keyset][after:after + LISTED - len(result.twice)]]

    outer = _Containment(list(members), [len(group) for group in members.values()])
    nesting: set[frozenset[str]] = set()  # the texts that lie inside another record's
    overlapping: set[frozenset[str]] = set()  # the texts that share some text with another, neither holding it
    shared_pairs = 0  # every pair counted from both of its records
    for keyset, outside, sharing in outer.weights():
        group = len(members[keyset])
        result.nested_pairs += group * outside
        if outside:
            result.nested_records += group
            nesting.add(keyset)
        shared_pairs += group * sharing
        if sharing:
            overlapping.add(keyset)
    result.overlapping_pairs = shared_pairs // 2
    inside: dict[frozenset[str], list[list[int]]] = {}  # a text listed -> the groups of the records it lies inside
    for i, keyset in enumerate(expanded):
        if len(result.nested) == LISTED:
            break
        if keyset not in nesting:
            continue
        if keyset not in inside:  # worked out again only for the few texts listed (each adds a pair at least)
            inside[keyset] = [members[t] for t in outer.supersets(keyset)]
        outers = heapq.merge(*inside[keyset])  # each group in record order: all of them in record order
        result.nested += [(i + 1, j + 1) for j in itertools.islice(outers, LISTED - len(result.nested))]
    _list_overlapping(result, expanded, members, outer, overlapping)


def _list_overlapping(result: PageCheck, expanded: Sequence[frozenset[str]], members: dict[frozenset[str], list[int]],
                      texts: _Containment, overlapping: set[frozenset[str]]) -> None:
    """List the first pairs of records that share some text while neither holds the other (each pair once, the
    earlier record first); the texts each overlaps are worked out again only for the few records listed."""
    for i, keyset in enumerate(expanded):
        if len(result.overlapping) == LISTED:
            break
        if keyset not in overlapping:
            continue
        later = (j for j in heapq.merge(*(members[t] for t in texts.around(keyset)[1])) if j > i)
        result.overlapping += [(i + 1, j + 1) for j in itertools.islice(later, LISTED - len(result.overlapping))]


class _Containment:
    """Which of a page's distinct record texts hold another wholly, or share some of it, through an index of keys.

    Keys held by the same texts are indexed as one (a class), weighed by how many they are: many records that each
    list one large shared element (a list of 119 texts) are walked once per element, not once per text of it.
    And texts that hold keys of their own (no other text holds them) and the same shared classes are walked as one
    unit: none of them lies inside another text, each shares some text with every other of them (if they hold a
    shared class at all), and they stand alike towards every other text, so 3,000 records that list one shared
    element and a leaf of their own are one walk, not 3,000 of 3,000 texts each (which made the check take minutes).
    Texts without keys of their own (a record that is also part of another) are walked one by one, as before."""

    def __init__(self, texts: Sequence[frozenset[str]], weights: Sequence[int] | None = None) -> None:
        """`weights`: each text's number of records (1 each by default), which `weights()` counts pairs of."""
        self._texts = list(texts)
        self._weights = list(weights) if weights is not None else [1] * len(self._texts)
        self._number = {keyset: n for n, keyset in enumerate(self._texts)}
        holders: dict[str, list[int]] = {}
        for n, keyset in enumerate(self._texts):
            for key in keyset:
                holders.setdefault(key, []).append(n)
        classes: dict[tuple[int, ...], int] = {}  # the texts holding a key -> the class of keys they hold alike
        self._size: list[int] = []  # class -> its number of keys
        for owners in holders.values():
            cls = classes.setdefault(tuple(owners), len(classes))
            if cls == len(self._size):
                self._size.append(0)
            self._size[cls] += 1
        owners_of = list(classes)  # class -> the texts holding it
        self._units, self._twins, self._unit_of = self._made_units(owners_of)
        # each class held by two texts or more -> the units holding it, once each
        self._unit_owners = {cls: list(dict.fromkeys(self._unit_of[n] for n in owners))
                             for cls, owners in enumerate(owners_of) if len(owners) > 1}
        self._unit_weight = [sum(self._weights[n] for n in unit) for unit in self._units]

    def _made_units(self, owners_of: Sequence[tuple[int, ...]]
                    ) -> tuple[list[list[int]], list[bool], list[int]]:
        """The texts grouped into units: those with keys of their own by the shared classes they hold (`twins`), each
        other text alone; each unit's texts, whether it is of twins, and each text's unit."""
        own = [False] * len(self._texts)
        self._public: list[list[int]] = [[] for _ in self._texts]  # text -> the classes it shares with others
        for cls, owners in enumerate(owners_of):
            if len(owners) == 1:
                own[owners[0]] = True
            else:
                for n in owners:
                    self._public[n].append(cls)
        units: list[list[int]] = []
        twins: list[bool] = []
        by_shared: dict[tuple[int, ...], int] = {}
        unit_of = [0] * len(self._texts)
        for n in range(len(self._texts)):
            u = by_shared.get(tuple(self._public[n]), -1) if own[n] else -1
            if u < 0:
                u = len(units)
                units.append([])
                twins.append(own[n])
                if own[n]:
                    by_shared[tuple(self._public[n])] = u
            units[u].append(n)
            unit_of[n] = u
        return units, twins, unit_of

    def _shared(self, u: int) -> dict[int, int]:
        """Each unit that shares a class with unit `u` (itself too, when it shares any), and how many keys each of
        its texts shares with each text of `u` (the same for all of them)."""
        shared: dict[int, int] = {}
        for cls in self._public[self._units[u][0]]:
            size = self._size[cls]
            for v in self._unit_owners[cls]:
                shared[v] = shared.get(v, 0) + size
        return shared

    def weights(self) -> Iterator[tuple[frozenset[str], int, int]]:
        """Each text, the records (weights) of the texts that hold it and more, and of those that share some of it
        while neither holds the other: pairs counted without listing them."""
        lengths = [len(keyset) for keyset in self._texts]
        for u, unit in enumerate(self._units):
            shared = self._shared(u)
            if self._twins[u]:  # none holds another; each shares with the other twins (when they share a class)
                sharing = sum(self._unit_weight[v] if self._twins[v] else self._weights[self._units[v][0]]
                              for v, common in shared.items()
                              if self._twins[v] or common < lengths[self._units[v][0]])
                for n in unit:
                    yield self._texts[n], 0, sharing - (self._weights[n] if u in shared else 0)
                continue
            n = unit[0]
            holding = sharing = 0
            for v, common in shared.items():
                if v == u:
                    continue
                if self._twins[v]:  # each holds keys of its own: it holds n, or shares with it
                    if common == lengths[n]:
                        holding += self._unit_weight[v]
                    else:
                        sharing += self._unit_weight[v]
                    continue
                m = self._units[v][0]
                if common == lengths[n] < lengths[m]:
                    holding += self._weights[m]
                elif common < lengths[n] and common < lengths[m]:
                    sharing += self._weights[m]
            yield self._texts[n], holding, sharing

    def supersets(self, keyset: frozenset[str]) -> list[frozenset[str]]:
        """The texts that hold every key of `keyset` and more, in the order they were given."""
        return self.around(keyset)[0]

    def around(self, keyset: frozenset[str]) -> tuple[list[frozenset[str]], list[frozenset[str]]]:
        """The texts that hold `keyset` (one of the texts: every key of it and more), and those that share some key
        with it while neither holds the other, each in the order they were given."""
        n = self._number[keyset]
        common_with: dict[int, int] = {}
        for v, common in self._shared(self._unit_of[n]).items():
            for m in self._units[v]:
                common_with[m] = common
        texts, length = self._texts, len(keyset)
        shared = sorted(common_with.items())
        return ([texts[m] for m, common in shared if common == length < len(texts[m])],
                [texts[m] for m, common in shared if m != n and common < length and common < len(texts[m])])


def ceiling_score(truth: Sequence[frozenset[str]], name: str = "") -> PageScore:
    """The score of predicting each distinct non-empty expanded true record once (NEXT-EVAL's "clean oracle"): the
    labels' ceiling for an extractor that proposes no record twice and no record without text. A true record that
    names nothing can be matched only by an empty prediction, which is a hallucination, so it lowers the ceiling.
    Each prediction has its copy among the true records, so `score_expanded` scores it without a cost matrix
    (`identical_matching`): P = 1, R = D/N for D distinct texts among N true records."""
    return score_expanded([record for record in dict.fromkeys(truth) if record], truth, name)


def summarise(checks: Sequence[PageCheck], also: Sequence[PageCheck] = (), *, checks_vote: bool = True
              ) -> CheckReport:
    """The report of a set of pages already checked: the majority's chrome policy and the pages unlike it.
    `also`: other pages (a project's labelled pages beside the ones just imported) that count towards the
    majority but are not reported; with `checks_vote` False only they count (another annotator's pages weighed
    against the project's policy), unless none of them holds a record."""
    # A page labelled as holding no record has no chrome policy: it neither votes nor differs from the majority.
    # Left out before the fallback, so `also` made only of such pages is "none" and the checks vote after all.
    checks = list(checks)
    voting_checks, voting_also = [c for c in checks if c.records], [c for c in also if c.records]
    voters = voting_checks + voting_also if checks_vote or not voting_also else voting_also
    including = sum(c.includes_chrome for c in voters)
    # A tie (2 pages against 2, 1 against 1, or no page voting) is no majority: no page is unlike most
    majority = None if including * 2 == len(voters) else including * 2 > len(voters)
    outliers = [c.page for c in checks if c.records and c.includes_chrome != majority] if majority is not None else []
    return CheckReport(checks, majority, outliers, len(voters))


def dataset_labels(pages_dir: str | Path, gt_dir: str | Path, unreadable: list[str] | None = None, *,
                   skip: Callable[[str, RecordLensError], None] | None = None, warnings: list[str] | None = None
                   ) -> Iterator[tuple[str, Page, list[list[str]]]]:
    """`(name, page, true records)` of every page of a dataset with ground truth and a page file, for
    `check_page`, in the ground truth's order. A page whose labels or page file cannot be read stops the walk
    with its error, unless `unreadable` is given: then the error is added to it and the walk goes on; or unless
    `skip` is: then it is told the page's name and the error, and the walk goes on (a label file without its
    page is passed over: training says those apart). A pages folder that is not there is refused as every
    command refuses it (not a missing page per label file). `warnings`, when given, gets what `import` says of
    the same files: which of `N.html` and `N.mhtml` is read, what the labels file's reader noted (a record written
    as a string), and what the page's reader noted (an `.mhtml` that holds plain HTML, bytes replaced)."""
    if not Path(pages_dir).is_dir():
        raise DatasetError(not_a_folder(Path(pages_dir), "pages", "N.html / N.mhtml"))
    files = _page_files_said(Path(pages_dir), warnings)
    truths = record_files(gt_dir)
    odd = _odd_entries_said(Path(pages_dir), files, truths if unreadable is not None else {}, warnings)
    forms: dict[str, str] | None = None  # the pages' names by form, built at the first label file without its page
    for name, truth in truths.items():
        page_file = files.get(name)
        if page_file is None:  # labels without their page: said, as score says it (it refuses them)
            if unreadable is not None and name in odd:  # a FIFO named 2.html: said for what it is, not "no page"
                unreadable.append(f"page {name}: cannot be checked: {odd[name]}")
            elif unreadable is not None:
                forms = names_by_form(files) if forms is None else forms
                unreadable.append(f"page {name}: cannot be checked: {hint_path(truth)} has no page {name} in "
                                  f"{hint_path(pages_dir)}"
                                  f"{same_name_in_another_form(name, forms)}")
            continue
        try:
            loaded = load_records(truth)
            read = load_page(page_file, name)
        except RecordLensError as error:
            if skip is not None:
                skip(name, error)
                continue
            if unreadable is None:
                raise
            unreadable.append(f"page {name}: cannot be checked: {error}")
            continue
        if warnings is not None:  # in import's words (`importer._import_page`, `importer._truth`)
            warnings += [*loaded.warnings, *(f"page {name}: {w}" for w in read.snapshot.warnings)]
        yield name, read.page, loaded.records
        del read  # not held while the next page is parsed


def _page_files_said(pages_dir: Path, warnings: list[str] | None) -> dict[str, Path]:
    """The dataset's page files as every reader chooses them (`page_files`: the MHTML of a page saved twice, said in
    `warnings`), but for the note of an unfinished dataset, which `labels check` says with its exit status."""
    said: list[str] = []
    files = page_files(pages_dir, said, odd_files=False)  # those said by `_odd_entries_said`
    if warnings is not None:
        unfinished = unfinished_dataset(pages_dir)
        warnings += [line for line in said if line != unfinished]
    return files


def _odd_entries_said(pages_dir: Path, files: Mapping[str, Path], truths: Mapping[str, Path],
                      warnings: list[str] | None) -> dict[str, OddPageEntry]:
    """The entries named like pages that are no regular file (`odd_page_entries`), by the page of labels in
    `truths` each leaves without a file (the first of its name): the page's own line says it, once. The others
    (an entry of a page without labels, or beside the file read) go to `warnings`, as `page_files` says them."""
    lacking: dict[str, OddPageEntry] = {}
    for entry in odd_page_entries(pages_dir):
        said_by_its_page = entry.page in truths and entry.page not in files and entry.page not in lacking
        if said_by_its_page:
            lacking[entry.page] = entry
        elif warnings is not None:
            warnings.append(str(entry))
    return lacking


def names_by_form(pages: Iterable[str]) -> dict[str, str]:
    """Each Unicode form (`unicode_form`) of the names `pages` -> the first of them written in it: built once for
    a folder, and each label file without its page looked up in it (`same_name_in_another_form`), so that a
    folder of thousands of such files is not scanned once per file."""
    forms: dict[str, str] = {}
    for page in pages:
        forms.setdefault(unicode_form(page), page)
    return forms


def same_name_in_another_form(name: str, forms: Mapping[str, str]) -> str:
    """For labels of page `name` that no page file has: ` (the page 'X' has the same name written in another
    Unicode form, ...)` when a page of their folder (`forms`: its `names_by_form`) is that, as some systems save
    file names; else "". The words of `import` and `labels check` alike."""
    twin = forms.get(unicode_form(name))
    return (f" (the page {twin!r} has the same name written in another Unicode form, as some systems save file "
            "names; rename one to match the other)" if twin is not None and twin != name else "")
