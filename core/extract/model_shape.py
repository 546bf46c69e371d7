"""What a fit makes of some labelled pages (its stages, members and page shares), and what a model of one stage
risks, in the words `train`, the app's Learn and Propose all say. Its own module so that `selector` (which says it
of the model it proposes with) and `training` (which fits, and imports `selector`) share it without an import
cycle."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..wording import counted
from .selector_model import SelectorModel

__all__ = ["FULL_MODEL_PAGES", "INNER_FOLDS", "ModelShape", "few_pages_warning"]

INNER_FOLDS = 3  # the inner page-grouped cross-validation that feeds the second stage
FULL_MODEL_PAGES = 2 * INNER_FOLDS  # the fewest labelled pages from which both stages are learnt


@dataclass(frozen=True)
class ModelShape:
    """What a fit makes of some pages: its members, the page shares they were fitted on (bags) and the stages
    every member has. Pages too few for a full model give one share (not bagged) and, below FULL_MODEL_PAGES,
    one stage (`bags`, `_has_second_stage`)."""

    pages: int
    members: int
    bags: int  # distinct page shares: 1 when not bagged
    stages: int

    @classmethod
    def of(cls, model: SelectorModel) -> ModelShape:
        """The shape of a fitted model, as its members and provenance record it. The members of one kind of
        target were each fitted on a share of their own, so they count at least that many shares whatever the
        pages are named; the names of the pages they left out tell shares of different kinds apart (two datasets
        may name their pages alike: by names alone, two shares could look like one)."""
        described = [m for m in model.provenance.get("members", []) if isinstance(m, dict)]
        by_names = {tuple(m.get("left_out", [])) for m in described}
        kinds = Counter(str(m.get("target", "")) for m in described)
        shares = max(len(by_names), *kinds.values(), 1)
        return cls(len(model.provenance.get("pages", [])), len(model.members), shares, model.stages)

    def weaker_than(self, other: ModelShape) -> bool:
        return self.stages < other.stages or self.bags < other.bags or self.members < other.members

    def as_dict(self) -> dict[str, int]:
        return {"pages": self.pages, "members": self.members, "bags": self.bags, "stages": self.stages}

    def __str__(self) -> str:
        bagged = f" on {self.bags} page shares" if self.bags > 1 else ", not bagged"
        return f"{counted(self.stages, 'stage')}, {counted(self.members, 'member')}{bagged}"


def few_pages_warning(shape: ModelShape) -> str | None:
    """What a model of one stage is and risks, in the words that `train`, the app's Learn and its Propose all say
    (each adds its own way out); None for a model of both stages. FULL_MODEL_PAGES is where the code itself stops
    learning the second stage."""
    if shape.stages >= 2:
        return None
    if not shape.pages:  # a model whose provenance lists no pages
        learnt = "too few labelled pages"
    elif shape.pages < FULL_MODEL_PAGES:
        learnt = f"{counted(shape.pages, 'labelled page')} (a second stage needs {FULL_MODEL_PAGES})"
    else:
        learnt = f"{counted(shape.pages, 'labelled page')}, too few of them with records for a second stage"
    return f"one stage only, from {learnt}: its proposals may be far off on pages it was not trained on"
