"""Agreement between two annotators: the same structure-aware score, one annotator's records against the other's.

For every page both labelled, `compare_page` scores A's records as if they were predictions against B's as
ground truth (NEXT-EVAL's matching and Jaccard on text keys): P is how much of A's records B also made, R how
much of B's records A also made, F1 their harmonic mean; F1 does not depend on which side is which. The records
they disagree on are the review's classes other than matched: `partial` pairs (both made a record there, with
overlap below the match threshold), records only B made (`missed` by A) and records only A made (`spurious`
against B). The dataset figures are means of the per-page figures, as for a run.

Matched pairs whose XPaths differ (one labelled a level up: the same text, so overlap 1) agree to the score but
are not the same labels once exported: they are listed apart (`other_xpaths`), so that a team that wants identical
labels can find and settle them.

A record of one side whose text holds several records of the other side that disagree (a table body where the
other labelled its rows: one labelled a level up) is a `Holding`: the list says it once, with the records it
holds, instead of a "different" pair and a row "only" per record. Containment is read on text keys, as the score
and the label check's nested records read it. XPaths that name no element of the page (`dead`, given by the
caller, which has the page) are counted per record, so the list can mark a record that names nothing.

Records are named by number ("A3", "B5"): by default their 1-based place in their side's records of the page; the
caller gives the numbers the app shows where a side is the project's own labels (`compare_page`'s `a_numbers`,
`b_numbers`), whose Records tab counts the rejected and proposed records too, so that B5 is record 5 in the app.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from .model import TextKeyIndex, normalise_xpath, record_key
from .review import MATCH_THRESHOLD, MATCHED, MISSED, PARTIAL, SPURIOUS, PageReview, ReviewRecord, review_page

# What each review class means between two annotators.
ONLY_A, ONLY_B, DIFFERENT = "only A", "only B", "different"
OTHER_XPATHS = "other XPaths"  # a matched pair whose records name other elements (the same text, or nearly)
_MEANING = {SPURIOUS: ONLY_A, MISSED: ONLY_B, PARTIAL: DIFFERENT, MATCHED: OTHER_XPATHS}
# The version of how a page's comparison is made (`compare_page`, and the review and score it is made of): move it
# with every change to what a comparison holds or how it is made, and the comparisons a project remembers
# (`store.comparison_cache`) are made again.
COMPARISON_VERSION = 1


@dataclass(frozen=True)
class Disagreement:
    kind: str                        # only A, only B, different (other XPaths: matched, see the notes)
    a: tuple[str, ...]               # A's record (empty for only B)
    b: tuple[str, ...]               # B's record (empty for only A)
    a_number: int | None             # A's record's number (see the module notes; None for only B)
    b_number: int | None
    overlap: float
    a_named: int | None = None       # how many of A's XPaths name an element of the page (None for only B)
    b_named: int | None = None


@dataclass(frozen=True)
class Holding:
    """A disagreeing record of one side whose text holds several disagreeing records of the other side."""

    side: str                        # "A" or "B": whose record holds the others
    number: int                      # its number (see the module notes)
    xpaths: tuple[str, ...]
    held: tuple[int, ...]            # the numbers of the other side's records inside it
    one_level: bool                  # each held record's XPaths are children of the holder's elements


@dataclass(frozen=True)
class PageAgreement:
    page: str
    review: PageReview               # A's records reviewed against B's
    holdings: tuple[Holding, ...] = ()
    dead: frozenset[str] = frozenset()  # the XPaths of either side that name no element of the page
    a_numbers: tuple[int, ...] = ()  # the number of each of A's records (none given: their 1-based places)
    b_numbers: tuple[int, ...] = ()

    @property
    def precision(self) -> float:
        return self.review.score.precision

    @property
    def recall(self) -> float:
        return self.review.score.recall

    @property
    def f1(self) -> float:
        return self.review.score.f1

    @property
    def disagreements(self) -> list[Disagreement]:
        return [self._disagreement(r) for r in self.review.records if r.kind != MATCHED]

    @property
    def other_xpaths(self) -> list[Disagreement]:
        """The matched pairs whose XPaths differ (normalised, in any order): one record to the score, two labels."""
        return [self._disagreement(r) for r in self.review.records
                if r.kind == MATCHED and record_key(r.xpaths) != record_key(r.true_xpaths)]

    def _disagreement(self, record: ReviewRecord) -> Disagreement:
        return _disagreement(record, self.dead, (self.a_numbers, self.b_numbers))

    def holding_of(self, d: Disagreement) -> Holding | None:
        """The holding a disagreement is said under: its record is the holder or held, and so is its partner."""
        for h in self.holdings:
            mine = {h.side: {h.number}, _OTHER[h.side]: set(h.held)}
            numbers = {"A": d.a_number, "B": d.b_number}
            if all(n is None or n in mine[side] for side, n in numbers.items()):
                return h
        return None

    def as_document(self) -> dict[str, object]:
        return {"page": self.page, "precision": self.precision, "recall": self.recall, "f1": self.f1,
                "a_records": self.review.score.predicted_records, "b_records": self.review.score.true_records,
                "disagreements": [_document(d) for d in self.disagreements],
                "holdings": [asdict(h) | {"xpaths": list(h.xpaths), "held": list(h.held)} for h in self.holdings],
                "other_xpaths": [_document(d) for d in self.other_xpaths]}


@dataclass(frozen=True)
class Agreement:
    a: str
    b: str
    pages: tuple[PageAgreement, ...]
    only_a_pages: tuple[str, ...] = ()   # pages only A labelled (not compared)
    only_b_pages: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()          # how a name was read (an imported annotator who is a person too)
    threshold: float = MATCH_THRESHOLD   # the overlap from which two records are the same record

    def _mean(self, name: str) -> float | None:
        return sum(getattr(p, name) for p in self.pages) / len(self.pages) if self.pages else None

    @property
    def precision(self) -> float | None:
        return self._mean("precision")

    @property
    def recall(self) -> float | None:
        return self._mean("recall")

    @property
    def f1(self) -> float | None:
        return self._mean("f1")

    def as_dict(self) -> dict[str, object]:
        return {
            "a": self.a, "b": self.b, "pages_compared": len(self.pages), "threshold": self.threshold,
            "precision": self.precision, "recall": self.recall, "f1": self.f1,
            "only_a_pages": list(self.only_a_pages), "only_b_pages": list(self.only_b_pages),
            "notes": list(self.notes),
            "pages": [p.as_document() for p in self.pages],
        }


def _document(d: Disagreement) -> dict[str, object]:
    return vars(d) | {"a": list(d.a), "b": list(d.b)}


def _disagreement(record: ReviewRecord, dead: frozenset[str], numbers: tuple[Sequence[int], Sequence[int]]
                  ) -> Disagreement:
    a = record.xpaths if record.kind in (MATCHED, PARTIAL, SPURIOUS) else ()
    b = record.true_xpaths if record.kind in (MATCHED, PARTIAL, MISSED) else ()
    return Disagreement(_MEANING[record.kind], a, b,
                        None if record.predicted is None else _number(numbers[0], record.predicted),
                        None if record.true is None else _number(numbers[1], record.true), record.overlap,
                        _named(a, dead) if record.kind != MISSED else None,
                        _named(b, dead) if record.kind != SPURIOUS else None)


def _number(numbers: Sequence[int], index: int) -> int:
    """The number a side's record `index` goes by: the one given, else its 1-based place."""
    return numbers[index] if index < len(numbers) else index + 1


