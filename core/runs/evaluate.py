"""Score a run (a folder of `N.json` predictions) against a dataset, page by page, as NEXT-EVAL does."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from ..command_hints import hint_option, hint_path
from ..errors import DatasetError, RecordLensError, is_for_a_moment
from ..page.dataset import (
    LoadedPage,
    dataset_hint,
    load_page,
    not_a_folder,
    page_files,
    record_files,
    why_no_page_file,
)
from ..records.model import TextKeyIndex, load_records
from ..records.score import DatasetScore, PageScore, score_page
from ..wording import counted, listed, shortened
from .engines import Engine, LocalEngine, UnitFailedError
from .run_files import (
    ADDED_FROM,
    EXTRACTS_THEM_AGAIN,
    META_DIR,
    SEEDS_ASKED,
    STOPPED,
    description_differences,
    done_without_a_file,
    failed_pages,
    files_missing,
    left_out_pages,
    not_in_project,
    pages_of_other_settings,
    predicted_on_other_pages,
    ran_to_its_end,
    read_page_costs,
    read_run_description,
    stopped_part_way,
    unreadable_page_records,
)

Progress = Callable[[Iterable[str]], Iterable[str]]
T = TypeVar("T")
# What `score` says of a run's pages whose records other settings than the run's made (`made_otherwise_message`)
MADE_OTHERWISE_SCORED = ("scored as they are, though they are not this run's: its extract command run again without "
                         f"--restart {EXTRACTS_THEM_AGAIN}")
# ... and of those whose prompt the run's prompt file cannot check (`unchecked_prompt_message`)
UNCHECKED_SCORED = ("scored as they are: its extract command run again with --prompt-file giving the file where it "
                    "is now checks them (and extracts again any made with another prompt), as does the file put "
                    "back where the run names it")


def score_run(pred_dir: str | Path, gt_dir: str | Path, pages_dir: str | Path,
              progress: Progress = lambda names: names,
              engine: Engine | None = None) -> tuple[DatasetScore, list[str]]:
    """Score every page that has ground truth; a missing prediction counts as an empty one, with a warning.

    Returns the scores and the run-level warnings (missing files, malformed records files...). A page the run
    failed on (see `failed_pages`), or whose predictions file cannot be read (kept in the scores' `unreadable`),
    is scored as an empty prediction here, and named in the warnings; `without_failed` gives the figures without
    such pages. A page that cannot be scored at all, its saved page or its labels unreadable, is left out of the
    figures and kept in the scores' `not_read` (`LEFT_OUT_UNREAD`); none that can be read refuses the whole. The
    records files are read here; parsing each page and scoring it is a unit of work for `engine` (default: here),
    and the pages keep the ground truth's order whatever the engine.
    """
    pred_dir, pages_dir = Path(pred_dir), Path(pages_dir)
    truths = record_files(gt_dir)
    if not truths:
        raise DatasetError(f"{hint_path(gt_dir)}: no ground-truth files (N.json){dataset_hint(gt_dir, 'labels')}")
    if not pred_dir.is_dir():
        raise DatasetError(not_a_folder(pred_dir, "predictions", "N.json"))
    warnings: list[str] = []
    files = page_files(pages_dir, warnings)
    if not files and (hint := dataset_hint(pages_dir)):  # one message for a dataset's folder, not one per page
        raise DatasetError(f"no page (N.html or N.mhtml) to score in {hint_path(pages_dir)}{hint}")
    jobs: list[_PageJob] = []
    failed = failed_pages(pred_dir)
    described = read_run_description(pred_dir)
    left_out = left_out_pages(described)
    records = _FolderRecords.of(pred_dir)  # what the run's own records say of the pages it holds no N.json for
    predictions = record_files(pred_dir)
    if made := pages_of_other_settings(pred_dir, described):  # a stopped --restart's leftovers
        warnings.append(made.message("the run", MADE_OTHERWISE_SCORED, UNCHECKED_SCORED))
    unreadable: dict[str, str] = {}
    not_read: dict[str, str] = {}  # every page that cannot be scored at all, named at once rather than the first
    no_page = why_no_page_file(pages_dir)  # the folder listed once for all the pages it lacks
    for name in list(truths):
        page_file = files.get(name)
        if page_file is None:
            not_read[name] = no_page(name)
            continue
        try:
            true = load_records(truths[name])
        except RecordLensError as error:
            not_read[name] = str(error)
            continue
        warnings.extend(true.warnings)
        pred_path = predictions.get(name)
        predicted: list[list[str]] = []
        if pred_path is not None:
            try:
                predicted_file = load_records(pred_path)
                predicted = predicted_file.records
                warnings.extend(predicted_file.warnings)
            except RecordLensError as error:
                unreadable[name] = str(error)
        jobs.append(_PageJob(name, page_file, predicted, true.records))
    # --- engine dispatch (issue 16) ---
    scored = dict((job.name, result) for job, result in (engine or LocalEngine()).map(
        score_page_job, jobs, key=lambda job: job.name, progress=progress))
    unscored = [f"{name}: {result}" for name, result in scored.items() if isinstance(result, UnitFailedError)]
    if unscored:
        raise RecordLensError(f"scoring stopped: {'; '.join(unscored)}; score again")
    not_read.update((name, result.why) for name, result in scored.items() if isinstance(result, PageNotRead))
    jobs = [job for job in jobs if job.name not in not_read]
    pages: list[PageScore] = [scored[job.name] for job in jobs]  # type: ignore[misc]
    # --- end engine dispatch ---
    not_read = {name: not_read[name] for name in truths if name in not_read}  # in the ground truth's order
    refuse_figures_of_no_page(not_read, pages, hint_path(gt_dir))
    unreadable = {name: why for name, why in unreadable.items() if name not in not_read}
    warnings += [f"{unreadable[job.name]}; scored as an empty prediction" for job in jobs if job.name in unreadable]
    warnings += [f"page {job.name}: the run failed on it ({failed[job.name][:300]}); scored as an empty prediction"
                 for job in jobs if job.name not in predictions and job.name in failed]
    # no prediction: said once for all of them per reason (a stopped run lacks many)
    without = {job.name: records.why_no_prediction(job.name, described) for job in jobs
               if job.name not in predictions and job.name not in failed}
    warnings += no_prediction_messages(without, left_out, "the run", hint_path(pred_dir))
    ignored = [name for name in predictions if name not in truths]
    if ignored:  # a --gt of other pages than the run's would otherwise pass unseen
        warnings.append(unscored_predictions_message(ignored, hint_path(pred_dir),
                                                     f"without ground truth in {hint_path(gt_dir)}")
                        + f" (is {hint_path(gt_dir)} the labels of the pages this run was made on?)")
    warnings += [said for said in map(truth_naming_nothing, pages) if said]
    return DatasetScore(pages, unreadable, _without_prediction(jobs, failed, without, unreadable), not_read), warnings


# The one rule of `score` and `bench` for a page with ground truth that cannot be scored at all, whatever the reason
# (no page file; a folder, FIFO, link loop or dangling link named like it; an empty file; a PNG named .mhtml; labels
# that cannot be read): it is left out of the figures and named, the figures are of the pages that can be read, said
# as over N of M pages (and in --json), and the command exits 1, as for any work done on part of what was asked.
# `extract` says it of the pages it cannot read; `score --project` and `runs --compare` of a project's pages whose
# saved copy cannot be read (`runs --compare` leaves such a page out of both runs: they are compared on the same pages).
LEFT_OUT_UNREAD = ("left out of the figures of `recordlens score` and `bench`, which are then over the pages they can "
                   "read (said as over N of M pages; exit status 1)")


@dataclass(frozen=True)
class PageNotRead:
    """Why a page cannot be scored: its saved page (an empty file, a PNG named .mhtml) or its labels cannot be read."""

    why: str


def read_page(page_file: Path, name: str) -> LoadedPage | PageNotRead:
    """The saved page `page_file` of page `name`, read as every command reads it, or why it cannot be (`load_page`'s
    words): the test by which `score` and `bench` leave a page out, which `extract` asks of the pages it failed on."""
    return page_or_why(lambda: load_page(page_file, name))


def page_or_why(read: Callable[[], T]) -> T | PageNotRead:
    """What `read` reads of a saved page (a dataset's page file, a project's saved copy), or why it cannot be read:
    `read_page`'s test, for any reader of a page."""
    try:
        return read()
    except OSError as error:
        if is_for_a_moment(error):  # the same command again may read it: not a page to leave out
            raise
        return PageNotRead(str(error))
    except RecordLensError as error:  # an empty file, a PNG named .mhtml, a file gone meanwhile
        return PageNotRead(str(error))


def refuse_figures_of_no_page(not_read: Mapping[str, str], pages: Collection[object], where: str) -> None:
    """`LEFT_OUT_UNREAD`'s one refusal: when no page with ground truth in `where` (a folder as a hint names it, or
    words naming the project so) can be read (`not_read`, and none in `pages`: the pages scored, or, for
    `runs --compare`, those that can be read), there is no figure to give, and every such page is named with why: a
    mean over no page would read as a figure."""
    if not not_read or pages:
        return
    raise DatasetError(f"none of the {counted(len(not_read), 'page')} with ground truth in {where} can be scored: "
                       + listed([f"{name}: {why}" for name, why in not_read.items()], total=True, sep="; "))


def format_not_read(not_read: Mapping[str, str]) -> list[str]:
    """The lines of `score`'s and `bench`'s report that name the pages left out because they cannot be read, with
    why (none: [])."""
    if not not_read:
        return []
    return [f"pages left out of the figures ({len(not_read)}; their saved page or their labels cannot be read):",
            *(f"  {name}: {shortened(why, 300)}" for name, why in not_read.items())]


def pages_not_read_message(not_read: Mapping[str, str], total: int) -> str:
    """The pages `score` or `bench` left out because they cannot be read, and over which pages its figures are."""
    names = list(not_read)
    one = len(names) == 1
    return (f"{counted(len(names), 'page')} of {total} with ground truth cannot be scored (its saved page or its "
            f"labels cannot be read: {listed(names, 8, total=True)}): {'it is' if one else 'they are'} left out, "
            f"and the figures are over the other {total - len(names)} (exit status 1); once "
            f"{'it' if one else 'they'} can be read, the same command gives figures over every page")


def _without_prediction(jobs: list[_PageJob], failed: dict[str, str], never_predicted: dict[str, str],
                        unreadable: dict[str, str]) -> dict[str, str]:
    """Every scored page with no usable prediction (name -> why), in the order `score` lists them: those the run
    failed on, those it has no file for, then those whose file cannot be read."""
    scored = {job.name for job in jobs}
    reasons = {name: reason for name, reason in failed.items() if name in scored}
    reasons.update(never_predicted)
    reasons.update({name: f"its predictions file cannot be read: {why}" for name, why in unreadable.items()
                    if name not in reasons})
    return reasons


def truth_naming_nothing(score: PageScore) -> str | None:
    """A page's true records that expand to nothing on it, said: no predicted record with text can match them, so
    they lower the page's figures (all of them: 0), and only `--json`'s figures would show why; but one matched to
    a predicted record that expands to nothing too is a pair the reference scores 1, and is said so instead."""
    if not score.empty_true_records:
        return None
    # In the best matching every such pair is made that can be (a pair of empty records scores 1, either one with
    # a record with text 0), so they are as many as the fewer of the two: a stored score, which keeps no matches,
    # says it too
    paired = min(score.empty_true_records, score.hallucinated_records)
    said = (f"page {score.page}: {score.empty_true_records} of {score.true_records} true record(s) name nothing on "
            "the page (their XPaths name no element, or one without text): ")
    matched = ("matched a predicted record that names nothing too, a pair the reference scores as a perfect match "
               "(overlap 1)")
    if paired == score.empty_true_records:
        said += f"each {matched}, so they do not lower its figures"
    elif paired:
        said += (f"{paired} of them {matched}; no predicted record with text can match the others, so they lower "
                 "its figures")
    else:
        said += "no predicted record with text can match them, so they lower its figures"
    return said + "; `recordlens labels check` lists them"


NOT_EXTRACTED = "not extracted (no N.json: the run stopped before this page, or was not given it)"


def not_extracted(stopped: object = None, *, on_it: bool = False) -> str:
    """Why a page has no prediction, with the reason the run recorded for stopping when it stopped early; `on_it`:
    the run stopped on this very page, part way (its record says "not finished", the calls it paid for kept)."""
    if on_it:
        return (f"not extracted (no N.json): the run stopped on it, part way (the calls it paid for are kept in "
                f"{META_DIR}/): {stopped or 'it did not finish'}")
    return f"not extracted (no N.json): the run stopped before it: {stopped}" if stopped else NOT_EXTRACTED


LEFT_OUT_BY_THE_RUN = "left out by the run"
# Why a run that went through every page it was given has no prediction for a page: it was not among them (its
# pages folder did not hold it). Extracting again into the run would do nothing for it.
NOT_GIVEN = "not among the run's pages (the run finished without it: it was not given this page)"
# Why a run has no prediction for a page its own record (`_run/N.json`) says it did: the N.json went (deleted by
# hand, or a stop between the page's two writes). Extracting again writes it, whether the run finished or not.
FILE_MISSING = "its prediction file is missing (extract again brings it back)"

# Why a run folder has no prediction for a page whose own record (`_run/N.json`) is there but cannot be read (cut short
# by a full disk or a hand edit): the run was given the page, but whether it did it cannot be told. Extracting again
# does it again (and writes its record anew).
RECORD_UNREADABLE = "no N.json, and the run's record of the page cannot be read"


def record_unreadable(why: str) -> str:
    """`RECORD_UNREADABLE`, with why and what to do."""
    return f"{RECORD_UNREADABLE} ({why}): whether the run did it is not known; extract again does it again"


# Why a stored run has no prediction for a page its folder did predict: the project held no page of that name when
# the folder was stored (`run_files.NOT_IN_PROJECT`), so its N.json was left out (`not_in_the_project` says what
# brings it).
NOT_IN_THE_PROJECT = "predicted in the folder, but the page was not in the project when the run was added"


def not_in_the_project(added_from: object = None) -> str:
    """`NOT_IN_THE_PROJECT`, with what brings the prediction in: adding the run's folder again, or, for a run stored
    again from its deleted copy (which holds no N.json of the page), adding the folder it was first added from
    (`run_files.ADDED_FROM`), the only one that holds it (or that folder gone, said)."""
    if not added_from:
        return f"{NOT_IN_THE_PROJECT}: `runs --add` it again"
    # what to do first, the folder said once: `score`'s list of pages cuts a long reason
    copy = "the deleted copy the run was stored again from holds none"
    if not Path(str(added_from)).is_dir():
        return (f"{NOT_IN_THE_PROJECT}: only the folder it was first added from held its prediction, "
                f"{hint_path(added_from)}, which is gone ({copy})")
    return (f"{NOT_IN_THE_PROJECT}: only the folder it was first added from holds its prediction (`runs "
            f"{hint_option('--add', added_from)}` stores it as a new run; {copy})")


def why_no_prediction(name: str, described: Mapping[str, object], *, finished: bool = False,
                      done: Collection[str] = (), stopped_on: Collection[str] = (),
                      unreadable_records: Mapping[str, str] | None = None) -> str:
    """Why a page that did not fail has no prediction in a run described so (its run.json, or a stored run's
    cost): the run left it out on purpose (`run_files.LEFT_OUT`, with why), did it but its prediction file is gone
    (`done`: the pages its own records say it did, `run_files.done_without_a_file`, or a stored run's cost's
    `run_files.FILES_MISSING`: `FILE_MISSING`), predicted it in its folder when the project held no such page
    (a stored run's cost's `run_files.NOT_IN_PROJECT`: `NOT_IN_THE_PROJECT`), holds a record of it that cannot be
    read (`unreadable_records`: name -> why; `record_unreadable`), was not given it (a run `finished` through every
    page it was given: `NOT_GIVEN`), stopped on it part way (`stopped_on`: its record says not finished), or never
    extracted it (`not_extracted`)."""
    why = left_out_pages(described).get(name)
    if why is not None:
        return f"{LEFT_OUT_BY_THE_RUN}: {why}"
    if name in done or name in files_missing(described):
        return FILE_MISSING
    if name in not_in_project(described):
        return not_in_the_project(described.get(ADDED_FROM))
    if unreadable_records and name in unreadable_records:
        return record_unreadable(unreadable_records[name])
    if finished:
        return NOT_GIVEN
    return not_extracted(described.get(STOPPED), on_it=name in stopped_on)


@dataclass(frozen=True)
class _FolderRecords:
    """What a run folder's own page records (`_run/N.json`) say of the pages it holds no `N.json` for: those it did
    (the file gone since), the one it stopped on part way, and those whose record cannot be read; and whether the
    run went through every page it was given (its run.json)."""

    finished: bool
    done: frozenset[str]
    stopped_on: frozenset[str]
    unreadable: dict[str, str]

    @classmethod
    def of(cls, run_dir: str | Path) -> _FolderRecords:
        run = Path(run_dir)
        costs = read_page_costs(run)  # read once, for both
        stopped_on = frozenset(stopped_part_way(run, costs))
        unreadable = {name: why for name, why in unreadable_page_records(run).items()
                      if not (run / f"{name}.json").exists()}
        return cls(ran_to_its_end(read_run_description(run)), frozenset(done_without_a_file(run, costs)), stopped_on,
                   unreadable)

    def why_no_prediction(self, name: str, described: Mapping[str, object]) -> str:
        return why_no_prediction(name, described, finished=self.finished, done=self.done, stopped_on=self.stopped_on,
                                 unreadable_records=self.unreadable)


def no_prediction_messages(reasons: Mapping[str, str], left_out: Mapping[str, str], whose: str,
                           named: str, *, files_of: str | None = None, then: str = "") -> list[str]:
    """The scored pages without a prediction (name -> `why_no_prediction`), said at once per reason rather than a
    line each (a stopped run lacks many): left out on purpose, recorded done with their file gone, not given to a
    finished run, and any other reason (`whose`: the run as the sentences name it; `named`: as the last names it,
    the folder or the stored run; `files_of` and `then`: whose files are missing, and what brings them back after
    extracting again, for a stored run)."""
    names = list(reasons)
    return (pages_left_out_messages(names, left_out)
            + files_missing_messages([name for name in names if is_file_missing(reasons[name])], files_of or whose,
                                     then)
            + pages_not_given_messages([name for name in names if is_not_given(reasons[name])], whose)
            + pages_without_a_prediction_messages(
                {name: why for name, why in reasons.items()
                 if not (is_left_out(why) or is_file_missing(why) or is_not_given(why))}, named))


def pages_without_a_prediction_messages(reasons: Mapping[str, str], whose: str) -> list[str]:
    """The scored pages a run holds no prediction for, for reasons other than those said on their own (never
    extracted: it stopped before them; stopped on part way; a record that cannot be read), said once per reason,
    naming a few, rather than a line each (none, [])."""
    return [f"page {pages[0]}: no prediction in {whose}: {why}; scored as an empty one"
            if len(pages) == 1 else
            f"{counted(len(pages), 'scored page')} with no prediction in {whose} "
            f"({listed(pages, 8, total=True)}; why, for each: {why}): scored as empty predictions"
            for why, pages in pages_by_reason(reasons).items()]


def pages_by_reason(reasons: Mapping[str, str]) -> dict[str, list[str]]:
    """Pages (name -> why) grouped by why, each group in the pages' order, to say each reason once."""
    grouped: dict[str, list[str]] = {}
    for name, why in reasons.items():
        grouped.setdefault(why, []).append(name)
    return grouped


def is_not_in_the_project(reason: str) -> bool:
    """Whether a page's reason says the run's folder predicted it while the project lacked it (`NOT_IN_THE_PROJECT`):
    adding a folder again brings it in, extracting again does nothing for it."""
    return reason.startswith(NOT_IN_THE_PROJECT)


def is_left_out(reason: str) -> bool:
    """Whether a page's reason says the run left it out on purpose (nothing a rerun would change)."""
    return reason.startswith(LEFT_OUT_BY_THE_RUN)


def pages_left_out_messages(names: Iterable[str], left_out: Mapping[str, str]) -> list[str]:
    """Of the scored pages `names` without a prediction, those the run left out on purpose, said at once, per
    reason (none, [])."""
    reasons = {name: left_out[name] for name in names if name in left_out}
    return [f"{counted(len(pages), 'page')} left out by the run ({listed(pages, 8)}; why, for each: {why}): "
            "scored as empty predictions, and the figures without them are given apart"
            for why, pages in pages_by_reason(reasons).items()]


def pages_not_given_messages(names: Sequence[str], whose: str) -> list[str]:
    """Of the scored pages without a prediction in a run that went through every page it was given, those it was
    not given (`NOT_GIVEN`), said at once (none, [])."""
    if not names:
        return []
    one = len(names) == 1
    return [f"{counted(len(names), 'scored page')} {'was' if one else 'were'} not among the pages {whose} was "
            f"given ({listed(list(names), 8, total=True)}; it finished without {'it' if one else 'them'}): scored as "
            f"{'an empty prediction' if one else 'empty predictions'}, and the figures without "
            f"{'it' if one else 'them'} are given apart"]


def files_missing_messages(names: Sequence[str], whose: str, then: str = "") -> list[str]:
    """Of the scored pages without a prediction, those `whose` own records say it did (`FILE_MISSING`), said at
    once with what brings them back (extracting again; `then`: what after, for a stored run) (none, [])."""
    if not names:
        return []
    one = len(names) == 1
    return [f"{counted(len(names), 'scored page')} ({listed(list(names), 8, total=True)}) {'is' if one else 'are'} "
            f"recorded done by {whose}, but {'its prediction file is' if one else 'their prediction files are'} "
            f"missing: scored as {'an empty prediction' if one else 'empty predictions'}, and the figures without "
            f"{'it' if one else 'them'} are given apart; extract again brings {'it' if one else 'them'} back{then}"]


def unscored_predictions_message(names: list[str], whose: str, why: str) -> str:
    """Predictions a score leaves out because their pages are not part of the truth (`why`), named."""
    return (f"{whose} holds predictions for {counted(len(names), 'page')} {why} ({listed(names, total=True)}): "
            "not scored")


def pages_predicted_on_others(pred_dir: str | Path, pages_dir: str | Path, names: Iterable[str]) -> list[str]:
    """Of the scored pages `names`, those the run in `pred_dir` predicted on another page of the same name (see
    `run_files.predicted_on_other_pages`)."""
    return predicted_on_other_pages(pred_dir, page_files(pages_dir, []), names)


def is_not_extracted(reason: str) -> bool:
    """Whether a page's reason says it was never extracted (rather than failed)."""
    return reason.startswith("not extracted")


def is_not_given(reason: str) -> bool:
    """Whether a page's reason says the run, finished, was not given it (nothing a rerun would change)."""
    return reason == NOT_GIVEN


def is_record_unreadable(reason: str) -> bool:
    """Whether a page's reason says the run's record of it cannot be read, nor its N.json found (a rerun does it
    again)."""
    return reason.startswith(RECORD_UNREADABLE)


def is_file_missing(reason: str) -> bool:
    """Whether a page's reason says the run did it but its prediction file is missing (a rerun brings it back)."""
    return reason == FILE_MISSING


def without_failed(scores: DatasetScore) -> tuple[DatasetScore, dict[str, str]]:
    """The scores of the pages the run has a prediction for, and the others (name -> reason) left out: the pages
    it failed on, those it never extracted (a run stopped by its budget), those it left out on purpose (no
    answers for them) and those whose predictions file cannot be read, which the table counts as empty
    predictions. `score_run` found them as it read the run, so nothing is read again here."""
    return without_pages(scores, scores.without_prediction), dict(scores.without_prediction)


def without_pages(scores: DatasetScore, left_out: Iterable[str]) -> DatasetScore:
    """The scores with these pages left out (a run's failed or never extracted pages)."""
    gone = set(left_out)
    return DatasetScore([p for p in scores.pages if p.page not in gone])


@dataclass(frozen=True)
class _PageJob:
    """One page to score: the records are already read, the page is parsed where the job runs."""

    name: str
    page_file: Path
    predicted: list[list[str]]
    true: list[list[str]]


def score_page_job(job: _PageJob) -> PageScore | PageNotRead:
    loaded = read_page(job.page_file, job.name)
    if isinstance(loaded, PageNotRead):  # left out (`LEFT_OUT_UNREAD`)
        return loaded
    return score_page(job.predicted, job.true, TextKeyIndex(loaded.page.text_map), job.name)


def seed_runs(pred_dir: str | Path) -> dict[int, Path]:
    """Seed -> folder, for a run written with several seeds (`RUN/seed-S/N.json`); empty for a plain run."""
    found: dict[int, Path] = {}
    for folder in Path(pred_dir).glob("seed-*"):
        suffix = folder.name.removeprefix("seed-")
        if folder.is_dir() and suffix.lstrip("-").isdigit():
            found[int(suffix)] = folder
    return dict(sorted(found.items()))


def seeds_asked(pred_dir: str | Path) -> list[int]:
    """Every seed a run written with --seeds N asked (its seed-S/ folders' run.json say them), with the seeds it
    holds: a run stopped before its last seed holds fewer than it asked. A run written before the seeds asked were
    recorded says only the seeds it holds."""
    folders = seed_runs(pred_dir)
    asked = set(folders)
    for folder in folders.values():
        said = read_run_description(folder).get(SEEDS_ASKED)
        if isinstance(said, list):
            asked.update(seed for seed in said if isinstance(seed, int) and not isinstance(seed, bool))
    return sorted(asked)


def seeds_not_run_message(asked: Sequence[int], not_run: Sequence[int]) -> str:
    """The seeds a run asked and those it never ran, said: "3 seeds asked (0, 1, 2), seed 2 not run"."""
    return (f"{counted(len(asked), 'seed')} asked ({', '.join(map(str, asked))}), "
            f"{'seed' if len(not_run) == 1 else 'seeds'} {', '.join(map(str, not_run))} not run")


def seed_ran(folder: Path) -> bool:
    """Whether a seed's folder holds a page done: its prediction (N.json), or its record of a failure (a page the
    model refused, say: a result of the seed, scored as an empty prediction). A seed stopped before any page of it
    was done (Ctrl+C, a budget spent on the seed before) is no seed the run ran: `score` leaves it out of the seeds
    scored (its pages, all unanswered, would count as a model scoring 0 in the mean and sd over seeds), and
    `runs --add` does not store it as a run."""
    return bool(record_files(folder)) or bool(failed_pages(folder))


def seeds_that_ran(pred_dir: str | Path) -> dict[int, Path]:
    """Seed -> folder, for the seeds a run written with several seeds ran (`seed_ran`): its seed-S/ folders, those
    begun but stopped before any page left out."""
    return {seed: folder for seed, folder in seed_runs(pred_dir).items() if seed_ran(folder)}


def seeds_left_out_said(pred_dir: str | Path) -> str | None:
    """The seeds a run asked that it did not run, said as `score` and `runs --add` say them: "RUN: 3 seeds asked
    (0, 1, 2), seeds 1, 2 not run (the run stopped before them; seed 1 was begun but stopped before any page of it
    was extracted, so left out of the seeds scored)"; None when it ran every seed it asked."""
    ran = seeds_that_ran(pred_dir)
    asked = seeds_asked(pred_dir)
    not_run = [seed for seed in asked if seed not in ran]
    if not not_run:
        return None
    begun = [seed for seed in seed_runs(pred_dir) if seed not in ran]
    return (f"{hint_path(pred_dir)}: {seeds_not_run_message(asked, not_run)} (the run stopped before "
            f"{'it' if len(not_run) == 1 else 'them'}{_without_a_page_said(begun)})")


@dataclass
class SeedScores:
    """One run scored seed by seed: the dataset figures of each seed, and their mean and spread over seeds; `asked`,
    every seed the run asked (the seeds scored, and any it stopped before)."""

    seeds: dict[int, DatasetScore]
    asked: list[int] = field(default_factory=list)

    @property
    def not_run(self) -> list[int]:
        """The seeds the run asked but never ran (it stopped before them): not in the mean."""
        return [seed for seed in self.asked if seed not in self.seeds]

    def mean_dict(self) -> dict[str, float]:
        figures = [s.mean_dict() for s in self.seeds.values()]
        return {key: statistics.fmean(f[key] for f in figures) for key in figures[0]}

    def sd_dict(self) -> dict[str, float]:
        figures = [s.mean_dict() for s in self.seeds.values()]
        if len(figures) < 2:
            return {key: 0.0 for key in figures[0]}
        return {key: statistics.stdev(f[key] for f in figures) for key in figures[0]}

    def as_dict(self) -> dict[str, object]:
        return {"mean": self.mean_dict(), "sd_over_seeds": self.sd_dict(),
                "seeds": [{"seed": seed, **scores.as_dict()} for seed, scores in self.seeds.items()],
                "seeds_asked": self.asked or list(self.seeds), "seeds_not_run": self.not_run}


def score_seeds(pred_dir: str | Path, gt_dir: str | Path, pages_dir: str | Path,
                progress: Progress = lambda names: names,
                engine: Engine | None = None) -> tuple[SeedScores, list[str]]:
    """Score every `seed-S/` of a run; the run's figures are the means over seeds of each seed's means."""
    folders = seed_runs(pred_dir)
    if not folders:
        raise DatasetError(f"{hint_path(pred_dir)}: no seed-S/ folders (a run written with --seeds N has them)")
    # A seed stopped before any page of it was done is no seed the run ran (`seed_ran`)
    without_a_page = [seed for seed, folder in folders.items() if not seed_ran(folder)]
    if len(without_a_page) == len(folders):
        raise DatasetError(f"{hint_path(pred_dir)}: no seed of the run ({', '.join(map(str, without_a_page))}) has a "
                           "page extracted or failed yet (each stopped before its first page was done): nothing to "
                           "score; the same `extract` command runs them")
    seeds: dict[int, DatasetScore] = {}
    seeds_saying: dict[str, list[int]] = {}  # each warning a seed gave, and the seeds that gave it
    for seed, folder in folders.items():
        if seed in without_a_page:
            continue
        scores, seed_warnings = score_run(folder, gt_dir, pages_dir, progress, engine)
        seeds[seed] = scores
        for warning in seed_warnings + scores.warnings:
            seeds_saying.setdefault(warning, [])
            if seed not in seeds_saying[warning]:
                seeds_saying[warning].append(seed)
    warnings = _mixed_methods(folders) + [_of_seeds(said, given_by) for said, given_by in seeds_saying.items()]
    scored = SeedScores(seeds, seeds_asked(pred_dir))
    left_out = seeds_left_out_said(pred_dir)
    if left_out:  # a run stopped before its last seed: its mean is over the seeds it ran, said
        warnings.append(f"{left_out}: the mean over seeds is over {counted(len(seeds), 'seed')}; the same `extract` "
                        "command runs the rest")
    return scored, warnings


def _of_seeds(warning: str, seeds: Sequence[int]) -> str:
    """A warning of the seeds that gave it, said once for them all: one several seeds gave alike (a page whose
    true records name nothing: the labels', the same for every seed) as "seeds 0, 1, 2: ...", one a seed gave
    alone with its seed."""
    if len(seeds) == 1:
        return f"seed {seeds[0]}: {warning}"
    return f"seeds {', '.join(map(str, seeds))}: {warning}"


def _without_a_page_said(seeds: Sequence[int]) -> str:
    """The seeds not run that were begun, said: their folders hold no page done, so they are left out as well."""
    if not seeds:
        return ""
    one = len(seeds) == 1
    return (f"; {'seed' if one else 'seeds'} {', '.join(map(str, seeds))} {'was' if one else 'were'} begun but "
            f"stopped before any page of {'it' if one else 'them'} was extracted, so left out of the seeds scored")


def _mixed_methods(folders: dict[int, Path]) -> list[str]:
    """Seeds whose runs name another method, version or parameters (the seed aside) than the first seed's: a mean
    over them would mix two models (a seed folder copied in from another run)."""
    described: dict[int, dict[str, object]] = {}
    for seed, folder in folders.items():
        run = read_run_description(folder)
        if run:  # a folder of predictions made elsewhere says nothing of its method
            parameters = run.get("parameters")
            if isinstance(parameters, dict):
                parameters = {k: v for k, v in parameters.items() if k != "seed"}
            described[seed] = {"method": run.get("method"), "version": run.get("version"), "parameters": parameters}
    if not described:
        return []
    (first, description), *rest = described.items()
    other = {seed: said for seed, other in rest if (said := description_differences(description, other))}
    if not other:
        return []
    return [f"seed(s) {', '.join(map(str, other))} were made by another method or model than seed {first} "
            f"({'; '.join(next(iter(other.values())))}): the mean over seeds mixes them"]
