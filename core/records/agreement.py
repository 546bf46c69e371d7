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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .model import TextKeyIndex, record_key
from .review import MATCH_THRESHOLD, MATCHED, MISSED, PARTIAL, SPURIOUS, PageReview, ReviewRecord, review_page

# What each review class means between two annotators.
ONLY_A, ONLY_B, DIFFERENT = "only A", "only B", "different"
OTHER_XPATHS = "other XPaths"  # a matched pair whose records name other elements (the same text, or nearly)
_MEANING = {SPURIOUS: ONLY_A, MISSED: ONLY_B, PARTIAL: DIFFERENT, MATCHED: OTHER_XPATHS}


@dataclass(frozen=True)
class Disagreement:
    kind: str                        # only A, only B, different (other XPaths: matched, see the notes)
    a: tuple[str, ...]               # A's record (empty for only B)
    b: tuple[str, ...]               # B's record (empty for only A)
    a_number: int | None             # 1-based place in A's records of the page
    b_number: int | None
    overlap: float


@dataclass(frozen=True)
class PageAgreement:
    page: str
    review: PageReview               # A's records reviewed against B's

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
        return [_disagreement(r) for r in self.review.records if r.kind != MATCHED]

    @property
    def other_xpaths(self) -> list[Disagreement]:
        """The matched pairs whose XPaths differ (normalised, in any order): one record to the score, two labels."""
        return [_disagreement(r) for r in self.review.records
                if r.kind == MATCHED and record_key(r.xpaths) != record_key(r.true_xpaths)]


@dataclass(frozen=True)
class Agreement:
    a: str
    b: str
    pages: tuple[PageAgreement, ...]
    only_a_pages: tuple[str, ...] = ()   # pages only A labelled (not compared)
    only_b_pages: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()          # how a name was read (an imported annotator who is a person too)

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
            "a": self.a, "b": self.b, "pages_compared": len(self.pages),
            "precision": self.precision, "recall": self.recall, "f1": self.f1,
            "only_a_pages": list(self.only_a_pages), "only_b_pages": list(self.only_b_pages),
            "notes": list(self.notes),
            "pages": [{"page": p.page, "precision": p.precision, "recall": p.recall, "f1": p.f1,
                       "a_records": p.review.score.predicted_records, "b_records": p.review.score.true_records,
                       "disagreements": [_document(d) for d in p.disagreements],
                       "other_xpaths": [_document(d) for d in p.other_xpaths]}
                      for p in self.pages],
        }


def _document(d: Disagreement) -> dict[str, object]:
    return vars(d) | {"a": list(d.a), "b": list(d.b)}


def _disagreement(record: ReviewRecord) -> Disagreement:
    a = record.xpaths if record.kind in (MATCHED, PARTIAL, SPURIOUS) else ()
    b = record.true_xpaths if record.kind in (MATCHED, PARTIAL, MISSED) else ()
    return Disagreement(_MEANING[record.kind], a, b,
                        None if record.predicted is None else record.predicted + 1,
                        None if record.true is None else record.true + 1, record.overlap)


def compare_page(a: Sequence[Sequence[str]], b: Sequence[Sequence[str]], keys: TextKeyIndex, page: str = "",
                 threshold: float = MATCH_THRESHOLD) -> PageAgreement:
    return PageAgreement(page, review_page(a, b, keys, page, threshold))


def agreement(a: str, b: str, pages: Iterable[PageAgreement], only_a: Sequence[str] = (),
              only_b: Sequence[str] = (), notes: Sequence[str] = ()) -> Agreement:
    return Agreement(a, b, tuple(pages), tuple(only_a), tuple(only_b), tuple(notes))
