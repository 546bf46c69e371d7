"""Honest figures for the trained offline extractor: page-grouped K-fold cross-validation over labelled pages.

Contract. `cross_validate_sets(sets, k, seed)` reads every labelled page of the datasets given as
`(pages_dir, gt_dir)` pairs, turns them into the selector's examples (`training.prepare`) and runs
`training.cross_validate`: the pages are split into k folds by a seeded shuffle (a page is in exactly one fold,
and the synthetic variants `recordlens synth` made of a page are in its fold, `Variants`: else a page would be
scored by a model trained on its own rewritten copies) and each page is extracted (`selector.select`) with a model
fitted on the other folds only; everything fitted (both stages, and the inner cross-validation that feeds the
second stage) sees training folds only, and the threshold is the model's fixed one, not searched. On the same
pages, beside the selector:

- `repeats` (hand rules, nothing fitted): its rules were tuned by hand on nexteval-synth-dev, so its figure on
  those pages is a development figure, on pages it was not tuned on an honest one. Its tuning pages are known by
  content (`in_sample.repeats_tuning_digests`: each page's texts and labels), whatever their folder is called: a
  dataset of them is marked "tuned there", one that holds some of them says how many; synthetic variants of them
  are marked as `score` marks them (`in_sample.tuned_on`), their figure close to a development one;
- the best-candidate oracle (`labels_match.oracle_selection`: a greedy non-overlapping choice among the
  candidate regions that maximises each page's F1 against its labels, what a perfect chooser could reach);
- the same oracle kept out of page chrome (it may not take a candidate inside `header`, `nav`, `footer`, `aside`
  or a navigation role): what a perfect chooser with one fixed policy, "main content only", could reach. The
  distance between the two oracles is what labels that count menus and footer lists on some pages and not on
  others cost any extractor that cannot know a page's policy;
- the ground-truth ceiling (each distinct true record with text predicted once: what the labels allow an extractor
  that proposes no record twice).

Every page is scored with NEXT-EVAL's metric (`score_expanded`). A row gives P, R, F1 (means of per-page
figures), HR (the share of pages with a hallucinated record), records proposed per true record (pooled: the sum
over the pages of the proposed records over the sum of the true ones) and "spam": pages whose number of proposed
records lies outside [0.5x, 2x] the true number. `format_report` is the table `bench/offline_extractor.py` and
`recordlens bench --cv K` print; `CrossValidation.as_dict` is its JSON. Under it, where the folds' models are
smaller than the one all the pages would give (one stage, or not bagged: too few pages each), that is said in the
words `train --cv` says it (`training.weaker_folds_note`): the figure likely understates such a model.

With `splits=R` the whole cross-validation is repeated over R fold splits (seeds `seed` to `seed + R - 1`), and
the selector's headline row is the mean over all of them. On 80 pages one split's mean F1 moves by several
hundredths with the seed of its shuffle, so a single split's figure says as much about the split as about the
selector; the per-split figures are printed beside the mean. The other rows do not depend on the split.
"""

from __future__ import annotations

import statistics
import textwrap
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from ..command_hints import hint_path
from ..errors import DatasetError, RecordLensError
from ..extract.candidates import FEATURE_NAMES
from ..extract.labels_match import oracle_selection
from ..extract.model_shape import ModelShape
from ..extract.repeats import extract_records
from ..extract.selector import select
from ..extract.training import (
    Example,
    FitConfig,
    FoldResult,
    LabelledPage,
    cross_validate,
    dataset_pages,
    fold_shapes,
    once_each,
    planned_shape,
    prepare,
    unfit_fold,
    weaker_folds_note,
)
from ..page.dataset import synthetic_sources
from ..records.hygiene import ceiling_score
from ..records.model import TextKeyIndex
from ..records.score import PageScore, score_expanded
from ..wording import below_one
from .in_sample import InSample, PageDigests, trained_on, tuned_on
from .saved_folds import read_fold_results, save_fold_results

KINDS = ("selector", "repeats", "oracle", "main_oracle", "ceiling")
# K where none is given: the README's figures (`bench/offline_extractor.py`, "the figure"), and the most
# folds the comparison with the shipped model that no one asked a K of is fitted in (`comparison_folds`)
FOLDS = 5
NOTE_WIDTH = 100  # the notes under the table, as wide as its own lines
CHROME_COLUMNS = [FEATURE_NAMES.index("chrome_tag"), FEATURE_NAMES.index("chrome_role")]

