"""Training the selector on labelled pages: examples, the fit, the threshold, and where labels come from.

Contract. `prepare(pages)` turns labelled pages into `Example`s (each page's candidates, feature matrix, the
per-candidate target of `labels_match.region_targets` and the expanded truth). `fit(examples, seed)` fits
`config.bags` members for each kind of target in `config.targets`, each on a seeded share of the training
pages (all of them with one bag; the kinds share the shares): a gradient-boosted tree classifier on
"target >= POSITIVE" (first stage), then a second one on the same pages
with each candidate's page context added (`context.py`), computed from first-stage probabilities that an inner
page-grouped cross-validation *of those pages* produced; it returns a `SelectorModel` (the members' mean) with
its provenance. `cross_validate` is the honest figure: every page is scored by
a model fitted without it. The same examples in the same order, and the same
seed, give the same model bytes (the order matters: it decides the bags' shares and the folds). `dataset_pages`
reads labelled pages from a dataset folder (a project's pages marked labelled or reviewed, and the project's own
model, are `store.learnt_model`'s).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np

from ..command_hints import hint_path
from ..errors import DatasetError, full_disk, is_disk_full
from ..lazy_import import load
from ..page.dom import Page
from ..records.model import TextKeyIndex
from ..records.score import score_expanded
from ..version import recordlens_version
from ..wording import counted, listed
from .candidates import Candidate, PageCandidates, feature_matrix, page_candidates
from .context import _layout as context_layout
from .context import context_features
from .fit_pool import map_fits, requested_workers
from .labels_match import expanded_records, matched_targets, region_targets
from .model_shape import FULL_MODEL_PAGES, INNER_FOLDS, ModelShape
from .repeats import Region
from .selector import load_model, select
from .selector_model import (
    FEATURES,
    Blend,
    Ensemble,
    Forest,
    Learner,
    ModelError,
    SelectorModel,
    Stages,
)

if TYPE_CHECKING:
    from ..records.hygiene import PageCheck

POSITIVE = 0.5  # a region whose records match true records this well on average is a region of records
THRESHOLD = 0.5  # an even-odds cut: fixed, not searched on the development pages
BAG_SEED = 100  # offset of the bags' page draws from the fit's seed (the fits themselves use seed + bag)
MAX_SEED = 2**31 - 1  # the fits use seed + bag and seed + 1 as scikit-learn seeds, which stop at 2**32 - 1


def check_seed(seed: int) -> int:
    """A training seed, refused before any work when the fits could not use it."""
    if not 0 <= seed <= MAX_SEED:
        raise DatasetError(f"the seed must be from 0 to {MAX_SEED} (got {seed})")
    return seed


@dataclass(frozen=True)
class FitConfig:
    """The learner's settings. They are fixed values, not searched by any fit; which variants were compared on
    the development pages, and how, is in docs/selector-experiments.md."""

    trees: int = 150
    depth: int = 3
    rate: float = 0.1
    min_leaf: int = 5
    subsample: float = 1.0
    stages: int = 2  # 1: each candidate on its own evidence; 2: re-rated against its page (context.py)
    page_weighting: str = "none"  # "none", "page", "balanced" or "impact" (see _stack)
    # Bagging over pages: one fit's choices swing with the pages it saw (on 80 pages, 0.80 to 0.84 mean F1 by
    # the fold split alone); the mean of 8 fits, each leaving out a different eighth of the pages, swings less.
    bags: int = 8
    bag_share: float = 0.875
    # Each stage a Blend of the boosted trees with a random forest of this many trees (0: boosted trees only),
    # kept small by its leaves' size and depth so that the shipped file stays a few MB.
    forest_trees: int = 0
    forest_leaf: int = 10
    forest_depth: int = 10
    # What a member learns a region of records to be (labels_match): "best", its records' mean best overlap
    # with a true record; "matched", the same under the score's one-to-one matching (stricter where several
    # records fall in one true record). Each kind gets its `bags` members on the same page shares; the two
    # kinds' members disagree on different pages, and their mean scored above either kind alone (README).
    targets: tuple[str, ...] = ("best", "matched")


@dataclass
class LabelledPage:
    name: str
    page: Page
    truth: list[list[str]]
    source: str = ""

    @property
    def digest(self) -> str:
        """Its identity by its texts and labels (`page_digest`)."""
        return page_digest(self.page, self.truth)

    @property
    def text_digest(self) -> str:
        """Its identity by its texts alone."""
        return page_digest(self.page, [])

    @property
    def check(self) -> PageCheck:
        """Its labels checked against it (`hygiene.check_page`)."""
        from ..records.hygiene import check_page

        return check_page(self.name, self.page, self.truth)


class Labelled(Protocol):
    """A labelled page as `once_each` and `label_notes` read it: a LabelledPage, or a TrainingPage."""

    @property
    def name(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def truth(self) -> list[list[str]]: ...
    @property
    def digest(self) -> str: ...
    @property
    def text_digest(self) -> str: ...
    @property
    def check(self) -> PageCheck: ...


@dataclass
class Example:
    name: str
    candidates: PageCandidates
    features: np.ndarray
    targets: np.ndarray
    truth: list[frozenset[str]]
    expanded: list[list[frozenset[str]]] = field(repr=False)  # none once its page is let go (`without_page`)
    source: str = ""
    digest: str = ""
    matched: np.ndarray | None = field(default=None, repr=False)  # worked out when a fit asks for it
    text_digest: str = ""  # its texts alone (`page_digest(page, [])`): how a page relabelled is known

    def target(self, kind: str) -> np.ndarray:
        """Per candidate, its target of this kind (FitConfig.targets)."""
        if kind == "best":
            return self.targets
        if kind != "matched":
            raise DatasetError(f"unknown kind of training target: {kind!r}")
        if self.matched is None:
            self.matched = np.asarray(matched_targets(self.expanded, self.truth), dtype=np.float64)
        return self.matched

    def record_regions(self, kind: str) -> np.ndarray:
        """Per candidate, whether its target of this kind makes it a region of records (what a member learns)."""
        return self.target(kind) >= POSITIVE


def prepare(pages: Iterable[LabelledPage], progress: Callable[[str], None] | None = None) -> list[Example]:
    examples = []
    for lp in pages:
        if progress:
            progress(lp.name)
        examples.append(_example(lp))
    return examples


def _example(lp: LabelledPage) -> Example:
    keys = TextKeyIndex(lp.page.text_map)
    pc = page_candidates(lp.page)
    truth = keys.expand_all(lp.truth)
    expanded = expanded_records(pc, keys)
    targets = np.asarray(region_targets(expanded, truth), dtype=np.float64)
    return Example(lp.name, pc, feature_matrix(pc), targets, truth, expanded, lp.source, lp.digest,
                   text_digest=lp.text_digest)


@dataclass
class TrainingPage:
    """What training keeps of a labelled page once its parse is let go: its identity, its labels' check and its
    example (`for_training`)."""

    name: str
    truth: list[list[str]]
    source: str
    digest: str
    text_digest: str
    check: PageCheck
    example: Example


def for_training(pages: Iterable[LabelledPage], progress: Callable[[str], None] | None = None, *,
                 keep_pages: bool = False) -> Iterator[TrainingPage]:
    """Each labelled page made into what training keeps of it, one page at a time: a project of a thousand pages
    held gigabytes of parsed pages while its training set was built. The examples fit to the same model as
    `prepare`'s; they hold no page (`without_page`) unless `keep_pages`, which what selects regions on the
    pages needs (cross-validation's scores). `progress(name)` when a page has been read, and when it is prepared."""
    for lp in pages:
        if progress:
            progress(lp.name)
        example = _example(lp)
        kept = TrainingPage(lp.name, lp.truth, lp.source, example.digest, example.text_digest, lp.check,
                            example if keep_pages else without_page(example))
        del lp, example  # let go of the parse before the next page is read
        if progress:
            progress(kept.name)
        yield kept


def without_page(example: Example) -> Example:
    """The example as `fit` reads it, holding nothing of its page but what the fits read: its feature matrix, its
    targets of both kinds (the records' texts they come from let go), its truth, and of its candidates their number,
    the second stage's layout of them (`context`) and their templates' kin (`same`). The regions themselves, a
    copy of each page's elements, XPaths and attributes, held some 2 MB a page through a thousand pages' fits, and
    freeing them took seconds of the app's time at the end. The model fitted is the same; what selects regions on
    the page (`select`, `page_f1`, `cross_validate`'s scores) needs the page, and `prepare`'s examples."""
    pc = example.candidates
    context_layout(pc)  # kept in pc.cache, which the outline shares
    example.target("matched")  # worked out now, from the expanded records let go below
    # No page, no facts and no region: a select on these candidates fails loudly.
    outline = PageCandidates(None, None, [_REGION_LET_GO] * len(pc.candidates), [],  # type: ignore[arg-type]
                             same=pc.same, cache=pc.cache)
    return dataclasses.replace(example, candidates=outline, expanded=[])


# Each candidate of an example `without_page`: a region of no record under no parent, which nothing fitted reads
_REGION_LET_GO = Candidate(Region(None, [], []))  # type: ignore[arg-type]


def page_digest(page: Page, truth: Sequence[Sequence[str]]) -> str:
    """A labelled page's identity in a model's provenance: its texts where they stand and its labels, whatever
    its file or folder is named (the same page under another name is the same page)."""
    return hashlib.sha256(repr((sorted(page.text_map.items()), [list(r) for r in truth])).encode()).hexdigest()[:16]


L = TypeVar("L", bound=Labelled)


@dataclass(frozen=True)
class Twice:
    """A labelled page given again: the same texts, with the same labels or with other ones."""

    page: Labelled
    first: Labelled
    same_labels: bool

    def __str__(self) -> str:
        how = "the same texts and labels" if self.same_labels else "with other labels"
        return (f"page {self.page.name} of {hint_path(self.page.source)} is page {self.first.name} of "
                f"{hint_path(self.first.source)} again ({how})")


def once_each(pages: Sequence[L]) -> tuple[list[L], list[Twice]]:
    """The pages with a page given twice with the same labels kept once (trained on twice it would weigh double),
    and every page given again; the same page with other labels is kept (its two labellings disagree)."""
    seen: dict[str, L] = {}
    texts: dict[str, L] = {}
    kept: list[L] = []
    again: list[Twice] = []
    for lp in pages:
        digest = lp.digest
        if digest in seen:
            again.append(Twice(lp, seen[digest], True))
            continue
        text = lp.text_digest
        if text in texts:
            again.append(Twice(lp, texts[text], False))
        seen[digest] = lp
        texts.setdefault(text, lp)
        kept.append(lp)
    return kept, again


def label_notes(pages: Sequence[Labelled]) -> list[str]:
    """What a trainer should know of the labels it learns from: pages whose labels hold XPaths that name nothing
    (learnt from as they are: the model then learns that the lists they meant are not records), pages labelled
    as holding no record, and the pages `labels check` flags for nested or doubled records or for a policy on
    page chrome unlike the others' (`_unlike_the_others`)."""
    checks = [lp.check for lp in pages]
    naming_nothing = [lp for lp, check in zip(pages, checks, strict=True) if check.unresolved]
    without_xpath = [lp for lp, check in zip(pages, checks, strict=True) if check.empty]
    holding_none = [lp for lp in pages if not lp.truth]
    notes = []
    if without_xpath:
        notes.append(f"{len(without_xpath)} page(s) have a record without any XPath ({_named(without_xpath)}): "
                     "it names nothing to learn from")
    if naming_nothing:
        notes.append(f"{len(naming_nothing)} page(s) have labels with XPaths that name no element or one without "
                     f"text ({_named(naming_nothing)}): the model learns from them as they are, so the lists they "
                     "meant count as not records; `recordlens labels check` lists them")
    if holding_none:
        notes.append(f"{len(holding_none)} page(s) are labelled as holding no record ({_named(holding_none)}): the "
                     "model learns that none of their lists is one")
    if (unlike := _unlike_the_others(pages, checks)) is not None:
        notes.append(unlike)
    return notes


def _unlike_the_others(pages: Sequence[Labelled], checks: Sequence[PageCheck]) -> str | None:
    """The label problems `labels check` flags that training learns a policy from (`checks`: the pages' own, in
    their order), counted and named in one line: pages with records inside others or listed twice, and pages whose
    policy on page chrome differs from the majority."""
    from ..records.hygiene import summarise

    doubled = [lp for lp, check in zip(pages, checks, strict=True) if check.nested or check.twice]
    report = summarise(checks)
    outliers = [lp for lp, check in zip(pages, checks, strict=True) if check.page in report.policy_outliers]
    if not (doubled or outliers):
        return None
    parts = []
    if doubled:
        parts.append(f"{counted(len(doubled), 'page')} {'has' if len(doubled) == 1 else 'have'} nested or doubled "
                     f"records ({_named(doubled)})")
    if outliers:
        chrome = "no page chrome" if report.majority_includes_chrome else "page chrome (navigation, header, footer)"
        parts.append(f"{counted(len(outliers), 'page')} label{'s' if len(outliers) == 1 else ''} {chrome} unlike "
                     f"the others ({_named(outliers)})")
    return (", ".join(parts) + ": the model learns its policy from them as they are; `recordlens labels check` "
            "lists them")


def _named(pages: Sequence[Labelled], shown: int = 8) -> str:
    # a dataset by its folder's name, as a hint names it; a project's pages (their source its path) by name alone
    names = [f"{lp.name}" + (f" of {hint_path(lp.source)}" if lp.source and "/" not in lp.source else "")
             for lp in pages]
    return listed(names, shown, total=True)


def _stack(examples: Sequence[Example], matrices: Sequence[np.ndarray], weighting: str, kind: str = "best"
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs = [m for m in matrices if len(m)]
    if not xs:
        raise DatasetError("no candidate regions on the training pages: nothing to learn from")
    x = np.vstack(xs)
    pages = [(e, e.record_regions(kind)) for e, m in zip(examples, matrices, strict=True) if len(m)]
    y = np.concatenate([labels for _, labels in pages]).astype(np.int64)
    # "page": every page weighs the same in total, however many candidates it has; "balanced": also positives
    # and negatives weigh the same within a page; "impact": by what a wrong call costs; "none": all weigh 1.
    weights = []
    for e, labels in pages:
        w = np.ones(len(labels))
        if weighting == "balanced":
            pos, neg = labels.sum(), (~labels).sum()
            w[labels] = 0.5 / pos if pos else 0.0
            w[~labels] = (0.5 if pos else 1.0) / neg if neg else 0.0
        elif weighting == "page":
            w /= len(labels)
        elif weighting == "impact":
            # What a wrong call costs the page's F1: proposing a spurious region of n records when T are true
            # costs about n / (T + n) of precision; missing a true region costs about n / T of recall.
            n = context_layout(e.candidates).counts  # each candidate's records, as its layout keeps them
            t = max(1, len(e.truth))
            w = np.where(labels, np.minimum(1.0, n / t), n / (t + n))
        weights.append(w)
    w = np.concatenate(weights)
    return x, y, w * (len(y) / w.sum())


def _fit_trees(x: np.ndarray, y: np.ndarray, w: np.ndarray, seed: int, config: FitConfig) -> Any:
    if len(set(y.tolist())) < 2:
        raise DatasetError("the training labels need both regions that are records and regions that are not")
    # scikit-learn loaded now (it loads SciPy's optimiser): a Ctrl+C met while it loads stays a Ctrl+C
    model = load("sklearn.ensemble").GradientBoostingClassifier(
        n_estimators=config.trees, max_depth=config.depth, learning_rate=config.rate, min_samples_leaf=config.min_leaf,
        subsample=config.subsample, random_state=seed)
    model.fit(x, y, sample_weight=w)
    return model


def _fit_learner(x: np.ndarray, y: np.ndarray, w: np.ndarray, seed: int, config: FitConfig) -> Learner:
    boosted = Ensemble.from_sklearn(_fit_trees(x, y, w, seed, config))
    if not config.forest_trees:
        return boosted
    forest = load("sklearn.ensemble").RandomForestClassifier(
        n_estimators=config.forest_trees, min_samples_leaf=config.forest_leaf, max_depth=config.forest_depth,
        max_features="sqrt", random_state=seed, n_jobs=1)
    # float32, as the trees compare features at prediction (selector_model rounds the same way)
    forest.fit(np.asarray(x, dtype=np.float32), y, sample_weight=w)
    return Blend(boosted, Forest.from_sklearn(forest))


def page_f1(example: Example, probabilities: np.ndarray, threshold: float) -> float:
    """The page's F1 (NEXT-EVAL scoring) of the selection these probabilities make."""
    regions = select(example.candidates, probabilities, threshold)
    index = {id(c.region): i for i, c in enumerate(example.candidates.candidates)}
    records = []
    for region in regions:
        i = index.get(id(region))
        if i is None:  # a joined split table: expand it afresh
            keys = TextKeyIndex(example.candidates.page.text_map)
            records.extend(keys.expand_all(region.xpaths()))
        else:
            records.extend(example.expanded[i])
    return score_expanded(records, example.truth).f1


def folds(count: int, k: int, seed: int, groups: Sequence[str] | None = None) -> list[list[int]]:
    """Page indices split into k folds by a seeded shuffle: a page is never in two folds, and pages of one group
    (`groups`, one key per page: a page and the synthetic variants made from it) are always in one, as a page
    held out beside its own rewritten copies in training would be scored in-sample. The groups, in the order of
    their first page, are shuffled and each given to the fold holding the fewest pages so far (the first such
    fold): with every page a group of its own, that is the shuffle's pages dealt in turn, the split of pages
    without variants as it always was (the README's figures depend on it)."""
    keys = list(groups) if groups is not None else [str(index) for index in range(count)]
    if len(keys) != count:  # a caller's mistake, not a user's
        raise ValueError(f"folds: {count} pages but {len(keys)} group keys")
    members: dict[str, list[int]] = {}
    for index, key in enumerate(keys):
        members.setdefault(key, []).append(index)
    units = list(members.values())
    split: list[list[int]] = [[] for _ in range(k)]
    for unit in np.random.default_rng(seed).permutation(len(units)).tolist():
        min(split, key=len).extend(units[unit])  # min takes the first of the smallest
    return [sorted(fold) for fold in split]


FitTask = tuple[np.ndarray, np.ndarray, np.ndarray, int, FitConfig]  # x, y, weights, seed, settings
# Below this many candidate rows times trees (about ten seconds of fitting on one core) starting worker
# processes (a second or two each) costs more than it saves, so small fits stay in this process.
MIN_PARALLEL_ROW_TREES = 2_000_000


class _PendingFits(Sequence[FitTask]):
    """Fits described by how to build their inputs, each built only when read: a stacked matrix per fit of a
    large project is too much memory to hold forty at once."""

    def __init__(self) -> None:
        self._builds: list[Callable[[], FitTask]] = []
        self.rows = 0  # candidate rows over every fit

    def add(self, examples: Sequence[Example], build: Callable[[], FitTask]) -> int:
        self._builds.append(build)
        self.rows += sum(len(e.features) for e in examples)
        return len(self._builds) - 1

    def __len__(self) -> int:
        return len(self._builds)

    def __getitem__(self, index):  # noqa: ANN001, ANN204 - one fit's inputs (slices are not needed)
        return self._builds[index]()


def _fits(tasks: _PendingFits, config: FitConfig, workers: int | None, check: Callable[[int], None] | None
          ) -> list[Learner]:
    """The tasks fitted, over worker processes when asked for (`workers`, or the variable) or else when worth it."""
    asked = workers is not None or requested_workers() is not None
    if not asked and tasks.rows * config.trees < MIN_PARALLEL_ROW_TREES:
        workers = 1
    return map_fits(_fit_task, tasks, workers, check)


def _fit_task(task: FitTask) -> Learner:
    """One fit, as a worker process runs it (a module-level function, so that it can be sent there)."""
    return _fit_learner(*task)


def _first_stage_task(examples: Sequence[Example], seed: int, config: FitConfig, kind: str) -> FitTask:
    x, y, w = _stack(examples, [e.features for e in examples], config.page_weighting, kind)
    return x, y, w, seed, config


def _second_stage_task(examples: Sequence[Example], p1: Sequence[np.ndarray], seed: int, config: FitConfig,
                       kind: str) -> FitTask:
    matrices = [np.hstack([e.features, context_features(e.candidates, p, e.features)]) if len(e.features)
                else np.zeros((0, len(FEATURES["second"]))) for e, p in zip(examples, p1, strict=True)]
    x, y, w = _stack(examples, matrices, config.page_weighting, kind)
    return x, y, w, seed, config


def bags(count: int, seed: int, config: FitConfig) -> list[list[int]]:
    """The page indices of each member's share. The pages are shuffled (seeded) into disjoint groups of about
    `1 - bag_share` of them, and member b leaves out group b, so every page trains most members and none is
    never used. One share of every page when bagging is off, or when a share would be too small for the
    second stage's inner folds (bagging a handful of pages would only repeat one fit)."""
    groups = max(config.bags, round(1 / max(1e-9, 1.0 - config.bag_share)))
    largest_group = -(-count // groups)  # rounded up
    if config.bags <= 1 or count - largest_group < FULL_MODEL_PAGES:
        return [list(range(count))]
    order = np.random.default_rng(seed + BAG_SEED).permutation(count)
    left_out = np.array_split(order, groups)[:config.bags]
    return [sorted(set(range(count)) - set(group.tolist())) for group in left_out]


def fewest_bagged_pages() -> int:
    """The fewest pages `bags` makes more than one share of with the default settings (7)."""
    return next(count for count in range(FULL_MODEL_PAGES, 100 * FULL_MODEL_PAGES)
                if len(bags(count, 0, FitConfig())) > 1)


def _has_both_classes(examples: Sequence[Example], kind: str = "best") -> bool:
    """Whether these pages hold, under this kind of target, both regions that are records and regions that are
    not (a classifier needs both classes)."""
    labels = [e.record_regions(kind) for e in examples]
    return any(x.any() for x in labels) and not all(x.all() for x in labels)


def nothing_to_learn(examples: Sequence[Example], kind: str = "best") -> str | None:
    """Why these pages teach a member nothing, said by what the candidates find on them and what their labels
    mark (a classifier needs both regions of records and regions that are not); None when they teach it."""
    if _has_both_classes(examples, kind):
        return None
    where = f"page {examples[0].name}" if len(examples) == 1 else f"these {counted(len(examples), 'page')}"
    found = sum(len(e.candidates.candidates) for e in examples)
    records = sum(len(e.truth) for e in examples)
    if not records:
        return (f"{where} {'is' if len(examples) == 1 else 'are'} labelled as holding no record: training needs "
                "pages whose labels mark lists of records; label more pages")
    labelled = counted(records, "labelled record")
    if not found:
        return f"the candidates find no repeated structure on {where} ({labelled}): nothing to learn from"
    if any(e.record_regions(kind).any() for e in examples):
        regions = ("the one candidate region is the list of the labelled records" if found == 1
                   else f"each of the {found:,} candidate regions is a list of labelled records")
        return (f"on {where} ({labelled}) {regions}: training also needs regions that are not records (menus, "
                "link lists, footers the labels leave out); label more pages")
    regions = (f"the one candidate region on {where} does not hold" if found == 1
               else f"none of the {found:,} candidate regions on {where} holds")
    return (f"{regions} the labelled records ({labelled}) closely enough to count as a list of them: check what "
            "the labels name with `recordlens labels check`, or label more pages")


def _has_second_stage(examples: Sequence[Example], seed: int, config: FitConfig, kind: str) -> bool:
    """Whether a member learns a second stage: enough pages, and records on enough of them, for the inner
    cross-validation its training rows come from."""
    if config.stages != 2 or len(examples) < FULL_MODEL_PAGES:
        return False
    return all(_has_both_classes([e for i, e in enumerate(examples) if i not in held], kind)
               for held in map(set, folds(len(examples), INNER_FOLDS, seed + 1)))


def _fit_members(members: Sequence[tuple[Sequence[Example], int, str]], config: FitConfig, workers: int | None,
                 check: Callable[[int, int], None] | None = None) -> list[Stages]:
    """Every member (its pages, seed and kind of target) in two rounds of fits that do not depend on each other,
    each round spread over the cores: first every member's first stage and the first stages of its inner folds; then,
    from the inner folds' out-of-fold probabilities (so that the second stage learns from the first as it
    behaves on pages it has not seen), every member's second stage."""
    tasks = _PendingFits()
    plans: list[tuple[int, list[tuple[int, list[int]]]]] = []  # per member: its first fit, its inner folds' fits
    for examples, seed, kind in members:
        first = tasks.add(examples, lambda examples=examples, seed=seed, kind=kind:
                          _first_stage_task(examples, seed, config, kind))
        inner: list[tuple[int, list[int]]] = []
        if _has_second_stage(examples, seed, config, kind):
            for held in folds(len(examples), INNER_FOLDS, seed + 1):
                kept = [e for i, e in enumerate(examples) if i not in set(held)]
                inner.append((tasks.add(kept, lambda kept=kept, seed=seed, kind=kind:
                                        _first_stage_task(kept, seed, config, kind)), held))
        plans.append((first, inner))
    total = len(tasks) + sum(1 for _, inner in plans if inner)  # both rounds' fits

    def round_check(offset: int) -> Callable[[int], None] | None:
        return None if check is None else (lambda done: check(offset + done, total))

    learnt = _fits(tasks, config, workers, round_check(0))

    second_tasks = _PendingFits()
    for (examples, seed, kind), (_, inner) in zip(members, plans, strict=True):
        if not inner:
            continue
        p1: list[np.ndarray] = [np.zeros(0)] * len(examples)
        for task_index, held in inner:
            for i in held:
                p1[i] = learnt[task_index].predict(examples[i].features)
        second_tasks.add(examples, lambda examples=examples, p1=p1, seed=seed, kind=kind:
                         _second_stage_task(examples, p1, seed, config, kind))
    seconds = iter(_fits(second_tasks, config, workers, round_check(len(tasks))))
    return [Stages(learnt[first], next(seconds)) if inner else Stages(learnt[first]) for first, inner in plans]


def fit(examples: Sequence[Example], seed: int = 0, config: FitConfig = FitConfig(), description: str = "",
        threshold: float = THRESHOLD, workers: int | None = None,
        check: Callable[[int, int], None] | None = None) -> SelectorModel:
    """Fit every member on its share of these pages only; the same examples in the same order and seed give the
    same model, with
    any number of worker processes (`workers`; None: `fit_pool.fit_workers()` when the fits are large enough).
    `check(fits done, fits in all)` runs between fits and while they run (progress); what it raises (a cancel)
    stops the training."""
    check_seed(seed)
    if not examples:
        raise DatasetError("no labelled pages to train on")
    if not config.targets:
        raise DatasetError("no kind of training target to fit members on")
    if (nothing := nothing_to_learn(examples, config.targets[0])) is not None:
        raise DatasetError(nothing)
    plans = _member_plans(examples, seed, config)
    members = _fit_members([([examples[i] for i in share], member_seed, kind) for share, member_seed, kind in plans],
                           config, workers, check)
    before, after = _stated(training_entries(examples), seed, config, threshold, description)
    provenance = {
        **before,
        "members": [{"seed": member_seed, "target": kind,
                     "left_out": [e.name for i, e in enumerate(examples) if i not in set(share)]}
                    for share, member_seed, kind in plans],
        "second_stage_from": f"out-of-fold first-stage probabilities ({INNER_FOLDS}-fold, training pages only)",
        **after,
    }
    model = SelectorModel(members, threshold, provenance)
    if model.stages < 2:
        provenance["second_stage_from"] = "nothing: one stage only (too few pages, or too few with records)"
    fitted = _shape_of_plans(examples, plans, model.stages)
    _record_what_was_fitted(provenance["config"], fitted, lambda: _why_smaller(examples, seed, config, plans, fitted))
    return model


def training_entries(pages: Iterable[Example | Labelled]) -> list[dict[str, str]]:
    """The pages as a model's provenance lists them, in order: each by its name, source and digest."""
    return [training_entry(p.name, p.source, p.digest) for p in pages]


def training_entry(name: str, source: str, digest: str) -> dict[str, str]:
    """One page as a model's provenance lists it (`page_digest`: its texts and labels)."""
    return {"name": name, "source": source, "digest": digest}


def _stated(pages: list[dict[str, str]], seed: int, config: FitConfig, threshold: float, description: str
            ) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a model's provenance says of how it was trained, known before any fit: the part written before its
    members and the part after them (the order of the file's keys, which its bytes keep)."""
    return ({"trained_on": description or labelled_pages_said(len(pages)), "pages": pages, "seed": seed,
             "config": dict(config.__dict__), "positive_target": POSITIVE, "threshold": threshold},
            {"learner": f"scikit-learn {_learner_version()} GradientBoostingClassifier"
                        + (" blended with RandomForestClassifier" if config.forest_trees else ""),
             "recordlens": recordlens_version()})


def fitted_from(model: SelectorModel, pages: list[dict[str, str]], seed: int, description: str,
                config: FitConfig = FitConfig(), threshold: float = THRESHOLD) -> bool:
    """Whether fitting these pages (`training_entries`, in order) would give `model` again: its provenance states
    the same pages (names, sources, texts and labels), seed, settings asked for, threshold, description, learner
    and RecordLens version, from which the fit is deterministic. Known without fitting, so that training the
    same model again can be skipped."""
    import json

    def as_read(value: dict[str, Any]) -> dict[str, Any]:  # as the model file holds it (tuples are lists there)
        return json.loads(json.dumps(value))

    before, after = _stated(pages, seed, config, threshold, description)
    stated = as_read(before | after)
    settings_now = stated.pop("config")
    recorded = as_read(model.provenance)  # a model just fitted holds tuples where one read holds lists
    settings = recorded.get("config")
    if not isinstance(settings, dict):
        return False
    asked = {k: v for k, v in settings.items() if k not in ("requested", "smaller_because")}
    if isinstance(requested := settings.get("requested"), dict):  # a model fitted smaller states what was asked
        asked |= requested
    return (model.threshold == threshold and asked == settings_now
            and all(recorded.get(key) == value for key, value in stated.items()))


def _member_plans(examples: Sequence[Example], seed: int, config: FitConfig) -> list[tuple[list[int], int, str]]:
    """Each member's share of the pages (indices), its seed and its kind of target."""
    # A share that happens to lack one kind of region is dropped (the others still see every page).
    plans = [(share, seed + b, kind) for kind in config.targets
             for b, share in enumerate(share for share in bags(len(examples), seed, config)
                                       if _has_both_classes([examples[i] for i in share], kind))]
    return plans or [(list(range(len(examples))), seed, kind) for kind in config.targets[:1]]


def _shape_of_plans(examples: Sequence[Example], plans: Sequence[tuple[list[int], int, str]], stages: int
                    ) -> ModelShape:
    """The shape of the model these member plans make: its shares told apart by the pages' places, not names."""
    return ModelShape(len(examples), len(plans), len({tuple(share) for share, _, _ in plans}), stages)


def _record_what_was_fitted(settings: dict[str, Any], fitted: ModelShape, why: Callable[[], str]) -> None:
    """The provenance's settings say what was fitted where it is fewer stages or bags than asked, with what was
    asked and why beside; a model fitted as asked keeps its settings (and its bytes) as they were."""
    asked = {"stages": settings["stages"], "bags": settings["bags"]}
    made = {"stages": fitted.stages, "bags": fitted.bags}
    if made != asked:
        settings.update(made)
        settings["requested"] = asked
        settings["smaller_because"] = why()


def _why_smaller(examples: Sequence[Example], seed: int, config: FitConfig,
                 plans: Sequence[tuple[list[int], int, str]], fitted: ModelShape) -> str:
    """Why a fit made fewer stages or bags than asked, of the reasons that applied: too few pages (to bag, or for
    a second stage), page shares dropped as they lacked a kind of region, too few pages with records for a
    second stage."""
    reasons = []
    shares = bags(len(examples), seed, config)
    few_to_bag = config.bags > 1 and len(shares) == 1
    few_for_two = fitted.stages < config.stages and any(len(share) < FULL_MODEL_PAGES for share, _, _ in plans)
    if few_to_bag or few_for_two:
        reasons.append("too few pages")
    fitted_shares = {tuple(share) for share, _, _ in plans}
    dropped = sum(1 for share in shares if tuple(share) not in fitted_shares)
    if dropped:
        reasons.append(f"{dropped} of {counted(len(shares), 'page share')} dropped: their pages lacked regions of "
                       "records, or regions that are not")
    if fitted.stages < config.stages and not few_for_two:
        reasons.append("too few pages with records for a second stage")
    return "; ".join(reasons)


def planned_shape(examples: Sequence[Example], seed: int = 0, config: FitConfig = FitConfig()) -> ModelShape:
    """The shape `fit` gives a model of these pages, worked out without fitting it."""
    plans = _member_plans(examples, seed, config)
    second = all(_has_second_stage([examples[i] for i in share], member_seed, config, kind)
                 for share, member_seed, kind in plans)
    return _shape_of_plans(examples, plans, 2 if second else 1)


def fold_shapes(examples: Sequence[Example], k: int, seed: int = 0, config: FitConfig = FitConfig(),
                groups: Sequence[str] | None = None) -> list[ModelShape]:
    """The shape of each fold's model in `cross_validate(examples, k, seed, config, groups=groups)`, in fold
    order."""
    shapes = []
    for fold in folds(len(examples), k, seed, groups):
        held = set(fold)
        shapes.append(planned_shape([e for i, e in enumerate(examples) if i not in held], seed, config))
    return shapes


def weaker_folds_note(folds_made: Sequence[ModelShape], written: ModelShape, made: str = "written") -> str | None:
    """When a cross-validation's fold models are smaller than the model written (fewer pages each: one stage, or
    not bagged), what each of them is, said beside its figure; None when every fold's model is as the written one.
    `made`: how that model is named, "written" (`train --cv`), or "trained on all these pages" where none is
    written (`bench --cv`, whose figure is the same one, said with the same caveat)."""
    if not any(shape.weaker_than(written) for shape in folds_made):
        return None
    kinds: dict[str, list[tuple[int, int]]] = {}
    for number, shape in enumerate(folds_made, 1):
        kinds.setdefault(str(shape), []).append((number, shape.pages))
    said = "; ".join(f"{_folds_said(held)}: {kind}" for kind, held in kinds.items())
    return (f"the cross-validated figure is of models weaker than the one {made} ({written}), each fitted on "
            f"fewer pages: {said}. It likely understates the model {made}")


def _folds_said(held: Sequence[tuple[int, int]]) -> str:
    """"fold 3 (6 pages)", "folds 1, 2 (5 pages each)", "folds 1, 4 (5, 6 pages)": folds by number, and their
    training pages."""
    numbers = ", ".join(str(number) for number, _ in held)
    pages = sorted({pages for _, pages in held})
    if len(held) == 1:
        return f"fold {numbers} ({counted(pages[0], 'page')})"
    if len(pages) == 1:
        return f"folds {numbers} ({pages[0]} pages each)"
    return f"folds {numbers} ({', '.join(str(p) for _, p in held)} pages)"


def labelled_pages_said(count: int) -> str:
    """"1 labelled page", "80 labelled pages", as a model's provenance says what it was trained on: not
    `wording.counted`, whose thousands separator would change the bytes of a model trained as before."""
    return f"{count} labelled page{'' if count == 1 else 's'}"



def _learner_version() -> str:
    """scikit-learn's version, as its package states it (without importing it: a check of the model in place
    comes before any fit)."""
    from importlib import metadata

    try:
        return metadata.version("scikit-learn")
    except metadata.PackageNotFoundError:  # not installed as a distribution: as the module says it
        import sklearn

        return sklearn.__version__


# ---------------------------------------------------------------------------------------------------------------
# Where labelled pages come from


@dataclass(frozen=True)
class PagesToRead:
    """Labelled pages, each read (parsed) as it is iterated and let go by the reader before the next, and how many
    there are (a progress bar's total). A page whose label file or page file cannot be read is left out as it is
    met, and kept in `unreadable` (its name: why, the file named), so that one bad file does not stop training."""

    count: int
    read: Callable[[], Iterator[LabelledPage]]
    unreadable: dict[str, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[LabelledPage]:
        return self.read()


def dataset_pages(pages_dir: str | Path, gt_dir: str | Path) -> list[LabelledPage]:
    """Every page with ground truth in `pages_dir` + `gt_dir` (a NEXT-EVAL style dataset)."""
    return list(dataset_pages_to_read(pages_dir, gt_dir))


def dataset_pages_to_read(pages_dir: str | Path, gt_dir: str | Path) -> PagesToRead:
    """`dataset_pages`, read one at a time as they are iterated."""
    from ..page.dataset import find_page_file, not_a_folder, record_files
    from ..records.hygiene import dataset_labels

    if not Path(pages_dir).is_dir():  # refused first, as dataset_labels refuses it
        raise DatasetError(not_a_folder(Path(pages_dir), "pages", "N.html / N.mhtml"))
    count = sum(1 for name in record_files(gt_dir) if find_page_file(pages_dir, name) is not None)
    if not count:
        raise DatasetError(f"no page with ground truth in {hint_path(pages_dir)} and {hint_path(gt_dir)}")
    source = dataset_name(pages_dir)
    unreadable: dict[str, str] = {}

    def left_out(name: str, error: Exception) -> None:
        unreadable[name] = str(error)

    return PagesToRead(count, lambda: as_labelled(dataset_labels(pages_dir, gt_dir, skip=left_out), source),
                       unreadable)


def as_labelled(pages: Iterable[tuple[str, Page, list[list[str]]]], source: str) -> Iterator[LabelledPage]:
    for name, page, records in pages:
        yield LabelledPage(name, page, records, source)
        del page  # let go before the next page is read


def dataset_name(pages_dir: str | Path) -> str:
    """A dataset's name for the provenance: `.../name/html` -> `name` (no machine-specific path)."""
    path = Path(pages_dir).resolve()
    return path.parent.name if path.name == "html" else path.name


# ---------------------------------------------------------------------------------------------------------------
# A model file, of any pages (a project's own: `store.learnt_model`)


def model_in_place(path: str | Path, pages: list[dict[str, str]], seed: int, description: str
                   ) -> SelectorModel | None:
    """The model at `path` if it is the one fitting these pages with this seed would write (`fitted_from`), else
    None (nothing there, another model, or one this version cannot read)."""
    model = readable_model(path)
    return model if model is not None and fitted_from(model, pages, seed, description) else None


def readable_model(path: str | Path) -> SelectorModel | None:
    """The model at `path`, None when there is none this version can read."""
    if not Path(path).is_file():
        return None
    try:
        return load_model(path)
    except ModelError:
        return None


def save_model(model: SelectorModel, path: str | Path, *, named: str | Path | None = None) -> Path:
    """Write `model` to `path` (atomically); a failure is said for `named` (default `path`): the file it is for."""
    try:
        return model.save(path)
    except OSError as error:  # changed since the check (a folder made there, permissions), or a full disk
        named = path if named is None else named
        why = (full_disk(Path(named).parent, detail=error.strerror, then="try again") if is_disk_full(error)
               else error.strerror or error)
        raise DatasetError(f"cannot write the model to {hint_path(named)}: {why}") from None


@dataclass
class FoldResult:
    """A held-out page's probabilities from a model fitted without it, and that model's threshold."""

    example: Example
    probabilities: np.ndarray
    threshold: float
    fold: int


def unfit_fold(examples: Sequence[Example], k: int, seed: int = 0, config: FitConfig = FitConfig(),
               groups: Sequence[str] | None = None) -> str | None:
    """Why k-fold cross-validation of these pages (in these groups, `folds`) cannot fit every fold (a fold whose
    training pages mark no list of records, or only lists), said before any fit; None when it can."""
    for f, held in enumerate(folds(len(examples), k, seed, groups)):
        held_set = set(held)
        training = [e for i, e in enumerate(examples) if i not in held_set]
        if (nothing := nothing_to_learn(training, config.targets[0])) is not None:
            return f"fold {f + 1} of {k} would have nothing to learn: {nothing} (or use fewer folds)"
    return None


def cross_validate(examples: Sequence[Example], k: int = 5, seed: int = 0, config: FitConfig = FitConfig(),
                   workers: int | None = None, groups: Sequence[str] | None = None,
                   check: Callable[[int, int], None] | None = None) -> list[FoldResult]:
    """Page-grouped k-fold CV: each page is scored by a model (and threshold) fitted on the other folds only;
    pages of one group (`groups`: a page and its synthetic variants) fall in one fold (`folds`). `check(folds
    done, k)` runs between the folds and while their fits run; what it raises (a cancel) stops them."""
    results: list[FoldResult] = []
    for f, held in enumerate(folds(len(examples), k, seed, groups)):
        if check is not None:
            check(f, k)
        held_set = set(held)
        fold_check = None if check is None else (lambda _done, _total, f=f: check(f, k))
        model = fit([e for i, e in enumerate(examples) if i not in held_set], seed, config, workers=workers,
                    check=fold_check)
        for i in held:
            e = examples[i]
            results.append(FoldResult(e, model.predict(e.candidates, e.features), model.threshold, f))
    order = {id(e): i for i, e in enumerate(examples)}
    return sorted(results, key=lambda r: order[id(r.example)])
