"""Which pages a run was scored on that its method was trained or tuned on: a figure on those is in-sample.

A model file lists the pages it was trained on by digest (`training.page_digest`: a page's texts and its labels,
whatever its file is named). A run's description names its model (a file by its whole path, or "default", the
shipped one) and that model's digest; when the model can be read again and is the one the run used, each scored
page's digest says whether the model saw that page, with those labels, in training. The shipped model was
trained on the 80 development pages, so `score` and `bench` on them say so, rather than letting an in-sample
figure pass for a measure of unseen pages. When the model file is gone or holds another model now, that is said:
whether the figures are in-sample cannot be told.

A page the model was trained on under other labels (a project's relabelled copy of the development pages, the
README's own case of training on a project's policy) is no page it never saw either: where the texts of the pages
it was trained on are known, a scored page with the same texts is said to be one it was trained on under other
labels, whatever the labels (`InSample.relabelled`). The shipped model's are shipped beside it
(`resources/models/selector-training-texts.json`, made by `bench/selector_training_texts.py`, for that model
only); a model's own provenance knows its pages by texts and labels together. `score` and `train --cv` (its
`TrainingCheck`) both ask this module, so that the two say one thing of the same pages.

`repeats` fits nothing, but its hand rules were tuned on the 40 pages of nexteval-synth-dev: their digests are
shipped (`resources/models/repeats-tuning-pages.json`, made by `bench/repeats_tuning_pages.py`), so that its figure
on those pages is said to be a development figure whatever their folder is called, as the selector's is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import NamedTuple

from ..errors import RecordLensError
from ..page.dom import Page
from ..resource_files import resource_path
from ..wording import listed

REPEATS = "repeats"  # InSample.model of repeats: its hand rules, no model file
LEARNS_FROM_PAGES = ("selector", REPEATS)  # the methods whose figures on some pages are in-sample
REPEATS_TUNING_PAGES = ("models", "repeats-tuning-pages.json")  # the digests of the pages repeats was tuned on
SHIPPED_MODEL_TEXTS = ("models", "selector-training-texts.json")  # the texts of the shipped model's pages, digested

Scored = Iterable[tuple[str, Page, Sequence[Sequence[str]]]]  # (name, page, true records) of each scored page


class PageDigests(NamedTuple):
    """A scored page as this module knows it; a pair (name, digest) is read as one without its text digest."""

    name: str
    digest: str  # its texts and labels (`training.page_digest`)
    text_digest: str = ""  # its texts alone (`page_digest(page, [])`); "" where not known (a project's remembered)


@dataclass(frozen=True)
class InSample:
    model: str          # as the run names it ("default": the shipped model; REPEATS: repeats' hand rules)
    pages: list[str]    # the scored pages it was trained on
    scored: int         # how many pages were scored with a prediction (0 when `unknown`: none was read)
    unknown: str = ""   # why it cannot be told (the model file is gone or changed); then `pages` is empty
    variants: list[str] = field(default_factory=list)  # scored pages `synth` made from pages it was trained on
    relabelled: list[str] = field(default_factory=list)  # scored pages it was trained on under other labels

    def message(self) -> str:
        if self.model == REPEATS:
            return self._said("repeats' hand rules", "were tuned on", "", "development figures",
                              "(`recordlens bench --cv K` gives its figure on each dataset, marked where it was "
                              "tuned)")
        from ..extract.selector import model_said

        which = ("the shipped selector model" if self.model == "default"
                 else f"the selector model {model_said(self.model)}")
        if self.unknown:
            return (f"whether these figures are in-sample cannot be told: {which} {self.unknown} (a model file "
                    "lists the pages it was trained on)")
        return self._said(which, "was trained on", ", with the same labels", "in-sample",
                          "(`recordlens bench --cv K` or `train --cv K` measure that)")

    def _said(self, which: str, verb: str, labels: str, figures: str, honest: str) -> str:
        found = []
        if self.pages:
            found.append(f"{len(self.pages)} of the {self.scored} pages scored with a prediction "
                         f"({listed(self.pages, 8, total=True)}) are pages {which} {verb}{labels}: its figures "
                         f"there are {figures}")
        if self.variants:
            found.append(f"{len(self.variants)} of the {self.scored} pages scored with a prediction "
                         f"({listed(self.variants, 8, total=True)}) are synthetic variants of pages {which} "
                         f"{verb}: its figures there are close to {figures} (the same pages, rewritten)")
        if self.relabelled:
            found.append(f"{len(self.relabelled)} of the {self.scored} pages scored with a prediction "
                         f"({listed(self.relabelled, 8, total=True)}) are pages {which} {verb} under other labels "
                         "(the same texts): its figures there are of pages it has seen")
        return "; ".join(found) + f", not a measure of pages it has not seen {honest}"


def model_pages(parameters: dict[str, object]) -> tuple[str, set[str] | str] | None:
    """The run's selector model (as named) and the digests of the pages it was trained on, or why they cannot
    be read (the model moved, or another is under its name); None for a run that names no model file."""
    from ..extract.selector import load_model

    name = parameters.get("model")
    if not isinstance(name, str) or "model_digest" not in parameters or name == "(in memory)":
        return None
    try:
        model = load_model(None if name == "default" else Path(name))
    except RecordLensError:
        return name, "is not where the run found it any more"
    if model.digest != parameters.get("model_digest"):
        # the shipped model changes with RecordLens itself: after an update, the user trained nothing
        why = ("a newer RecordLens ships another, or it was trained again" if name == "default"
               else "trained again since the run?")
        return name, f"holds another model now ({why})"
    return name, model.trained_digests()


@cache
def repeats_tuning_digests() -> frozenset[str]:
    """The digests (`training.page_digest`) of the pages repeats' hand rules were tuned on, as shipped."""
    document = json.loads(resource_path(*REPEATS_TUNING_PAGES).read_text(encoding="utf-8"))
    return frozenset(document["digests"])