Wrap = Callable[[Sequence[LabelledPage]], Iterable[LabelledPage]]


class Digested(Protocol):
    """A labelled page as the folds' groups read it: a LabelledPage, a TrainingPage or an Example."""

    @property
    def digest(self) -> str: ...


@dataclass
class Variants:
    """The synthetic variants among the labelled pages and the page each was made from: a variant's digest -> its
    source page's digest (`training.page_digest`: texts and labels), as `recordlens synth`'s synth.json names it
    (`page.dataset.synthetic_sources`) or a project keeps it in the page's source (`store.importer.
    synthetic_sources_of`). A variant is its source page rewritten: in a fold apart from it, it would be scored
    by a model trained on its source (or the source by one trained on it), so the folds keep them together."""

    made_from: dict[str, str] = field(default_factory=dict)

    def noted(self, pages: Iterable[LabelledPage], sources: Mapping[str, str]) -> Iterator[LabelledPage]:
        """The pages of one dataset (or project), each variant among them noted as it goes by (`sources`: page
        name -> its source page's digest). A page's digest is worked out only for variants."""
        for lp in pages:
            if lp.name in sources:
                self.made_from[lp.digest] = sources[lp.name]
            yield lp

    def groups(self, pages: Sequence[Digested]) -> list[str]:
        """Each page's group in the folds (`training.folds`): the digest of the page it was made from, followed
        back to the first (a variant of a variant), or its own. A source page is matched by its digest (as `score`
        matches it), so a page and its variants share a group, and so do variants of one page not given."""
        return [self._origin(p.digest) for p in pages]

    def _origin(self, digest: str) -> str:
        seen = {digest}
        while (source := self.made_from.get(digest)) is not None and source not in seen:
            seen.add(source)
            digest = source
        return digest


def folds_said(k: int, pages: int, groups: int) -> str:
    """How k folds of these pages (in these groups, `Variants.groups`) hold them out, in the words of `train --cv`'s
    help: "5 page-grouped folds", or "leave one page out" where each fold holds one page (with its variants)."""
    if k < groups:
        return f"{k} page-grouped folds"
    return "leave one page out" if groups >= pages else "leave one page and its variants out"


def grouped_said(pages: int, groups: int) -> str | None:
    """How the folds keep variants with their source, said where they do (None where every page is alone)."""
    if groups >= pages:
        return None
    return f"{pages} pages in {groups} groups: variants fold with their source"


@dataclass
class PageResult:
    """One page's scores: the selector's from the model of the fold that held it out, and the others'."""

    dataset: str
    page: str
    fold: int
    selector: PageScore
    repeats: PageScore
    oracle: PageScore
    main_oracle: PageScore  # the oracle kept out of page chrome
    ceiling: PageScore
    repeats_tuned: bool = False  # one of the pages repeats' hand rules were tuned on (by content)
    repeats_tuned_variant: bool = False  # a synthetic variant of one of them (synth.json names its source)

    def as_dict(self) -> dict[str, object]:
        return {"dataset": self.dataset, "page": self.page, "fold": self.fold,
                "true_records": self.ceiling.true_records, "repeats_tuned_on": self.repeats_tuned,
                "repeats_tuned_on_its_source": self.repeats_tuned_variant,
                **{kind: _page_figures(getattr(self, kind)) for kind in KINDS}}


@dataclass
class Row:
    label: str
    kind: str  # one of KINDS
    dataset: str | None  # None: all the pages
    scores: list[PageScore]  # with splits > 1: every split's scores of the same pages, one after the other
    splits: int = 1

    def figures(self) -> dict[str, float | int]:
        mean = statistics.fmean
        predicted = sum(s.predicted_records for s in self.scores)
        true = sum(s.true_records for s in self.scores)
        return {
            "pages": len(self.scores) // self.splits,
            "precision": mean(s.precision for s in self.scores),
            "recall": mean(s.recall for s in self.scores),
            "f1": mean(s.f1 for s in self.scores),
            "hallucination_rate": mean(float(s.hallucinated) for s in self.scores),
            "predicted_per_true": predicted / max(1, true),
            # pages per split: with several splits a mean, so not always a whole number
            "spam": sum(1 for s in self.scores if not 0.5 * s.true_records <= s.predicted_records
                        <= 2 * s.true_records) / self.splits,
        }


