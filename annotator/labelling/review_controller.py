"""Review mode: a stored run's predictions against the page's true records, drawn over the page and listed in
the Review tab, the run's worst pages, and scoring a run in the background.

How records are classed (matched, partial, missed, spurious) is core's `review_page`; this keeps which run is under
review, caches its predictions and shows the result. The window owns it as `window.reviewing`.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import sys
import threading
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelectionModel, QTimer

from ...core.errors import RecordLensError
from ...core.page import natural_key
from ...core.records import (
    KINDS,
    MATCHED,
    MISSED,
    SPURIOUS,
    Agreement,
    DatasetScore,
    PageAgreement,
    PageReview,
    TextKeyIndex,
    record_key,
    review_page,
    worst_pages,
)
from ...core.store import (
    PROJECT_SET,
    REJECTED,
    TRUE_LABEL_STATUSES,
    Change,
    Kept,
    Project,
    Provenance,
    RunInfo,
    classed_only_theirs,
    disagreement,
    judge_as_shown,
    labelled_page_names,
    project_agreement,
)
from ...core.wording import counted, listed
from ..qt.jobs import BackgroundJob
from ..settings import ReviewRows, ReviewWalk
from . import decision_words as words
from .page_view import unseen_words
from .recent import Recent
from .record_actions import records_named
from .review_panel import (
    ANNOTATOR,
    DATA_ROLE,
    NO_RUN,
    SCORE,
    ReviewPanel,
    annotator_of,
    overlay_records,
    page_counts,
    review_label,
    run_started_and_origin,
)

if TYPE_CHECKING:
    from pathlib import Path

    from ...core.records import ReviewRecord
    from ...core.store import Label, StoredScore
    from .window_parts import LabellingWindow

WORST_SHOWN = 15
RUNS_READ = 2  # runs whose predictions stay read: some 20 MB each on a project of 1000 pages
MATCHER = "scipy.optimize"  # what core's score matches records with: most of a second to import
Records = list[list[str]]
Stamp = tuple[int, str | None, str]  # a page of a label set: its records' count, their file, when imported
# The pages a run is scored on and an annotator compared on (marked labelled or reviewed), read from the project at
# the first need of one action and not again within it (`_labelled_once`).
Labelled = Callable[[], frozenset[str]]
# The project's rejected records of a page that are a record (its XPaths), in page order; none when it rejected
# none such.
RejectedAs = Callable[[Sequence[str]], "Sequence[Label]"]
# The page's proposal that T accepts as a record of the annotator's (its XPaths); None when there is none such.
ProposedAs = Callable[[Sequence[str]], "Label | None"]


def _rejected_by(labels: Sequence[Label]) -> RejectedAs:
    """The rejected records among `labels` (a page's) that are the record `xpaths` (their XPaths as the scorer
    normalises them, `record_key`), in page order. Taking the other annotator's record then accepts the first of
    them where it is (a rejection says "not a record": the record twice, one rejected and one accepted, would
    contradict itself)."""
    rejected: dict[frozenset[str], list[Label]] = {}
    for label in labels:
        if label.status == REJECTED:
            rejected.setdefault(record_key(label.xpaths), []).append(label)
    return lambda xpaths: rejected.get(record_key(xpaths), ())


def _proposed_by(labels: Sequence[Label], keys: TextKeyIndex | None) -> ProposedAs:
    """The proposal among `labels` (a page's, in any status) that T accepts as the annotator's record `xpaths`: the
    first of the page's records that are that record (the same XPaths as the scorer normalises them), else the first
    that covers its text under other XPaths (by the page's text `keys`), as `weigh_proposals` weighs a record
    against the page, when every record of the page that is it or covers its text is a proposal. Accepted, it is
    their record in the project (the same text is the same record to the score), so the disagreement is decided:
    their record taken beside it would make a pair `labels check` calls duplicates, and left, the disagreement
    would stay open. None when the page holds no such proposal, or holds the record or its text as a true or
    rejected record too: a record held is said so, and a rejection is not overturned unseen (`_not_held`,
    `_not_covered`)."""
    if not any(label.status == "proposed" for label in labels):
        return lambda _: None
    by_key: dict[frozenset[str], list[Label]] = {}
    by_text: dict[frozenset[str], list[Label]] = {}
    for label in labels:
        by_key.setdefault(record_key(label.xpaths), []).append(label)
        if keys is not None and (text := keys.expand(label.xpaths)):  # its text, as the score reads it
            by_text.setdefault(text, []).append(label)

    def proposed_as(xpaths: Sequence[str]) -> Label | None:
        same = by_key.get(record_key(xpaths), [])
        alike = [label for label in (by_text.get(keys.expand(xpaths), []) if keys is not None else [])
                 if label not in same]
        found = same + alike
        return found[0] if found and all(label.status == "proposed" for label in found) else None
    return proposed_as


@dataclass(frozen=True)
class _LeftOut:
    """What the take-all button leaves out of the annotator's records the project lacks on the page (`_to_take`)."""

    kept: int  # their disagreement with the project's version kept (O): decided already
    held: int  # true records of the project already (the same XPaths)
    covered: int  # records of the page cover their text already, under other XPaths: taken, a pair of one text
    covering: tuple[int, ...]  # the numbers of those records
    repeated: int  # repeating another of theirs (the same XPaths or the same text)
    rejected: int  # rejected in the project (the same XPaths): T accepts them, naming the rejection

    @property
    def count(self) -> int:
        return self.kept + self.held + self.covered + self.repeated + self.rejected

    def words(self) -> str:
        """"2 kept (O), 1 in the project already, 2 whose text the project's records 3, 4 cover already, 1 repeated
        in their labels, 1 rejected in the project; T accepts it" (the parts there are; the rejected last, which
        T's words follow)."""
        parts = [f"{self.kept} kept (O)"] if self.kept else []
        parts += [f"{self.held} in the project already"] if self.held else []
        if self.covered:
            by = (f"the project's {records_named(self.covering)} cover{'s' if len(self.covering) == 1 else ''}"
                  if self.covering else "the project's records cover")
            parts.append(f"{self.covered} whose text {by} already")
        parts += [f"{self.repeated} repeated in their labels"] if self.repeated else []
        parts += [f"{self.rejected} rejected in the project; T accepts {'it' if self.rejected == 1 else 'them'}"
                  ] if self.rejected else []
        return ", ".join(parts)


@dataclass(frozen=True)
class _Take:
    """What the take-all button takes of the annotator's records the project lacks on the page (`_to_take`): those
    it adds, and the page's proposals it accepts as theirs (their record, or one covering its text, as T accepts
    it: `_proposed_by`), with their records those decide; and what it leaves out."""

    adds: Records
    accepts: tuple[Label, ...]
    accepted_as: Records  # their record each proposal of `accepts` is accepted as
    accepted_numbers: tuple[int, ...]  # the numbers of `accepts` in the Records tab (those it shows)
    left_out: _LeftOut

    @property
    def count(self) -> int:
        return len(self.adds) + len(self.accepts)

    def decides(self, name: str) -> list[Kept]:
        """The disagreements with `name` the step decides: their records it adds or accepts a proposal as."""
        return [Kept(name, tuple(record), None) for record in (*self.adds, *self.accepted_as)]

    def accepting(self) -> str:
        """"1 by accepting the project's proposed record 3" (without the count when every record it takes is so):
        how it takes those of their records the page holds as proposals; "" when none."""
        if not self.accepts:
            return ""
        named = (records_named(self.accepted_numbers) if len(self.accepted_numbers) == len(self.accepts)
                 else counted(len(self.accepts), "record"))
        how = words.accepting_proposed(named)
        return how if len(self.accepts) == self.count else f"{len(self.accepts)} {how}"


def not_compared(annotator: str, project_labelled: bool) -> str:
    """What the Review tab says of a page the annotator did not label, in the words of `recordlens agreement`,
    which lists the pages only the project labelled (marked labelled or reviewed) and not those neither did."""
    who = (f"annotator {annotator} did not label this page (`recordlens agreement` lists it as labelled by "
           f"{PROJECT_SET} only)" if project_labelled else
           f"neither {annotator} nor the project labelled this page (the project has not marked it labelled or "
           "reviewed): `recordlens agreement` lists it nowhere")
    return (f"not compared: {who}. T, Shift+T and O take nothing here: {annotator} left out no record of a page "
            "they never labelled")


def only_theirs(annotator: str) -> str:
    """What the Review tab says of a page the annotator labelled and the project has not marked labelled: shown,
    so that their records can be taken, but not compared, as `recordlens agreement` lists it."""
    return (f"the project has not marked this page labelled: `recordlens agreement` lists it as labelled by "
            f"{annotator} only, and its figures are not in the means; its labels may be incomplete")


def open_disagreements(page: PageAgreement, annotator: str, kept: Collection[Kept]) -> set[Kept]:
    """The page's disagreements with the annotator (those `recordlens agreement` counts: a record only one made,
    or a pair below the match overlap) that no decision kept for the project's version (O, or a merge)."""
    return {d for record in page.review.records if (d := disagreement(record, annotator)) is not None} - set(kept)


# A page only the annotator labelled, as the words about it say why it is not compared
NOT_MARKED = "not compared: the project has not marked {} labelled"


def _classed_only_theirs(project: Project, annotator: str, pages: Sequence[str],
                        progress: Callable[[Sequence[str]], Iterable[str]]) -> list[PageAgreement]:
    """The annotator's records of each of `pages`, those only they labelled (the project has not marked them
    labelled), classed against the project's true records there as the review shows such a page: not compared,
    so in no mean, but what W goes through after the pages compared, for the records of theirs the project still
    lacks (a lead merging their work would otherwise never be led to them). Core's, remembered in the project as
    the comparison is: a page is parsed again only once its labels or theirs changed."""
    return [_as_held(page) for page in classed_only_theirs(project, annotator, pages, progress)]


def _only_theirs_words(annotator: str, pages: Collection[PageAgreement], kept: dict[str, frozenset[Kept]]) -> str:
    """"3 pages only bob labelled (not compared: the project has not marked them labelled), 2 of them with a
    disagreement still open (W opens them)"; "" for none."""
    if not pages:
        return ""
    still = sum(1 for page in pages if open_disagreements(page, annotator, kept.get(page.page, ())))
    them = "it" if len(pages) == 1 else "them"
    left = (f"{still} of {them} with a disagreement still open (W opens {'it' if still == 1 else 'them'})"
            if len(pages) > 1 and still else
            "a disagreement still open there (W opens it)" if still else "nothing left to decide there")
    return f"{counted(len(pages), 'page')} only {annotator} labelled ({NOT_MARKED.format(them)}), {left}"


def _disagreeing_words(disagree: int, still: int) -> str:
    """How many of the pages compared disagree (`disagree`), and how many of those still hold a disagreement to
    decide (`still`); W is pointed at only while there is one."""
    if not disagree:
        return "they agree on every one"
    if still == disagree:
        return f"they disagree on {disagree} of them (W opens the worst)"
    if still:
        return f"they disagree on {disagree} of them, {still} with a disagreement still open (W opens the worst)"
    return f"they disagree on {disagree} of them, every disagreement kept (the project's version): nothing to decide"


def _matcher_imported() -> bool:
    return MATCHER in sys.modules


def _import_the_matcher() -> None:
    importlib.import_module(MATCHER)


def _as_held(page: PageAgreement) -> PageAgreement:
    """A page of an annotator's comparison as the review keeps it: its figures and its disagreements. Its
    matched records and the score's pairs (99 in 100 of a 1000-page comparison's records, some 90 MB) only the
    page on show needs, and that is classed anew as it is shown."""
    review = page.review
    return PageAgreement(page.page, replace(review, score=replace(review.score, matches=[]), records=tuple(
        record for record in review.records if record.kind != MATCHED)))


def _means(run: RunInfo) -> tuple[object, ...]:
    """What a run's stored means are: their figures and the pages they are made of."""
    return run.scored_pages, run.precision, run.recall, run.f1, run.scored_with_prediction, run.f1_with_prediction


def _figures(score: object) -> tuple[object, ...]:
    """What a page's score shows and the means are made of (a stored score or one just made)."""
    return tuple(getattr(score, name) for name in ("precision", "recall", "f1", "predicted_records", "true_records"))


def _runs_named(runs: Sequence[RunInfo]) -> str:
    """"run 3 (mdr)", "runs 3 (mdr), 4 (handmade)"."""
    named = ", ".join(f"{run.id} ({run.method})" for run in runs)
    return f"run {named}" if len(runs) == 1 else f"runs {named}"


def _scored_since(was: RunInfo, now: RunInfo) -> bool:
    """Whether the run was scored since it was `was`: more pages scored, or its means moved with no fewer pages
    scored, or with fewer (pages no longer labelled leave them) while its predictions stayed. A score deleted with
    the predictions it was made of (`add_predictions` replacing a page's) moves the means too, but scores nothing:
    that is `_predicted_since`."""
    return bool(now.scored_pages) and (now.scored_pages > was.scored_pages or (
        _means(now) != _means(was)
        and (now.scored_pages == was.scored_pages or not _predicted_since(was, now))))


def _predicted_since(was: RunInfo, now: RunInfo) -> bool:
    """Whether the run holds other predictions than when it was `was`: pages stored or failed, or a page's records
    replaced (stored anew: its `predictions_stamp` moves, the counts the same on a run never scored)."""
    return ((now.predicted_pages, now.failed_pages, now.predictions_stamp)
            != (was.predicted_pages, was.failed_pages, was.predictions_stamp))


def _other_runs_news(seen: dict[int, RunInfo] | None, runs: dict[int, RunInfo], under: object,
                     own: Collection[int] = ()) -> str:
    """What changed elsewhere in the runs other than the one under review (which says its own): "run 3 (mdr) added
    elsewhere: in the run list", and runs scored (with their F1), given other predictions or deleted; "" when
    none, or before the runs were first seen. A run going on elsewhere (pages stored every few seconds) is said
    once, as it is added. The `own` runs (this window's Propose sessions) given other predictions after their
    session ended got the answer that was on their way at Cancel: said as that, not as a change made elsewhere."""
    if seen is None:
        return ""
    added = [run for key, run in runs.items() if key not in seen and key != under]
    kept = [(seen[key], run) for key, run in runs.items() if key in seen and key != under]
    scored = [now for was, now in kept if _scored_since(was, now)]
    predicted = [now for was, now in kept if now not in scored and "running" not in (was.status, now.status)
                 and _predicted_since(was, now)]
    late = [run for run in predicted if run.id in own]
    predicted = [run for run in predicted if run.id not in own]
    deleted = [run for key, run in seen.items() if key not in runs and key != under]
    parts = [f"{_runs_named(added)} added"] if added else []
    if scored:
        f1 = f" (F1 {scored[0].f1:.3f})" if len(scored) == 1 and scored[0].f1 is not None else ""
        parts.append(f"{_runs_named(scored)} scored{f1}")
    parts += [f"{_runs_named(predicted)} given other predictions"] if predicted else []
    parts += [f"{_runs_named(deleted)} deleted"] if deleted else []
    said = [f"{_runs_named(late)}: {LATE_ANSWER_ADDED}"] if late else []
    if parts:
        where = "no longer in the run list" if not (added or scored or predicted) else (
            "in the run list" if not deleted else "the run list shows them as they now are")
        said.append(f"{', '.join(parts)} elsewhere: {where}")
    return "; ".join(said)


# What a run of this window's cancelled Propose session is said to get when its late answer is kept
LATE_ANSWER_ADDED = "the answer on its way when Propose was cancelled is added to it"


@dataclass
class _Basis:
    """What an annotator's comparison with the project's labels was made of: the pages both had labelled and the
    annotator's label set as read then (each page's stamp: any import or removal changes it). The means are made
    again when either has moved (`stale`: the set changed elsewhere, noticed while another job ran)."""

    both: frozenset[str]
    stamps: dict[str, Stamp]
    stale: bool = False


@dataclass(frozen=True)
class _Shown:
    """What the review of the page on show was made of: the annotator's records of it (None: they did not label
    it), the project's true records and the decisions kept (O) with the annotator on it, which change no label. A
    decision is taken only while the project still holds these."""

    page: str
    their: Records | None
    truth: Records
    kept: frozenset[Kept]


@dataclass(frozen=True)
class _Decision:
    """One adjudication of one review record: the store change, and what it does in words."""

    # "take" (their record added), "accept" (the project's rejected one accepted), "accept proposed" (the project's
    # proposal that is their record, or covers its text, accepted), "delete", "edit", "keep" (the project's version
    # kept, as O keeps it: a merge that is the project's record)
    kind: str
    change: Callable[[], Change]
    record_id: int | None = None  # the project's record changed, accepted, deleted or kept (None: one added)
    makes: Sequence[str] = ()  # the XPaths of the record it adds or changes (none: a delete, a keep)
    why: str = ""  # why it is a keep: " (bea made none here)"
    copies: int = 0  # an accept's other rejected copies of the record, deleted with it (`_accept_rejected`)


@dataclass(frozen=True)
class ReviewChoice:
    """The review rows chosen on a page, by their records: what an undo of a decision chooses again (its rows'
    records are back as they were), where the rows chosen after it (the next open one) would stay chosen."""

    page: str
    chosen: tuple[ReviewRecord, ...]
    current: ReviewRecord | None


@dataclass(frozen=True)
class _RunRead:
    """A run's predictions (page -> records) and failures (page -> why), read once while it is under review."""

    predictions: dict[str, Records]
    errors: dict[str, str]


@dataclass(frozen=True)
class _Classed:
    """A page's records classed against a run's (or an annotator's), with what that was made of: the page's text
    keys (the page as loaded), the records on both sides. Made again only when one of them is no longer so."""

    page: str
    keys: TextKeyIndex | None
    predicted: Records
    truth: Records
    review: PageReview


@dataclass(frozen=True)
class _Placing:
    """A page to bring to its first mistake once its records are drawn (`_place_at_the_first_error`): which of
    them the page displays is known only then. `opened`: what W opened of a run's page (its page and its place in
    the walk); `choose_open`: W opened it in an annotator's review, and its first open disagreement the page
    displays is chosen."""

    page: str | None
    opened: tuple[str, str] | None = None
    choose_open: bool = False


@dataclass
class _Overlaps:
    """The other records a project record touches through its elements (by their numbers)."""

    shared: set[int] = field(default_factory=set)  # hold one of its elements too
    inside: set[int] = field(default_factory=set)  # hold an ancestor of one of its elements
    holds: set[int] = field(default_factory=set)  # hold a descendant of one of its elements


class ReviewController:
    def __init__(self, window: LabellingWindow) -> None:
        self.window = window
        self.run_id: object = NO_RUN  # a run id, or "annotator:NAME" for another annotator's label set
        self.review: PageReview | None = None  # the page on show, in review mode
        self._changes_seen = 0  # the latest label change when the review's labels were read (`_update_review`)
        self._predictions: Recent[object, _RunRead] = Recent(RUNS_READ)  # of the runs reviewed last
        self._run_pages: dict[tuple[int, int], frozenset[str]] = {}  # (run, pages stored) -> the pages it holds
        # The runs as the review last listed or showed them (None: not yet): what changed elsewhere is told by them
        self._runs_seen: dict[int, RunInfo] | None = None
        self._remembered: object = NO_RUN  # the run the last session reviewed, until review first opens
        self._kept_rows: ReviewRows | None = None  # the rows the last quit had chosen, until its review is drawn
        self._restoring = False
        self.agreements: dict[str, Agreement] = {}  # another annotator against the project's labels, all pages
        # The pages only the annotator labelled, each classed against the project's records there: in no mean
        self._only_theirs: dict[str, dict[str, PageAgreement]] = {}
        self._compared: dict[str, _Basis] = {}  # what each annotator's agreement was made of
        self._comparing: set[str] = set()  # annotators being compared in the background
        # Annotators whose last comparison failed, with what W and the Review tab say of it until one is compared
        # again (choosing them again): "still comparing" would be said for ever
        self._failed: dict[str, str] = {}
        self._shown: _Shown | None = None
        self._their_stamps: dict[str, Stamp] = {}  # the pages the annotator under review labelled, as read last
        self._last_page: str | None = None  # the page last reviewed: on another, the annotator's set is read again
        self._worst_order: list[str] = []  # the ranking W goes through, and where in it W last was
        self._worst_at = 0
        # The page W opened, whose first open disagreement's row is chosen once it is shown: that page's alone, so
        # forgotten when it fails to load, and not taken up by another page opened by hand meanwhile
        self._choose_first_open: str | None = None
        # The page W opened in a run's review, and where it stands in W's walk: said once the page is shown
        self._w_opened_of_run: tuple[str, str] | None = None
        # The (run, page) whose rows the last quit had chosen were chosen again on (`_choose_the_kept_rows`), or
        # whose run was chosen again with rows chosen (`_choose`): the page is then brought to them, not to its
        # first mistake (`show_first_error`), once
        self._rows_restored: tuple[object, str] | None = None
        # The page (and what W opened of it) to bring to its first mistake once its records are drawn: which of
        # them the page displays is known then (`_place_at_the_first_error`)
        self._placing: _Placing | None = None
        self._labelling_place: tuple[str | None, int] | None = None  # (page, scroll) when review was entered
        # The page on show's review, by run (or annotator) chosen on it, of the runs reviewed last.
        self._classed: Recent[object, _Classed] = Recent(RUNS_READ)
        # The rows chosen in the list are drawn selected on the page: once for a burst of changes (a refill of the
        # list chooses its rows again one by one), after it
        self._drawn_chosen: frozenset[int] = frozenset()
        self._choice_changed = QTimer(self.panel)
        self._choice_changed.setSingleShot(True)
        self._choice_changed.setInterval(0)
        self._choice_changed.timeout.connect(self._draw_the_choice)
        self.panel.records.itemSelectionChanged.connect(self._choice_changed.start)
        self.panel.records.currentItemChanged.connect(self._choice_changed.start)
        self.panel.kinds_changed.connect(self._remember)
        self.panel.take_all_requested.connect(self.do_take_all)
        self.panel.runs_listed.connect(self._import_the_matcher_meanwhile)
        self.window.page_view.loaded.connect(self._forget_a_choice_not_shown)
        self.window.page_view.overlays_drawn.connect(self._place_at_the_first_error)
        self._take_up_last_review()

    @property
    def panel(self) -> ReviewPanel:
        return self.window.review_panel

    def active(self) -> bool:
        return self.window.tabs.currentWidget() is self.panel and self.run_id != NO_RUN

    def forget_runs(self) -> None:
        """Another project: nothing of this one's runs is kept, and the other's last review is taken up."""
        self._predictions.clear()
        self._run_pages.clear()
        self._runs_seen = self.panel.listed_runs = None  # the next project's, once the window lists them
        self._classed.clear()
        self.agreements.clear()
        self._only_theirs.clear()
        self._compared.clear()
        self._failed.clear()
        self._shown = self._last_page = None
        self._worst_order, self._worst_at = [], 0
        self.run_id = NO_RUN
        # nothing of the last project's review stays on show: its page's rows, its run's means and worst pages
        self.review = None
        self.panel.show_page(None)
        self.panel.offer_take_all(None, 0)
        self.panel.show_run(None, [])
        self._take_up_last_review()

    @staticmethod
    def _import_the_matcher_meanwhile(something_to_review: bool) -> None:
        """Core's score imports its matcher (scipy) the first time it classes a page, most of a second the first
        F6 would freeze the window for: imported in a thread of its own once the runs listed (as a project opens,
        the window lists them) hold something to review (never for a project without: the app starts without
        it)."""
        if _matcher_imported() or not something_to_review:
            return
        threading.Thread(target=_import_the_matcher, name=f"import {MATCHER}", daemon=True).start()

    def do_review(self) -> None:
        """F6: labelling <-> review. Review opens on the run chosen before (in this session or the last one, when
        it still exists), else on the latest run, else (a project of annotators' labels only) on the first
        annotator's comparison; with nothing to review, it says how to get something."""
        tabs = self.window.tabs
        if tabs.currentWidget() is not self.window.record_panel:
            self.window.tabs.setCurrentWidget(self.window.record_panel)
            return
        if self.run_id == NO_RUN:
            chosen = self._remembered_run()
            project = self.window.project
            runs = project.runs.all()
            if chosen == NO_RUN and runs:
                chosen = max(run.id for run in runs)
            if chosen == NO_RUN and (annotators := project.annotators.names()):
                chosen = ANNOTATOR + annotators[0]
            if chosen != NO_RUN:
                self.start_review(chosen)
                return
            # Only a Propose with Gemini is stored as a run: the offline one (the default) gives the page records
            # to judge, and a user who has just pressed P must not be sent to press it again.
            self.window.message("nothing to review yet: a run is reviewed here, and only Propose with Gemini stores "
                                "one (an offline Propose gives the page records to judge with A / R, not a run); "
                                "or `recordlens extract` then `runs --add`, or another annotator's labels "
                                "(`recordlens import --annotator NAME`)", 15000)
        self.window.tabs.setCurrentWidget(self.panel)

    def _take_up_last_review(self) -> None:
        """The project opens with the classes shown as its last session left them; the run it reviewed is kept for
        the first time review opens (`_remembered_run`)."""
        window = self.window
        key = window.project_key()
        run = window.settings.review_run(key)
        self._remembered = NO_RUN if run is None else run
        # Not for a screenshot either, which shows the rows it is asked for
        self._kept_rows = window.settings.review_rows(key) if window.saves_settings else None
        if run is not None and window.saves_settings and window.settings.review_on_show(key):
            # Left in Review (on a run or an annotator's comparison): it opens there again, once the window has
            # opened the page. Not for a screenshot, which shows the tab it is asked for (--review)
            QTimer.singleShot(0, lambda: self._reopen_review(key))
        shown = window.settings.review_classes(key)
        if shown is not None:
            self._restoring = True  # what is being restored is remembered already
            try:
                self.panel.show_only([kind for kind in KINDS if kind in shown])
            finally:
                self._restoring = False

    def _reopen_review(self, key: str) -> None:
        """Review opened on the comparison the last session was on, unless the window moved on meanwhile (closed,
        another project, review opened already)."""
        window = self.window
        if window.closed or window.project_key() != key or self.run_id != NO_RUN or self.active():
            return
        chosen = self._remembered_run()
        if chosen != NO_RUN:
            self.start_review(chosen)

    def _remembered_run(self) -> object:
        """The run (or annotator) the last session reviewed, the first time review opens, when the project still
        has it; else NO_RUN."""
        run, self._remembered = self._remembered, NO_RUN
        return run if run != NO_RUN and self._exists(run) else NO_RUN

    def _exists(self, choice: object) -> bool:
        project = self.window.project
        other = annotator_of(choice)
        if other is not None:
            return other in project.annotators.names()
        return any(run.id == choice for run in project.runs.all())

    def _remember(self) -> None:
        """The run under review and the classes shown, for the next start."""
        if self._restoring:
            return
        window = self.window
        shown = self.panel.shown_kinds()
        window.settings.remember_review(window.project_key(), None if self.run_id == NO_RUN else self.run_id,
                                        [kind for kind in KINDS if kind in shown], on_show=self.active())
        window.save_where_the_user_was()

    def annotator(self) -> str | None:
        """The other annotator under review (their labels against the project's), if that is the choice."""
        return annotator_of(self.run_id)

    def list_runs_again(self) -> None:
        """The runs' list is opening: runs added meanwhile (`runs --add` while the app is open) are listed, and
        the run under review, deleted meanwhile, leaves review (`_follow_runs`)."""
        if not self._follow_runs():
            self._set_runs(self.run_id, self._labelled_once())

    @property
    def _their_pages(self) -> frozenset[str]:
        return frozenset(self._their_stamps)

    def follow_changes_elsewhere(self, say: bool = True) -> None:
        """The project changed elsewhere (the command line, another window): the runs deleted, added, scored or
        given other predictions are shown as they now are (`_follow_runs`); an annotator's label set imported
        again makes the means again, and the page on show is redrawn when their records of it or its true records
        are no longer those the review shows (else the rows chosen in the list stay as they are). The run under
        review shows its means as they now stand against the labels: pages labelled or changed elsewhere make them
        out of date (Score again) at once, not at the next page opened. `say` False: the changes are this window's
        own job's (a Propose filling the run under review), which says what it did."""
        self._follow_runs(say)
        other, page = self.annotator(), self.window.page_name
        if other is None:
            # Still under review (not deleted elsewhere): its staleness as it now is. Not while the run list is
            # open: showing the run would note it as seen, and `_follow_runs`, deferred, would then miss its change
            if self.run_id != NO_RUN and not self._runs_list_open():
                self.show_run_figures()
            return
        labelled = self._labelled_once()
        self._read_their_set_again(other, labelled)
        if self.active() and page is not None and self._review_outdated(other, page):
            self.draw(labelled)

    def _follow_runs(self, say: bool = True) -> bool:
        """The runs as the project now holds them, when they are no longer those the review last listed or showed
        (`_runs_seen`): listed again, and the run under review followed (`_run_gone`, `_run_changed`). This
        window's own changes (a score, the figures kept current) are seen as they are made, and said by what makes
        them. Whether the runs were listed again."""
        if self._runs_list_open():
            return False  # not refilled under the pointer: listed again at the next look, once it is closed
        runs = {run.id: run for run in self.window.project.runs.all()}
        # Before the review first looked at them: as the window listed them when the project opened, so that the
        # first run added elsewhere in a session is said as every later one is
        seen = self._runs_seen if self._runs_seen is not None else self.panel.listed_runs
        if runs == seen:
            return False
        under = self.run_id if self.run_id != NO_RUN and self.annotator() is None else None
        was = seen.get(under) if seen is not None and under is not None else None
        labelled = self._labelled_once()
        sessions = self.window.jobs.own_runs  # this window's Propose sessions: an answer added late is its doing
        news = _other_runs_news(seen, runs, under, sessions)
        if under is not None and under not in runs:
            own = self._run_gone(under, was, labelled)
        else:
            self._set_runs(self.run_id, labelled)
            now = runs.get(under) if under is not None else None
            late = now is not None and now.id in sessions
            own = self._run_changed(was, now, labelled, late) if now is not None and was is not None else ""
        # One message: the run under review's news first (it holds the status bar longer), the other runs' after it
        words = "; ".join(part for part in (own, news) if part)
        if words and say:
            self.window.message(words, 15000 if own else 10000)
        return True

    def _runs_list_open(self) -> bool:
        return self.panel.runs.view().isVisible()

    def _run_gone(self, run_id: object, was: RunInfo | None, labelled: Labelled) -> str:
        """The run under review was deleted elsewhere: review leaves it, nothing of it stays on show (its rows,
        its means, its worst pages, its Score button). What to say of it."""
        self._predictions.clear()
        self._classed.clear()
        self._choose(NO_RUN, labelled)
        self._set_runs(NO_RUN, labelled)
        self._show(labelled)
        method = f" ({was.method})" if was is not None else ""
        return (f"run {run_id}{method} was deleted elsewhere (the command line, or another window): no run is under "
                "review now; choose one in the run list")

    def _run_changed(self, was: RunInfo, now: RunInfo, labelled: Labelled, late: bool = False) -> str:
        """The run under review scored, or given other predictions, elsewhere: shown as it now is. What to say of it
        ("" when nothing). `late`: the run is this window's Propose session's, whose other predictions are the
        answer that was on its way at Cancel."""
        predicted = _predicted_since(was, now)
        if predicted and now.status == "running":
            # A run going on elsewhere stores a page every few seconds: its means follow, its predictions (some
            # 20 MB on a project of 1000 pages) are read again once it ends
            if _means(now) != _means(was):
                self.show_run_figures(labelled)
            return ""
        elsewhere = "elsewhere (the command line, or another window)"
        if predicted or (was.status == "running" and now.status != "running"):
            self._predictions.clear()  # read again, as they now are
            self._classed.clear()
            self._show(labelled)
            said = f"run {now.id}: {LATE_ANSWER_ADDED}" if late else f"run {now.id}'s predictions changed {elsewhere}"
            return f"{said}: it holds {page_counts(now)} now, shown as they are" if predicted else ""
        if _means(now) != _means(was):
            self._show(labelled)
            return self._scored_words(now.id, f" {elsewhere}") if _scored_since(was, now) else ""
        return ""

    def _theirs_now(self, name: str, page: str) -> Records | None:
        """The annotator's records of the page as the project holds them now (None: they did not label it), their
        set's pages as last read (`_read_their_stamps`)."""
        return self.window.project.annotators.records(name, page) if page in self._their_stamps else None

    def _held_now(self, name: str, page: str) -> tuple[Records | None, Records, frozenset[Kept]]:
        """The annotator's records of the page, its true records and the decisions kept with the annotator on it,
        as the project holds them now."""
        project = self.window.project
        return self._theirs_now(name, page), project.true_records(page), project.adjudication.kept(page, name)

    def _review_outdated(self, name: str, page: str) -> bool:
        shown = self._shown
        return shown is None or shown.page != page or (shown.their, shown.truth, shown.kept) != self._held_now(
            name, page)

    def _set_runs(self, current: object, labelled: Labelled) -> None:
        project = self.window.project
        runs = project.runs.all()
        self._runs_seen = {run.id: run for run in runs}
        self.panel.set_runs(runs, current, project.annotators.names(),
                            missing={run.id: self._missing(run, labelled) for run in runs})

    def _labelled_once(self) -> Labelled:
        """The labelled pages for one action (F6, a run chosen, the tab changed, a redraw), whose parts may all ask
        for them: read from the project at the first ask only (every page's row: a tenth of a second on a project
        of 1000 pages)."""
        project = self.window.project
        return functools.cache(lambda: frozenset(labelled_page_names(project)))

    def _pages_of(self, run: RunInfo) -> frozenset[str]:
        """The pages a run holds records or a failure for (read again when more were stored: a run going on)."""
        key = (run.id, run.predicted_pages)
        if key not in self._run_pages:
            for old in [k for k in self._run_pages if k[0] == run.id]:  # fewer pages stored: not asked again
                del self._run_pages[old]
            self._run_pages[key] = frozenset(self.window.project.runs.page_names(run.id))
        return self._run_pages[key]

    def _missing(self, run: RunInfo | None, labelled: Labelled) -> int:
        """How many labelled pages the run holds nothing for (scored as empty predictions)."""
        if run is None:
            return 0
        return len(labelled() - self._pages_of(run))

    def start_review(self, run_id: object) -> None:
        """Review opens on a run (or an annotator): chosen, then listed and drawn once, by the tab's change to
        Review (`on_tab`) or, the tab on show already, here."""
        labelled = self._labelled_once()
        self._choose(run_id, labelled)
        if self.window.tabs.currentWidget() is self.panel:
            self._set_runs(run_id, labelled)
            self._show(labelled)
        else:
            self.window.tabs.setCurrentWidget(self.panel)
        self._bring_the_first_error_into_view()
        self._say_which_run(run_id)

    def _say_which_run(self, run_id: object) -> None:
        """Review opened on a run of a method that made others (F6 and `--review METHOD` take the latest): which
        one it is, and the others."""
        runs = self.window.project.runs.all()
        run = next((r for r in runs if r.id == run_id), None)
        same = [r.id for r in runs if run is not None and r.method == run.method]
        if run is None or len(same) < 2:
            return
        latest = ", the latest" if run.id == max(same) else ""
        self.window.message(f"reviewing run #{run.id} {run.method} ({run_started_and_origin(run)}){latest} of "
                            f"{len(same)} {run.method} runs ({listed([f'#{i}' for i in same])}); the run list in "
                            "the Review tab has the others", 15000)

    def on_tab(self) -> None:
        window = self.window
        if window.tabs.currentWidget() is self.panel:
            # Not of a page still loading (a start that reopens in Review): its scroll is not yet the one the
            # window restores, and going back to labelling then leaves the page where it is.
            self._labelling_place = (window.page_name, window.page_view.scroll_y) if window.page_loaded else None
            remembered = self._remembered_run() if self.run_id == NO_RUN else NO_RUN
            if remembered != NO_RUN:  # the run the last session was reviewing
                self.start_review(remembered)
                return
            # Runs may have been added meanwhile (by the CLI, or a scoring job), or an annotator's labels imported
            # again.
            labelled = self._labelled_once()
            self._set_runs(self.run_id, labelled)
            other = self.annotator()
            if other is not None:
                self._read_their_set_again(other, labelled)
            self._show(labelled)
            if self.run_id != NO_RUN:
                self._remember()  # on show, for the next start
            return
        window.redraw()
        if self.run_id != NO_RUN:
            self._remember()  # no longer on show
        if window.tabs.currentWidget() is window.record_panel:
            place, self._labelling_place = self._labelling_place, None
            if place is not None and place[0] == window.page_name:
                # Back from review on the same page: where the labelling was, not where the review's errors were
                window.page_view.scroll_to_y(place[1])

    def _run_info(self) -> RunInfo | None:
        if self.run_id == NO_RUN or self.annotator() is not None:
            return None
        try:
            return self.window.project.runs.get(self.run_id)
        except RecordLensError:
            return None

    def on_run_chosen(self, run_id: object, labelled: Labelled | None = None) -> None:
        labelled = labelled or self._labelled_once()
        self._choose(run_id, labelled)
        self._show(labelled)
        self._bring_the_first_error_into_view()

    def _choose(self, run_id: object, labelled: Labelled) -> None:
        """A run (or annotator) chosen: remembered for the next start, W starting from its worst page, and an
        annotator compared with the project's labels on every page (the page is drawn by `_show`). The rows chosen
        in another run's review are not chosen in this one's: it opens at its first mistake, where the page is
        scrolled (`show_first_error`), and a row of the same record left chosen would be drawn selected far from
        it. The run under review chosen again keeps its rows chosen, and the page is brought to them as it is
        placed, not to the first mistake (with none chosen, there): the rows chosen and the page never disagree."""
        if run_id != self.run_id:
            self.panel.records.clearSelection()
            self.panel.records.setCurrentRow(-1)
        self._rows_restored = (run_id, self.window.page_name) if run_id == self.run_id and \
            self.panel.chosen_indices() else None
        self.run_id = run_id
        self._remember()
        self._worst_order = []  # W starts from the run's (or annotator's) worst page
        if run_id == NO_RUN:  # no run: none of the last one's rows stay behind
            self.review = None
            self.panel.show_page(None)
            self.panel.offer_take_all(None, 0)
        self._last_page = None
        other = self.annotator()
        if other is not None:
            self.show_run_figures(labelled)
            self.panel.run_figures.setText(f"{other} = predicted, the project's labels = true; T takes their "
                                           "record, Shift+T merges, O keeps the project's; comparing every page…")
            self._compare_all(other, labelled)

    def _show(self, labelled: Labelled) -> None:
        """The page drawn as the choice sees it, and the run's figures shown once: by the page's review, else (no
        page on show, or not in review) as stored. An annotator's means are their comparison's."""
        figures_shown = False
        if self.active():
            figures_shown = self.draw(labelled)
        else:
            self.window.redraw()  # the page's own records
        if not figures_shown and self.annotator() is None:
            self.show_run_figures(labelled)

    def _bring_the_first_error_into_view(self) -> None:
        if self.window.page_loaded:  # else the window does it once the page has loaded
            self.show_first_error()

    def show_first_error(self) -> None:
        """What the run got wrong is what a reviewer looks for: bring the first such record into view; on a page
        it got all right, its first record shown (a page opens at its first record: its top may hold none of
        them, and an empty-looking view under "240 matched" reads as nothing drawn). A page W opened in an
        annotator's review: its first open disagreement's row chosen too, so that T, Shift+T and O decide it at
        once (as the next open row is chosen after a decision)."""
        choosing, self._choose_first_open = self._choose_first_open, None
        opened, self._w_opened_of_run = self._w_opened_of_run, None
        if self._bring_the_restored_rows_into_view():
            return
        page = self.window.page_name
        choose = choosing is not None and choosing == page and self.review is not None and self.active()
        # Which of the records the page displays is known once they are drawn: the page is placed then, and W's
        # choice made then, of a disagreement the page displays (one in the <head> or hidden shows nothing).
        self._placing = _Placing(page, opened, choose)
        if self.window.page_view.overlays_ready():
            self._place_at_the_first_error()

    def _place_at_the_first_error(self, _boxes: int = 0) -> None:
        """The records drawn (`show_first_error` waits for it): the page brought to the first mistake it displays,
        else to its first record it displays. A mistake whose element the page does not display (an extractor's
        record in the <head>, one hidden with display: none) would leave the page where it is with nothing of it
        on show: those before the one in view are said, with where they are and why."""
        if self._placing is None or not self.window.page_view.overlays_ready():
            return  # a drawing of records given before the last ones: theirs is still to come
        placing, self._placing = self._placing, None
        page, opened = placing.page, placing.opened
        if page != self.window.page_name or self.review is None:
            return
        unseen = self.window.page_view.unseen_records()
        if placing.choose_open and self.active() and self._choose_a_displayed_open_row(page, unseen):
            return
        shown = self.panel.shown_kinds()
        drawn = [r for r in self.review.records if r.kind in shown and r.xpaths]
        on_show = [r for r in drawn if self._displayed_xpaths(r, unseen)]
        mistakes = [r for r in drawn if r.kind != MATCHED]
        first = next((r for r in on_show if r.kind != MATCHED), on_show[0] if on_show else None)
        if first is not None:
            self.window.page_view.scroll_to(self._displayed_xpaths(first, unseen)[0])
        first_mistake = first if first is not None and first.kind != MATCHED else None
        hidden = mistakes[:mistakes.index(first_mistake)] if first_mistake is not None else mistakes
        note = self._not_displayed_words(hidden, first_mistake, unseen)
        if opened is not None and opened[0] == page and self.active():
            self._say_w_opened_a_runs_page(*opened, first_mistake is not None, note)
        elif note:
            self.window.message(note, 15000, of_page=page)

    @staticmethod
    def _displayed_xpaths(record: ReviewRecord, unseen: dict[tuple[str, ...], str]) -> tuple[str, ...]:
        """The XPaths of the record's drawing the page displays (its predicted extent, else a pair's true one);
        () when the page displays neither. A record the drawing does not hold counts as displayed: nothing says
        otherwise."""
        drawings = [xpaths for xpaths in (record.xpaths, record.true_xpaths) if xpaths]
        return next((xpaths for xpaths in drawings if not unseen.get(xpaths)), ())

    def _not_displayed_words(self, hidden: Sequence[ReviewRecord], first: ReviewRecord | None,
                             unseen: dict[tuple[str, ...], str]) -> str:
        """"the first mistake, P1 (spurious) at /head[1]/title[1], is not displayed on the page: its element is
        hidden (display: none); in view: the first one the page displays, T4 (missed)"; "" when none is hidden.
        An annotator's records are no mistakes: their disagreements, said so."""
        if not hidden:
            return ""
        noun = "mistake" if self.annotator() is None else "disagreement"
        if first is None:
            return (f"none of the page's {counted(len(hidden), noun)} is displayed on the page: "
                    f"{self._unseen_listed(hidden, unseen)}; {'it is' if len(hidden) == 1 else 'they are'} in the list")
        return (f"{self._first_not_displayed(hidden, unseen, noun)}; in view: the first one the page displays, "
                f"{self._badge(first)} ({first.kind})")

    def _first_not_displayed(self, hidden: Sequence[ReviewRecord], unseen: dict[tuple[str, ...], str],
                             noun: str) -> str:
        """"the first mistake, P1 (spurious) at /head[1]/title[1], is not displayed on the page: its element is
        hidden (display: none)", or of several "the first 2 mistakes are not displayed on the page (…; …)"."""
        if len(hidden) == 1:
            record = hidden[0]
            return (f"the first {noun}, {self._badge(record)} ({record.kind}) at {' | '.join(record.xpaths)}, is not "
                    f"displayed on the page: {unseen_words(unseen.get(record.xpaths) or '', len(record.xpaths))}")
        return f"the first {len(hidden)} {noun}s are not displayed on the page ({self._unseen_listed(hidden, unseen)})"

    def _unseen_listed(self, hidden: Sequence[ReviewRecord], unseen: dict[tuple[str, ...], str]) -> str:
        """"P1 (spurious) at /head[1]/title[1]: its element is hidden (display: none); T4 (missed) at …: …": each
        record the page does not display, where it is and why."""
        return "; ".join(f"{self._badge(r)} ({r.kind}) at {' | '.join(r.xpaths)}: "
                         f"{unseen_words(unseen.get(r.xpaths) or '', len(r.xpaths))}" for r in hidden)

    def _badge(self, record: ReviewRecord) -> str:
        """The record's badge, as its row and the page show it (T3, P4)."""
        return review_label(record, self.panel.true_numbers)

    def _bring_the_restored_rows_into_view(self) -> bool:
        """The rows the last quit had chosen, chosen again on the page on show (a start, or the first F6 after
        it), or those of the run under review chosen again: the page brought to them (the current row's record,
        else the first chosen), where the reviewer left them, not to the page's first mistake, which would put the
        page and the rows chosen at odds. Once; whether it was so."""
        restored, self._rows_restored = self._rows_restored, None
        if restored != (self.run_id, self.window.page_name) or self.review is None or not self.active():
            return False
        chosen = self.panel.chosen_indices()
        current = self.panel.current_index()
        index = current if current is not None else chosen[0] if chosen else None
        if index is None:
            return False
        self.on_review_record(index)
        return True

    def _say_w_opened_a_runs_page(self, page: str, walk: str, first_in_view: bool, not_displayed: str = "") -> None:
        """What W says of a run's page it opened: where it stands in the walk (`walk`), what the run got wrong
        there, and where the page is (at the first of them), as an annotator's review says its open
        disagreements; or what of them the page does not display (`not_displayed`: `_not_displayed_words`)."""
        review = self.review
        assert review is not None
        wrong = {kind: sum(1 for r in review.records if r.kind == kind) for kind in KINDS if kind != MATCHED}
        found = ", ".join(f"{n} {kind}" for kind, n in wrong.items() if n)
        if not found:
            here = "every record matched here"
        elif not_displayed:
            here = f"{found} here; {not_displayed}"
        elif first_in_view:
            here = f"{found} here; the first is in view"
        else:
            here = f"{found} here; none of them is shown: tick their classes above the list"
        self.window.message(f"W: page {page}, {walk}: {here}", 15000, of_page=page)

    def _forget_a_choice_not_shown(self, ok: bool) -> None:
        """A page that failed to load is not shown (`show_first_error` is not reached): W's choice for it goes, so
        that the page opened next, even that one again by hand, opens as any page does."""
        if not ok:
            self._choose_first_open = self._w_opened_of_run = None

    def _choose_a_displayed_open_row(self, page: str, unseen: dict[tuple[str, ...], str]) -> bool:
        """W opened the annotator's page, its records drawn: the first open disagreement in the list that the page
        displays chosen and brought into view, and said with those before it that it does not display, where they
        are and why; none displayed, the first chosen still (T, Shift+T and O decide it: the list shows it), the
        page left at its first record it shows, and why nothing is drawn said. Whether an open row was chosen
        (none: what W found is said, and the page is placed as any page)."""
        review = self.review
        assert review is not None
        rows = self.panel.open_rows()
        if not rows:
            self._say_w_opened(page, False)
            return False
        records = review.records
        displayed = [(row, index) for row, index in rows if self._displayed_xpaths(records[index], unseen)]
        row, index = displayed[0] if displayed else rows[0]
        self.panel.choose_open_row(row)
        if displayed:
            self.on_review_record(index)  # as a click on the row brings it (the list says nothing of this choice)
            hidden = [records[i] for _, i in rows[:rows.index((row, index))]]
            then = (f"{self._first_not_displayed(hidden, unseen, 'disagreement')}; the first the page displays is "
                    f"chosen, {self._badge(records[index])} ({records[index].kind})" if hidden else "")
        else:
            on_show = next((xpaths for r in records if r.kind in self.panel.shown_kinds() and r.xpaths
                            and (xpaths := self._displayed_xpaths(r, unseen))), None)
            if on_show:
                self.window.page_view.scroll_to(on_show[0])
            listed_ = self._unseen_listed([records[i] for _, i in rows], unseen)
            then = (f"it is not displayed on the page: {listed_}; it is chosen in the list" if len(rows) == 1 else
                    f"none of them is displayed on the page: {listed_}; the first is chosen in the list")
        self._say_w_opened(page, True, then)
        return True

    def _choose_an_open_row(self, row: int) -> bool:
        """The first open disagreement's row from `row` on (else above it) chosen, and its record brought into view
        on the page as a click on the row brings it (the list says no `record_chosen` for a row the code chooses);
        whether there was one."""
        if not self.panel.choose_open_row(row):
            return False
        index = self.panel.current_index()
        if index is not None:
            self.on_review_record(index)
        return True

    def _say_w_opened(self, page: str, chosen: bool, which: str = "") -> None:
        """What W says of the page it opened: which, how many disagreements are open there (and kept), and that
        the first is chosen for T, Shift+T or O (`which`: which one is chosen, where the first is not displayed);
        or, none of them shown, how to show them."""
        name, review = self.annotator(), self.review
        if name is None or review is None:
            return
        still = self.panel.open_count()
        if not still:  # decided elsewhere since W ranked the pages
            self.window.message(f"W: page {page}{self._none_left_words(name, page)}", 15000, of_page=page)
            return
        kept = sum(1 for record in review.records if record.kind != MATCHED) - still
        kept_words = f" ({kept} kept)" if kept else ""
        then = (f"{which or 'the first is chosen'}: T takes theirs, Shift+T merges, O keeps the project's" if chosen
                else "none of them is shown: tick their classes above the list")
        where = (f" (a page only {name} labelled, {NOT_MARKED.format('it')}: {self.window.keys_for('take_all')} "
                 f"takes all their records it lacks)" if page in self._only_theirs.get(name, {}) else "")
        self.window.message(f"W: page {page}, {counted(still, 'disagreement')} with {name} open here{kept_words}"
                            f"{where}; {then}", 15000, of_page=page)

    def _none_left_words(self, name: str, page: str) -> str:
        """", no disagreement with bea left open on page 2: W opens the next of 3 pages with one" (or none is left
        on any page), said where a decision (or W) leaves no open row to choose; open ones in classes not shown are
        said instead."""
        hidden = self.panel.open_count()
        if hidden:
            return (f": {counted(hidden, 'disagreement')} with {name} still open on page {page}, in classes not "
                    "shown: tick them above the list")
        if name not in self.agreements:  # still being compared: W says so
            return f": no disagreement with {name} left open on page {page}"
        others = [other for other in self._open_pages(name, self._kept_pages(name)) if other != page]
        w = (f": W opens the next of {counted(len(others), 'page')} with one" if others else
             f", nor on any other page: every disagreement with {name} is decided{self._decided_words(name)}")
        return f": no disagreement with {name} left open on page {page}{w}"

    def _decided_with(self, name: str) -> Counter[str]:
        """The decisions with the annotator in force on the pages compared and those only they labelled, by what
        each did ("taken", "deleted", "merged", "kept": `Adjudication.decided_since` from the first, as an import
        names them): a disagreement T decided is no disagreement any more (the records now agree), so the
        disagreements left say nothing of it.
        A page no one adjudicated is passed by at the cost of one look (its `trace` is empty). Nothing counted when
        the project cannot be read now."""
        found = self.agreements.get(name)
        pages = {page.page for page in found.pages} if found is not None else set()
        pages |= self._only_theirs.get(name, {}).keys()
        adjudication, tally = self.window.project.adjudication, Counter[str]()
        try:
            for page in pages | self._kept_pages(name).keys():
                trace = adjudication.trace(page)
                if not trace.records and not trace.page:
                    continue
                decided = adjudication.decided_since(page, name, "")
                tally.update(taken=len(decided.taken), deleted=decided.deleted, merged=len(decided.merged),
                             kept=decided.kept)
        except RecordLensError:
            return Counter()
        return tally

    def _decided_words(self, name: str, decided: Counter[str] | None = None) -> str:
        """" (2 taken, 1 kept (O))": how the annotator's disagreements were decided, each as it was; "" for none."""
        tally = self._decided_with(name) if decided is None else decided
        said = words.decided(taken=tally["taken"], deleted=tally["deleted"], merged=tally["merged"],
                             kept=tally["kept"])
        return f" ({said})" if said else ""

    def draw(self, labelled: Labelled | None = None) -> bool:
        """Class the page's records against the run's and draw them over the page; whether that showed the run's
        figures (a page on show, the run still stored)."""
        figures_shown = self._update_review(labelled or self._labelled_once())
        self._choose_the_kept_rows()
        self.draw_shown()
        return figures_shown

    def _choose_the_kept_rows(self) -> None:
        """The first page's review drawn after a start: the rows the last quit had chosen on it, in that run's (or
        annotator's) review, chosen again, as labelling selects the records selected then. Taken up once: a review
        of another run or page drawn first forgets them."""
        kept = self._kept_rows
        if kept is None or self.review is None or not self.active():
            return
        self._kept_rows = None
        if (kept.run, kept.page) == (self.run_id, self.window.page_name):
            self.panel.choose_rows(kept.page, kept.chosen, kept.current)
            if self.panel.chosen_indices():  # the page is brought to them as it is placed (`show_first_error`)
                self._rows_restored = (self.run_id, kept.page)

    def remember_rows(self) -> None:
        """At quit: the rows chosen in the Review list, for the next start (`_choose_the_kept_rows`), when a page's
        review is drawn there, in Review or left for labelling; else none, so that no quit keeps the rows an
        earlier session chose (they would come back at a start after a session that chose others)."""
        rows, kept = self.panel.chosen_rows(), None
        if rows is not None and self.run_id != NO_RUN and isinstance(self.run_id, int | str):
            page, chosen, current = rows
            kept = ReviewRows(self.run_id, page, tuple(chosen), current)
        self.window.settings.remember_review_rows(self.window.project_key(), kept)

    def draw_shown(self) -> None:
        """Draw the page's review as it stands, with the classes the panel shows (their toggles)."""
        if self.active():
            panel = self.panel
            self._drawn_chosen = frozenset(panel.chosen_indices()) if self.review else frozenset()
            self.window.page_view.show_records(overlay_records(self.review, panel.shown_kinds(), panel.true_numbers,
                                                               panel.kept, panel.shows_kept(), self._drawn_chosen)
                                               if self.review else [])

    def _draw_the_choice(self) -> None:
        """The rows chosen in the list changed (a click, the arrow keys, Shift+click, the next open row after a
        decision): their records drawn selected, when they are not so already."""
        if self.window.closed:  # a refill of the list as the window closed: no page left to draw on
            return
        if self.active() and self.review is not None and frozenset(self.panel.chosen_indices()) != self._drawn_chosen:
            self.draw_shown()

    def _update_review(self, labelled: Labelled) -> bool:
        window = self.window
        page, name = window.page_view.core_page, window.page_name
        if name is None or page is None:
            self.review = None
            self.panel.show_page(None)
            self.panel.offer_take_all(None, 0)
            return False
        other = self.annotator()
        predicted = self._their_records(other, name, labelled) if other is not None else self._run_records(name)
        # Before the labels are read: the page's score stored from this review says which changes it saw
        self._changes_seen = window.project.last_change_id() or 0
        truth = window.project.true_records(name)
        self._shown = _Shown(name, predicted, truth, window.project.adjudication.kept(name, other)
                             ) if other is not None else None
        if other is not None and predicted is None:
            return self._show_not_compared(other, name, labelled)
        texts = window.page_texts()
        self.review = self._classed_review(name, predicted or [], truth, texts.keys)
        # Said beside the page's figures, which they qualify, for as long as the page is under review (a status
        # message would outlive the review or vanish before it).
        notes = []
        read = self._predictions.get(self.run_id)  # none for an annotator
        failure = read.errors.get(name) if read is not None else None
        if failure is None and predicted is None:  # a failure is said first, by the panel (not as found nothing)
            notes.append(f"annotator {self.annotator()} did not label this page" if self.annotator()
                         else "the run has no prediction for this page")
        if not window.project.page(name).finished:
            notes.append(only_theirs(other) if other is not None else
                         "page not marked labelled: its labels may be incomplete")
        records = self.review.records
        kept, merged = self._kept_indices(other, self._shown.kept, self.review) if self._shown else ((), ())
        self.panel.show_page(self.review, "; ".join(notes),
                             texts=[texts.of(r.xpaths, 60)[0] for r in records],
                             true_texts=[texts.of(r.true_xpaths, 60)[0] for r in records],
                             true_numbers=[k + 1 for k, label in enumerate(window.labels)
                                           if label.status in TRUE_LABEL_STATUSES],
                             named=[sum(1 for x in r.xpaths if page.resolve(x) is not None) for r in records],
                             entries=[texts.of(r.xpaths, 60)[1] for r in records],
                             kept=kept, merged=merged, failure=failure or "", whole=texts.whole)
        if other is not None:
            # Of the labels just read: the action reads them again (`do_take_all`)
            take = self._to_take(self.review, name, window.labels, texts.keys)
            self.panel.offer_take_all(other, take.count, take.left_out.words(), accepting=take.accepting(),
                                      left=take.left_out.count)
        else:
            self.panel.offer_take_all(None, 0)
        self.panel.offer_keep(other)
        return self._keep_figures_current(name, labelled)

    def _show_not_compared(self, other: str, name: str, labelled: Labelled) -> bool:
        """A page the annotator did not label is not compared, as `recordlens agreement` lists it ("labelled by
        project only"): no rows, no figures, nothing drawn over it. Their absence is no record they left out, so
        nothing on it is offered to T (which would delete the project's records), Shift+T or O."""
        self.review = None
        self.panel.show_page(None, not_compared(other, name in labelled()))
        self.panel.offer_take_all(None, 0)
        self.panel.offer_keep(other)
        self._keep_agreement_current(other, name, None, labelled)
        return False

    def _classed_review(self, name: str, predicted: Records, truth: Records, keys: TextKeyIndex | None
                        ) -> PageReview:
        """The page's records classed against the run's (core's `review_page`), made once for what it is made of:
        a run chosen again comes back to the same page, and a page of 700 records takes most of a second to class.
        Only the page on show's reviews are kept, one per run, for the last runs chosen (`RUNS_READ`)."""
        kept = self._classed.get(self.run_id)
        if kept is not None and (kept.page, kept.keys, kept.predicted, kept.truth) == (name, keys, predicted, truth):
            return kept.review
        if any((c.page, c.keys) != (name, keys) for c in self._classed.values()):
            self._classed.clear()  # another page, or the page loaded again
        return self._classed.keep(self.run_id, _Classed(name, keys, predicted, truth,
                                                        review_page(predicted, truth, keys, name))).review

    @staticmethod
    def _kept_indices(other: str, kept: frozenset[Kept], review: PageReview) -> tuple[list[int], list[int]]:
        """The page's review records decided against the annotator's (O, or a Shift+T that kept or merged), as the
        project holds the decisions (`kept`, read with the review's records): one made on records since changed
        keeps nothing; and those of them a merge decided."""
        decisions = {d: d for d in kept}
        found = [(i, decisions[d]) for i, record in enumerate(review.records)
                 if (d := disagreement(record, other)) is not None and d in decisions]
        return [i for i, _ in found], [i for i, d in found if d.merged]

    def _run_records(self, name: str) -> Records | None:
        """The run's records of the page (None: it holds none for it), its predictions read once while it is
        under review; of the runs reviewed before, only the last stay read (`RUNS_READ`)."""
        run, runs = self.run_id, self.window.project.runs
        read = self._predictions.get(run) or self._predictions.keep(run, _RunRead(runs.predictions(run),
                                                                                  runs.errors(run)))
        return read.predictions.get(name)

    def _their_records(self, other: str, name: str, labelled: Labelled) -> Records | None:
        """The annotator's records of the page as the project holds them now (None: they did not label it): read
        at every redraw, since the command line may import their labels again while the app is open. On another
        page, whether their set changed elsewhere, for the means: by its pages' stamps, one cheap read, not their
        records."""
        if name != self._last_page:
            self._last_page = name
            self._read_their_set_again(other, labelled, but=name)
        else:
            self._read_their_stamps(other)
        return self._theirs_now(other, name)

    def _read_their_stamps(self, other: str) -> dict[str, Stamp]:
        self._their_stamps = {page.page: (page.records, page.source, page.imported_at)
                              for page in self.window.project.annotators.set_pages(other)}
        return self._their_stamps

    def _read_their_set_again(self, other: str, labelled: Labelled, but: str | None = None) -> None:
        """The annotator's label set read again (its pages' stamps): changed since their means were made (on a
        page other than `but`, the page on show, which `_keep_figures_current` follows itself), the means are made
        again."""
        now = self._read_their_stamps(other)
        basis = self._compared.get(other)
        if basis is None or other in self._comparing:
            return
        if {p: s for p, s in now.items() if p != but} != {p: s for p, s in basis.stamps.items() if p != but}:
            basis.stale = True
            self._compare_again(other, labelled)

    def _keep_figures_current(self, name: str, labelled: Labelled) -> bool:
        """The means and the worst pages follow the page's labels as they change here (an adjudication, an edit,
        an undo): the page's figures, just made by the same metric on the same pages, replace those the means
        were made of (a run's stored score, an annotator's comparison), which nothing else would update. Whether
        the run's figures were shown (an annotator's means are shown as their comparison ends)."""
        review, window = self.review, self.window
        if review is None:
            return False
        other = self.annotator()
        if other is not None:
            self._keep_agreement_current(other, name, review, labelled)
            return False
        run = self._run_info()
        if run is None:
            return False
        runs = window.project.runs
        scores, stale = runs.scores(self.run_id), runs.stale_pages(self.run_id)  # read once per redraw
        stored = next((s for s in scores if s.page == name), None)
        marked = window.project.page(name).finished
        # A page the run was not scored on keeps out of its means, as in `recordlens score`.
        if stored is not None and marked and (_figures(stored) != _figures(review.score) or name in stale):
            # of the page as the view read it: its copy's hash kept with the score, as `recordlens score` keeps it
            copy = window.page_view.loaded_hash if window.page_name == name else None
            runs.add_scores(self.run_id, DatasetScore([review.score]), changes_seen=self._changes_seen,
                            copy_hashes={name: copy} if copy else None)
            run, scores, stale = self._run_info(), runs.scores(self.run_id), runs.stale_pages(self.run_id)
        # Said again also when only the count of changed pages moved (a page marked labelled).
        self._show_run(run, scores, stale, labelled)
        return True

    def _keep_agreement_current(self, other: str, name: str, review: PageReview | None,
                                labelled_once: Labelled) -> None:
        """The annotator's means follow the page on show: its figures as they now are, and the page taken in or
        left out as it is marked labelled or taken back (the pages compared are those both labelled); a page only
        they labelled, held apart as it now is (what W finds open on it). Pages that came or went elsewhere make the
        means again, in the background."""
        found, basis = self.agreements.get(other), self._compared.get(other)
        if basis is None or other in self._comparing:
            return  # the comparison under way reads the labels as they are
        labelled = labelled_once()
        both = labelled & self._their_pages
        if basis.stale or (found is not None and both - {name} != basis.both - {name}):
            self._compare_again(other, labelled_once)
            return
        if found is None:  # the comparison failed: said when it did
            return
        basis.both = frozenset(both)
        if name in self._their_stamps:
            basis.stamps[name] = self._their_stamps[name]
        else:
            basis.stamps.pop(name, None)
        only_theirs = self._only_theirs.setdefault(other, {})
        was_only_theirs = only_theirs.pop(name, None)
        if review is not None and name in self._their_stamps and name not in both:
            only_theirs[name] = _as_held(PageAgreement(name, review))  # what W finds open on it now
        was = next((p for p in found.pages if p.page == name), None)
        compared = review if name in both else None  # a page they did not label has no review to hold
        if (was is not None) == (compared is not None) and (was is None or compared is None or _figures(
                was.review.score) == _figures(compared.score)):
            if was_only_theirs is not None or name in only_theirs:  # the line about those pages, as it now is
                self._after_comparing(other, [found])
            return
        pages = [p for p in found.pages if p.page != name] + ([_as_held(PageAgreement(name, compared))]
                                                              if compared is not None else [])
        self._after_comparing(other, [replace(
            found, pages=tuple(sorted(pages, key=lambda p: natural_key(p.page))),
            only_a_pages=tuple(sorted(self._their_pages - labelled, key=natural_key)),
            only_b_pages=tuple(sorted(labelled - self._their_pages, key=natural_key)))])

    def show_run_figures(self, labelled: Labelled | None = None) -> None:
        """The run's means and worst pages as stored, and how many pages changed since (Score again)."""
        runs = self.window.project.runs
        run = self._run_info()
        scores = runs.scores(self.run_id) if run else []
        stale = runs.stale_pages(self.run_id) if run else []
        self._show_run(run, scores, stale, labelled or self._labelled_once())

    def _show_run(self, run: RunInfo | None, scores: Sequence[StoredScore], stale: Sequence[str],
                  labelled: Labelled) -> None:
        """The run's means as stored, said out of date when they are: pages changed since (`stale`), and the
        labelled pages they leave out, labelled since it was scored, told from those it scored as empty
        predictions. The run shown is the run as seen (`_follow_runs`): its figures are this window's doing."""
        if run is None:
            self.panel.show_run(None, [])
            return
        if self._runs_seen is not None:
            self._runs_seen[run.id] = run
        why = self.window.project.runs.why_stale(run.id, names=False) if stale else ""
        unscored = labelled() - {score.page for score in scores} if run.scored_pages else frozenset()
        holes = unscored - self._pages_of(run)  # no records, no failure: left out of the means
        if run.failed_pages and unscored:
            read = self._predictions.get(run.id)
            failures = read.errors if read is not None else self.window.project.runs.errors(run.id)
            holes |= unscored & failures.keys()
        self.panel.show_run(run, worst_pages(scores, WORST_SHOWN), stale=len(stale), scores=scores,
                            missing=self._missing(run, labelled), why_stale=why, unscored=len(unscored),
                            holes_unscored=len(holes))

    def on_review_record(self, index: int) -> None:
        self._placing = None  # a row chosen meanwhile: the page goes to it, not to the first mistake after it
        if self.review and 0 <= index < len(self.review.records) and self.review.records[index].xpaths:
            self.window.page_view.scroll_to(self.review.records[index].xpaths[0])

    def choice(self) -> ReviewChoice | None:
        """The review rows chosen now, by their records; None out of review or with no page under it."""
        review, page = self.review, self.window.page_name
        if not self.active() or review is None or page is None:
            return None
        current = self.panel.current_index()
        return ReviewChoice(page, tuple(review.records[i] for i in self.panel.chosen_indices()),
                            None if current is None else review.records[current])

    def choose(self, choice: ReviewChoice) -> None:
        """Choose again the rows of a choice (`choice`) whose records the page's review holds (as it is shown now):
        those alone, the current row the choice's if it is there."""
        review, records = self.review, self.panel.records
        if not self.active() or review is None or choice.page != self.window.page_name:
            return
        rows = [row for row in range(records.count())
                if review.records[int(records.item(row).data(DATA_ROLE))] in choice.chosen]
        current = next((row for row in range(records.count())
                        if review.records[int(records.item(row).data(DATA_ROLE))] == choice.current), None)
        if not rows and current is None:
            return  # none of them is there any more: the rows chosen stay
        records.clearSelection()
        if current is not None:
            records.setCurrentRow(current, QItemSelectionModel.SelectionFlag.NoUpdate)
        for row in rows:
            records.item(row).setSelected(True)

    # -- adjudication: another annotator's record into the project's labels -------------------------------

    def do_take(self) -> None:
        self._adjudicate(merge=False)

    def do_take_merged(self) -> None:
        self._adjudicate(merge=True)

    def _chosen_for_a_decision(self) -> tuple[str, PageReview, str, list[int], list[Label], frozenset[Kept]] | None:
        """The annotator under review, the page's review, the page, the chosen rows, the page's records and the
        decisions kept with the annotator as the review showed them, when a decision can be taken on them now (said
        when not: no row chosen, or their labels or the keeps changed since the review showed them). The records
        are read before the look at the labels the review was made of: a decision is built on them (the review's
        rows name the project's records by their places), and one changed by another writer after that look is
        refused inside the decision's write (`judge_as_shown`), not decided on whatever record then stands in its
        place; so is a decision on a disagreement kept (or its keep taken back) after that look."""
        choose_one = "choose a record in the Review list first"
        on_show = self._page_under_adjudication(choose_one)
        if on_show is None:
            return None
        name, review, page = on_show
        chosen = [i for i in self.panel.chosen_indices() if 0 <= i < len(review.records)]
        if not chosen:
            self.window.message(choose_one)
            return None
        labels = self.window.project.labels(page)
        if self._changed_underneath(name, page):
            return None
        assert self._shown is not None  # as the look found it
        return name, review, page, chosen, labels, self._shown.kept

    def _page_under_adjudication(self, no_page: str) -> tuple[str, PageReview, str] | None:
        """The annotator whose records a decision takes, the page's review and the page; None when there is no
        such review (what to do said, `no_page` when no page is open)."""
        name = self._adjudicating()
        if name is None:
            return None
        review, page = self.review, self.window.page_name
        if review is None and page is not None and self._not_compared(name, page):
            return None
        if review is None or page is None:
            self.window.message(no_page)
            return None
        return name, review, page

    def _not_compared(self, name: str, page: str) -> bool:
        """Whether the page on show is one the annotator did not label (said, and nothing decided): their labels
        imported for it meanwhile, the review is made again from them instead (`_changed_underneath`)."""
        shown = self._shown
        if shown is None or shown.page != page or shown.their is not None:
            return False
        if not self._changed_underneath(name, page):
            self.window.message(f"page {page}: {name} did not label this page, so it is not compared: nothing to "
                                f"decide here (T, Shift+T and O take nothing; {name} left out no record of it)",
                                15000)
        return True

    def _say_taken(self, said: str, taken: Sequence[int], undo: bool, row: int) -> None:
        """What a decision did, and what the records it took or changed (`taken`) now overlap, with how to undo it
        when it did several things or nests records (`undo`: always); the row to choose next."""
        window, overlaps = self.window, self._overlap_words(taken)
        how_to_undo = f" ({window.keys_for('undo')} takes it back)" if overlaps or undo else ""
        window.message(said + overlaps + how_to_undo + self._next_open_row(row), 10000)

    def _next_open_row(self, row: int) -> str:
        """After a decision: the next open disagreement's row chosen (from `row` on) and the page scrolled to its
        record; none left on the page, no row, and what to say of that ("" when one was chosen)."""
        name, page = self.annotator(), self.window.page_name
        if self._choose_an_open_row(row) or name is None or page is None:
            return ""
        return ";" + self._none_left_words(name, page).removeprefix(":")

    def _adjudicate(self, merge: bool) -> None:
        """The chosen review records (one, or several selected), each decided for the other annotator (T) or as
        the union of both (Shift+T), in one undoable step.

        Their record only: added to the project's labels (origin: that annotator; by: the person adjudicating).
        Both have one (matched, partial): the project's record takes their XPaths, or both sets' XPaths (none that
        another of them holds). The project's record only: T deletes it (the other annotator made none there).
        Where Shift+T's merge is the project's record as it is (theirs inside it, or they made none), the project's
        version is kept as O keeps it, the decision stored. Every decision is taken on the annotator's labels as
        the project holds them at that moment, on the project's records as read then (a change of one since is
        refused inside the write), and is in the page's history."""
        window = self.window
        decidable = self._chosen_for_a_decision()
        if decidable is None:
            return
        name, review, page, chosen, labels, kept = decidable
        truth = [label for label in labels if label.is_true]
        records = [review.records[i] for i in chosen]
        rejected_as, proposed_as = _rejected_by(labels), _proposed_by(labels, window.page_texts().keys)
        decisions = [self._decision(r, truth, name, merge, rejected_as, proposed_as, kept) for r in records]
        decisions, held = self._not_held(page, decisions)
        decisions, covered = self._not_covered(page, decisions)  # as take-all leaves them out, and in its words
        left_out = "; ".join(([self._held_words(name, held)] if held else [])
                             + ([f"left out {words}"] if (words := covered.words()) else []))
        if not decisions:
            window.message(f"page {page}: {left_out}: nothing taken")
            return
        row, before = self.panel.records.currentRow(), {label.id for label in window.labels}
        if len(decisions) == 1:
            text = self._decision_text(decisions[0], name, merge)
            named = self._numbered(decisions[0], text)
            change = window.record_actions.edit(text, decisions[0].change, said=named)
            done = None if change is None else int(change.id is not None)
        else:
            text = named = f"merge {name}'s versions into the project's" if merge else f"take {name}'s versions"
            done = window.edit_each(text, range(len(decisions)), lambda k: decisions[k].change())
        window.reload_labels()
        if done is None:  # refused: the store's reason is on show
            return
        if not done:
            window.message(f"page {page}: already so")
            return
        said = (f"page {page}: {named}{self._overridden_words(decisions)}" if len(decisions) == 1 else
                f"page {page}: {'merged' if merge else 'took'} {name}'s version of "
                f"{counted(len(decisions), 'record')} ({self._what_decisions_did(decisions)}) as one step"
                f"{self._overridden_words(decisions)}")
        if left_out:
            said += f"; {left_out}: not taken again"
        # The records added, and those a decision made their record in place (edited, or accepted)
        touched = [label.id for label in window.labels if label.id not in before] + [
            d.record_id for d in decisions if d.kind != "take" and d.makes and d.record_id is not None]
        self._say_taken(said, touched, len(decisions) > 1, row)

    def do_take_all(self) -> None:
        """Every record of the annotator's that the project lacks on the page (the review's spurious ones), taken
        in one step: on a page only they labelled, all their records. Those the page holds as proposals (the same
        XPaths, or a proposal covering their text) are taken as T takes them: the proposal accepted."""
        window = self.window
        on_show = self._page_under_adjudication("open a page to take records from")
        if on_show is None:
            return
        name, review, page = on_show
        if self._changed_underneath(name, page):
            return
        assert self._shown is not None  # as the look found it
        kept = self._shown.kept
        # On the page's labels as they are now, as the decision is taken
        take = self._to_take(review, page, window.project.labels(page), window.page_texts().keys)
        left = take.left_out.words()
        if not take.count:
            window.message(f"page {page}: nothing left to take of {name}'s records the project lacks: {left}" if left
                           else f"page {page}: the project has a record for every one {name} made: nothing to take")
            return
        project, person, before = window.project, window.person, {label.id for label in window.labels}
        text = f"take all of {name}'s records the project lacks"
        # Judged inside the write as the review showed the page: none of them made a record since (in any status),
        # nor kept (O) since, and the proposals it accepts still as they were
        change = window.edit(text, lambda: judge_as_shown(
            project, list(take.accepts), lambda ids, by: self._take_all(page, name, ids, take.adds, by, text),
            person, page=page, adds=take.adds, decides=take.decides(name), kept=kept,
            makes=[proposal.xpaths for proposal in take.accepts]))
        window.reload_labels()
        if change is None:
            return
        touched = [label.id for label in window.labels if label.id not in before] + [
            proposal.id for proposal in take.accepts]
        how = take.accepting()
        what = (f"page {page}: took {name}'s only record the project lacked" if take.count == 1 else
                f"page {page}: took all {take.count} of {name}'s records the project lacked, as one step")
        what += f", {how}" if how else ""
        self._say_taken(what + (f"; left out {left}" if left else ""), touched, True, 0)

    def _take_all(self, page: str, name: str, accepts: Sequence[int], adds: Records, by: Provenance, step: str
                  ) -> Change:
        """The proposals `accepts` accepted as the annotator's records and their records `adds` added, as one step
        of work (the history shows one)."""
        project = self.window.project
        changes: list[Change] = []
        # Several changes: one step in the history, as one undo step (an add alone is one change, left as it was)
        with project.one_step(step) if accepts else contextlib.nullcontext():
            changes += [project.accept(record_id, by, adjudicated=name) for record_id in accepts]
            if adds:
                changes.append(project.add_records(page, adds, Provenance.person(name), status="accepted", by=by,
                                                   adjudicated=name))
        return changes[-1]

    def _to_take(self, review: PageReview, page: str, labels: Sequence[Label], keys: TextKeyIndex | None) -> _Take:
        """What the take-all button takes: the annotator's records the project lacks on the page (the review's
        spurious ones), weighed against the page's records `labels` in any status as Propose weighs its proposals
        (`Project.weigh_proposals`, on the page's text `keys`), and what it leaves out (`_LeftOut`). A record the
        page holds only as a proposal (the same XPaths, or a proposal covering its text) is that proposal accepted,
        as T accepts it (`_proposed_by`). A record the project rejected (the same XPaths) is left to T, which
        accepts it naming the rejection: a rejection is a decision that one step over the whole page does not undo
        unseen; nor does it by taking a record of the same text under other XPaths, left out as covered."""
        spurious = [i for i, record in enumerate(review.records) if record.kind == SPURIOUS]
        open_ = [list(review.records[i].xpaths) for i in spurious if i not in self.panel.kept]
        rejected_as, proposed_as = _rejected_by(labels), _proposed_by(labels, keys)
        rejected = {record_key(record) for record in open_ if rejected_as(record)}
        accepts: dict[int, tuple[Label, list[str]]] = {}  # a proposal's id -> it, and their record it is accepted as
        rest: Records = []
        for record in open_:
            if record_key(record) in rejected:
                continue
            proposal = proposed_as(record)
            if proposal is None:
                rest.append(record)
            elif proposal.id not in accepts:  # else their record repeats one of theirs already taken so
                accepts[proposal.id] = (proposal, record)
        weighed = self.window.project.weigh_proposals(page, rest, keys)
        true_keys = {record_key(label.xpaths) for label in labels if label.status in TRUE_LABEL_STATUSES}
        proposed_keys = {record_key(label.xpaths) for label in labels if label.status == "proposed"} - true_keys
        held = sum(1 for record in rest if record_key(record) in true_keys)
        # A proposal's very XPaths not accepted (`_proposed_by`: a true or rejected record covers its text too, so
        # only with the page's text read): as T leaves it, covered
        unaccepted = [record for record in rest if record_key(record) in proposed_keys]
        numbers = {label.id: k + 1 for k, label in enumerate(self.window.labels)}
        covering = {numbers[label.id] for by in weighed.covered_by for label in by if label.id in numbers}
        covering.update(n for record in unaccepted if keys is not None for n in self._numbers_holding(record, keys))
        covered = len(weighed.covered_by) + len(unaccepted)
        repeated = len(open_) - len(rejected) - len(accepts) - len(weighed.new) - held - covered
        proposals = [proposal for proposal, _ in accepts.values()]
        return _Take(weighed.new, tuple(proposals), [record for _, record in accepts.values()],
                     tuple(sorted(numbers[p.id] for p in proposals if p.id in numbers)),
                     _LeftOut(len(spurious) - len(open_), held, covered, tuple(sorted(covering)), repeated,
                              len(rejected)))

    def do_keep_project(self) -> None:
        """O: the chosen disagreements (one row, or several selected) decided for the project's version, in one
        undoable step. No label changes, nor the figures: the decision is in the page's history, and the review
        lists the disagreement apart as kept, no longer open, until either record changes."""
        window = self.window
        decidable = self._chosen_for_a_decision()
        if decidable is None:
            return
        name, review, page, chosen, _, kept = decidable
        decisions = [d for i in chosen if i not in self.panel.kept and (
            d := disagreement(review.records[i], name)) is not None]
        if not decisions:
            which = "record is" if len(chosen) == 1 else "records are"
            window.message(f"page {page}: nothing to keep: the chosen {which} no open disagreement with {name} "
                           "(matched, or kept already)")
            return
        project, person, row = window.project, window.person, self.panel.records.currentRow()
        done = window.edit_each(words.keep(name), range(len(decisions)), lambda k: judge_as_shown(
            project, [], lambda _, by: project.adjudication.keep(page, name, decisions[k].theirs, decisions[k].ours,
                                                                 by),
            person, page=page, decides=[decisions[k]], kept=kept))
        window.reload_labels()
        if done is None:  # refused: the store's reason is on show
            return
        window.message(f"page {page}: kept the project's version of {counted(len(decisions), 'disagreement')} with "
                       f"{name}; no label changed ({window.keys_for('undo')} takes it back){self._next_open_row(row)}",
                       10000)

    def _adjudicating(self) -> str | None:
        """The annotator whose records a decision takes; None (and what to do said) outside such a review."""
        name = self.annotator()
        if name is None or not self.active():
            self.window.message("adjudication takes another annotator's records: choose the annotator in the Review "
                                "tab (F6)")
            return None
        return name

    def _decision(self, record: ReviewRecord, truth: Sequence[Label], name: str, merge: bool,
                  rejected_as: RejectedAs, proposed_as: ProposedAs, kept: frozenset[Kept]) -> _Decision:
        """What T (or Shift+T, `merge`) does with one review record. A decision that changes the project's records
        is made on them as read (`truth`, `rejected_as`, `proposed_as`), and on the record's disagreement as the
        review showed it (kept or open, `kept`): refused where another writer changed one since, or made the record
        it adds or makes a record of the page (which it would list twice). Their record the page holds only as a
        proposal is that proposal accepted: the row is then decided, as O decides it the other way."""
        project, page = self.window.project, self.window.page_name
        assert page is not None
        as_read = functools.partial(self._as_read, page=page, decides=disagreement(record, name), kept=kept)
        rejected = rejected_as(record.xpaths) if record.kind == SPURIOUS else ()
        if rejected:
            return _Decision("accept", as_read(rejected, lambda ids, by: self._accept_rejected(ids, name, by),
                                               makes=[record.xpaths]),
                             rejected[0].id, makes=record.xpaths, copies=len(rejected) - 1)
        proposal = proposed_as(record.xpaths) if record.kind == SPURIOUS else None
        if proposal is not None:
            return _Decision("accept proposed", as_read(proposal, lambda i, by: project.accept(
                i, by, adjudicated=name), makes=[proposal.xpaths]), proposal.id, makes=proposal.xpaths)
        if record.kind == SPURIOUS:
            return _Decision("take", as_read([], lambda _, by: project.add_record(
                page, record.xpaths, Provenance.person(name), status="accepted", by=by, adjudicated=name),
                adds=[record.xpaths]), makes=record.xpaths)
        label = truth[record.true or 0]
        if record.kind == MISSED and not merge:
            return _Decision("delete", as_read(label, lambda i, by: project.delete(i, by, adjudicated=name)),
                             label.id)
        xpaths = project.adjudication.merged(label.xpaths, record.xpaths) if record.kind != MISSED and merge else (
            list(record.xpaths))
        decided = disagreement(record, name) if merge else None
        if decided is not None and (record.kind == MISSED or record_key(xpaths) == record_key(label.xpaths)):
            # The merge is the project's record as it stands: kept as O keeps it, the decision stored and the row
            # listed as kept (nothing to change, and the disagreement no longer open)
            why = f" ({name} made none here)" if record.kind == MISSED else (
                f" (it holds all of {name}'s record already)")
            return _Decision("keep", as_read([], lambda _, by: project.adjudication.keep(
                page, name, decided.theirs, decided.ours, by)), label.id, why=why)
        if decided is not None:  # the pair the merge leaves (their record a small part of it: partial) decided with it
            return _Decision("edit", as_read(label, lambda _, by: project.adjudication.merge(
                page, label, name, record.xpaths, by), makes=[xpaths]), label.id, xpaths)
        # T, or Shift+T on a matched pair (no disagreement to decide: the merge is an edit alone)
        return _Decision("edit", as_read(label, lambda i, by: project.edit(i, xpaths, by, adjudicated=name),
                                         makes=[xpaths]), label.id, xpaths)

    def _as_read(self, read: Label | Sequence[Label], change: Callable[[Any, Provenance], Change], *, page: str,
                 decides: Kept | None, kept: frozenset[Kept], adds: Sequence[Sequence[str]] = (),
                 makes: Sequence[Sequence[str]] = ()) -> Callable[[], Change]:
        """`change` of the project's record (or records) as the decision read them, on the disagreement it
        `decides` as the review showed it (in `kept`, or open), when it is made: refused inside its write where
        another window or the command line changed one of them since, kept that disagreement or took its keep
        back, or made a record it `adds`, or one it `makes` of the record read, a record of the page
        (`judge_as_shown`)."""
        project, person = self.window.project, self.window.person
        decided = [decides] if decides is not None else []
        return lambda: judge_as_shown(project, read, change, person, page=page, adds=adds, decides=decided,
                                      kept=kept, makes=makes)

    def _accept_rejected(self, rejected: Sequence[int], name: str, by: Provenance) -> Change:
        """The project's first rejected copy of the annotator's record accepted where it is, and its other rejected
        copies (the same record rejected again: proposed twice) deleted, in one step: left rejected, they would
        say "not a record" of the record the page now holds as true. The deletes are the person's own, not
        decisions against `name` (a re-import does not count them as taken)."""
        project = self.window.project
        with project.one_step(words.accept_rejected(name)):
            change = project.accept(rejected[0], by, adjudicated=name)
            for copy in rejected[1:]:
                change = project.delete(copy, by)
        return change

    def _not_held(self, page: str, decisions: Sequence[_Decision]) -> tuple[list[_Decision], list[int | None]]:
        """The decisions that would not list a record twice, and the numbers of the project's records the others'
        records are already (None: a record another chosen decision makes too): a record the project has (XPaths
        as the scorer normalises them) is never taken again, by T, Shift+T or the take-all button. One the window
        does not list yet (made elsewhere since it read the page) is left to the decision's write, which refuses
        it as made elsewhere since (`judge_as_shown`: the record it adds or makes is a record of the page), in the
        words of any stale action, rather than called chosen twice."""
        window = self.window
        held_as = window.project.adjudication.held_by(page)
        numbers = {label.id: k + 1 for k, label in enumerate(window.labels)}
        fresh: list[_Decision] = []
        made: set[frozenset[str]] = set()  # the records the fresh decisions make (`record_key`)
        held: list[int | None] = []
        for decision in decisions:
            label = held_as(decision.makes, decision.record_id) if decision.makes else None
            if label is None and decision.kind == "edit" and decision.makes:
                # The record it would change holds their XPaths already (T on a matched row of the same record): the
                # edit would change nothing, and the record is theirs already, as any held one
                label = held_as(decision.makes, None)
            if label is not None and label.id not in numbers:
                fresh.append(decision)  # made elsewhere since the page was shown: its write refuses it, and says so
            elif label is not None:
                held.append(numbers.get(label.id))
            elif decision.makes and record_key(decision.makes) in made:
                held.append(None)
            else:
                fresh.append(decision)
                if decision.makes:
                    made.add(record_key(decision.makes))
        return fresh, held

    def _not_covered(self, page: str, decisions: Sequence[_Decision]) -> tuple[list[_Decision], _LeftOut]:
        """The decisions but those that would add a record whose text the page's records cover already, in any
        status, under other XPaths, or whose text another of them adds: weighed as Propose and the take-all button
        weigh (`Project.weigh_proposals`), so that T on one row never takes a record the page holds under other
        XPaths (a pair `labels check` calls duplicates), nor overturns unseen a rejection of the same text. What
        they leave out is said in take-all's words (`_LeftOut`). A record the page holds with the same XPaths, made
        elsewhere since the window read the page, is left to the decision's write, which refuses it (`_not_held`)."""
        takes = [decision.makes for decision in decisions if decision.kind == "take"]
        keys, project = self.window.page_texts().keys, self.window.project
        if not takes or keys is None:
            return list(decisions), _LeftOut(kept=0, held=0, covered=0, covering=(), repeated=0, rejected=0)
        new = {record_key(record) for record in project.weigh_proposals(page, takes, keys).new}
        numbers = {label.id: k + 1 for k, label in enumerate(self.window.labels)}
        fresh: list[_Decision] = []
        covering: set[int] = set()
        covered = repeated = 0
        for decision in decisions:
            if decision.kind != "take" or record_key(decision.makes) in new:
                fresh.append(decision)
            elif (alone := project.weigh_proposals(page, [decision.makes], keys)).covered_by:
                covered += 1
                covering.update(numbers[label.id] for label in alone.covered_by[0] if label.id in numbers)
            elif alone.new:
                repeated += 1  # new to the page, but the text of another decision of the step
            elif shown := self._numbers_holding(decision.makes, keys):
                # The page holds it (a proposal whose text a true or rejected record covers too, which T does not
                # accept, `_proposed_by`) as the window shows it: covered, not made elsewhere since
                covered += 1
                covering.update(shown)
            else:
                fresh.append(decision)  # the same XPaths, made elsewhere since: its write refuses it
        return fresh, _LeftOut(kept=0, held=0, covered=covered, covering=tuple(sorted(covering)), repeated=repeated,
                               rejected=0)

    def _numbers_holding(self, xpaths: Sequence[str], keys: TextKeyIndex) -> list[int]:
        """The numbers of the page's records, as the window shows them, that are the record `xpaths` (the same
        XPaths as the scorer normalises them) or cover its text."""
        key, text = record_key(xpaths), keys.expand(xpaths)
        return [k + 1 for k, label in enumerate(self.window.labels)
                if record_key(label.xpaths) == key or (text and keys.expand(label.xpaths) == text)]

    @staticmethod
    def _held_words(name: str, held: Sequence[int | None]) -> str:
        """"cyd's record is already in the project as record 8" (or several, some made twice by the step)."""
        numbers = sorted(n for n in held if n is not None)
        twice = len(held) - len(numbers)
        if len(held) == 1:
            return (f"{name}'s record is already in the project as record {numbers[0]}" if numbers else
                    f"{name}'s record is chosen twice")
        parts = [f"{counted(len(numbers), 'record')} of {name}'s already in the project ({records_named(numbers)})"
                 ] if numbers else []
        parts += [f"{counted(twice, 'record')} chosen twice"] if twice else []
        return " and ".join(parts)

    def _overridden_words(self, decisions: Sequence[_Decision]) -> str:
        """": record 3, now accepted (overrides the project's rejection)" for the records a decision accepted ("" when
        it accepted none), and how many other rejected copies of them went with it."""
        window = self.window
        numbers = sorted(window.labels.index(label) + 1 for d in decisions if d.kind == "accept" and d.record_id
                         is not None and (label := window.label(d.record_id)) is not None)
        if not numbers:
            return ""
        copies = sum(d.copies for d in decisions if d.kind == "accept")
        deleted = (f"; {counted(copies, 'other rejected copy', 'other rejected copies')} of "
                   f"{'it' if len(numbers) == 1 else 'them'} deleted") if copies else ""
        if len(decisions) == 1:
            return f": record {numbers[0]}, now accepted (overrides the project's rejection){deleted}"
        return (f"; {records_named(numbers)} had been rejected in the project: now accepted (overrides the "
                f"rejection){deleted}")

    @staticmethod
    def _decision_text(decision: _Decision, name: str, merge: bool) -> str:
        if decision.kind == "accept":
            return words.accept_rejected(name)
        if decision.kind == "accept proposed":
            return words.accept_proposed(name)
        if decision.kind == "take":
            return words.take(name)
        if decision.kind == "keep":
            return f"{words.keep(name)}{decision.why}"
        if decision.kind == "delete":
            return words.delete(name)
        return words.merge(name) if merge else words.take_version(name)

    def _numbered(self, decision: _Decision, text: str) -> str:
        """The decision as the status bar and undo say it: a deletion with the number the record had ("delete the
        record bea did not make (record 4)"), which undo gives it again, and a proposal accepted with its number
        (their record is another's XPaths, or a row of another class, in the Records tab); the history names the
        record in its own column."""
        numbered = decision.kind in ("delete", "accept proposed")
        label = self.window.label(decision.record_id) if numbered and decision.record_id else None
        return f"{text} (record {self.window.labels.index(label) + 1})" if label is not None else text

    @staticmethod
    def _what_decisions_did(decisions: Sequence[_Decision]) -> str:
        """"2 added, 1 deleted, 1 changed" (the parts that happened; a rejected record or a proposal accepted, as
        accepted)."""
        words = {"added": ("take",), "accepted": ("accept", "accept proposed"), "deleted": ("delete",),
                 "changed": ("edit",), "kept": ("keep",)}
        return ", ".join(f"{n} {word}" for word, kinds in words.items()
                         if (n := sum(1 for d in decisions if d.kind in kinds)))

    def _changed_underneath(self, name: str, page: str) -> bool:
        """Whether the annotator's labels of the page (or the project's, or the decisions kept with them on it) are
        no longer those the review on show was made of: imported again from the command line, or changed (or kept,
        O) in another window. Then nothing is taken, the review is made again from the labels as they are, and that
        is said."""
        shown = self._shown
        self._read_their_stamps(name)
        their, truth, kept = self._held_now(name, page)
        if shown is not None and shown.page == page and (shown.their, shown.truth, shown.kept) == (their, truth, kept):
            return False
        if shown is not None and shown.page == page and (shown.their, shown.truth) == (their, truth):
            # A keep (O) changes no label: made (or taken back) elsewhere, only the decisions tell
            why = (f"what was kept (O) on page {page} changed since the review showed it (another window, or the "
                   "command line)")
        elif shown is not None and shown.page == page and shown.their == their:
            why = (f"the project's labels of page {page} changed since the review showed them (another window, or "
                   "the command line)")
        elif their is None:
            why = f"{name} no longer has labels of page {page} (imported again?)"
        else:
            why = f"{name}'s labels of page {page} changed since the review showed them (imported again?)"
        self.window.reload_labels()  # the review made again from the labels as they now are
        self.window.message(f"{why}: nothing taken. The review now shows them as they are: choose again", 15000)
        return True

    def _overlap_words(self, ids: Sequence[int]) -> str:
        """What the records just taken now share with, lie inside or hold of the page's other records, as a click
        that does so says it (labels check flags nested records); "" when they touch none."""
        window = self.window
        parts = []
        for record_id in ids:
            label = window.label(record_id)
            if label is None or label.status == REJECTED:
                continue
            number = window.labels.index(label) + 1
            found, inside_all = _Overlaps(), bool(label.xpaths)
            for xpath in label.xpaths:
                at = window.records_at(xpath)
                found.shared.update(at.holders)
                found.inside.update(at.around)
                found.holds.update(at.within)
                inside_all = inside_all and any(n != number for n in at.around)
            words = self._overlap_parts(found, number, inside_all)
            if words:
                parts.append(f"record {number} {' and '.join(words)}")
        if not parts:
            return ""
        return f". Now {'; '.join(parts)}: labels check flags records nested in others"

    @staticmethod
    def _overlap_parts(found: _Overlaps, number: int, inside_all: bool) -> list[str]:
        shared, inside, holds = (sorted(n for n in numbers if n != number)
                                 for numbers in (found.shared, found.inside, found.holds))
        words = [f"shares an element with {records_named(shared)}"] if shared else []
        if inside:
            words.append(f"{'lies' if inside_all else 'has an element'} inside {records_named(inside)}")
        if holds:
            words.append(f"holds {records_named(holds)}")
        return words

    def walk(self) -> ReviewWalk | None:
        """Where W's walk stands (None: W opened no page since its run was chosen): what a restart goes on with, as
        the page on show is kept."""
        if not self._worst_order or self.run_id == NO_RUN or not isinstance(self.run_id, int | str):
            return None
        return ReviewWalk(self.run_id, tuple(self._worst_order), self._worst_at)

    def take_up_walk(self, walk: ReviewWalk) -> None:
        """W going on with `walk` (of the run under review): its next W opens the page after `walk.at`."""
        self._worst_order, self._worst_at = list(walk.order), walk.at

    def do_worst_page(self) -> None:
        window = self.window
        if self.run_id == NO_RUN:
            window.message("choose a run in the Review tab first (F6)")
            return
        other = self.annotator()
        if other is not None and other not in self.agreements:
            window.message(self._failed.get(other) or f"still comparing {other} with the project's labels", 15000)
            return
        scores = self.agreements[other].pages if other is not None else window.project.runs.scores(self.run_id)
        ranked = (self._open_pages(other, window.project.adjudication.kept_pages(other)) if other is not None
                  else [name for name, _ in worst_pages(scores)])
        if not ranked and other is not None:  # compared as it was chosen: there is nothing of a run's to score
            window.message(self._nothing_open_words(other), 15000)
            return
        if not ranked:
            window.message(f"this run is not scored yet: W goes through its pages from the worst once it is "
                           f"({SCORE}, in the Review tab)")
            return
        # The worst page first, in the order of that moment; then on through that order, which a fix made on the
        # way (the page's F1 rising) does not reshuffle under the reviewer. A look elsewhere (PgDn to the page
        # after) does not lose the place: W goes on after the last page it opened. Another run starts again.
        round_again = False
        if not self._worst_order:
            self._worst_order, self._worst_at = ranked, 0
        elif set(ranked) != set(self._worst_order):  # an O or its undo (here or elsewhere) changed what W walks
            self._worst_order, self._worst_at = self._walk_again(ranked)
        else:
            self._worst_at = (self._worst_at + 1) % len(self._worst_order)
            round_again = self._worst_at == 0
        # T, Shift+T and O then decide the first open disagreement at once, as after a decision
        target = self._worst_order[self._worst_at]
        self._choose_first_open = target if other is not None else None
        # A run's page says, once shown, where it stands in the walk and what the run got wrong on it
        self._w_opened_of_run = None if other is not None else (
            target, self._walk_words(dict(worst_pages(scores)).get(target), round_again))
        self._rows_restored = None  # the page W opens is placed as W places it
        window.jump_to_page(target)

    def _walk_words(self, f1: float | None, round_again: bool) -> str:
        """Where W's page stands in the walk through a run's scored pages: "the run's worst of 4 scored pages
        (F1 0.250)", "number 2 from the worst of 4 scored pages (F1 0.500)"; back at the worst after the last, that
        W went through them all and starts again."""
        place = "the run's worst" if self._worst_at == 0 else f"number {self._worst_at + 1} from the worst"
        figure = f" (F1 {f1:.3f})" if f1 is not None else ""
        again = ": W went through them all and starts again" if round_again else ""
        return f"{place} of {counted(len(self._worst_order), 'scored page')}{figure}{again}"

    def _open_pages(self, other: str, kept: dict[str, frozenset[Kept]]) -> list[str]:
        """The annotator's pages that hold a disagreement left to decide (`kept`: their decisions, page by page):
        those W goes through (it passes by the others). The pages compared first, the least agreeing first; then
        the pages only they labelled (in no mean), likewise: the records of theirs the project lacks there are
        theirs to take, whole, as much as those of a page compared."""
        theirs = sorted(self._only_theirs.get(other, {}).values(), key=lambda page: natural_key(page.page))
        pages = (*worst_pages(self.agreements[other].pages), *worst_pages(theirs))  # ties in page order
        return [name for name, _ in pages if not self._nothing_open(other, name, kept.get(name))]

    def _nothing_open_words(self, other: str) -> str:
        """What W says when no page holds an open disagreement with the annotator: that every page agrees, or how
        the disagreements were decided, each as it was (those T decided agree now; the others are kept)."""
        decided, only = self._decided_with(other), len(self._only_theirs.get(other, {}))
        if not self.agreements[other].pages:
            return self._nothing_open_on_theirs_words(other, only, decided)
        them = "it" if only == 1 else "them"
        theirs = (f", as {'does' if only == 1 else 'do'} the {counted(only, 'page')} only {other} labelled "
                  f"({NOT_MARKED.format(them)})" if only else "")
        if not any(page.disagreements for page in self.agreements[other].pages) and not decided:
            return (f"no disagreement with {other}: every page both labelled agrees{theirs}, so there is no page to "
                    "open")
        if not decided["taken"] and not decided["deleted"]:
            return (f"no open disagreement with {other} left: every page's disagreements with {other} are kept (the "
                    "project's version, with O or a merge) and the other pages agree: no page left to open")
        agree = ("the other pages agree" if decided["kept"] or decided["merged"] else
                 f"every page both labelled agrees now{theirs}")
        return (f"no open disagreement with {other} left: every disagreement with {other} is decided"
                f"{self._decided_words(other, decided)} and {agree}: no page left to open")

    def _nothing_open_on_theirs_words(self, other: str, only: int, decided: Counter[str]) -> str:
        """`_nothing_open_words` where no page is labelled by both: of the `only` pages only they labelled."""
        if not only:
            return f"no page to open: no page is labelled by both, and {other} labelled none of the project's pages"
        pages = f"{counted(only, 'page')} only {other} labelled ({NOT_MARKED.format('it' if only == 1 else 'them')})"
        if not decided:
            return (f"no disagreement with {other}: no page is labelled by both, and the project's records agree "
                    f"with theirs on the {pages}, so there is no page to open")
        return (f"no open disagreement with {other} left: no page is labelled by both, and on the {pages} every "
                f"disagreement is decided{self._decided_words(other, decided)}: no page left to open")

    def _walk_again(self, ranked: list[str]) -> tuple[list[str], int]:
        """W's order under way with the pages it now passes by taken out and those it no longer passes by put at
        its end (in `ranked`'s order), and the place of the next page to open: the first still walked after the
        last page W opened, as in the order before."""
        before, at = self._worst_order, self._worst_at
        walked = set(ranked)
        order = [name for name in before if name in walked] + [name for name in ranked if name not in set(before)]
        following = before[at + 1:] + before[:at + 1]  # from the page after the last opened round to it
        return order, order.index(next((name for name in following if name in walked), order[0]))

    def _nothing_open(self, other: str | None, page: str, kept: frozenset[Kept] | None) -> bool:
        """Whether the annotator's page holds no disagreement left to decide: none at all (they agree, whatever
        the overlaps of their pairs), or every one decided for the project's version (O, `kept`: the page's
        decisions). W then passes the page by, its figures as low as they were. Never so of a run's page."""
        if other is None:
            return False
        found = next((p for p in self.agreements[other].pages if p.page == page),
                     self._only_theirs.get(other, {}).get(page))
        return found is None or not open_disagreements(found, other, kept or ())

    def _compare_all(self, name: str, labelled: Labelled) -> None:
        """The annotator against the project's labels on every page both labelled, in the background: the means
        and the pages they agree least on (W goes through them), as `recordlens agreement` reports them; and the
        pages only they labelled classed apart, in no mean, which W goes through after them
        (`_classed_only_theirs`)."""
        if name in self._comparing:
            return
        window = self.window
        stamps = dict(self._read_their_stamps(name))
        basis = self._compared[name] = _Basis(labelled() & stamps.keys(), stamps)
        found: list[Agreement] = []
        theirs: list[PageAgreement] = []
        at: list[str] = []  # the page the work is on: a failure there is said with it

        def work(project: Project, job: BackgroundJob) -> None:
            def each(pages: Sequence[str]) -> Iterator[str]:
                for page in job.each(pages):
                    at[:] = [page]
                    yield page
                at.clear()  # past the pages: a failure after them is of none of them

            result = project_agreement(project, name, PROJECT_SET, progress=each)
            classed = _classed_only_theirs(project, name, result.only_a_pages, each)
            theirs[:], found[:] = classed, [result]  # both whole, or (cancelled part way) neither

        job = BackgroundJob(window.project.root, work)
        job.done.connect(lambda cancelled, failure: self._after_comparing_job(
            name, found, theirs, "" if cancelled else failure, at))
        if window.jobs.start(job, f"comparing {name} with the project's labels",
                             done=lambda: self._compared_words(name, found, theirs, self._kept_pages(name)),
                             cancelled=f"comparing {name} with the project's labels cancelled: choose {name} in the "
                                       "Review tab again to compare"):
            self._comparing.add(name)
            self._failed.pop(name, None)
        else:
            basis.stale = True  # made once the job running ends

    def _kept_pages(self, name: str) -> dict[str, frozenset[Kept]]:
        """The annotator's decisions in force, page by page (none when the project cannot be read now)."""
        try:
            return self.window.project.adjudication.kept_pages(name)
        except RecordLensError:
            return {}

    @staticmethod
    def _compared_words(name: str, found: list[Agreement], theirs: Collection[PageAgreement],
                        kept: dict[str, frozenset[Kept]]) -> str:
        """What the status bar says when a comparison ends: its means and how many pages disagree, not a bare
        "done". A page disagrees as `recordlens agreement` counts it (a record only one made, or a pair below the
        match overlap), decided or not; those still open to decide (not kept with O or a merge) are said apart.
        The pages only they labelled (`theirs`) are said after, with those W opens among them."""
        if not found:
            return f"compared {name}'s labels with the project's"
        result = found[0]
        only = f"; {words}" if (words := _only_theirs_words(name, theirs, kept)) else ""
        if not result.pages:
            return f"compared {name}'s labels with the project's: no page labelled by both{only}"
        disagree = [page for page in result.pages if page.disagreements]
        still = sum(1 for page in disagree if open_disagreements(page, name, kept.get(page.page, ())))
        return (f"compared {name}'s labels with the project's on {counted(len(result.pages), 'page')} both "
                f"labelled: P {result.precision:.3f}, R {result.recall:.3f}, F1 {result.f1:.3f}; "
                f"{_disagreeing_words(len(disagree), still)}{only}")

    def _compare_again(self, name: str, labelled: Labelled) -> None:
        """The means made again, now or (another job running) at a redraw after it ends."""
        if name in self._comparing:
            return
        if self.window.jobs.job is not None:
            if name in self._compared:
                self._compared[name].stale = True
            return
        self._compare_all(name, labelled)

    def _after_comparing_job(self, name: str, found: list[Agreement], theirs: Sequence[PageAgreement] = (),
                             failure: str = "", at: Sequence[str] = ()) -> None:
        self._comparing.discard(name)
        if self.window.closed:  # its end came after the window closed the project: nothing to show it on
            return
        if failure:
            self._comparison_failed(name, failure, at[0] if at else None)
            return
        found[:] = [replace(result, pages=tuple(_as_held(page) for page in result.pages)) for result in found]
        if found:
            self._only_theirs[name] = {page.page: page for page in theirs}
        self._after_comparing(name, found)
        page = self.window.page_name
        if found and self.active() and self.annotator() == name and page is not None:
            self._keep_figures_current(page, self._labelled_once())  # what changed on the page on show meanwhile

    def _comparison_failed(self, name: str, failure: str, page: str | None) -> None:
        """The annotator's comparison failed (`failure`: the job's words; `page`: the page it was on, when it was
        on one): said where its figures would be, by W, and in the status bar; the page on show is reviewed still
        (its own comparison is made apart), and choosing the annotator again compares again."""
        where = f" on page {page}" if page is not None else ""
        failed = f"comparing {name}'s labels with the project's failed{where}: {failure.removesuffix('.')}"
        again = f"choose {name} in the Review tab again to compare again"
        said = self._failed[name] = f"{failed}; {again}"
        if self.annotator() == name:
            if name in self.agreements:  # an earlier comparison's, shown: kept, said to be that
                lines = [self.panel.run_figures.text(), f"{failed}: the figures above are the last comparison's; "
                                                        f"{again}"]
            else:
                lines = [f"{name} = predicted, the project's labels = true; T takes their record, Shift+T merges, O "
                         "keeps the project's", failed,
                         f"no means nor worst pages until they are compared (the page on show is reviewed as it "
                         f"is): {again}"]
            self.panel.run_figures.setText("\n".join(lines))
        # After the job's own end ("failed: …", said as the job ends, after this), which does not say what failed
        QTimer.singleShot(0, self.panel, lambda: self._say_unless_closed(said))

    def _say_unless_closed(self, said: str) -> None:
        if not self.window.closed:
            self.window.message(said, 30000)

    def _after_comparing(self, name: str, found: list[Agreement]) -> None:
        if not found:
            return
        result = found[0]
        self.agreements[name] = result
        if self.annotator() != name:
            return
        worst = worst_pages(result.pages, WORST_SHOWN)
        self.panel.show_run(None, worst)
        figures = (f"mean of {len(result.pages)} page(s) both labelled: P {result.precision:.3f}   "
                   f"R {result.recall:.3f}   F1 {result.f1:.3f}" if result.pages else "no page labelled by both")
        only = _only_theirs_words(name, self._only_theirs.get(name, {}).values(), self._kept_pages(name))
        how = f"{name} = predicted, the project's labels = true; T takes their record, Shift+T merges, O keeps the " \
              "project's"
        self.panel.run_figures.setText("\n".join(line for line in (figures, only, how) if line))

    def score_run(self, run_id: int) -> None:
        from ...core.store import score_stored_run

        def work(project: Project, job: BackgroundJob) -> None:
            score_stored_run(project, run_id, job.each)

        root = self.window.project.root
        job = BackgroundJob(root, work)
        job.done.connect(lambda *_: self._after_scoring(run_id, root))
        self.window.jobs.start(job, f"scoring run {run_id}", done=lambda: self._scored_words(run_id))

    def _scored_words(self, run_id: int, where: str = "") -> str:
        """What the status bar says when a run is scored (`where`: " elsewhere (…)" by another process): its
        figures, not a bare "done"."""
        try:
            run = self.window.project.runs.get(run_id)
        except RecordLensError:
            return f"run {run_id} scored{where}"
        figures = (f"P {run.precision:.3f}, R {run.recall:.3f}, F1 {run.f1:.3f}" if run.f1 is not None
                   else "no figures")
        scored = f"run {run_id} was scored{where}" if where else f"run {run_id} scored"
        return f"{scored} on {counted(run.scored_pages, 'page')}: {figures}"

    def _after_scoring(self, run_id: int, root: Path) -> None:
        # Its end came after the window closed the project (a quit), or opened another (whose run `run_id` is
        # not): nothing to show it on
        if not self.window.shows_project(root):
            return
        labelled = self._labelled_once()
        self._set_runs(run_id, labelled)
        if run_id != self.run_id:
            self.on_run_chosen(run_id, labelled)
            return
        # Scoring changes the means and the worst pages, not the page: the reviewer's place on it stays
        self._worst_order = []  # W starts from the worst page of the new scores
        self._show(labelled)
