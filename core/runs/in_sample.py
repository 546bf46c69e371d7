"""Which pages a selector run was scored on that its model was trained on: a figure on those is in-sample.

A model file lists the pages it was trained on by digest (`training.page_digest`: a page's texts and its labels,
whatever its file is named). A run's description names its model and that model's digest; when the model can be
read again and is the one the run used, each scored page's digest says whether the model saw that page, with
those labels, in training. The shipped model was trained on the 80 development pages, so `score` on them says
so, rather than letting an in-sample figure pass for a measure of unseen pages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import RecordLensError
from ..page.dom import Page


@dataclass(frozen=True)
class InSample:
    model: str          # as the run names it ("default": the shipped model)
    pages: list[str]    # the scored pages it was trained on
    scored: int         # how many pages were scored

    def message(self) -> str:
        shown = ", ".join(self.pages[:8]) + (f", … ({len(self.pages)} in all)" if len(self.pages) > 8 else "")
        which = "the shipped selector model" if self.model == "default" else f"the selector model {self.model}"
        return (f"{len(self.pages)} of the {self.scored} pages scored ({shown}) are pages {which} was trained on, "
                "with the same labels: its figures there are in-sample, not a measure of pages it has not seen "
                "(`recordlens bench --cv K` or `train --cv K` measure that)")


def run_model(parameters: dict[str, object]) -> tuple[str, set[str]] | None:
    """The run's selector model (as named) and the digests of the pages it was trained on; None when the run is
    not the selector's, or its model cannot be read again as the one the run used."""
    from ..extract.selector import load_model

    name = parameters.get("model")
    if not isinstance(name, str) or "model_digest" not in parameters:
        return None
    try:
        model = load_model(None if name == "default" else Path(name))
    except RecordLensError:
        return None  # moved or deleted since: nothing can be said
    if model.digest != parameters.get("model_digest"):
        return None  # another model under that name now
    pages = model.provenance.get("pages", [])
    return name, {str(p.get("digest")) for p in pages if isinstance(p, dict)}


def trained_on(parameters: dict[str, object], scored: Iterable[tuple[str, Page, Sequence[Sequence[str]]]]
               ) -> InSample | None:
    """The scored pages (name, page, true records) the run's selector model was trained on; None when there are
    none, or when the run's model cannot tell."""
    from ..extract.training import page_digest

    found = run_model(parameters)
    if found is None:
        return None
    name, known = found
    pages = list(scored)
    inside = [page_name for page_name, page, truth in pages if page_digest(page, truth) in known]
    return InSample(name, inside, len(pages)) if inside else None