@dataclass
class CrossValidation:
    k: int
    seed: int
    config: FitConfig
    datasets: list[str]  # in the order given
    pages: list[PageResult]  # in the order of the datasets and of their pages; the selector's of the first split
    seconds: dict[str, float] = field(default_factory=dict)
    more_splits: list[list[PageScore]] = field(default_factory=list)  # the selector's in splits 2..R, page order
    groups: int | None = None  # the pages' groups in the folds (a page with its variants); None: one per page
    weaker_folds: str | None = None  # the folds' models smaller than one of all the pages, said (`weaker_folds`)

    @property
    def fold_groups(self) -> int:
        return len(self.pages) if self.groups is None else self.groups

    @property
    def splits(self) -> int:
        return 1 + len(self.more_splits)

    def split_scores(self) -> list[list[PageScore]]:
        """The selector's page scores in each split (seed `seed + i` for split i)."""
        return [[p.selector for p in self.pages], *self.more_splits]

    def folds(self) -> list[list[str]]:
        """Per fold, the pages (`dataset/page`) it held out."""
        out: list[list[str]] = [[] for _ in range(self.k)]
        for p in self.pages:
            out[p.fold].append(f"{p.dataset}/{p.page}")
        return out

    def rows(self) -> list[Row]:
        n = len(self.pages)
        per_set = {d: [p for p in self.pages if p.dataset == d] for d in self.datasets}
        rows = [Row(f"selector, {self.k}-fold CV (all {n})", "selector", None, [p.selector for p in self.pages])]
        if self.splits > 1:
            everything = [s for split in self.split_scores() for s in split]
            rows = [Row(f"selector, {self.k}-fold CV x {self.splits} splits (all {n})", "selector", None,
                        everything, self.splits),
                    Row(f"  first split only (seed {self.seed})", "selector", None, rows[0].scores)]
        if len(self.datasets) > 1:
            # Over every split, like the headline row.
            rows += [Row(f"  selector CV, {d} pages", "selector", d,
                         [s for split in self.split_scores() for p, s in zip(self.pages, split, strict=True)
                          if p.dataset == d], self.splits)
                     for d in self.datasets]
        # Figures on pages repeats was not tuned on first, development figures (and near ones) after.
        tuned = {d: sum(p.repeats_tuned for p in per_set[d]) for d in self.datasets}
        variants = {d: sum(p.repeats_tuned_variant for p in per_set[d]) for d in self.datasets}
        for d in sorted(self.datasets, key=lambda d: (tuned[d] + variants[d]) / len(per_set[d])):
            rows.append(Row(f"repeats on {d}{_tuned_there(tuned[d], variants[d], len(per_set[d]))}", "repeats", d,
                            [p.repeats for p in per_set[d]]))
        rows.append(Row(f"best-candidate oracle (all {n})", "oracle", None, [p.oracle for p in self.pages]))
        rows.append(Row(f"  the same, outside page chrome (all {n})", "main_oracle", None,
                        [p.main_oracle for p in self.pages]))
        rows.append(Row(f"ground-truth ceiling (all {n})", "ceiling", None, [p.ceiling for p in self.pages]))
        return rows

    def as_dict(self) -> dict[str, object]:
        return {
            "method": "selector", "folds": self.k, "seed": self.seed, "splits": self.splits,
            "fold_groups": self.fold_groups,  # a page and its synthetic variants are one group, in one fold
            "split_f1": [statistics.fmean(s.f1 for s in split) for split in self.split_scores()],
            "config": asdict(self.config),
            "datasets": [{"name": d, "pages": sum(1 for p in self.pages if p.dataset == d)} for d in self.datasets],
            "rows": [{"label": r.label.strip(), "kind": r.kind, "dataset": r.dataset, **r.figures()}
                     for r in self.rows()],
            "held_out": self.folds(),  # of the first split
            "pages": [p.as_dict() for p in self.pages],  # the selector's and fold of the first split
            # The selector's page figures in splits 2..R (seeds seed+1..), so that every row can be recomputed.
            "more_splits": [[{"dataset": p.dataset, "page": p.page, **_page_figures(score)}
                             for p, score in zip(self.pages, split, strict=True)] for split in self.more_splits],
            "weaker_folds": self.weaker_folds,
            "seconds": self.seconds,
        }