def _named(xpaths: Sequence[str], dead: frozenset[str]) -> int:
    return sum(1 for x in xpaths if x not in dead)


_OTHER = {"A": "B", "B": "A"}


def _holdings(review: PageReview, a: Sequence[Sequence[str]], b: Sequence[Sequence[str]],
              keys: TextKeyIndex, numbers: dict[str, Sequence[int]]) -> tuple[Holding, ...]:
    """The disagreeing records that hold (by text) two or more disagreeing records of the other side; the largest
    first, each record held by one holder at most and a record held not holding in turn. Each named by its side's
    `numbers`."""
    disagreeing = {"A": {r.predicted for r in review.records if r.kind in (PARTIAL, SPURIOUS)},
                   "B": {r.true for r in review.records if r.kind in (PARTIAL, MISSED)}}
    records = {"A": a, "B": b}
    texts = {side: {i: keys.expand(records[side][i]) for i in found if i is not None}
             for side, found in disagreeing.items()}
    candidates = sorted(((side, i) for side in texts for i in texts[side]), key=lambda c: -len(texts[c[0]][c[1]]))
    used: set[tuple[str, int]] = set()
    holdings = []
    for side, i in candidates:
        outer = texts[side][i]
        if (side, i) in used or not outer:
            continue
        other = _OTHER[side]
        inside = sorted(j for j, inner in texts[other].items()
                        if inner and inner <= outer and (other, j) not in used)
        if len(inside) < 2:
            continue
        used |= {(side, i)} | {(other, j) for j in inside}
        holder = tuple(records[side][i])
        parents = {normalise_xpath(x) for x in holder}
        one_level = all(normalise_xpath(x).rpartition("/")[0] in parents for j in inside for x in records[other][j])
        holdings.append(Holding(side, _number(numbers[side], i), holder,
                                tuple(_number(numbers[other], j) for j in inside), one_level))
    return tuple(sorted(holdings, key=lambda h: (h.side, h.number)))


def compare_page(a: Sequence[Sequence[str]], b: Sequence[Sequence[str]], keys: TextKeyIndex, page: str = "",
                 threshold: float = MATCH_THRESHOLD, dead: Iterable[str] = (), a_numbers: Sequence[int] = (),
                 b_numbers: Sequence[int] = ()) -> PageAgreement:
    """A's records against B's on one page; `dead`: the XPaths of either that name no element of the page;
    `a_numbers[i]`, `b_numbers[i]`: the number a side's record i goes by (none: its 1-based place), as the app
    numbers the project's own labels (see the module notes)."""
    review = review_page(a, b, keys, page, threshold)
    holdings = _holdings(review, a, b, keys, {"A": a_numbers, "B": b_numbers})
    return PageAgreement(page, review, holdings, frozenset(dead), tuple(a_numbers), tuple(b_numbers))


def agreement(a: str, b: str, pages: Iterable[PageAgreement], only_a: Sequence[str] = (),
              only_b: Sequence[str] = (), notes: Sequence[str] = (), threshold: float = MATCH_THRESHOLD) -> Agreement:
    return Agreement(a, b, tuple(pages), tuple(only_a), tuple(only_b), tuple(notes), threshold)
