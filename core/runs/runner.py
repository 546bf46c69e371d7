"""Running an extractor over a folder of pages into a *run* (`OUT/N.json`), resumably.

Each page's records are written atomically as soon as they exist, so a run that stops (Ctrl+C, a crash, an
exhausted budget) resumes where it stopped: pages with an `N.json` are not extracted again. What each page
cost (seconds, tokens, warnings, attempts) goes to `OUT/_run/N.json` with `"status": "done"`, and the run's
description (method, parameters with the prompt's hash, call settings) to `OUT/_run/run.json`; both stay out of
the `OUT/*.json` namespace that scoring reads.

A page that gets no valid answer, or whose reading or extraction raises anything at all, is a *failed* page: it
has no `N.json` (so the next run tries it again, and `score` lists it), and `OUT/_run/N.json` keeps
`"status": "failed"`, the reason and every attempt. One bad page never stops a run.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from .. import atomic, owner_files
from ..command_hints import hint_path
from ..errors import DatasetError, RecordLensError, full_disk, is_disk_full
from ..extract.base import Extractor
from ..extract.gemini import PROMPT_SHA256, PROMPT_SOURCE
from ..page.dataset import dataset_hint, page_files, record_files
from ..wording import counted, listed, named_and_more
from .engine_runs import extract_on_engine
from .engines import Engine
from .run_files import (
    LEFT_OUT,
    META_DIR,
    NO_ANSWERS,
    SEEDS_ASKED,
    SETTINGS,
    STOPPED,
    UNFINISHED,
    WITHOUT_RESTART,
    ResumedRun,
    RunSummary,
    attribute_if_any,
    call_settings,
    extract_pages,
    extracted_before,
    holds_a_single_run,
    holds_page_records,
    identity_differences,
    made_otherwise_message,
    method_said_by_pages,
    note_not_reached,
    pages_held,
    paid_without_records,
    predicted_on_other_pages,
    prompt_as_recorded_now,
    prompt_of,
    ran_to_its_end,
    run_description_and_problem,
    run_identity,
    set_aside_pages,
    ways_made_otherwise,
)

LOCK_FILE = ".extract.lock"  # hidden: no page's N.json, and gone once the run ends (`owner_files`)


def seed_dir(out_dir: Path, seed: int | None, seeds: int) -> Path:
    return out_dir / f"seed-{seed}" if seeds > 1 else out_dir


def seeds_of_the_run(out_dir: Path, given: Sequence[int], notes: list[str]) -> list[int]:
    """Every seed the run in `out_dir` asks once `--seeds` has given `given` (a run written with --seeds N): the seeds
    it held before (its seed-S/ folders, and the seeds their run.json say were asked: `evaluate.seeds_asked`) and
    those given. Fewer seeds than the folder holds run those given and leave the others as they are, still the
    run's (a command never takes a seed out of a run: its folder stays, and `score` reads it); said in `notes`, as
    are seeds added to a run. Each seed-S/ of the run records these (`record_seeds_asked`), so that they all say
    one thing."""
    from .evaluate import seed_runs, seeds_asked

    held = seeds_asked(out_dir)
    asked = sorted({*held, *given})
    if not held or asked == held == sorted(given):
        return asked
    run = f"{hint_path(out_dir)} holds a run of {counted(len(held), 'seed')} asked ({_seeds_said(held)})"
    added = [seed for seed in given if seed not in held]
    if added:
        notes.append(f"{run}: {_seeds_said(added, 'seed')} added to it (the run asks {_seeds_said(asked)})")
        return asked
    folders = seed_runs(out_dir)
    kept = [seed for seed in held if seed not in given and seed in folders]
    unrun = [seed for seed in held if seed not in given and seed not in folders]
    notes.append(f"{run}: --seeds gives {_seeds_said(given, 'seed')}, run now; the run still asks "
                 f"{_seeds_said(asked)}"
                 + (f", {_seeds_said(kept, 'seed')} left as {'it is' if len(kept) == 1 else 'they are'}" if kept
                    else "")
                 + (f", {_seeds_said(unrun, 'seed')} not run" if unrun else "")
                 + " (choose another --out for a run of fewer seeds)")
    return asked


def _seeds_said(seeds: Sequence[int], noun: str = "") -> str:
    """"0, 1, 2", or with `noun`, "seeds 0, 1, 2" ("seed 2" for one)."""
    listed_ = ", ".join(map(str, seeds))
    return f"{noun}{'' if len(seeds) == 1 else 's'} {listed_}" if noun else listed_


def record_seeds_asked(out_dir: Path, asked: list[int]) -> None:
    """Each seed-S/ of the run in `out_dir` that does not yet record `asked` as its seeds asked (a seed this command
    did not run, or stopped before) records them, once a seed of the run does: the seeds' folders then say one
    thing. Nothing is written when none does (the command was refused before it ran any seed), nor to a run.json
    that cannot be read (its seed's next run writes it again)."""
    from .evaluate import seed_runs

    descriptions = {folder: run_description_and_problem(folder)[0] for folder in seed_runs(out_dir).values()}
    if not any(described.get(SEEDS_ASKED) == asked for described in descriptions.values()):
        return
    for folder, described in descriptions.items():
        if described and described.get(SEEDS_ASKED) != asked:
            atomic.write_text(folder / META_DIR / "run.json", json.dumps({**described, SEEDS_ASKED: asked},
                                                                         indent=2, default=str))


def refuse_seeds_beside_a_run(out_dir: Path) -> None:
    """`--seeds N` into a folder holding a single-seed run: its seed-S/ folders would sit beside the run's own
    N.json, which `score` and `runs --add` take for the whole run (the seeds would be ignored)."""
    if holds_a_single_run(out_dir):
        raise RecordLensError(f"{hint_path(out_dir)} holds a run of one seed ({META_DIR}/run.json, N.json); --seeds "
                              "writes seed-S/ folders, which score and runs --add would not read beside it: choose "
                              "another --out for the seeds")


def run_extractor(extractor: Extractor, pages_dir: str | Path, out_dir: str | Path, *,
                  names: Iterable[str] | None = None, resume: bool = True,
                  progress: Callable[[list[str]], Iterable[str]] = lambda names: names,
                  engine: Engine | None = None, summary: RunSummary | None = None,
                  seeds: Sequence[int] | None = None) -> RunSummary:
    """Extract every page of `pages_dir` (or only `names`) into `out_dir`, here or on `engine` (issue 16:
    another engine runs `extract_pages` page by page, so its files are these, byte for byte). `summary`, when
    given, is the one filled in as the pages are done: what a stopped run (Ctrl+C) did, for its caller to say.
    `seeds`: for one seed of a run written with --seeds N, every seed the command asked (kept in run.json)."""
    out = Path(out_dir)
    summary = summary if summary is not None else RunSummary(out)
    summary.restarted = not resume  # its stop then says to go on without --restart
    files = page_files(pages_dir, summary.warnings)
    wanted = [n for n in (names if names is not None else files) if n in files]
    summary.wanted = wanted
    chosen = set(wanted)
    left_out = [n for n in files if n not in chosen]
    if left_out and wanted:  # recorded answers for only some of the folder's pages: said, not skipped silently
        summary.warnings.append(f"{len(left_out)} page(s) of {hint_path(pages_dir)} are not among the pages this "
                                f"method has answers for; left out ({listed(left_out)})")
    if not wanted:  # refused before the run folder is made: a run of nothing is a mistake, not a success
        if files:
            raise DatasetError(f"none of the {len(files)} pages in {hint_path(pages_dir)} is one this method has "
                               "answers for")
        hint = dataset_hint(pages_dir)  # a dataset's folder given for its folder of pages
        skipped = "".join(f"; {warning}" for warning in summary.warnings)  # entries named like pages, skipped
        raise DatasetError(f"no page (N.html or N.mhtml) to extract in {hint_path(pages_dir)}{hint}{skipped}")
    _refuse_a_folder_that_is_no_run(out)
    with run_lock(out, summary.warnings):
        # the run resumed, its pages' records (`_run/N.json`) read once, for every question asked of them below
        held = ResumedRun.of(out, extractor) if resume else None
        earlier = _refuse_another_method(out, extractor, summary.warnings, held) if held is not None else {}
        if held is not None:
            _refuse_predictions_of_other_pages(out, pages_dir, files, wanted, held)
        _remove_unfinished_writes(out)
        if held is None:  # a --restart: the run before it, of the pages it is not given, is no part of it
            summary.warnings += _set_aside_the_run_before(out, wanted, extractor)
        description = _run_description(extractor, _model_named_before(earlier, extractor, summary))
        if left_out:  # recorded, so that `score` says why these pages have no prediction, not that the run stopped
            description[LEFT_OUT] = {name: NO_ANSWERS for name in left_out}
        if seeds is not None:  # so that a run stopped before its last seed is not read as a run of fewer seeds
            description[SEEDS_ASKED] = list(seeds)
        # A resume with nothing left to do leaves run.json as it was (its date is when the run was written)
        untouched = held is not None and _holds_every_page(out, description, wanted, held)
        if not untouched:
            _note_how_it_ended(out, description, UNFINISHED)  # until it has finished: a killed run says so
        if held is not None:  # as its run.json says it now (written just above, unless untouched)
            held = ResumedRun.of(out, extractor, read=held)
            # what a stopped --restart left of the run before it is not this run's: extracted again, said; and
            # set aside, said, where this run is not given its pages
            summary.warnings += _pages_made_otherwise(out, wanted, held, ran_to_its_end(earlier))
            summary.warnings += _set_aside_pages_made_otherwise(out, wanted, held, ran_to_its_end(earlier))
        start = time.monotonic()
        requested = _requests_counted(extractor)
        try:
            # --- engine dispatch (issue 16) ---
            if engine is not None and engine.name != "local":
                extract_on_engine(engine, extractor, files, wanted, out, summary, resume=resume, progress=progress,
                                  held=held)
            else:
                extract_pages(extractor, files, wanted, out, summary, resume=resume, progress=progress, held=held)
            # --- end engine dispatch ---
        except OSError as error:
            if is_disk_full(error):  # said by the command; run.json would say the run was killed
                _note_a_full_disk(out, description, error, summary)
            raise
        finally:  # an interrupted run (Ctrl+C, SIGTERM) says what it spent too, as one that ended does
            summary.seconds = time.monotonic() - start
            if requested is not None:  # what the run's budget counted (another engine's counts come back to it)
                summary.requests = (_requests_counted(extractor) or 0) - requested
        note_not_reached(summary, wanted)
        if not untouched or summary.extracted or summary.failed or summary.stopped:
            _note_how_it_ended(out, description, summary.stopped)
    return summary


def _requests_counted(extractor: Extractor) -> int | None:
    """The requests the budget of a model-calling extractor has counted so far (every seed of a run shares one
    budget); None for a method that calls no model."""
    budget = getattr(getattr(extractor, "caller", None), "budget", None)
    requests = getattr(budget, "requests", None)
    return requests if isinstance(requests, int) else None


@contextlib.contextmanager
def run_lock(out: Path, warnings: list[str]) -> Iterator[None]:
    """Hold the run folder's lock while extracting into it: two runs into one folder would each extract (and, for
    Gemini, pay for) every page, and remove each other's writes in progress; the second is refused at once. A
    lock its holder never released (it was killed) is taken over, said in `warnings`. A run written with --seeds N
    holds its folder's lock for every seed, besides each seed-S/'s own while that seed runs: between two seeds no
    seed's lock is held, and `runs --add` would store the seeds done as the whole run."""
    out.mkdir(parents=True, exist_ok=True)
    try:
        lock = owner_files.take(out / LOCK_FILE)
    except owner_files.Held as held:
        raise _busy(out, held.owner, "run this again to go on where it stopped; two runs into one folder would "
                                     "extract every page twice") from None
    except OSError as error:  # a file system without locks (some network mounts): extract, but say so
        warnings.append(f"the run folder's lock cannot be taken ({error.strerror or error}): a second extract into "
                        "it, or a `runs --add` of it while this runs, would not be refused")
        yield
        return
    warnings += owner_files.taken_over(lock, f"an extract into {hint_path(out)}")
    try:
        yield
    finally:
        owner_files.release(lock)


# The run folders this process holds the lock of for `runs --add` (`run_folders_held`), resolved: a folder taken again
# inside (each seed of a run, stored by `import_run_folder`, which takes its own) is held already, not refused as
# another process's (flock refuses a second take even to the process that holds the lock)
_held_for_adding: set[Path] = set()


@contextlib.contextmanager
def run_folders_held(folders: Sequence[Path], then: str, warnings: list[str]) -> Iterator[None]:
    """Hold the lock an extract takes (`run_lock`) of each run folder, and of the folder holding the seeds of a
    seed-S/, while `runs --add` stores them: an extract started into one meanwhile is refused, as an extract under
    way refuses this (raised, naming its process; `then`: what to do once it has ended). Where a lock cannot be
    taken (a file system without locks, a folder this user may not write), the folder is looked at once
    (`check_not_extracting`) and the rest said in `warnings`."""
    with contextlib.ExitStack() as held:
        for folder in dict.fromkeys(_with_their_seeds_folder(folders)):
            held.enter_context(_held_while_adding(folder, then, warnings))
        yield


def _with_their_seeds_folder(folders: Sequence[Path]) -> Iterator[Path]:
    for folder in folders:
        folder = Path(folder).resolve()
        if _a_seed_folder(folder):
            yield folder.parent
        yield folder


@contextlib.contextmanager
def _held_while_adding(folder: Path, then: str, warnings: list[str]) -> Iterator[None]:
    if folder in _held_for_adding or not folder.is_dir():  # not a folder: refused as such by the caller, lockless
        yield
        return
    try:
        lock = owner_files.take(folder / LOCK_FILE)
    except owner_files.Held as held:
        raise _busy(folder, held.owner, then) from None
    except OSError as error:
        owner = owner_files.holder(folder / LOCK_FILE)  # judged by its line, where one was written
        if owner is not False:
            raise _busy(folder, owner, then) from None
        warnings.append(f"{hint_path(folder)}: its lock cannot be taken ({error.strerror or error}): an extract "
                        "started into it while it is being added would not be refused, and the run stored could miss "
                        "its last pages (add the folder again once no extract writes it)")
        yield
        return
    warnings += owner_files.taken_over(lock, f"an extract into {hint_path(folder)} (or a `runs --add` of it)")
    _held_for_adding.add(folder)
    try:
        yield
    finally:
        _held_for_adding.discard(folder)
        owner_files.release(lock)


def check_not_extracting(folder: str | Path, then: str) -> None:
    """Refuse a run folder an extract is writing now (it holds the folder's lock, `run_lock`; for a seed-S/ of a
    run written with --seeds, the lock of the folder that holds the seeds too, held between seeds): what it holds
    is part of a run, which `runs --add` would store as one that stopped. `then`: what to do once it has ended."""
    folder = Path(folder)
    for locked in (folder, folder.parent) if _a_seed_folder(folder) else (folder,):
        owner = owner_files.holder(locked / LOCK_FILE)
        if owner is not False:
            raise _busy(locked, owner, then)


def _a_seed_folder(folder: Path) -> bool:
    """Whether a folder is named as one seed's of a run written with --seeds N (`seed_dir`: seed-S)."""
    suffix = folder.name.removeprefix("seed-")
    return suffix != folder.name and suffix.lstrip("-").isdigit()


def _busy(out: Path, owner: tuple[str, int] | None, then: str) -> RecordLensError:
    """An extract into `out` runs now: said with who runs it, and how to go on (`then`) once it has ended."""
    who = owner_files.owner_named(owner)
    host = owner[0] if owner and owner[1] > 0 else None
    down = (f"; if {host} is down (a lock of a network folder can outlive its host), delete "
            f"{hint_path(out / LOCK_FILE)}" if host and host != socket.gethostname() else "")
    # the lock is an extract's, or a `runs --add`'s storing the folder (`run_folders_held`): its file says only who
    return RecordLensError(f"{hint_path(out)} is being extracted into (or added to a project) by {who} right now "
                           f"({hint_path(out / LOCK_FILE)}): wait for it to end (or stop it), then {then}{down}")


def _holds_every_page(out: Path, description: dict[str, object], wanted: list[str], held: ResumedRun) -> bool:
    """Whether the run folder already holds this run whole: its run.json describes it as finished and as this run
    (`run_identity`: a larger budget, a longer timeout is the same run), and every page's records are there, read
    (`held`: its pages' records as read already) by the prompt file its run.json names."""
    before = held.described
    if not before or STOPPED in before or run_identity(before) != run_identity(description):
        return False
    as_written = ResumedRun.of(out, described=before, read=held)
    return all(extracted_before(out, name, RunSummary(out), as_written) for name in wanted)


def _pages_made_otherwise(out: Path, wanted: list[str], held: ResumedRun, not_given: bool) -> list[str]:
    """The pages of the run resumed (`held`) whose records other settings made (a --restart with other settings
    stopped before it came to them; `not_given`: the run before this session ran to its end, so was not given
    them), said once: they are extracted again with the run's (`extracted_before`)."""
    pages = held.pages_made_otherwise(wanted)
    return [made_otherwise_message(pages, f"the run in {hint_path(out)}", "extracted again with this run's",
                                   not_given=not_given)] if pages else []


def _set_aside_the_run_before(out: Path, wanted: list[str], extractor: Extractor) -> list[str]:
    """A --restart starts the run in `out` over on the pages it is given (`wanted`): the pages the run before held
    that it is not given (other pages, or pages its method has no answers for) are set aside, with that run's
    run.json, rather than left as if this run had made them; said. They may have been paid for, so they are kept.
    So are, where the run before was made with other settings, the calls it paid for on pages it is given that
    gave no answer kept (`_calls_of_other_settings`)."""
    given = set(wanted)
    others = [name for name in pages_held(out) if name not in given]
    unanswered, differences = _calls_of_other_settings(out, wanted, extractor)
    if not others and not unanswered:
        return []
    described = (out / META_DIR / "run.json").is_file()
    folder = set_aside_pages(out, [*others, *unanswered], description=described)
    with_it = " with that run's run.json" if described else ""
    said = [f"--restart: {hint_path(out)} held {counted(len(others), 'page')} of the run before it that "
            f"{'is' if len(others) == 1 else 'are'} not among the pages given ({listed(others, 8, total=True)}): "
            f"set aside in {hint_path(folder)}{with_it}, so that the folder holds this run alone"] if others else []
    if unanswered:
        said.append(f"--restart: the run before it in {hint_path(out)} was made with other settings "
                    f"({'; '.join(differences)}): the calls it paid for on {counted(len(unanswered), 'page')} "
                    f"({listed(unanswered, 8, total=True)}) that gave no answer kept (failed, or stopped part way) "
                    f"are set aside in {hint_path(folder)}{with_it}, not counted as this run's")
    return said


def _calls_of_other_settings(out: Path, wanted: list[str], extractor: Extractor) -> tuple[list[str], list[str]]:
    """Of the pages a --restart is given (`wanted`), those whose record holds only calls the run before paid for
    (`paid_without_records`: failed, stopped part way), when that run was made with other settings (another
    format, endpoint, model...): asked again, each page's new record would keep them under "earlier", and the run's
    cost count another run's calls. With how that run differs; ([], []) for a run made alike, or one whose
    settings cannot be told (its run.json unreadable, its pages' records silent)."""
    held = _run_held(out, extractor, ResumedRun.of(out, extractor))
    if not held.differences:
        return [], []
    return paid_without_records(out, wanted), held.differences


def _set_aside_pages_made_otherwise(out: Path, wanted: list[str], held: ResumedRun, not_given: bool) -> list[str]:
    """The pages of the run resumed (`held`) whose records other settings made (what an earlier --restart left of
    the run before it; `not_given` as `_pages_made_otherwise`) and which this run is not given, so would never
    extract again: set aside, said, as a run never keeps pages of two settings as its own (`runs --add` would
    refuse the folder for good)."""
    given = set(wanted)
    pages = held.pages_made_otherwise(name for name in pages_held(out) if name not in given)
    if not pages:
        return []
    folder = set_aside_pages(out, list(pages))
    return [made_otherwise_message(pages, f"the run in {hint_path(out)}", f"not among the pages given now either, so "
                                   f"set aside in {hint_path(folder)} (a run keeps no page of other settings as its "
                                   "own)",
                                   not_given=not_given)]


def method_of(extractor: Extractor) -> dict[str, object]:
    # Through JSON, so that a tuple and the list it is read back as compare equal.
    return json.loads(json.dumps({"method": extractor.name, "version": extractor.version,
                                  "parameters": method_parameters(extractor)}, default=str))


def method_parameters(extractor: object) -> dict[str, object]:
    """An extractor's parameters (its `parameters`, as a run records them), {} for a method that has none
    (`attribute_if_any`: one whose property fails is raised, or the run would record no parameters, and a resume
    with other ones would keep its pages)."""
    parameters = attribute_if_any(extractor, "parameters")
    return {} if parameters is None else parameters  # type: ignore[return-value]


def _refuse_a_folder_that_is_no_run(out: Path) -> None:
    """A folder that holds files but no run description is someone's other files (a dataset's gt/, a folder of
    labels): a run there would take its N.json for pages already extracted, or --restart overwrite them. One whose
    `_run/` holds its pages' own records is a run whose run.json was deleted: its pages' records speak for it, as
    for a run.json that cannot be read (`_run_held`)."""
    if not out.is_dir() or (out / META_DIR / "run.json").is_file() or holds_page_records(out):
        return
    try:  # hidden files (.DS_Store, a write left by a killed run) are no one's work
        kept = sorted(entry.name for entry in out.iterdir() if not entry.name.startswith("."))
    except OSError:
        return  # unreadable: the write that follows says so
    if kept:
        raise DatasetError(f"{hint_path(out)} holds files ({named_and_more(kept, 1)}) but no run ({META_DIR}/run.json):"
                           " a run written there would take its N.json for pages already extracted; choose a new or "
                           "empty folder")


def _refuse_another_method(out: Path, extractor: Extractor, warnings: list[str], read: ResumedRun
                           ) -> dict[str, object]:
    """Resuming must not mix two methods' records in one run (and then describe them all as the second's); the
    description of the run resumed ({} when there is none, or no page in it yet). A run.json that cannot be read
    (emptied, cut short, edited by hand) says nothing: the pages' own records say the method instead when they all
    name the same (said in `warnings`), and the resume is refused when they do not. `read`: the run folder, its
    pages' records read once."""
    held = _run_held(out, extractor, read)
    if held.unknown and held.endpoint_unknown:
        raise RecordLensError(
            f"{held.unreadable}, and its pages' own records name the method but not the endpoint (--base-url) and "
            f"JSON output mode that answered them ({held.unknown}): resuming {hint_path(out)} through "
            f"{_endpoint_said(extractor)} could mix two endpoints' answers in one run: put its run.json back (from a "
            "copy) to resume it, or use --restart to extract every page again into it, or choose another --out")
    if held.unknown:
        raise RecordLensError(
            f"{held.unreadable}, and its pages' own records do not say which method made them ({held.unknown}): "
            f"resuming {hint_path(out)} with {extractor.name} could mix two methods' records: use --restart to "
            "extract every page again into it, or choose another --out")
    if held.differences:
        raise RecordLensError(_made_otherwise(out, held, extractor.name))
    if held.unreadable:
        endpoint = " and endpoint" if SETTINGS in held.described else ""
        warnings.append(f"{held.unreadable}; its pages' own records ({META_DIR}/N.json) say they were made by "
                        f"{extractor.name} with the parameters{endpoint} given now: resumed, and its run.json written "
                        "again")
    warnings += _prompt_found_elsewhere(held.described, extractor)
    return held.described


def _made_otherwise(out: Path, held: _RunHeld, method: str) -> str:
    """Why a run made otherwise than `method` is not resumed, and what to do. Another method's run is said by its
    method alone: two methods' parameters all differ, and listing them (fifteen, for repeats and mdr) buries the one
    difference that matters; a run of the same method, by each setting that differs."""
    before = held.described.get("method")
    if isinstance(before, str) and before and before != method:
        return (f"{hint_path(out)} holds a run of {before}, not {method}{_as_pages_say(held)}: resuming it with "
                f"{method} would mix two methods' records: choose another --out, or give --method {before} to resume "
                f"it, or --restart to extract every page again with {method}")
    return (f"{hint_path(out)} holds a run of {before} made with other settings ({'; '.join(held.differences)})"
            f"{_as_pages_say(held)}; resuming it would mix {_mixed(held)}: choose another --out, or --restart to "
            "extract every page again")


def _endpoint_said(extractor: Extractor) -> str:
    """The endpoint a resume would ask, as a run records it (Google's own when no --base-url is given)."""
    base_url = (call_settings(extractor) or {}).get("base_url")
    return str(base_url) if base_url else "Google's endpoint"


def _prompt_found_elsewhere(before: dict[str, object], extractor: Extractor) -> list[str]:
    """The prompt file given now read from another path than the run recorded (the same bytes: the same prompt,
    `run_identity`), said, as the run names it from now on."""
    old, new = before.get("parameters"), method_parameters(extractor)
    if not isinstance(old, dict) or old.get(PROMPT_SOURCE) in (None, new.get(PROMPT_SOURCE)):
        return []
    if old.get(PROMPT_SHA256) is None or old.get(PROMPT_SHA256) != new.get(PROMPT_SHA256):
        return []
    return [f"the prompt file {hint_path(new.get(PROMPT_SOURCE))} is the run's prompt, recorded as "
            f"{hint_path(old.get(PROMPT_SOURCE))} (the same SHA-256, {new.get(PROMPT_SHA256)}): resumed with it"]


def _mixed(held: _RunHeld) -> str:
    """What resuming a run made otherwise would mix: two endpoints' answers when only its endpoint differs."""
    endpoint_only = all(difference.startswith("base_url:") for difference in held.differences)
    return "two endpoints' answers" if endpoint_only else "two methods' records"


def _as_pages_say(held: _RunHeld) -> str:
    return f" (as its pages' own records say: {held.unreadable})" if held.unreadable else ""


def differences_left_by_the_restart(out: Path, extractor: Extractor) -> list[str]:
    """How the pages of `out` that hold records other settings than `extractor`'s made (the run before a --restart
    that stopped, which had not come to them) were made otherwise, each way once: what resuming the run extracts
    again (`extracted_before`); [] for none."""
    run = ResumedRun.of(out, extractor, described=_run_description(extractor))
    return ways_made_otherwise(run.pages_made_otherwise(record_files(out)))


@dataclass(frozen=True)
class _RunHeld:
    """The run a folder holds, as a resume sees it."""

    described: dict[str, object]  # its description ({} when there is none, or no page in it yet)
    differences: list[str]  # how it differs from the extractor's (`identity_differences`)
    unreadable: str | None = None  # why its run.json cannot be read, when it cannot (its pages' records then say)
    unknown: str | None = None  # ... and why its pages' own records do not say which method made it either
    endpoint_unknown: bool = False  # ... they name the method, but not the endpoint and JSON mode that answered


def _run_held(out: Path, extractor: Extractor, read: ResumedRun) -> _RunHeld:
    """The run `out` holds and how it differs from `extractor`'s; a run.json that cannot be read, by what its
    pages' own records say (`method_said_by_pages`; `read`: the folder, its pages' records read once)."""
    # no page in it yet: nothing to mix. A page that failed, or a stop left part way, holds no records but its
    # calls, paid for, which a resume keeps under "earlier" of the page's next record and counts as the run's cost
    if not any(out.glob("*.json")) and not holds_page_records(out):
        return _RunHeld({}, [])
    before, unreadable = run_description_and_problem(out)
    if not before and unreadable is None and holds_page_records(out):  # deleted: its pages' records say the run
        unreadable = f"{hint_path(out / META_DIR / 'run.json')} is gone (deleted)"
    now = _run_description(extractor)
    if unreadable:
        before, unknown = method_said_by_pages(out, read.records_of(record_files(out)))
        if unknown:
            return _RunHeld({}, [], unreadable, unknown)
        if SETTINGS not in before and run_identity(now).get(SETTINGS):
            # pages of before their endpoint was kept with them: taking the endpoint given now for theirs would
            # skip the one check that keeps two endpoints' answers out of one run, and write it into run.json
            return _RunHeld({}, [], unreadable, _endpoint_not_said(out), endpoint_unknown=True)
    # an older prompt file's run, read as made with the file given now (one reading with `score`'s, `ResumedRun`)
    before = prompt_as_recorded_now(_with_shipped_prompt(before, now), prompt_of(extractor))
    # One rule with `runs --add`'s: what makes a run the one it is (its endpoint too; a larger budget does not)
    return _RunHeld(before, identity_differences(_as_described_now(before, now), now) if before else [], unreadable)


def _endpoint_not_said(out: Path) -> str:
    """Why the pages of `out`, which name their method, do not say which endpoint answered them."""
    return (f"not every page's {META_DIR}/N.json in {hint_path(out)} says it: written before RecordLens kept it "
            "with each page")


def _as_described_now(before: dict[str, object], now: dict[str, object]) -> dict[str, object]:
    """The run held, in the parts of a description that say how its records were made (`now`'s: its method and
    settings; the pages it left out, the seeds it was asked for are no setting of the method). A setting it does
    not record is read as the one given now, as nothing says it was another: its run.json was written before
    RecordLens recorded that setting (call settings, the endpoint), or cannot be read and its pages' records name
    the method and the settings that can change an answer, not the bounds of a session."""
    kept = {key: before[key] for key in now if key in before}
    recorded, given = before.get("settings"), now.get("settings")
    if isinstance(given, dict):
        kept["settings"] = {**given, **(recorded if isinstance(recorded, dict) else {})}
    return kept


def _model_named_before(before: dict[str, object], extractor: Extractor, summary: RunSummary) -> str | None:
    """The model file the resumed run names, kept when the same model (its digest) is given from another path
    and the first still holds it: the run's pages were made by the first, which `score` looks for to say which
    pages are in-sample; said. A first file moved away or trained over gives way to the path given now."""
    from ..extract.selector import model_said

    old, new = before.get("parameters"), method_parameters(extractor)
    if not isinstance(old, dict) or old.get("model") in (None, new.get("model")):
        return None
    if not _holds_model(str(old["model"]), old.get("model_digest")):
        return None
    first = model_said(old["model"])
    summary.warnings.append(f"{model_said(new.get('model'))} is the same model as {first}, which made this run's "
                            f"pages (digest {old.get('model_digest')}): the run keeps naming {first}")
    return str(old["model"])


def _holds_model(path: str, digest: object) -> bool:
    from ..extract.selector import load_model

    try:
        return path != "default" and load_model(Path(path)).digest == digest
    except RecordLensError:
        return False


def _with_shipped_prompt(before: dict[str, object], now: dict[str, object]) -> dict[str, object]:
    """A run described before prompts were recorded was made with the shipped prompt (there was no other): read
    it so, so that such a run resumes with the shipped prompt and refuses a prompt file."""
    parameters = before.get("parameters")
    current = now.get("parameters")
    if not isinstance(parameters, dict) or not isinstance(current, dict) or PROMPT_SHA256 not in current:
        return before
    if PROMPT_SOURCE in parameters or current.get(PROMPT_SOURCE) != "shipped":
        return before
    return {**before, "parameters": {**parameters, PROMPT_SOURCE: "shipped", PROMPT_SHA256: current[PROMPT_SHA256]}}


def _refuse_predictions_of_other_pages(out: Path, pages_dir: str | Path, files: dict[str, Path],
                                       wanted: list[str], held: ResumedRun) -> None:
    """A resumed run whose folder holds predictions made on other pages under the names of these (the pages were
    replaced since, by a new synth under the same names say, or another folder of pages is given): resuming would
    keep those as this run's predictions of these pages ("already there"), which only a score would find out.
    Refused at once, naming them (each page's identity is in `_run/N.json`: `run_files.page_identity`); the
    predictions stay, since they may have been paid for. `held`: the run resumed, its pages' records read once."""
    done = [name for name in wanted if (out / f"{name}.json").is_file()]
    other = predicted_on_other_pages(out, files, done, held.records_of(done))
    if not other:
        return
    one = len(other) == 1
    raise RecordLensError(
        f"{hint_path(out)} holds predictions made on other pages under the names of {counted(len(other), 'page')} of "
        f"{hint_path(pages_dir)} ({listed(other, 8, total=True)}): {'its' if one else 'their'} texts differ from "
        f"the page{'' if one else 's'} there now (replaced since, by a new synth say, or another folder of pages); "
        f"resuming would keep {'that prediction' if one else 'those predictions'} as this run's: use --restart to "
        "extract every page again into it, or choose another --out")


def _remove_unfinished_writes(out: Path) -> None:
    """Temporary files of a write that a killed run never finished (its N.json is the old one or absent)."""
    for stale in (*out.glob(".*.json.*"), *out.glob(f"{META_DIR}/.*.json.*")):
        stale.unlink(missing_ok=True)


def _run_description(extractor: Extractor, model: str | None = None) -> dict[str, object]:
    """What `run.json` says of the run (written saying it has not finished until it has: a run killed part way
    says so when it is added to a project). `model`: the model file it names, when not the extractor's
    (`_model_named_before`)."""
    described = method_of(extractor)
    if model is not None:
        described["parameters"] = {**described["parameters"], "model": model}  # type: ignore[dict-item]
    return {**described, "settings": call_settings(extractor) or {},
            "written": datetime.now(UTC).isoformat(timespec="seconds")}


def _note_a_full_disk(out: Path, description: dict[str, object], error: OSError, summary: RunSummary) -> None:
    """`run.json` saying that a full disk stopped the run (as `score` and `runs --add` then say it), not that it
    was interrupted or killed, where the disk still takes it: a run.json is small, and a page's files that failed
    were removed. Where it does not, run.json says what it said (not finished), and the command says the disk."""
    then = f"{WITHOUT_RESTART} to resume" if summary.restarted else "run it again to resume"
    with contextlib.suppress(OSError):
        _note_how_it_ended(out, description, full_disk(out, detail=error.strerror, then=then))


def _note_how_it_ended(out: Path, description: dict[str, object], stopped: str | None) -> None:
    """`run.json` with why the run stopped early (not finished yet, a budget, a failing endpoint), or without
    it when every page was reached."""
    ended = {**description, STOPPED: stopped} if stopped else description
    atomic.write_text(out / META_DIR / "run.json", json.dumps(ended, indent=2, default=str))