def _tuned_there(tuned: int, variants: int, pages: int) -> str:
    """How a dataset's repeats row says that its rules were tuned on (some of) its pages, or on the pages (some
    of) its pages are synthetic variants of."""
    said = []
    if tuned:
        said.append("tuned there" if tuned == pages else f"tuned on {tuned} of its {pages} pages")
    if variants:
        said.append("variants of pages it was tuned on" if variants == pages
                    else f"{variants} of its {pages} pages are variants of pages it was tuned on")
    return f" ({'; '.join(said)})" if said else ""


def _page_figures(score: PageScore) -> dict[str, object]:
    return {"precision": score.precision, "recall": score.recall, "f1": score.f1,
            "hallucinated": score.hallucinated, "records": score.predicted_records}


def labelled_sets(sets: Sequence[tuple[str | Path, str | Path]], variants: Variants | None = None
                  ) -> list[LabelledPage]:
    """Every labelled page of the datasets, in order; each dataset is named after its folder. The synthetic
    variants among them (a dataset `synth` made) are noted in `variants` when given."""
    if not sets:
        raise RecordLensError("cross-validation needs at least one dataset: --pages DIR --gt DIR (one pair each)")
    variants = Variants() if variants is None else variants
    pages = [lp for pages_dir, gt_dir in sets
             for lp in variants.noted(dataset_pages(pages_dir, gt_dir), synthetic_sources(pages_dir))]
    seen: set[tuple[str, str]] = set()
    for lp in pages:
        if (lp.source, lp.name) in seen:
            raise DatasetError(f"page {lp.name} of the dataset {hint_path(lp.source)} is given twice (two datasets "
                               "with one name, or one dataset given twice)")
        seen.add((lp.source, lp.name))
    _, again = once_each(pages)
    if again:  # in two folds, a page would be tested on a model trained on itself
        raise DatasetError(f"{again[0]}{f', and {len(again) - 1} more page(s) given twice' if len(again) > 1 else ''}"
                           ": cross-validation would test a page on a model trained on it; give each page once")
    return pages


def cross_validate_sets(sets: Sequence[tuple[str | Path, str | Path]], k: int = FOLDS, seed: int = 0,
                        config: FitConfig | None = None, progress: Wrap = lambda pages: pages,
                        splits: int = 1, save_probabilities: str | Path | None = None,
                        from_probabilities: str | Path | None = None) -> CrossValidation:
    """The selector cross-validated over the datasets' pages (over `splits` fold splits), with repeats, the
    oracle and the ceiling beside. The folds' out-of-fold probabilities can be saved to a file, or read from one
    instead of fitting the folds (`saved_folds`: for a change to how regions are chosen, not to what is learnt)."""
    config = config or FitConfig()
    if (wrong := below_one({"--splits": splits})) is not None:
        raise RecordLensError(wrong)
    start = time.perf_counter()
    variants = Variants()
    labelled = labelled_sets(sets, variants)
    groups = variants.groups(labelled)
    check_folds(k, len(labelled), len(set(groups)))
    examples = prepare(progress(labelled))
    prepared = time.perf_counter()
    if from_probabilities is not None:
        fold_results = read_fold_results(from_probabilities, examples, k, seed, config, splits)
    else:
        fold_results = [cross_validate(examples, k, seed + i, config, groups=groups) for i in range(splits)]
    if save_probabilities is not None:
        save_fold_results(save_probabilities, fold_results, k, seed, config)
    results = fold_results[0]
    more_splits = [[_selector_score(r) for r in split] for split in fold_results[1:]]
    fitted = time.perf_counter()
    figures = []
    tuning = repeats_tuning(examples, variants)
    for result, lp, (tuned, tuned_variant) in zip(results, labelled, tuning, strict=True):
        e = result.example
        keys = TextKeyIndex(e.candidates.page.text_map)
        selector = _selector_score(result, keys)
        repeats = score_expanded(keys.expand_all(extract_records(lp.page)), e.truth, e.name)
        oracle = _oracle_score(e, list(e.targets))
        main_oracle = _oracle_score(e, targets_outside_chrome(e))
        ceiling = ceiling_score(e.truth, e.name)
        figures.append(PageResult(lp.source, lp.name, result.fold, selector, repeats, oracle, main_oracle, ceiling,
                                  tuned, tuned_variant))
    seconds = {"prepare": prepared - start, "cross_validation": fitted - prepared,
               "scoring": time.perf_counter() - fitted}
    datasets = list(dict.fromkeys(lp.source for lp in labelled))
    return CrossValidation(k, seed, config, datasets, figures, {key: round(s, 3) for key, s in seconds.items()},
                           more_splits, len(set(groups)), weaker_folds(examples, k, seed, config, groups))


