"""Review: a run's records on one page against the labels, each classed matched, missed or spurious.

The classes come from NEXT-EVAL's own matching (`score_page`), so what the reviewer sees is what the score
counted: a matched pair is one the optimal matching paired with an overlap above 0; a true record left
unpaired (or paired at overlap 0) is missed; a predicted record left so is spurious.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .model import TextKeyIndex
from .score import PageScore, score_page

MATCHED, MISSED, SPURIOUS = "matched", "missed", "spurious"


@dataclass(frozen=True)
class ReviewRecord:
    kind: str                        # matched, missed or spurious
    xpaths: tuple[str, ...]          # the predicted record's (matched, spurious) or the true one's (missed)
    predicted: int | None            # index in the run's records of the page
    true: int | None                 # index in the page's true records
    overlap: float                   # Jaccard of the pair on text keys; 0 when unpaired


@dataclass(frozen=True)
class PageReview:
    score: PageScore
    records: tuple[ReviewRecord, ...]

    def count(self, kind: str) -> int:
        return sum(1 for r in self.records if r.kind == kind)


def review_page(predicted: Sequence[Sequence[str]], true: Sequence[Sequence[str]], keys: TextKeyIndex,
                page: str = "") -> PageReview:
    """Score the page and class every record: matched pairs in true-record order, then missed, then spurious."""
    score = score_page(predicted, true, keys, page)
    pairs = sorted((m for m in score.matches if m.overlap > 0), key=lambda m: m.true)
    paired_true = {m.true for m in pairs}
    paired_predicted = {m.predicted for m in pairs}
    records = [ReviewRecord(MATCHED, tuple(predicted[m.predicted]), m.predicted, m.true, m.overlap) for m in pairs]
    records += [ReviewRecord(MISSED, tuple(r), None, j, 0.0) for j, r in enumerate(true) if j not in paired_true]
    records += [ReviewRecord(SPURIOUS, tuple(r), i, None, 0.0)
                for i, r in enumerate(predicted) if i not in paired_predicted]
    return PageReview(score, tuple(records))


class _Scored(Protocol):
    page: str
    f1: float


def worst_pages(scores: Iterable[_Scored], limit: int | None = None) -> list[tuple[str, float]]:
    """(page, F1) from the lowest F1 up; ties in the order given, so the list is stable between calls."""
    ranked = sorted(((s.page, s.f1) for s in scores), key=lambda item: item[1])
    return ranked if limit is None else ranked[:limit]
