"""Score a run stored in a project against the project's labels, with NEXT-EVAL's metric, and keep the scores.

Ground truth is every page marked labelled or reviewed, with its accepted and edited records. A page of the
ground truth without a prediction in the run counts as an empty prediction, with a warning, as when scoring
folders. Both sides are expanded against the stored snapshot's text map, the one the labels were made on.
`labelled_pages` gives those pages with their records, for label hygiene and the ceiling the labels allow
(core/records/hygiene.py).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from ..command_hints import hint_path
from ..page.dom import Page
from ..page.snapshot import read_file_bytes
from ..records.model import TextKeyIndex
from ..records.score import DatasetScore, PageScore, score_page, score_without_prediction
from ..runs.evaluate import (
    PageNotRead,
    no_prediction_messages,
    page_or_why,
    refuse_figures_of_no_page,
    truth_naming_nothing,
    unscored_predictions_message,
    why_no_prediction,
)
from ..runs.run_files import (
    left_out_pages,
    made_on_other_pages,
    other_pages_message,
    ran_to_its_end,
    stored_run_description,
)
from ..wording import counted, listed
from .db import TRIES_WHILE_IT_CHANGES, StoreError, now
from .exporter import changed_since_import, saved_copies_missing
from .files import content_hash
from .project import Project
from .run_matching import stopped_on as stopped_on_pages
from .run_settings_check import refuse_a_stored_run_of_other_settings
from .runs import RunInfo, StoredScore
from .schema import TRUE_PAGE_STATUSES

Progress = Callable[[Sequence[str]], Iterable[str]]
Scored = tuple[DatasetScore, list[str], dict[str, str]]


def score_stored_run(project: Project, run_id: int, progress: Progress = lambda names: names, *,
                     leave_out_unread: bool = False) -> Scored:
    """Score run `run_id` page by page, store the per-page scores in the project; return them, warnings, and
    the scored pages the run holds no records for (page -> why: it failed on them, or never extracted them),
    which the scores count as empty predictions.

    A page whose saved copy is gone from `snapshots/` stops the score before anything is stored, named, as it
    stops an export (Review, whose means would be over fewer pages unsaid); with `leave_out_unread` (`recordlens
    score`, and `runs --compare`, which leaves it out of both runs), it is left out of the figures instead, by the
    rule of `score` and `bench` for a dataset's page (`evaluate.LEFT_OUT_UNREAD`), as is a copy that cannot be read
    (an empty file): in the scores' `not_read`, with why, the other pages scored and stored, any score stored of it
    kept as it was.

    A page whose stored score still holds (`_still_scored`) keeps it, unparsed: after labels changed on a few pages
    of a thousand, those few are scored again, with the figures a score of every page gives. A page the run predicts
    no record for is scored unparsed too (`_scored_as_it_is`), with the figures a parse gives. A page whose
    prediction was stored anew (by another process, or a job of the app) while it was scored (`_stored_anew`)
    keeps no score of the prediction as it was read: it is scored again from the run as it is then."""
    # a run of two settings' records scores as none (`runs --add` refuses its folder): refused before anything is
    # stored, for `score --project`, `runs --compare` and the app's Review alike (once: what a try stores anew is
    # stored by `runs --add` or Propose, with the run's own settings)
    refuse_a_stored_run_of_other_settings(project, project.runs.get(run_id), str(project.root))
    stored_anew: dict[str, None] = {}  # every page stored anew while it was scored, in the order found
    removed: dict[str, None] = {}  # every page taken out of the project while it was scored (`_PagesRemoved`)
    # Made again while another process keeps storing the run's predictions anew (`runs --add` of its folder gone
    # on, a Propose session going on): each time only the pages stored anew are scored again (the others' scores,
    # stored, are kept), and a page still stored anew at the last is left without a score, said. Made again too
    # when pages were removed meanwhile (`project remove-page` in another terminal): of the pages then left
    scored: tuple[Scored, list[str]] | None = None
    for _ in range(TRIES_WHILE_IT_CHANGES):
        try:
            scored = _score_once(project, run_id, progress, leave_out_unread)
        except _PagesRemoved as gone:
            removed |= dict.fromkeys(gone.pages)
            scored = None
            continue
        if not scored[1]:
            break
        stored_anew |= dict.fromkeys(scored[1])
    if scored is None:
        raise StoreError(f"{_removed_words(list(removed))}, at each of its {TRIES_WHILE_IT_CHANGES} tries: nothing "
                         "scored; score it again once the pages are removed")
    (result, warnings, left_out), moved = scored
    if stored_anew:  # the figures are of the run as it holds those pages now, or, for those still moving, not kept
        warnings.insert(0, _stored_anew_words(run_id, list(stored_anew), moved))
    if removed:
        warnings.insert(0, f"{_removed_words(list(removed))}: left out of its figures")
    return result, warnings, left_out


class _PagesRemoved(Exception):
    """Pages a score was reading were taken out of the project meanwhile (`project remove-page`, by another process):
    the score starts again, of the pages left, so that its figures are of one state of the project."""

    def __init__(self, pages: Sequence[str]) -> None:
        super().__init__(listed(pages))
        self.pages = list(pages)


def _removed_words(pages: Sequence[str]) -> str:
    return (f"{counted(len(pages), 'page')} ({listed(pages)}) {'was' if len(pages) == 1 else 'were'} removed from the "
            "project while it was scored (`project remove-page`, in another process)")


def _pages_gone(project: Project, pages: Iterable[str]) -> list[str]:
    """Of `pages`, those the project no longer holds."""
    return [name for name in pages if not project.has_page(name)]


def _stored_anew_words(run_id: int, stored_anew: Sequence[str], moving: Sequence[str]) -> str:
    """What a score says of the pages whose prediction was stored anew while it was scored: scored again as the run
    holds them now, but for those stored anew again at its last try (`moving`), whose scores are not kept."""
    said = (f"run {run_id}'s predictions of {counted(len(stored_anew), 'page')} ({listed(stored_anew)}) were stored "
            "anew while it was scored (`runs --add` of its folder, a Propose session going on)")
    if not moving:
        return f"{said}: scored again as the run holds them now"
    if len(moving) == 1:
        again = f"1 page ({moving[0]}) was stored anew again: its figures here are of the prediction as it was read"
    else:
        again = (f"{len(moving)} pages ({listed(moving)}) were stored anew again: their figures here are of the "
                 "predictions as they were read")
    return (f"{said}; at its last of {TRIES_WHILE_IT_CHANGES} tries {again}, and are not kept (the run reads stale "
            "until scored again)")


def _score_once(project: Project, run_id: int, progress: Progress, leave_out_unread: bool
                ) -> tuple[Scored, list[str]]:
    """`score_stored_run` once, and the pages whose prediction was stored anew while it ran, whose scores of
    what it read are not stored (`_stored_anew`); `_PagesRemoved` when pages it read were removed meanwhile, which
    fails whatever reads them next (the store's "no page named"), or leaves them out as if unread."""
    names = project.page_names()
    try:
        return _score_pages(project, run_id, progress, leave_out_unread)
    except StoreError:
        if gone := _pages_gone(project, names):
            raise _PagesRemoved(gone) from None
        raise


def _score_pages(project: Project, run_id: int, progress: Progress, leave_out_unread: bool
                 ) -> tuple[Scored, list[str]]:
    run = project.runs.get(run_id)
    # Before any label is read: an edit committed while this runs leaves its page stale
    started, changes_seen = now(), project.last_change_id() or 0
    truth_pages = _scored_pages(project)
    if not truth_pages:
        raise StoreError(f"the project {project.root} has no page marked labelled or reviewed to score against")
    if leave_out_unread:  # `LEFT_OUT_UNREAD`, as of a dataset's pages
        not_read = copies_not_read(project, truth_pages)
    else:
        _refuse_unreadable_copies(project, truth_pages)
        not_read = {}
    # the run's pages known by their records' digests, read a row at a time, each page's records read again as it
    # is scored: a run is never held whole (`_stored_anew` tells a page stored anew meanwhile by its digest)
    predictions = project.runs.prediction_digests(run_id)
    errors = project.runs.errors(run_id)
    labelled = set(truth_pages)
    not_labelled = [name for name in predictions if name not in labelled]
    warnings = [unscored_predictions_message(not_labelled, f"run {run_id}", "not marked labelled or reviewed")
                ] if not_labelled else []
    otherwise = [name for name in made_on_other_pages(run.cost) if name in labelled]
    if otherwise:
        warnings.append(other_pages_message(otherwise, "the project's"))
    # a page left out is not scored from its copy as it was either: a score stored of it is not taken for one
    kept = _still_scored(project, run, labelled - set(not_read))
    fresh, read = {}, _CopiesRead()
    for name in progress([name for name in truth_pages if name not in kept and name not in not_read]):
        # a page stored anew since the run was first read is told by its digest (`_stored_anew`): scored again
        predicted = project.runs.page_prediction(run_id, name) if name in predictions else None
        score = _score_to_store(project, name, predicted or [], read, leave_out_unread)
        del predicted
        if isinstance(score, PageNotRead):
            not_read[name] = score.why
            continue
        fresh[name] = score
    scored = [name for name in truth_pages if name not in not_read]
    left_out: dict[str, str] = {}
    finished = ran_to_its_end(stored_run_description(run.method, run.status, run.parameters, run.cost))
    stopped_on = stopped_on_pages(run.cost)  # the page it stopped on part way: said so, as of its folder
    for name in scored:
        if name in errors:
            warnings.append(f"page {name}: run {run_id} ({run.method}) failed on it; scored as an empty prediction")
            left_out[name] = errors[name]
        elif name not in predictions:
            left_out[name] = why_no_prediction(name, run.cost, finished=finished, stopped_on=stopped_on)
    # said at once, per reason (a stopped run lacks many pages), as `score` of a folder says them
    warnings += no_prediction_messages({name: why for name, why in left_out.items() if name not in errors},
                                       left_out_pages(run.cost), f"run {run_id}", f"run {run.id} ({run.method})",
                                       files_of=f"run {run_id}'s folder",
                                       then=", then `runs --add` of the folder stores it")
    # as `labels check` and `export` say it: the figures are of the page as it is, not as it was labelled
    warnings += [changed_since_import(name, "scored as it is now") for name in read.changed if name in fresh]
    result = DatasetScore([fresh[name] if name in fresh else kept[name] for name in scored],
                          not_read={name: not_read[name] for name in truth_pages if name in not_read})
    refuse_figures_of_no_page(result.not_read, result.pages, f"the project {hint_path(project.root)}")
    warnings += [said for said in map(truth_naming_nothing, result.pages) if said]  # as `score` of folders says
    with project.writing():  # the new scores and the old ones dropped, at once
        # The pages read are all still there, asked in the transaction that stores their scores
        if gone := _pages_gone(project, truth_pages):
            raise _PagesRemoved(gone)
        # As for labels (`changes_seen`): a prediction stored anew since it was read dropped its page's score when
        # it committed (`add_predictions`); a score of what it was would be put back as if current
        moved = _stored_anew(project, run_id, scored, (predictions, errors))
        current = [score for name, score in fresh.items() if name not in moved]
        project.runs.add_scores(run_id, DatasetScore(current), changes_seen=changes_seen, at=started,
                                copy_hashes=read.hashes)
        gone = [s.page for s in project.runs.scores(run_id) if s.page not in labelled]
        project.runs.drop_scores(run_id, gone)  # pages no longer labelled leave the means, as they left the truth
    return (result, warnings, left_out), moved


@dataclass
class _CopiesRead:
    """What a score read of the pages' saved copies: the content hash of each one's bytes it parsed, by page, which
    its score keeps (`Runs.add_scores`: the copy is changed since when its bytes hash otherwise), and the pages whose
    copy was changed by hand since it was stored."""

    hashes: dict[str, str] = field(default_factory=dict)
    changed: list[str] = field(default_factory=list)


def _score_to_store(project: Project, name: str, predicted: Sequence[Sequence[str]], read: _CopiesRead,
                    leave_out_unread: bool) -> PageScore | PageNotRead:
    """The page's score of `predicted` against its saved copy as it is now (`_scored_as_it_is`); with
    `leave_out_unread`, why the copy cannot be read instead of the error (an empty file, a folder in its place), as
    `score` and `bench` read a dataset's page (`page_or_why`)."""
    score = partial(_scored_as_it_is, project, name, predicted, read)
    return page_or_why(score) if leave_out_unread else score()


def _scored_as_it_is(project: Project, name: str, predicted: Sequence[Sequence[str]], read: _CopiesRead) -> PageScore:
    """The page's score of `predicted` against its true records on its saved copy as it is now. A page the run
    predicts no record for is not parsed (on a run of part of a large project, most of them): nothing is matched,
    and the one figure of the page such a score needs, its true records that expand to no text, is its label
    check's (`_naming_nothing`, remembered for these very bytes and records); its copy's bytes are read and
    hashed all the same, for the score to keep (`_CopiesRead`)."""
    truth = project.true_records(name)
    if not predicted:
        _copy_as_it_is(project, name, read)
        return score_without_prediction(truth, _naming_nothing(project, name, truth), name)
    return score_page(predicted, truth, TextKeyIndex(_page_as_it_is(project, name, read).text_map), name)


def _stored_anew(project: Project, run_id: int, pages: Sequence[str],
                 read: tuple[Mapping[str, str], Mapping[str, str]]) -> list[str]:
    """Of `pages`, those whose prediction in run `run_id` (its records, by their digest: `Runs.prediction_digests`;
    its failure) is no longer the one `read`: stored anew by another process meanwhile. Asked inside the transaction
    that stores the scores, so that none is stored anew between. The predictions are always read again (the query
    the score made, a fraction of its time): the run's `predictions_stamp`, its highest row id, can read the same
    after a change, as SQLite gives a new row the id of a top row deleted before (an unlabelled page removed from
    the project, its predictions with it)."""
    predictions, errors = read
    now_predictions, now_errors = project.runs.prediction_digests(run_id), project.runs.errors(run_id)
    return [name for name in pages
            if (predictions.get(name), errors.get(name)) != (now_predictions.get(name), now_errors.get(name))]


def copies_not_read(project: Project, pages: Sequence[str]) -> dict[str, str]:
    """Of `pages`, those whose saved copy cannot be read, with why (`Project.saved_copy_problem`, said after the
    page's name, as `score` lists the pages it leaves out and `labels check` the pages it cannot check)."""
    return {name: problem for name in pages if (problem := project.saved_copy_problem(name)) is not None}


def _refuse_unreadable_copies(project: Project, truth_pages: Sequence[str]) -> None:
    """Stop the score before anything is stored when the saved copy of a page it needs cannot be read, naming
    every such page at once (a mean over fewer pages would pass for the run's, as `score` of folders refuses it):
    copies gone from `snapshots/`, as export stops; and pages whose row in the database was changed by hand so
    that it names no saved copy, each with what is wrong."""
    missing, rows = [], []
    for name in truth_pages:
        try:
            if not project.snapshot_file(name).is_file():
                missing.append(name)
        except StoreError as error:  # its row names no saved copy (`Project.snapshot_file`, which names the page)
            rows.append(str(error))
    said = [f"{'; '.join(rows)}: nothing scored. Put the row back as it was, or take the page(s) out of the "
            "project (recordlens project remove-page)"] if rows else []
    said += [saved_copies_missing(project, missing, "nothing scored")] if missing else []
    if said:
        raise StoreError("; ".join(said))


def _still_scored(project: Project, run: RunInfo, labelled: set[str]) -> dict[str, PageScore]:
    """The stored scores of the run that still say what scoring the page again would: the page's labels unchanged
    since, and it still among the pages scored (`stale_pages`: its mark moved between labelled and reviewed is no
    change), and its saved copy still the bytes it was stored as; a page whose
    predictions changed since has none (`add_predictions` drops it). A run still running may add some while this
    reads them: scored again whole."""
    # The labels, the run and the page reader that made the score are looked at, not how records were matched: a
    # change to how a page is read (its element tree, its texts) must move `runs.PAGE_READER_VERSION`, and one to
    # how records are matched must come with a migration that deletes the stored scores, or a run's means mix
    # figures of the old scoring with the new.
    if run.status == "running" or run.ended_at is None:
        return {}
    stale = set(project.runs.stale_pages(run.id))
    # A score that says no label change comes back with a removed page's copy made before schema 8, when a change
    # of predictions did not drop it: it holds only if made after the run's end
    held = [s for s in project.runs.scores(run.id) if s.page in labelled and s.page not in stale
            and (s.changes_seen is not None or s.scored_at >= run.ended_at)]
    # A copy that cannot be parsed to check its labels again (emptied by hand) keeps no score: the page is scored
    # again, where what cannot be read of it is said
    scores = {s.page: scored for s in held
              if not isinstance(scored := page_or_why(partial(_as_scored, project, s)), PageNotRead)}
    # A saved copy changed by hand (its bytes no longer those its name hashes, as the label check `_as_scored` read
    # finds it, and as export finds it): the score stored may be of the copy as it was, and the page is scored
    # again as it is now, and said, as `labels check` and `export` take it
    return {page: score for page, score in scores.items() if page not in project.label_checks.changed_by_hand}


def _as_scored(project: Project, stored: StoredScore) -> PageScore:
    """A stored score as `score_page` made it. The store keeps every figure but how many true records expand to
    no text (the JSON of `score` gives it), which the page's label check tells (`_naming_nothing`)."""
    empty_true = _naming_nothing(project, stored.page, project.true_records(stored.page))
    return PageScore(stored.page, stored.precision, stored.recall, stored.f1, stored.predicted_records,
                     stored.true_records, [], stored.hallucinated_records, empty_true, list(stored.warnings))


def _naming_nothing(project: Project, name: str, true_records: Sequence[Sequence[str]]) -> int:
    """How many of the page's true records expand to no text on its saved copy as it is now (a score's
    `empty_true_records`): a record expands to none when each of its XPaths does, which the page's label check,
    remembered for these very bytes and labels, lists (`label_checks`), so the page is seldom parsed."""
    unresolved = set(project.label_checks.check(name, true_records).unresolved)
    return sum(1 for record in true_records if all(x in unresolved for x in record))


def _page_as_it_is(project: Project, name: str, read: _CopiesRead) -> Page:
    """The page's saved copy, parsed as it is now (`_copy_as_it_is`)."""
    return project.load(name, data=_copy_as_it_is(project, name, read)).page  # the bytes hashed are the bytes scored


def _copy_as_it_is(project: Project, name: str, read: _CopiesRead) -> bytes:
    """The bytes of the page's saved copy now, their hash kept in `read`; `name` added to its `changed` when the copy
    was changed by hand since it was stored (its bytes no longer those its name hashes: the rule of `label_checks`
    and `export`)."""
    data = read_file_bytes(project.snapshot_file(name))
    read.hashes[name] = content_hash(data)
    if read.hashes[name] != project.page(name).snapshot:
        read.changed.append(name)
    return data


def _scored_pages(project: Project) -> list[str]:
    return project.page_names(TRUE_PAGE_STATUSES)


def labelled_page_names(project: Project, *, scored_only: bool = True) -> list[str]:
    """The pages a run is scored on (marked labelled or reviewed); with `scored_only=False`, those and every other
    page that holds accepted or edited records, whatever its status. A page marked labelled with no record is
    labelled (the annotator decided it holds none): score counts it and export writes its `[]`."""
    if scored_only:
        return _scored_pages(project)
    return [p.name for p in project.pages() if p.finished or p.true_labels]


def labelled_pages(project: Project, *, scored_only: bool = True) -> Iterator[tuple[str, Page, list[list[str]]]]:
    """`(name, page, true records)` of `labelled_page_names`."""
    for name in labelled_page_names(project, scored_only=scored_only):
        yield name, project.load(name).page, project.true_records(name)


@dataclass(frozen=True)
class PageComparison:
    """One page's F1 in two runs, and whether each holds records for it (failed or unextracted pages score 0)."""

    page: str
    f1: tuple[float, float]
    predicted: tuple[bool, bool]

    @property
    def difference(self) -> float:
        """The second run's F1 less the first's."""
        return self.f1[1] - self.f1[0]


@dataclass(frozen=True)
class RunComparison:
    """Two stored runs page by page, over the pages both have a stored score for and whose saved copy can be read."""

    runs: tuple[int, int]
    pages: list[PageComparison]  # by difference, lowest first (where the second run loses most), then page order
    one_sided: list[str]  # pages only one of the two has a score for: left out of the comparison
    # pages whose saved copy cannot be read, with why: left out of both runs' figures (`LEFT_OUT_UNREAD`)
    not_read: dict[str, str] = field(default_factory=dict)

    @property
    def both_predicted(self) -> list[PageComparison]:
        return [p for p in self.pages if all(p.predicted)]

    @property
    def page_count(self) -> int:
        """Every page the comparison is of: compared, scored by one run only, or left out as it cannot be read (the
        M of "over N of M pages")."""
        return len(self.pages) + len(self.one_sided) + len(self.not_read)

    def as_dict(self) -> dict[str, object]:
        """Each pair in the order of `runs`; `pages_not_read` as `score --json` gives it (only when there are)."""
        document: dict[str, object] = {
            "runs": list(self.runs),
            "pages": [{"page": p.page, "f1": list(p.f1), "difference": p.difference, "predicted": list(p.predicted)}
                      for p in self.pages],
            "mean": mean_f1s(self.pages), "mean_both_predicted": mean_f1s(self.both_predicted),
            "left_out_pages": self.one_sided}
        if self.not_read:
            document["pages_not_read"] = self.not_read
        return document


def mean_f1s(pages: Sequence[PageComparison]) -> dict[str, object]:
    """The two runs' mean F1 over `pages`, and the second's less the first's (None over no page)."""
    if not pages:
        return {"pages": 0, "f1": None, "difference": None}
    first, second = (statistics.fmean(p.f1[i] for p in pages) for i in (0, 1))
    return {"pages": len(pages), "f1": [first, second], "difference": second - first}


def compare_stored_runs(project: Project, first: int, second: int, not_read: Mapping[str, str] | None = None
                        ) -> RunComparison:
    """The stored per-page F1 of two runs side by side (score them first: `score_stored_run`, leaving out the pages
    it cannot read), over the pages whose saved copy can be read now. A page whose copy cannot be
    (`copies_not_read`, as `score` finds it, though neither run needed scoring again; or `not_read`: those the score
    of either run just left out, found as it read them) is left out of both, by the rule of `score`
    (`LEFT_OUT_UNREAD`): a score stored of it before is of its copy as it was, which `score` no longer counts
    either, and the runs are compared on the same pages. With no page left to compare, refused: as `score` refuses
    it when no page can be read (`refuse_figures_of_no_page`), else saying that none both runs scored can be."""
    truth = _scored_pages(project)
    found = dict(not_read or {})
    found |= copies_not_read(project, [name for name in truth if name not in found])
    left_out = {name: found[name] for name in truth if name in found}  # in the pages' order
    scores = [{s.page: s.f1 for s in project.runs.scores(run_id) if s.page not in left_out}
              for run_id in (first, second)]
    predicted = [set(project.runs.page_names(run_id)) - set(project.runs.errors(run_id)) for run_id in (first, second)]
    both = [page for page in scores[0] if page in scores[1]]
    rows = [PageComparison(page, (scores[0][page], scores[1][page]), (page in predicted[0], page in predicted[1]))
            for page in both]
    one_sided = [page for page in [*scores[0], *scores[1]] if page not in both]
    where = f"the project {hint_path(project.root)}"
    refuse_figures_of_no_page(left_out, [name for name in truth if name not in left_out], where)
    if left_out and not rows:
        raise StoreError(_nothing_to_compare(left_out, one_sided, where))
    return RunComparison((first, second), sorted(rows, key=lambda p: p.difference), one_sided, left_out)


def _nothing_to_compare(left_out: Mapping[str, str], one_sided: Sequence[str], where: str) -> str:
    """Why two runs have no page to compare when some pages with ground truth can be read: those that cannot, with
    why, and those only one run has a score for (not that no page can be scored: the others can)."""
    said = (f"no page both runs scored can be read in {where}, so none to compare: {counted(len(left_out), 'page')} "
            f"cannot be read ({listed([f'{name}: {why}' for name, why in left_out.items()], total=True, sep='; ')})")
    if one_sided:
        said += f"; {counted(len(one_sided), 'page')} only one of the runs has a score for: {listed(one_sided)}"
    return said