def weaker_folds(examples: Sequence[Example], k: int, seed: int, config: FitConfig, groups: Sequence[str]
                 ) -> str | None:
    """The caveat `train --cv` gives its figure, for `bench --cv`'s: the folds' models (of the first split; fewer
    pages each: one stage, or not bagged) beside the model all these pages would give, worked out without fitting
    it; None when every fold's model is as that one."""
    return weaker_folds_note(fold_shapes(examples, k, seed, config, groups), planned_shape(examples, seed, config),
                             made="trained on all these pages")


def repeats_tuning(examples: Sequence[Example], variants: Variants) -> list[tuple[bool, bool]]:
    """Per example, in order: whether repeats' hand rules were tuned on it, and whether it is a synthetic variant of
    a page they were tuned on, found as `score` finds them (`in_sample.tuned_on`)."""
    keys = [str(i) for i in range(len(examples))]  # two datasets may name pages alike: each page by its place
    found = tuned_on(zip(keys, (e.digest for e in examples), strict=True),
                     {key: variants.made_from[e.digest] for key, e in zip(keys, examples, strict=True)
                      if e.digest in variants.made_from})
    tuned, made_from_tuned = (set(found.pages), set(found.variants)) if found is not None else (set(), set())
    return [(key in tuned, key in made_from_tuned) for key in keys]


def check_folds(k: int, pages: int, groups: int | None = None) -> None:
    """K folds need from 2 to as many pages as there are, or as many groups of pages where variants fold with
    their source (`Variants.groups`)."""
    if pages < 2:
        raise RecordLensError(f"--cv {k}: cross-validation needs at least 2 labelled pages ({pages} here)")
    groups = pages if groups is None else groups
    if 2 <= k <= groups:
        return
    grouped = grouped_said(pages, groups)
    what, here = ("pages", f"{pages} here") if grouped is None else ("groups of pages", f"here {grouped}")
    raise RecordLensError(f"--cv {k}: cross-validation needs from 2 folds to as many folds as {what} ({here})")


@dataclass(frozen=True)
class TrainingCheck:
    """How good a model trained with these settings on these pages is likely to be elsewhere: the settings
    cross-validated on the pages (page-grouped, fitted on training folds only), beside the shipped model on the
    same pages, whose figure is in-sample on the pages it was trained on (as `score` finds them: `in_sample`)."""

    k: int
    seed: int
    trained: Row
    shipped: Row
    # of the pages, those the shipped model was trained on (same texts and labels, or the same texts under other
    # labels); None when none
    shipped_seen: InSample | None
    groups: int | None = None  # the pages' groups in the folds (a page with its variants); None: one per page

    def lines(self) -> list[str]:
        def said(row: Row) -> str:
            f = row.figures()
            return (f"P {f['precision']:.3f}  R {f['recall']:.3f}  F1 {f['f1']:.3f}  HR {f['hallucination_rate']:.2f}"
                    f"  spam {_count(f['spam'])}/{f['pages']}")

        pages = self.trained.figures()["pages"]
        note = shipped_seen_said(self.shipped_seen)
        groups = pages if self.groups is None else self.groups
        grouped = grouped_said(pages, groups)
        return [f"these settings, cross-validated on these {pages} pages ({folds_said(self.k, pages, groups)}, "
                f"seed {self.seed}{'' if grouped is None else f'; {grouped}'}): {said(self.trained)}",
                f"the shipped model on the same pages{note}: {said(self.shipped)}", FIGURES_KEY]

    @property
    def shipped_better(self) -> bool:
        """Whether the shipped model's mean page F1 on the pages is above the settings' cross-validated one."""
        return self.shipped.figures()["f1"] > self.trained.figures()["f1"]


def shipped_seen_said(seen: InSample | None) -> str:
    """Which of the pages the shipped model was trained on, said beside its figure on them: with their labels
    (in-sample), or under other labels (pages it has seen all the same), or none."""
    if seen is None:
        return " (it was not trained on any of them)"
    said = []
    if seen.pages:
        said.append(f"in-sample on {len(seen.pages)} of them: it was trained on them")
    if seen.relabelled:
        which = "all" if len(seen.relabelled) == seen.scored else str(len(seen.relabelled))
        said.append(f"it was trained on {which} of them, under other labels: not pages it never saw")
    return f" ({'; '.join(said)})" if said else " (it was not trained on any of them)"