def in_sample(method: str, parameters: Mapping[str, object], scored: Iterable[tuple[str, ...]],
              sources: Mapping[str, str] | None = None) -> InSample | None:
    """`trained_on` for a selector run, `tuned_on` for a repeats run; None for a method that learnt from no page."""
    if method == "selector":
        return trained_on(dict(parameters), scored, sources)
    if method == REPEATS:
        return tuned_on(scored, sources)
    return None


def tuned_on(scored: Iterable[tuple[str, ...]], sources: Mapping[str, str] | None = None) -> InSample | None:
    """The scored pages repeats' hand rules were tuned on (and synthetic variants of them), None when none was."""
    return _inside(REPEATS, repeats_tuning_digests(), scored, sources)


@cache
def _shipped_model_texts() -> tuple[str, frozenset[str]]:
    """The digest of the shipped model whose pages' texts are shipped, and their text digests."""
    document = json.loads(resource_path(*SHIPPED_MODEL_TEXTS).read_text(encoding="utf-8"))
    return str(document["model"]), frozenset(document["digests"])


def trained_texts(name: str, model_digest: object) -> frozenset[str]:
    """The text digests of the pages the run's model was trained on, where they are known: the shipped model's, for
    that very model (`model_digest`: the one the run used); none of another model, whose provenance knows each page
    by its texts and labels together."""
    if name != "default":
        return frozenset()
    shipped, texts = _shipped_model_texts()
    return texts if model_digest == shipped else frozenset()  # another shipped model (RecordLens updated): unknown


def digests_of(scored: Scored) -> Iterator[tuple[str, str]]:
    """Each scored page's name and identity in a model's provenance (`training.page_digest`), one page at a time:
    a run of a thousand pages would otherwise hold every parsed page at once (gigabytes)."""
    for found in page_digests_of(scored):
        yield found.name, found.digest


def page_digests_of(scored: Scored) -> Iterator[PageDigests]:
    """`digests_of` with each page's text digest too, so that a page trained on under other labels is known."""
    from ..extract.training import page_digest

    for page_name, page, truth in scored:
        yield PageDigests(page_name, page_digest(page, truth), page_digest(page, []))


def trained_on(parameters: dict[str, object], scored: Iterable[tuple[str, ...]],
               sources: Mapping[str, str] | None = None) -> InSample | None:
    """The scored pages the run's selector model was trained on, or why that cannot be told; None when none was
    (or the run names no model file). `scored`: each scored page's name and digest (`digests_of`, or a project's
    remembered ones, `project.label_checks.training_digest`), read only when the model can be: otherwise no page
    is read (`scored` of the result is then 0: nothing can be told of them). `sources`: of a synthetic dataset,
    each page's source page digest (`page.dataset.synthetic_sources`), so that variants of training pages are
    named too."""
    found = model_pages(parameters)
    if found is None:
        return None
    name, known = found
    if isinstance(known, str):
        return InSample(name, [], 0, known)
    return _inside(name, known, scored, sources, trained_texts(name, parameters.get("model_digest")))


def _inside(name: str, known: Iterable[str], scored: Iterable[tuple[str, ...]],
            sources: Mapping[str, str] | None, known_texts: frozenset[str] = frozenset()) -> InSample | None:
    """The scored pages whose digest is among `known` (and variants of them, and pages whose texts alone are among
    `known_texts`: trained on under other labels), None when none is. `scored`: `PageDigests`, or pairs."""
    known_digests = set(known)
    pages = {page.name: page for page in (PageDigests(*item) for item in scored)}
    inside = [page_name for page_name, page in pages.items() if page.digest in known_digests]
    variants = [page_name for page_name in pages
                if page_name not in inside and (sources or {}).get(page_name) in known_digests]
    relabelled = [page_name for page_name, page in pages.items() if page_name not in inside
                  and page_name not in variants and page.text_digest and page.text_digest in known_texts]
    if not (inside or variants or relabelled):
        return None
    return InSample(name, inside, len(pages), variants=variants, relabelled=relabelled)