# What `TrainingCheck.lines`' figures are, said under them
FIGURES_KEY = ("(P, R, F1: mean precision, recall and F1 per page; HR: the share of pages with a hallucinated "
               "record; spam N/M: of the M pages, the N whose proposed records number under half or over twice the "
               "true ones)")


def check_training(examples: Sequence[Example], k: int, seed: int = 0, config: FitConfig | None = None,
                   workers: int | None = None, groups: Sequence[str] | None = None,
                   check: Callable[[int, int], None] | None = None) -> TrainingCheck:
    """`TrainingCheck` of these examples (at least k pages, or k groups of them, `Variants.groups`; k from 2).
    `check(folds done, k)` runs between the folds' fits and while they run; what it raises (a cancel) stops them."""
    from ..extract.selector import load_model

    check_folds(k, len(examples), None if groups is None else len(set(groups)))
    results = cross_validate(examples, k, seed, config or FitConfig(), workers=workers, groups=groups, check=check)
    if check is not None:
        check(k, k)  # every fold done: the last progress said
    trained = [_selector_score(r) for r in results]
    shipped = load_model()
    shipped_scores = [_selector_score(FoldResult(e, shipped.predict(e.candidates, e.features), shipped.threshold, -1))
                      for e in examples]
    # found as `score` finds them of a run of the shipped model; each page by its place (two datasets may name
    # pages alike)
    seen = trained_on({"model": "default", "model_digest": shipped.digest},
                      [PageDigests(str(i), e.digest, e.text_digest) for i, e in enumerate(examples)])
    return TrainingCheck(k, seed, Row("cross-validated", "selector", None, trained),
                         Row("shipped", "selector", None, shipped_scores), seen,
                         None if groups is None else len(set(groups)))


@dataclass(frozen=True)
class ShippedComparison:
    """How the settings of a model do on the pages it learnt from, cross-validated, beside the shipped model on the
    same pages (`compare_with_shipped`): what `train --cv K` prints, and what `train --project` and the app's Learn
    say of a model of one stage."""

    lines: list[str]  # `TrainingCheck.lines()` and the weaker folds' note, or why the folds cannot be fitted
    shipped_better: bool = False  # the shipped model's mean page F1 on the pages above the cross-validated one


def comparison_folds(groups: int) -> int:
    """The folds of a comparison with the shipped model that no one gave a K (`train --project` without --cv, the
    app's Learn): one group of pages (a page with its variants) left out at a time up to FOLDS groups, FOLDS
    page-grouped folds above, as `train --cv FOLDS` folds them. Each fold is one more fit while the user waits:
    200 labelled pages one left out at a time would fit 200 models."""
    return min(groups, FOLDS)


def compare_with_shipped(examples: Sequence[Example], seed: int, groups: Sequence[str], written: ModelShape, *,
                         k: int | None = None, workers: int | None = None,
                         check: Callable[[int, int], None] | None = None) -> ShippedComparison:
    """The model's settings (`written`: the model fitted on all the pages) cross-validated in k folds (None:
    `comparison_folds`, one group of pages, `Variants.groups`, left out at a time up to FOLDS of them) beside the
    shipped model, in `TrainingCheck.lines`' words and what the folds' weaker models mean for the figure; where a
    fold cannot be fitted (`unfit_fold`), that instead of figures. `check` as in `check_training`."""
    count = len(set(groups))
    k = comparison_folds(count) if k is None else k
    if (problem := unfit_fold(examples, k, seed, groups=groups)) is not None:
        # `train --cv K` refuses these folds before it fits; a comparison no one asked for says why there is none
        return ShippedComparison([f"not compared with the shipped model on these {len(examples)} pages "
                                  f"({folds_said(k, len(examples), count)}): "
                                  f"{problem.removesuffix(' (or use fewer folds)')}"])
    checked = check_training(examples, k, seed, workers=workers, groups=groups, check=check)
    # The folds fit fewer pages each: below the counts a full model needs, a weaker kind of model.
    note = weaker_folds_note(fold_shapes(examples, k, seed, groups=groups), written)
    return ShippedComparison(checked.lines() + ([] if note is None else [note]), checked.shipped_better)


def in_chrome(e: Example) -> np.ndarray:
    """One boolean per candidate of the page: whether it lies inside page chrome (by tag or role)."""
    return e.features[:, CHROME_COLUMNS].any(axis=1)


def targets_outside_chrome(e: Example) -> list[float]:
    """The page's candidate targets with every candidate inside page chrome made ineligible (0)."""
    return [0.0 if chrome else t for chrome, t in zip(in_chrome(e), e.targets, strict=True)]


def _oracle_score(e: Example, targets: list[float]) -> PageScore:
    """The page's score for the oracle's choice among the candidates these targets leave it (0: never)."""
    picked = oracle_selection(e.candidates, e.expanded, e.truth, targets)
    return score_expanded([r for i in picked for r in e.expanded[i]], e.truth, e.name)


def _selector_score(result: FoldResult, keys: TextKeyIndex | None = None) -> PageScore:
    """The held-out page's score for the regions its fold's model selects."""
    e = result.example
    keys = keys or TextKeyIndex(e.candidates.page.text_map)
    chosen = select(e.candidates, result.probabilities, result.threshold)
    return score_expanded(keys.expand_all([x for r in chosen for x in r.xpaths()]), e.truth, e.name)


def _count(value: float) -> str:
    """A page count, or a mean of page counts over splits to one decimal."""
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def format_report(cv: CrossValidation, per_page: bool = False) -> str:
    """The figures as a table (and, with `per_page`, every page's first)."""
    lines = []
    if per_page:
        if cv.splits > 1:
            lines.append(f"per page: the selector and fold of the first split (seed {cv.seed}); every split's "
                         "figures are in --json")
        width = max(len("set"), *(len(p.dataset) for p in cv.pages))
        lines.append(f"{'set':<{width}} {'page':>5} {'true':>5} {'sel':>5} {'F1 sel':>7} {'F1 rep':>7} "
                     f"{'oracle':>7} {'fold':>4}")
        for p in cv.pages:
            s = p.selector
            lines.append(f"{p.dataset:<{width}} {p.page:>5} {s.true_records:5d} {s.predicted_records:5d} "
                         f"{s.f1:7.3f} {p.repeats.f1:7.3f} {p.oracle.f1:7.3f} {p.fold:4d}")
        lines.append("")
    rows = cv.rows()
    width = max(34, *(len(r.label) + 1 for r in rows))
    lines.append(f"{'method (pages)':<{width}} {'pages':>5} {'P':>7} {'R':>7} {'F1':>7} {'HR':>7} "
                 f"{'pred/true':>8} spam")
    for r in rows:
        f = r.figures()
        lines.append(f"{r.label:<{width}} {f['pages']:>5} {f['precision']:7.4f} {f['recall']:7.4f} "
                     f"{f['f1']:7.4f} {f['hallucination_rate']:7.4f} {f['predicted_per_true']:8.2f} "
                     f"{_count(f['spam']):>4}/{f['pages']}")
    if cv.splits > 1:
        lines.append("selector F1 by split: " + ", ".join(
            f"seed {cv.seed + i}: {statistics.fmean(s.f1 for s in split):.4f}"
            for i, split in enumerate(cv.split_scores())))
    if (grouped := grouped_said(len(cv.pages), cv.fold_groups)) is not None:
        lines += [f"({grouped}, so that no page is scored by a model",
                  " trained on a rewritten copy of it)"]
    lines.append("(repeats: hand rules tuned on the 40 pages of nexteval-synth-dev, known by content whatever")
    if any(p.repeats_tuned_variant for p in cv.pages):  # as `score` says of them (in_sample.InSample)
        lines += [" their folder: a development figure there, close to one on synthetic variants of them (the same",
                  " pages, rewritten), an honest one elsewhere)"]
    else:
        lines.append(" their folder: a development figure there, an honest one elsewhere)")
    if cv.weaker_folds is not None:  # as `train --cv` says it of the same figure, wrapped as the notes around it
        lines += textwrap.wrap(f"({cv.weaker_folds})", NOTE_WIDTH, subsequent_indent=" ")
    lines += ["(P, R, F1: means of per-page figures; HR: the share of pages with a hallucinated record; all four",
              " to 4 decimals; pred/true: proposed records over true records, pooled over the pages)"]
    return "\n".join(lines)
