"""What a run writes for each page, and how it is read back: `OUT/N.json` (the records, written atomically as
soon as they exist), `OUT/_run/N.json` (the page's cost, or for a failed page its reason and every attempt), and
the loop that extracts pages one by one into them. The runner and every engine use this same loop, so a page's
files are the same wherever it ran.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import os
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .. import atomic
from ..command_hints import hint_path
from ..errors import RecordLensError, system_words
from ..extract.base import Extraction, ExtractionFailedError, Extractor
from ..extract.gemini import PROMPT_SHA256, PROMPT_SOURCE, PromptTemplate, prompt_from_file
from ..llm.endpoint import endpoint_identity
from ..llm.gemini import (
    GIVEN_UP,
    UNCOUNTED,
    BudgetExceededError,
    answers_without_counts,
    counts_missing,
    given_up_in_calls,
    given_up_said,
    never_read_said,
    paid_carried,
    requests_of_call,
    tokens_as_kept,
    uncounted_said,
)
from ..llm.gemini import NEVER_READ as NEVER_READ  # a run record's words, read with its other words from here
from ..page.dataset import LoadedPage, load_page, natural_key, record_files
from ..page.dom import Page
from ..page.snapshot import read_file_bytes
from ..records.model import RecordsFile, load_records, save_records
from ..wording import counted, listed
from .page_loop import Spent, run_pages, spending_told

# A run folder's page records as `read_page_costs` reads them, page -> its `_run/N.json`
PageCosts = Mapping[str, Mapping[str, object]]

META_DIR = "_run"
DONE, FAILED = "done", "failed"
NOT_FINISHED = "not finished"  # _run/N.json of a page its run stopped on, after calls on it were paid for
STOPPED = "stopped"  # run.json's key for why a run ended before every page was reached
UNFINISHED = "it did not finish (interrupted or killed); run it again to resume"
# _run/N.json's key, in the record a page's calls write as its budget counts them (`_PageInFlight`): the session that
# wrote it. This process's own is the page it is extracting, whose next record takes its place; any other is a page
# its session stopped on part way without a word (it was killed), its calls paid for: kept under "earlier"
IN_FLIGHT = "in_flight"
KILLED_PART_WAY = ("the run ended part way through this page without saying why (killed, or the machine stopped): "
                   "the requests and tokens counted on the page until then are kept")
_REASON_LIMIT = 2000  # characters of an unexpected error's message kept (a page can make a huge one)

MADE_ON = "page"  # _run/N.json's key for the page a prediction was made on (`page_identity`)
OTHER_PAGES = "made_on_other_pages"  # a stored run's cost: the pages its predictions were made on other pages of
# run.json's key (and a stored run's cost's) for the pages of the folder a run left out on purpose, name -> why: a
# page it was never meant to extract, which `score` must not take for one a stop kept it from (and advise a rerun)
LEFT_OUT = "left_out"
# run.json's key, in each seed-S/ of a run written with --seeds N, for every seed the command asked: a run stopped
# before its last seed is then not taken for a run of fewer seeds (`evaluate.seeds_asked`)
SEEDS_ASKED = "seeds"
# run.json's key for the call settings (`Extractor.settings`); a done page's _run/N.json keeps, under it, those that
# can change its answer (`settings_said_by_pages`)
SETTINGS = "settings"
NO_ANSWERS = "the method has no answers for it"  # why replay leaves a page out: no recorded answer is for it
# A stored run's cost: the pages its folder's records said were done but whose N.json was gone when it was stored
# (deleted by hand, or a stop between the page's two writes), so that `score` says so rather than "not given"
FILES_MISSING = "prediction_files_missing"
# A stored run's cost: the pages whose N.json its folder held when it was stored but the project did not hold (no
# page of that name then), left out of it: `score` says so once the page is in the project rather than "not given",
# and `runs --add` of the folder again brings their predictions in
NOT_IN_PROJECT = "pages_not_in_the_project"
# A stored run's cost: the folder it was first added from, when it is stored again from its deleted copy (whose
# `source` is the copy): only that folder holds the predictions of the pages the project lacked (`NOT_IN_PROJECT`)
ADDED_FROM = "added_from"
# run.json's key, in a deleted run's copy (`runs.write_run_folder`), for what the run's stored cost held that the
# copy's files cannot give back (`COPIED_COST`): `runs --add` of the copy takes it into the cost again
STORED_COST = "stored_cost"
# run.json's key, in a deleted run's copy, for when the run ended (the copy's files are written as it is deleted):
# `runs --add` of the copy keeps it as the run's end
ENDED = "ended"
# A run's cost's key for the model requests its pages' records say were sent (`summed_cost`): every attempt, a 429's
# and a retry's too (`requests_of_call`), where "calls" counts a run's call records (one call may make several)
REQUESTS = "requests"
# The cost keys that travel with a run through its deleted copy and back, taken as they are: what it paid (its pages'
# count, seconds, tokens, model calls and requests: the copy holds no _run/N.json of a page it did) and where it
# came from
COPIED_AS_THEY_ARE = ("pages", "seconds", "tokens", "calls", REQUESTS, ADDED_FROM)
# ... and with them what its folder said of its pages when it was added (pages it predicted on other pages, pages
# whose N.json was gone, pages the project lacked), each kept for the pages the project holds when it comes back
COPIED_COST = (*COPIED_AS_THEY_ARE, OTHER_PAGES, FILES_MISSING, NOT_IN_PROJECT)


@dataclass
class RunSummary:
    out_dir: Path
    wanted: list[str] = field(default_factory=list)  # the pages the run is to hold, in order
    extracted: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    stopped: str | None = None  # why the run stopped early (budget, a failing endpoint), if it did
    stopped_on: str | None = None  # the page it stopped on part way, its paid calls kept in _run/N.json
    not_reached: list[str] = field(default_factory=list)  # pages a stopped run never came to (or never finished)
    endpoint_failed: bool = False  # it stopped because the model endpoint kept failing
    endpoint_failures: int = 0  # the last pages, in a row, whose model endpoint failed for good
    seconds: float = 0.0
    tokens: dict[str, int] = field(default_factory=dict)
    requests: int | None = None  # the model requests the run made (each attempt is one, as its budget counts them)
    warnings: list[str] = field(default_factory=list)
    restarted: bool = False  # an extract --restart: its stop says to go on without --restart (`stop_said`)


def extract_pages(extractor: Extractor, files: dict[str, Path], wanted: list[str], out: Path,
                  summary: RunSummary, *, resume: bool,
                  progress: Callable[[list[str]], Iterable[str]] = lambda names: names,
                  held: ResumedRun | None = None) -> None:
    """The loop over pages (`page_loop.run_pages`, with its stop rules), here and in order: each page's files
    written atomically as soon as it is done, what happened added to `summary`. An engine runs this same loop on
    one page per unit of work. `held`: for a resume, the run resumed as read already (its pages' records read
    once), else read here. What a page spends is written in its `_run/N.json` as its budget counts it
    (`_PageInFlight`), so that a process killed part way through it keeps what it paid for."""
    caller = getattr(extractor, "caller", None)
    in_flight = _PageInFlight(out, summary)

    def extract(name: str) -> tuple[dict[str, str], Extraction]:
        with in_flight.page(name, caller):
            data = read_file_bytes(files[name])
            loaded = load_page(files[name], name, data=data)
            made_on = page_identity(loaded, data)  # of the bytes parsed: a file replaced meanwhile is not named for it
            try:
                return made_on, extractor.extract(loaded.page)
            except Exception:
                raise
            except BaseException as stop:
                if isinstance(paid := paid_carried(stop), dict):
                    # Ctrl+C, SIGTERM part way through the page: what it paid for is kept as a budget stop keeps it,
                    # and the interrupt goes on (the command says it, and exits as interrupted)
                    _record_stop(out, name, str(paid.get("reason") or "interrupted"), paid, summary)
                raise

    # kept with each page's answer: a run.json that cannot be read then still has pages that say their endpoint
    made_with = settings_said_by_pages(call_settings(extractor) or {})
    if resume and held is None:
        held = ResumedRun.of(out, extractor)
    try:
        end = run_pages(_not_extracted_before(progress(wanted), out, summary, held), extract,
                        answered=functools.partial(_keep_extraction, out, summary, made_with),
                        failed=functools.partial(_keep_failure, out, summary),
                        stopped=functools.partial(_keep_stop, out, summary))
    finally:
        in_flight.ended()
    summary.endpoint_failures = end.endpoint_failures
    if end.endpoint_failed:
        stop_for_the_endpoint(summary, end.reason)
    elif end.stopped_on is not None:
        summary.stopped = stop_said(end.reason, end.stopped_on, restarted=summary.restarted)


RESUME_FROM = "; run again to resume from page "
# How a stopped --restart goes on (its stop, and its Ctrl+C line, say it alike): the same command with --restart
# would start over, and pay again for the pages it did
WITHOUT_RESTART = "run the same command without --restart"
# What a run's extract command run again without --restart does of its pages whose records other settings made
# (`made_otherwise_message`), as `runs --add`, `score` and a stored run's refusal advise it
EXTRACTS_THEM_AGAIN = ("extracts them again with the run's settings (those among the pages it is given: it sets the "
                       "others aside)")
RESTART_STARTS_OVER = "with --restart it would start over and extract every page again"


def stop_said(reason: str, resume_from: str, *, restarted: bool = False) -> str:
    """A stopped run's stop as its summary and `run.json` say it: why, and the page running it again begins at
    (for an extract --restart, running it again without --restart)."""
    if restarted:
        return f"{reason}; {WITHOUT_RESTART} to resume from page {resume_from} ({RESTART_STARTS_OVER})"
    return f"{reason}{RESUME_FROM}{resume_from}"


def _not_extracted_before(names: Iterable[str], out: Path, summary: RunSummary,
                          held: ResumedRun | None) -> Iterator[str]:
    """`names` but those a resumed run (`held`: None for a --restart) holds already, which are noted skipped as the
    loop comes to them."""
    for name in names:
        if held is not None and extracted_before(out, name, summary, held):
            summary.skipped.append(name)
        else:
            yield name


def _keep_extraction(out: Path, summary: RunSummary, made_with: dict[str, object], name: str,
                     answer: tuple[dict[str, str], Extraction]) -> None:
    made_on, extraction = answer
    # The records file last: its presence is what a resume takes for done (`extracted_before`), so a stop between
    # the two writes (a full disk) leaves the page to extract again, not done without its cost record for good
    earlier = make_way_for_a_record(out, name)
    _write_page_cost(out, name, extraction, made_on, made_with, earlier)
    save_records(out / f"{name}.json", extraction.records)
    summary.extracted.append(name)
    summary.warnings.extend(f"page {name}: {w}" for w in extraction.warnings)
    add_tokens(summary.tokens, extraction.tokens or {})


def _keep_failure(out: Path, summary: RunSummary, name: str, error: Exception) -> None:
    if isinstance(error, ExtractionFailedError):
        record_failure(out, name, error.reason, error.details, summary)
    elif isinstance(error, RecordLensError):
        record_failure(out, name, str(error), {}, summary)
    else:  # one page's bug or bad bytes: said with its kind, cut (a page can make a huge message)
        record_failure(out, name, f"{type(error).__name__}: {error}"[:_REASON_LIMIT], {}, summary)


def _keep_stop(out: Path, summary: RunSummary, name: str, error: BudgetExceededError) -> None:
    details = getattr(error, "details", None)
    if details:  # calls on this page were paid for before the budget ran out: kept, not thrown away
        _record_stop(out, name, str(error), details, summary)


# The sessions of this process that have a page in flight (`_PageInFlight`): a page's record one of them wrote is the
# record its page's own next record takes the place of, not one to keep under "earlier" as a killed session's is
_IN_FLIGHT_HERE: set[str] = set()


class _PageInFlight:
    """The page a run is extracting, its `_run/N.json` written each time its budget counts (`spending_told`): not
    finished, with what the page has spent so far (`spent_record`: a request awaited among its answers whose tokens
    are unknown, until its answer is read or its attempt ends), its earlier records kept, its records file gone
    (as for any new record of the page: `make_way_for_a_record`). The record the page ends with (its answer, its
    failure, its stop) takes its place, keeping the same earlier records; a process killed (SIGKILL) before leaves
    it, and it is then a page the run stopped on part way: a resume keeps it under "earlier", `runs --add` counts
    it, and `score` names the page as the one the run stopped on. The session's mark stays this process's until
    the next page begins or the loop ends, since the page's own record is written once its extraction returns."""

    def __init__(self, out: Path, summary: RunSummary) -> None:
        self._out, self._summary = out, summary
        self._session: str | None = None
        self._earlier: dict[str, object] | None = None  # the page's earlier records, once its first write took them
        self._begun = 0.0

    @contextmanager
    def page(self, name: str, caller: object) -> Iterator[None]:
        """Page `name` asked of the model through `caller` (its budget counts what it spends; none: nothing is
        written until the page ends)."""
        self.ended()
        self._session, self._earlier, self._begun = uuid.uuid4().hex, None, time.monotonic()
        _IN_FLIGHT_HERE.add(self._session)
        with spending_told(getattr(caller, "budget", None), functools.partial(self._write, name, self._session),
                           attempts=caller):
            yield

    def ended(self) -> None:
        if self._session is not None:
            _IN_FLIGHT_HERE.discard(self._session)
        self._session = None

    def _write(self, name: str, session: str, spent: Spent) -> None:
        try:
            if self._earlier is None:
                self._earlier = make_way_for_a_record(self._out, name)
            kept = {IN_FLIGHT: session, **spent_record(spent, time.monotonic() - self._begun, spent.awaited)}
            write_unfinished_record(self._out, name, str(kept.pop("reason")), self._earlier, kept)
        except OSError as error:  # the request goes on (it is counted): the page's own record may yet be written
            said = (f"page {name}: what its calls spent could not be written as they were made "
                    f"({system_words(error)}); a process killed before the page ends would lose it")
            if said not in self._summary.warnings:
                self._summary.warnings.append(said)


def spent_record(spent: Spent, seconds: float, unread: int = 0) -> dict[str, object]:
    """A page's record of what it spent, as its budget counted it (`Spent`), while it is asked: not finished, its
    seconds so far, its tokens as a run keeps them, and its requests as one call of that many attempts (the calls'
    own statuses and answers are in the record the page ends with). Written so, a record of a page whose process
    was killed part way through it reads as any page stopped part way does: `summed_cost`, `requests_of_call`.
    `unread`: of its requests, those sent whose answer was not read yet (awaited as the record is written): each is
    among its answers without token counts (`NEVER_READ`), since a process killed while it waits, or an app that
    quits without it, can write nothing after; the record the page ends with says what the answer cost."""
    uncounted = spent.uncounted + unread
    tokens = {**({"total": spent.tokens} if spent.tokens else {}), **({UNCOUNTED: uncounted} if uncounted else {})}
    call = {"attempts": spent.requests, **({"tokens": {"total": spent.tokens}} if spent.tokens else {}),
            **({GIVEN_UP: spent.given_up} if spent.given_up else {})}
    return {"status": NOT_FINISHED, "reason": KILLED_PART_WAY, "seconds": round(seconds, 3),
            **({"tokens": tokens_as_kept(tokens)} if tokens else {}),
            **({"warnings": [never_read_said(unread)]} if unread else {}),
            "raw": {"calls": [call]}}


def _in_flight_here(record: Mapping[str, object]) -> bool:
    """Whether a page's record is the one this process writes as the page is asked (`_PageInFlight`)."""
    session = record.get(IN_FLIGHT)
    return isinstance(session, str) and session in _IN_FLIGHT_HERE


def note_not_reached(summary: RunSummary, wanted: list[str]) -> None:
    """The pages a stopped run never came to (the page it stopped on part way is said apart)."""
    if not summary.stopped:
        return
    seen = {*summary.extracted, *summary.skipped, *summary.failed, summary.stopped_on}
    summary.not_reached = [name for name in wanted if name not in seen]


def exit_status(*, stopped: bool = False, endpoint_failed: bool = False, failed: bool = False) -> int:
    """The exit status of a command that runs an extractor over pages (extract, bench): 4 when the model endpoint
    failed for good, 3 when a budget stopped it, 1 when pages failed, 0 when every page was answered."""
    if stopped:
        return 4 if endpoint_failed else 3
    return 1 if failed else 0


# In a run folder's `_run/`: each `set-aside.STAMP/` keeps the pages a run took out of the folder as not its own
# (`set_aside_pages`), laid out as a run folder; never read as the run's (`score` and `runs --add` read the folder's
# own N.json and _run/N.json only), never deleted
SET_ASIDE = "set-aside"
_SET_ASIDE_TRIES = 100  # names tried (`set-aside.STAMP`, `set-aside.STAMP-1`, ...): two runs in one second, or more


def pages_held(out: Path) -> list[str]:
    """The pages a run folder holds anything of: their records (`N.json`), or their own record (`_run/N.json`: a
    failed page, or one a stop left paid for, holds only that)."""
    records = _page_files(out / META_DIR)
    records.pop("run", None)  # the run's description, no page's record
    return sorted({*_page_files(out), *records}, key=natural_key)


def _page_files(folder: Path) -> dict[str, list[Path]]:
    """Page name -> the files of `folder` named for it (`7.json`, and `7.JSON` too where both are: a page's
    records, as `record_files` reads them); hidden files (a write in progress) aside."""
    found: dict[str, list[Path]] = {}
    for entry in sorted(folder.iterdir()) if folder.is_dir() else []:
        if entry.suffix.lower() == ".json" and not entry.name.startswith("."):
            found.setdefault(entry.stem, []).append(entry)
    return found


def set_aside_pages(out: Path, names: Sequence[str], *, description: bool = False) -> Path:
    """Move pages `names` of the run folder `out` (their `N.json` and `_run/N.json`) into a new folder
    `_run/set-aside.STAMP/`, laid out as a run folder, and return it; with the folder's `_run/run.json` copied there
    when `description` (the run that made them, before a --restart writes its own over it). Each page's records go
    before its record, in the order `make_way_for_a_record` keeps: a stop between the two leaves a record without
    records (a prediction file missing, said so), never records without the record saying what made them (which
    would be taken for the run's)."""
    folder = _new_set_aside_folder(out / META_DIR)
    (folder / META_DIR).mkdir()
    described = out / META_DIR / "run.json"
    if description and described.is_file():
        atomic.write_bytes(folder / META_DIR / "run.json", described.read_bytes())
    records, own = _page_files(out), _page_files(out / META_DIR)
    for name in names:
        for path in records.get(name, []):
            os.replace(path, folder / path.name)
        for path in own.get(name, []) if name != "run" else []:
            os.replace(path, folder / META_DIR / path.name)
    for moved in (out, out / META_DIR, folder, folder / META_DIR):  # the moves survive a power cut
        atomic.sync_folder(moved)
    return folder


def _new_set_aside_folder(parent: Path) -> Path:
    stamp = f"{SET_ASIDE}.{datetime.now(UTC).strftime('%Y-%m-%dT%H-%M-%SZ')}"
    parent.mkdir(exist_ok=True)
    for tried in range(_SET_ASIDE_TRIES):
        folder = parent / (stamp if tried == 0 else f"{stamp}-{tried}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(f"{hint_path(parent)} holds too many folders named {stamp}")


def holds_page_records(folder: Path) -> bool:
    """Whether a folder's `_run/` holds a page's own record (`_run/N.json`, whatever it says): it is a run's folder,
    its run.json there or not."""
    return any(name != "run" for name in _page_files(folder / META_DIR))


def holds_a_single_run(folder: Path) -> bool:
    """Whether a folder holds a run of its own (its description or its N.json) rather than only seed-S/ folders
    of a run written with --seeds."""
    return (folder / META_DIR / "run.json").is_file() or any(folder.glob("[!.]*.json"))


def stop_for_the_endpoint(summary: RunSummary, stop: str) -> None:
    """A run its failing endpoint stopped (`stop`: `page_loop.endpoint_stop`'s words), and what to do next."""
    again = f"{WITHOUT_RESTART} to resume ({RESTART_STARTS_OVER})" if summary.restarted else "run again to resume"
    summary.stopped = f"{stop}, then {again}"
    summary.endpoint_failed = True


def extracted_before(out: Path, name: str, summary: RunSummary, held: ResumedRun | None = None) -> bool:
    """Whether a resumed run holds page `name` already: its N.json is there and reads as records, and (`held`: the
    run resumed) its record does not say other settings made them: a page a stopped --restart did not reach holds
    the earlier run's records (`made_otherwise`), extracted again (said once by the runner). One that does not
    read (cut short, emptied or edited by hand: this run writes whole files only) is extracted again, and said."""
    target = out / f"{name}.json"
    if not target.exists():
        return False
    if held is not None and held.made_otherwise(name):
        return False
    try:
        load_records(target)
    except RecordLensError as error:
        summary.warnings.append(f"page {name}: {error}; extracted again")
        return False
    return True


def _write_page_cost(out: Path, name: str, extraction: Extraction, made_on: dict[str, str],
                     made_with: dict[str, object], earlier: dict[str, object]) -> None:
    """A page's record: `made_with`, the call settings that made its answer (`settings_said_by_pages`), beside its
    method and parameters, so that the page says what made it without its run.json (`method_said_by_pages`);
    `earlier`, what earlier runs paid for on it (`earlier_records`)."""
    cost = {"status": DONE, MADE_ON: made_on, **asdict(extraction), **({SETTINGS: made_with} if made_with else {}),
            **earlier}
    cost.pop("records")
    if extraction.tokens:  # answers without token counts kept as such, not as 0 tokens
        cost["tokens"] = tokens_as_kept(extraction.tokens)
    atomic.write_text(out / META_DIR / f"{name}.json", json.dumps(cost, indent=1, default=str))


def _record_stop(out: Path, name: str, reason: str, details: dict[str, object], summary: RunSummary) -> None:
    """The page a budget ran out on part way (or an interrupt cut short): its paid calls in `_run/N.json`, marked
    not finished, and no `N.json` (the next run asks the page again, keeping these calls under "earlier")."""
    earlier = make_way_for_a_record(out, name)
    kept = _tokens_kept(details)
    write_unfinished_record(out, name, reason, earlier, kept)
    summary.stopped_on = name
    add_tokens(summary.tokens, kept.get("tokens") or {})  # type: ignore[arg-type]


def write_unfinished_record(out: Path, name: str, reason: str, earlier: Mapping[str, object],
                            kept: Mapping[str, object]) -> None:
    """A page's record of calls paid for that gave no answer kept (a budget's stop part way, a Ray worker that
    died): not finished, with what is `kept` of them (tokens, calls), the `earlier` records of the page, and when."""
    record = {"status": NOT_FINISHED, **kept, "reason": reason, **earlier,
              "stopped": datetime.now(UTC).isoformat(timespec="seconds")}
    atomic.write_text(out / META_DIR / f"{name}.json", json.dumps(record, indent=1, default=str))


def make_way_for_a_record(out: Path, name: str) -> dict[str, object]:
    """Before page `name`'s new record is written (its answer, its failure, or the calls a stop left paid for): what
    earlier runs paid for on it (`earlier_records`), read while its records file is still there (a --restart's page
    done before paid no more), and that records file gone, or a stop between the writes would leave an earlier
    run's records (a --restart's page, or one made otherwise) beside the new record, taken for its answer's."""
    earlier = earlier_records(out, name)
    (out / f"{name}.json").unlink(missing_ok=True)
    return earlier


def earlier_records(out: Path, name: str) -> dict[str, object]:
    """What earlier runs of this folder paid for on this page (a page a budget stopped part way, one that failed:
    a refused answer is paid for too, or one whose records file a stop kept from being written), to keep beside
    this run's record of the page: {"earlier": [...]}, or {} when there was none."""
    before = page_record(out, name)
    if _in_flight_here(before):  # this process's record of the page as it is asked: what it kept of earlier runs
        older = before.get("earlier")
        return {"earlier": older} if isinstance(older, list) and older else {}
    if not _paid_but_not_kept(out, name, before):
        return {}
    older = before.pop("earlier", [])
    return {"earlier": [*(older if isinstance(older, list) else []), before]}


def paid_without_records(out: Path, names: Iterable[str]) -> list[str]:
    """Of `names`, the pages whose record in `out` is of calls paid for that gave no answer kept (a page failed,
    or stopped part way): what the page's next record keeps under "earlier" (`earlier_records`), as its run's."""
    return [name for name in names if _paid_but_not_kept(out, name, page_record(out, name))]


def _paid_but_not_kept(out: Path, name: str, record: dict[str, object]) -> bool:
    """Whether a page's record is of calls paid for that gave no kept answer: a page stopped part way, one that
    failed, or one done whose records file was never written (a stop between its two writes: a full disk)."""
    status = record.get("status")
    return status in (NOT_FINISHED, FAILED) or (status == DONE and not (out / f"{name}.json").exists())


def record_failure(out: Path, name: str, reason: str, details: dict[str, object], summary: RunSummary) -> None:
    """A failed page: its reason and attempts in `_run/N.json`, and no `N.json` (an earlier one would be taken
    for this run's answer)."""
    earlier = make_way_for_a_record(out, name)
    kept = _tokens_kept(details)
    record = {"status": FAILED, **kept, "reason": reason, **earlier,
              "failed": datetime.now(UTC).isoformat(timespec="seconds")}
    atomic.write_text(out / META_DIR / f"{name}.json", json.dumps(record, indent=1, default=str))
    summary.failed[name] = reason
    add_tokens(summary.tokens, kept.get("tokens") or {})  # type: ignore[arg-type] # a refused answer is paid for too


def _tokens_kept(details: dict[str, object]) -> dict[str, object]:
    """A failed or stopped page's details with their tokens as a run keeps them (`tokens_as_kept`): its answers',
    and the answers given up at --timeout-s in its calls that ended without one (paid for, their tokens unknown,
    said as a warning of the page), which no answer's usage holds."""
    tokens = details.get("tokens")
    tokens = dict(tokens) if isinstance(tokens, dict) else {}
    given_up = given_up_in_calls(model_calls(details.get("raw")))
    if given_up:
        tokens[UNCOUNTED] = int(tokens.get(UNCOUNTED) or 0) + given_up
        warnings = details.get("warnings")
        details = {**details, "warnings": [*(warnings if isinstance(warnings, list) else []),
                                           given_up_said(given_up)]}
    return {**details, "tokens": tokens_as_kept(tokens)} if tokens else details


def paid_tokens(cost: dict[str, object]) -> dict[str, int]:
    """The tokens a page's record says were paid for: this run's and every earlier attempt's (`earlier`), with the
    answers that came without token counts (`UNCOUNTED`) among them."""
    tokens: dict[str, int] = {}
    for record in [cost, *(cost.get("earlier") or [])]:  # type: ignore[list-item]
        if isinstance(record, dict):
            add_tokens(tokens, record_tokens(record))
    return tokens


def record_tokens(record: Mapping[str, object]) -> dict[str, int]:
    """The tokens of one page's record (not its earlier ones). A record written before answers without token
    counts were kept as such holds 0s for them: they are found by its calls (an answer's call record holds its
    usage, {} without counts), so that an older run's cost does not read them as free either; so are the answers
    given up at the time limit in its calls that ended without one, which a record kept as the app keeps a failed
    page's (its extraction's details as they are, not `_tokens_kept`) holds only there."""
    tokens = record.get("tokens")
    kept = dict(tokens) if isinstance(tokens, dict) else {}
    if UNCOUNTED not in kept:
        calls = model_calls(record.get("raw"))
        answers = [call.get("tokens") for call in calls]
        uncounted = sum(1 for usage in answers if isinstance(usage, dict) and counts_missing(usage))
        if uncounted := uncounted + given_up_in_calls(calls):
            kept = tokens_as_kept({**kept, UNCOUNTED: uncounted})
    return kept


def model_calls(raw: object) -> list[dict[str, object]]:
    """The model calls an extraction's `raw` (or a failure's details' `raw`) lists, each as a page's record keeps
    it (attempts, statuses, tokens); [] when it lists none."""
    calls = raw.get("calls") if isinstance(raw, dict) else None
    return [call for call in calls if isinstance(call, dict)] if isinstance(calls, list) else []


def add_tokens(total: dict[str, int], tokens: Mapping[str, object]) -> None:
    """Add a record's token counts, kind by kind, to `total`."""
    for key, value in dict(tokens).items():
        total[key] = total.get(key, 0) + int(value)  # type: ignore[call-overload]


def summed_cost(records: Iterable[dict[str, object]]) -> dict[str, object]:
    """A run's cost from its pages' records (as `_run/N.json` holds them): how many, their seconds, and the model
    requests (`REQUESTS`) and tokens paid for (earlier attempts included), each only when some were."""
    records = list(records)
    tokens: dict[str, int] = {}
    for record in records:
        add_tokens(tokens, paid_tokens(record))
    requests = sum(map(paid_requests, records))
    seconds = sum(float(record.get("seconds") or 0.0) for record in records)  # type: ignore[arg-type]
    return {"pages": len(records), "seconds": round(seconds, 3), **({REQUESTS: requests} if requests else {}),
            **({"tokens": tokens} if tokens else {})}


def paid_requests(record: Mapping[str, object]) -> int:
    """The model requests a page's record says were sent: its calls' attempts (`requests_of_call`), and every
    earlier attempt's at the page (`earlier`)."""
    earlier = record.get("earlier")
    kept = [record, *(earlier if isinstance(earlier, list) else [])]
    return sum(requests_of_call(call) for each in kept if isinstance(each, Mapping)
               for call in model_calls(each.get("raw")))


def cost_requests(cost: Mapping[str, object]) -> int | None:
    """The model requests a stored run's cost says it sent: its `REQUESTS`, or for a run stored before they were
    kept, those its pages' records (`page_costs`, the app's) say; None when it says nothing of them."""
    requests = cost.get(REQUESTS)
    if isinstance(requests, int):
        return requests
    pages = cost.get("page_costs")
    if isinstance(pages, dict) and pages:
        return sum(paid_requests(record) for record in pages.values() if isinstance(record, dict))
    return None


def tokens_said(tokens: Mapping[str, int]) -> str:
    """", 7,600 tokens (3,376 prompt, 224 completion, 4,000 thinking)": a run's tokens with their kinds (thinking,
    billed as output but not in the completion, is named when the model reported it); "" for none. Answers that came
    without token counts are said beside the tokens counted, never summed into them as 0 (", 0 tokens counted, and
    5 answers without token counts (their tokens unknown, not 0)")."""
    if not tokens:
        return ""
    total = tokens.get("total", 0)
    kinds = ", ".join(f"{tokens[kind]:,} {kind}" for kind in ("prompt", "completion", "thinking") if kind in tokens)
    said = f", {total:,} tokens" + (f" ({kinds})" if kinds and total else "")
    uncounted = answers_without_counts(tokens)
    return said + (f" counted, and {uncounted_said(uncounted)}" if uncounted else "")


def spent_said(cost: Mapping[str, object]) -> str:
    """What a stored run spent on a model, in the words a run's closing line says it (`tokens_said`): "3 requests,
    1,360 tokens (1,200 prompt, 160 completion)", its answers whose tokens are unknown said beside them; "" for a
    run whose cost says nothing of requests or tokens (a method that calls no model)."""
    requests = cost_requests(cost)
    tokens = cost.get("tokens")
    said = tokens_said(tokens) if isinstance(tokens, dict) else ""
    if requests is None:
        return said.removeprefix(", ")
    return f"{counted(requests, 'request')}{said}"


def done_without_a_file(run_dir: str | Path, costs: PageCosts | None = None) -> list[str]:
    """The pages a run's own records (`_run/N.json`) say it did, whose prediction file (`N.json`) is not there:
    deleted by hand, or never written (a stop between the page's two writes). Extracting again brings them back.
    `costs`: the folder's records already read (`read_page_costs`), else read here."""
    run = Path(run_dir)
    return [name for name, cost in _costs_of(run, costs).items()
            if cost.get("status") == DONE and not (run / f"{name}.json").exists()]


def stopped_part_way(run_dir: str | Path, costs: PageCosts | None = None) -> list[str]:
    """The pages a run stopped on part way: their records (`_run/N.json`) say not finished, their paid calls kept,
    and no prediction file (`N.json`) is there. `costs`: the folder's records already read, else read here."""
    run = Path(run_dir)
    return [name for name, cost in _costs_of(run, costs).items()
            if cost.get("status") == NOT_FINISHED and not (run / f"{name}.json").exists()]


def _costs_of(run_dir: str | Path, costs: PageCosts | None) -> PageCosts:
    """The folder's page records: `costs` when its caller read them already (`runs --add` reads each once and asks
    many questions of them), else read now (slim: only asked about)."""
    return read_page_costs(run_dir, slim=True) if costs is None else costs


def files_missing(described: Mapping[str, object]) -> list[str]:
    """The pages a stored run's cost records as done by its folder but without their N.json (`FILES_MISSING`);
    [] when it records none."""
    return _pages_listed(described, FILES_MISSING)


def made_on_other_pages(described: Mapping[str, object]) -> list[str]:
    """The pages a stored run's cost records as predicted on other pages of their names (`OTHER_PAGES`); [] when it
    records none."""
    return _pages_listed(described, OTHER_PAGES)


def stored_cost(described: Mapping[str, object], keys: Sequence[str] = COPIED_COST) -> dict[str, object]:
    """What a deleted run's copy's run.json (`STORED_COST`) keeps of the run's cost (`keys` of it: `COPIED_COST`
    unless said); {} for any other run folder."""
    kept = described.get(STORED_COST)
    return {key: kept[key] for key in keys if key in kept} if isinstance(kept, dict) else {}


def not_in_project(described: Mapping[str, object]) -> list[str]:
    """The pages a stored run's cost records as predicted in its folder but left out, the project holding no page
    of that name when the run was stored (`NOT_IN_PROJECT`); [] when it records none."""
    return _pages_listed(described, NOT_IN_PROJECT)


def _pages_listed(described: Mapping[str, object], key: str) -> list[str]:
    """The page names a run's description (or stored cost) lists under `key`; [] when it lists none, or holds
    something else there (an older run, a file edited by hand)."""
    names = described.get(key)
    return [str(name) for name in names] if isinstance(names, list) else []


def ran_to_its_end(described: Mapping[str, object]) -> bool:
    """Whether a run went through every page it was given, as its description says (a folder's run.json, or a
    stored run's method, parameters and stop: `stored_run_description`): it names what made it (its method and the
    method's version, as an extract writes them) and no stop (an extract writes its stop, "did not finish" while it
    runs). A folder without a run.json, or with one written by hand that names no version, may have been cut short
    for all it says. Scoring a folder and scoring it once stored judge it by this one rule."""
    return bool(described.get("method")) and "version" in described and not described.get(STOPPED)


def stored_run_description(method: str, status: str, parameters: Mapping[str, object],
                           cost: Mapping[str, object]) -> dict[str, object]:
    """A stored run described as its folder's run.json described it (`import_run_folder` keeps the method apart,
    the rest as its parameters, and the stop in its cost), for `ran_to_its_end`; a run not "finished" (running,
    failed, cancelled) is described as stopped."""
    stopped = cost.get(STOPPED) or (None if status == "finished" else status)
    return {**parameters, "method": method, **({STOPPED: stopped} if stopped else {})}


def failed_pages(run_dir: str | Path, costs: PageCosts | None = None) -> dict[str, str]:
    """Page name -> reason, for the pages of a run that failed and have no prediction since. `costs`: the
    folder's records already read, else read here."""
    run = Path(run_dir)
    return {name: str(cost.get("reason") or "failed") for name, cost in _costs_of(run, costs).items()
            if cost.get("status") == FAILED and not (run / f"{name}.json").exists()}


def read_run_description(run_dir: str | Path, warnings: list[str] | None = None) -> dict[str, object]:
    """What `RUN/_run/run.json` says made the run (method, version, parameters, ...); {} without one, or when it
    cannot be read (said in `warnings` when given)."""
    described, problem = run_description_and_problem(run_dir)
    if problem and warnings is not None:
        warnings.append(f"{problem}; the run is stored without its description")
    return described


def left_out_pages(described: Mapping[str, object]) -> dict[str, str]:
    """The pages a run left out on purpose, name -> why, as its run.json (or a stored run's cost) records them; {}
    when it records none."""
    left_out = described.get(LEFT_OUT)
    if not isinstance(left_out, dict):  # an older run, or a file edited by hand: it says nothing of them
        return {}
    return {str(name): str(why) for name, why in left_out.items()}


def unnamed_method_message(run_dir: str | Path) -> str | None:
    """Why a run folder does not say which method made it, as the sentence that asks for --method; None when its
    `_run/run.json` names the method. A file that is there but cannot be read is said as such, not as missing."""
    path = Path(run_dir) / META_DIR / "run.json"
    described, problem = run_description_and_problem(run_dir)
    if described.get("method"):
        return None
    why = problem or (f"{hint_path(path)} names no method" if path.is_file() else f"no {META_DIR}/run.json")
    return f"{hint_path(run_dir)} does not say which method made it ({why}); give its name (--method)"


def run_description_and_problem(run_dir: str | Path) -> tuple[dict[str, object], str | None]:
    """`RUN/_run/run.json` as a dict, and why it says nothing when it is there but cannot be read as one (empty, cut
    short, edited by hand): ({}, None) when there is none."""
    path = Path(run_dir) / META_DIR / "run.json"
    if not path.is_file():
        return {}, None
    try:
        text = path.read_text(encoding="utf-8")
        if not text.strip():
            return {}, f"{hint_path(path)} cannot be read: it is empty"
        described = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        return {}, f"{hint_path(path)} cannot be read: {system_words(error)}"
    if not isinstance(described, dict):
        return {}, f"{hint_path(path)} cannot be read: it holds a {type(described).__name__}, not a run's description"
    return described, None


# The call settings of a run's description (run.json's `settings`) that only bound the session that wrote it: how
# long a call is waited for, how often and after what waits it is tried again, how much the session may spend. A
# page's prediction is the model's answer whatever they were (they decide only whether the session got one before
# it gave up or stopped), so a run resumed with others (a larger budget, a longer timeout) goes on as the same run.
# The other settings can change the answers themselves: the endpoint asked (`base_url`), the JSON output mode.
SESSION_BOUNDS = frozenset({"timeout_s", "max_attempts", "backoff_s", "max_backoff_s", "max_retry_after_s",
                            "malformed_retries", "max_requests", "max_tokens"})


def run_identity(described: Mapping[str, object]) -> dict[str, object]:
    """What of a run's description (a folder's run.json, or the parameters a project stored it with) makes the run
    the one it is: the whole description but when it was written, how it ended, and the bounds of its last session
    (`SESSION_BOUNDS`); its endpoint as the endpoint it names (`endpoint_identity`: a slash ending the address is no
    other endpoint), and its prompt by its SHA-256 where it records one (the same bytes read from another path, or
    from another folder, are the same prompt: its source is for people). Whether a folder holds a run stored before
    (`runs --add`), and whether a resume has anything to write to its run.json, are judged by this, and nothing
    else."""
    kept = {key: value for key, value in described.items() if key not in ("written", STOPPED)}
    settings = kept.get("settings")
    if isinstance(settings, dict):
        kept["settings"] = _settings_identity(settings)
    parameters = kept.get("parameters")
    if isinstance(parameters, dict) and parameters.get(PROMPT_SHA256) is not None:
        kept["parameters"] = {key: value for key, value in parameters.items() if key != PROMPT_SOURCE}
    return json.loads(json.dumps(kept, default=str))  # as run.json and the project hold it: a tuple as a list


def _settings_identity(settings: Mapping[str, object]) -> dict[str, object]:
    """The call settings that can change a run's answers (all but `SESSION_BOUNDS`), its endpoint as the endpoint
    it names."""
    kept = settings_said_by_pages(settings)
    if isinstance(kept.get("base_url"), str):
        kept["base_url"] = endpoint_identity(str(kept["base_url"]))
    return kept


def call_settings(extractor: object) -> dict[str, object] | None:
    """The settings an extractor's model calls are made with (a Gemini one's `settings`, as a run records them), None
    for a method that has none (`attribute_if_any`: one whose property fails is raised, or the run would record no
    endpoint, and a resume against another one would keep its pages without a word)."""
    return attribute_if_any(extractor, "settings")  # type: ignore[return-value]


def attribute_if_any(holder: object, name: str) -> object | None:
    """`holder`'s attribute `name`, None when it has none. Only one without it has none: looked up without running a
    property (`inspect.getattr_static`), then read, so that one that fails inside (an AttributeError of a caller not
    set up) is raised, not taken for none, as `getattr` with a default takes it."""
    if inspect.getattr_static(holder, name, None) is None:
        return None
    return getattr(holder, name)


def settings_said_by_pages(settings: Mapping[str, object]) -> dict[str, object]:
    """What a page's record (`_run/N.json`) keeps of its run's call settings (`settings`: the extractor's, as run.json
    records them): those that can change its answer (the endpoint, the JSON output mode), so that a run.json that
    cannot be read is not needed to tell which endpoint answered; {} for a method that calls none."""
    return {key: value for key, value in settings.items() if key not in SESSION_BOUNDS}


# What a done page's record (`_run/N.json`) says made its records, as a run's description says it of the run
MADE_BY = ("method", "version", "parameters", SETTINGS)


def made_otherwise(described: Mapping[str, object], record: Mapping[str, object],
                   as_recorded_now: Callable[[dict[str, object]], dict[str, object]] = dict) -> list[str]:
    """How a done page's record says its records were made, where that differs from the run's description
    (`described`: its run.json), as `key: page's -> run's` (`identity_differences`); [] when alike. A page a
    --restart with other settings did not reach (it stopped) holds the earlier run's records. What the page does not
    say (a record of an older RecordLens, a folder written by hand), or the run does not, is no difference: only
    a setting both name can tell them apart. `as_recorded_now`: the page's description as the extractor resuming
    the run reads an older record (`GeminiExtractor.as_recorded_now`)."""
    if not described or record.get("status") != DONE or not record.get("method"):
        return []
    page = as_recorded_now({key: record[key] for key in MADE_BY if key in record and key in described})
    run = {key: described[key] for key in page}
    for key in ("parameters", SETTINGS):
        if isinstance(page.get(key), dict) and isinstance(run.get(key), dict):
            page[key], run[key] = _both_name(page[key], run[key]), _both_name(run[key], page[key])
    return identity_differences(page, run)


def _both_name(part: Mapping[str, object], other: Mapping[str, object]) -> dict[str, object]:
    return {name: value for name, value in part.items() if name in other}


def prompt_as_recorded_now(described: Mapping[str, object], prompt: PromptTemplate | None) -> dict[str, object]:
    """A run's or a page's description with its prompt's hash as a run made with `prompt` records it now: one made
    with this very prompt file before a prompt file's own SHA-256 was recorded holds the SHA-256 of its texts
    (`PromptTemplate.text_sha256`), read here as the file's, so that such a run resumes with the same file, and its
    pages are that run's; any other hash is left as it is (another prompt, which resuming refuses). The one reading
    of an older prompt hash: a resume's (`prompt` the one given), `score`'s and `runs --add`'s (`recorded_prompt`)."""
    parameters = described.get("parameters")
    if (prompt is None or prompt.file_sha256 is None or not isinstance(parameters, dict)
            or parameters.get(PROMPT_SHA256) != prompt.text_sha256):
        return dict(described)
    return {**described, "parameters": {**parameters, PROMPT_SHA256: prompt.sha256}}


def recorded_prompt(described: Mapping[str, object]) -> PromptTemplate | None:
    """The prompt file a run's description names (its `parameters`' source and SHA-256), read where it names it
    while its bytes are still the run's: what tells, without the file given again, which older hash of its texts
    is the same prompt (`prompt_as_recorded_now`). None for the shipped prompt, a run that names none, or a file
    gone or changed since (the run's own hash is then all there is to go by: `_recorded_prompt_read` says why)."""
    return _recorded_prompt_read(described)[0]


def _recorded_prompt_read(described: Mapping[str, object]) -> tuple[PromptTemplate | None, str | None]:
    """The run's prompt file (`recorded_prompt`), and why it cannot tell an older hash of its texts when it cannot:
    it is gone, cannot be read, or holds other bytes since, said with its path. (None, None) for the shipped
    prompt, a run that names none, or one recorded by an older RecordLens by the file's text (its pages' hashes are
    then read as they are)."""
    parameters = described.get("parameters")
    if not isinstance(parameters, dict) or parameters.get(PROMPT_SOURCE) in (None, "shipped"):
        return None, None
    path = Path(str(parameters[PROMPT_SOURCE]))
    named = f"the prompt file the run names, {hint_path(path)},"
    if not path.exists() and not path.is_symlink():
        return None, f"{named} is gone (moved or deleted since)"
    try:  # through the guarded reader: a FIFO there (a path the run names, not the user) is refused, not waited on
        prompt = prompt_from_file(path)
    except RecordLensError as error:
        return None, _refused_as_named(error, path, named)
    if prompt.file_sha256 == parameters.get(PROMPT_SHA256):
        return prompt, None
    if prompt.text_sha256 == parameters.get(PROMPT_SHA256):
        return None, None
    return None, f"{named} holds other bytes since (SHA-256 {prompt.file_sha256})"


def _refused_as_named(error: RecordLensError, path: Path, named: str) -> str:
    """The refusal of the prompt file the run names (`prompt_from_file`'s), the file named once: "the prompt file
    the run names, P, cannot be read (a FIFO (named pipe), not a regular file)" where it says why after naming the
    file, else as it is ("the prompt file P is empty")."""
    _, found, why = str(error).partition(f"{hint_path(path)}: ")
    return f"{named} cannot be read ({why})" if found else str(error)


def prompt_of(extractor: object) -> PromptTemplate | None:
    """The prompt an extractor sends around a page (a Gemini one's), None for a method that sends none."""
    prompt = getattr(extractor, "prompt", None)
    return prompt if isinstance(prompt, PromptTemplate) else None


@dataclass
class ResumedRun:
    """The run a folder holds as a resume reads its pages against it: its description (run.json, {} when it has
    none or it cannot be read: its pages' own records then speak for it), the prompt an older page's prompt hash
    is read by (`prompt_as_recorded_now`; None: as it is) or why the prompt file the run names cannot read it
    (`prompt_problem`), and its pages' records (`_run/N.json`), each read once, when first asked of, and kept: a
    resume asks them several questions (which pages were predicted on other pages, which are held already, which
    other settings made) before it writes any. A run checked as stored (`score --project`) is given the records
    that speak for its stored pages instead (`records`)."""

    out: Path
    described: dict[str, object]
    prompt: PromptTemplate | None = None
    prompt_problem: str | None = None
    records: dict[str, dict[str, object]] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, out: Path, extractor: object = None, described: dict[str, object] | None = None, *,
           read: ResumedRun | None = None) -> ResumedRun:
        """The run in `out` as `extractor` reads its records, or without one (`score`, `runs --add`) as the run's
        own prompt file reads them (`recorded_prompt`): one reading, so that `score` names as made otherwise only
        the pages a resume extracts again. `described`: the run's description when it is not the folder's
        run.json (a --restart's, whose run.json is not written yet). `read`: the same folder read already, whose
        page records are kept (run.json may have been written since: it is read again)."""
        described = run_description_and_problem(out)[0] if described is None else described
        given = prompt_of(extractor)
        prompt, problem = (given, None) if given is not None else _recorded_prompt_read(described)
        return cls(out, described, prompt, problem, read.records if read is not None else {})

    def record(self, name: str) -> dict[str, object]:
        """Page `name`'s record (`page_record`), read once."""
        if name not in self.records:
            self.records[name] = page_record(self.out, name)
        return self.records[name]

    def records_of(self, names: Iterable[str]) -> dict[str, dict[str, object]]:
        """Page -> record, of `names` those with a readable record, as `read_page_costs` gives them (`PageCosts`),
        from the records read once."""
        return {name: record for name in names if (record := self.record(name))}

    def as_recorded_now(self, described: dict[str, object]) -> dict[str, object]:
        return prompt_as_recorded_now(described, self.prompt)

    def made_otherwise(self, name: str) -> list[str]:
        """How page `name`'s records were made otherwise than the run says ([] when alike, or not said)."""
        return made_otherwise(self.described, self.record(name), self.as_recorded_now)

    def pages_made_otherwise(self, names: Iterable[str]) -> dict[str, list[str]]:
        """Of `names`, the pages whose records (N.json there) were made otherwise, page -> how."""
        return {name: said for name in names
                if (self.out / f"{name}.json").is_file() and (said := self.made_otherwise(name))}

    def other_settings(self, names: Iterable[str]) -> OtherSettings:
        """Of `names` (pages whose records are the run's: `score`, `runs --add`), those made otherwise, told apart
        from those whose prompt hash alone differs from the run's while the prompt file the run names cannot say
        whether it is an older hash of its own texts (`prompt_problem`): those cannot be checked, not known
        otherwise. A page whose other settings differ too is made otherwise, its prompt said unchecked."""
        made: dict[str, list[str]] = {}
        unchecked: list[str] = []
        for name in names:
            said = self.made_otherwise(name)
            if said and self.prompt_problem is not None:  # its prompt hash may differ only as an older one does
                known = made_otherwise(self.described, _without_prompt(self.record(name)), self.as_recorded_now)
                if not known:
                    unchecked.append(name)
                    continue
                if len(known) < len(said):  # its prompt hash differs too
                    said = [*known, f"prompt: another SHA-256, not checked: {self.prompt_problem}"]
            if said:
                made[name] = said
        return OtherSettings(made, unchecked, self.prompt_problem if unchecked else None,
                             not_given=ran_to_its_end(self.described))


def _without_prompt(record: Mapping[str, object]) -> dict[str, object]:
    """A page's record without its prompt (source and hash): what it says of the other settings alone."""
    parameters = record.get("parameters")
    if not isinstance(parameters, dict):
        return dict(record)
    return {**record, "parameters": {key: value for key, value in parameters.items()
                                     if key not in (PROMPT_SOURCE, PROMPT_SHA256)}}


@dataclass(frozen=True)
class OtherSettings:
    """What the records of a run's pages say of the settings that made them (`ResumedRun.other_settings`): the
    pages made otherwise, page -> how (`made`), and the pages whose prompt hash differs from the run's where only
    the run's prompt file could say whether it is the same prompt hashed by its texts, as RecordLens hashed a prompt
    file before it hashed the file itself (`unchecked`), with why that file cannot (`prompt_problem`)."""

    made: dict[str, list[str]]
    unchecked: list[str]
    prompt_problem: str | None = None
    not_given: bool = False  # the run ran to its end, so was not given the pages made otherwise

    def __bool__(self) -> bool:
        return bool(self.made or self.unchecked)

    def message(self, whose: str, then: str, then_unchecked: str) -> str:
        """Both kinds said, each once (`made_otherwise_message`, `unchecked_prompt_message`), each with what is done
        of them or what to do (`then`, `then_unchecked`)."""
        said = [made_otherwise_message(self.made, whose, then, not_given=self.not_given)] if self.made else []
        if self.unchecked:
            said.append(unchecked_prompt_message(self.unchecked, whose, str(self.prompt_problem), then_unchecked))
        return "; ".join(said)


def pages_of_other_settings(run_dir: str | Path, described: dict[str, object] | None = None) -> OtherSettings:
    """The pages of a run folder whose records other settings than its run's made (a --restart with other settings
    that stopped before it came to them), or whose prompt the run's prompt file can no longer check, read as a
    resume of it reads them (`ResumedRun`): what `score` warns of and `runs --add` refuses, and what resuming the
    run extracts again (a resume given the prompt file checks the pages it cannot). `described`: the run's
    description already read, else its run.json."""
    run = ResumedRun.of(Path(run_dir), described=described)
    return run.other_settings(name for name in record_files(run_dir) if (run.out / f"{name}.json").is_file())


def made_otherwise_message(pages: Mapping[str, list[str]], whose: str, then: str, *, not_given: bool = False) -> str:
    """The pages of a run whose records other settings than the run's made (`ResumedRun.pages_made_otherwise`), said
    once: which, how (each way once), why they are there, and `then` (what is done of them, or what to do).
    `not_given`: the run ran to its end (`ran_to_its_end`), so it was not given them (a --restart of an earlier
    RecordLens left the pages it was not given as they were), rather than stopped before it came to them."""
    ways = ways_made_otherwise(pages)
    names = list(pages)
    hold = "holds" if len(names) == 1 else "hold"
    them = "it" if len(names) == 1 else "them"
    why = f"was not given {them}" if not_given else f"stopped before it came to {them}"
    return (f"{counted(len(names), 'page')} of {whose} ({listed(names, 8, total=True)}) {hold} records an earlier "
            f"run of the folder made with other settings ({'; '.join(ways)}), kept by a --restart that {why}: {then}")


def unchecked_prompt_message(names: Sequence[str], whose: str, problem: str, then: str) -> str:
    """The pages of a run whose prompt hash differs from the run's and that the run's prompt file cannot check
    (`problem`: why, `recorded_prompt_problem`), said once: neither made otherwise nor the run's, as far as anyone
    can tell; and `then` (what is done of them, or what to do)."""
    one = len(names) == 1
    return (f"{counted(len(names), 'page')} of {whose} ({listed(list(names), 8, total=True)}) "
            f"{'records its' if one else 'record their'} prompt by another SHA-256 than the run's: the SHA-256 of "
            "the same prompt file's text, as RecordLens recorded a prompt file before it recorded the file's own, or "
            f"another prompt's; {problem}, so which it is cannot be checked: {then}")


def ways_made_otherwise(pages: Mapping[str, list[str]]) -> list[str]:
    """The ways the pages' records were made otherwise (`ResumedRun.pages_made_otherwise`), each once."""
    return list(dict.fromkeys(way for said in pages.values() for way in said))


def identity_differences(before: Mapping[str, object], now: Mapping[str, object]) -> list[str]:
    """How two runs' descriptions differ in what makes a run the one it is (`run_identity`), as `key: old -> new`;
    [] for the same run."""
    old, new = run_identity(before), run_identity(now)
    said = description_differences(old, {key: new.get(key) for key in dict.fromkeys([*old, *new])})
    # said as each description records it (the address as given, the prompt with its source), not as compared
    return [_as_recorded(line, before, now) for line in said]


def _as_recorded(difference: str, before: Mapping[str, object], now: Mapping[str, object]) -> str:
    """A difference of two runs' identities (`description_differences`' `key: old -> new`) in the words of their
    descriptions: the endpoint as each records it, a prompt by its source and hash."""
    key = difference.split(":", 1)[0]
    if key == "base_url":
        return f"base_url: {_part(before, 'settings').get(key)!r} -> {_part(now, 'settings').get(key)!r}"
    if key == PROMPT_SHA256:
        old, new = _part(before, "parameters"), _part(now, "parameters")
        return (f"prompt: {_value_said(PROMPT_SOURCE, old.get(PROMPT_SOURCE))} (SHA-256 {old.get(PROMPT_SHA256)}) -> "
                f"{_value_said(PROMPT_SOURCE, new.get(PROMPT_SOURCE))} (SHA-256 {new.get(PROMPT_SHA256)})")
    return difference


def _part(described: Mapping[str, object], key: str) -> Mapping[str, object]:
    part = described.get(key)
    return part if isinstance(part, dict) else {}


def description_differences(before: Mapping[str, object], now: Mapping[str, object]) -> list[str]:
    """What differs between a run's description and the method about to resume it, as `key: old -> new` (a part
    that is a dict, its parameters or settings, by each of its keys). A model file is the same model wherever it
    lies when its digest is the same, and a prompt file the same prompt when its SHA-256 is."""
    said = []
    for key in now:
        old, new = before.get(key), now[key]
        if isinstance(old, dict) and isinstance(new, dict):
            same_model = old.get("model_digest") is not None and old.get("model_digest") == new.get("model_digest")
            same_prompt = old.get(PROMPT_SHA256) is not None and old.get(PROMPT_SHA256) == new.get(PROMPT_SHA256)
            said += [f"{name}: {_value_said(name, old.get(name))} -> {_value_said(name, new.get(name))}"
                     for name in sorted({*old, *new})
                     if old.get(name) != new.get(name) and not (name == "model" and same_model)
                     and not (name == PROMPT_SOURCE and same_prompt)]
        elif old != new:
            said.append(f"{key}: {_value_said(key, old)} -> {_value_said(key, new)}")
    return said


def _value_said(name: str, value: object) -> str:
    """A value of a run's description as a difference says it (`name: old -> new`): one that names a file or folder
    (a prompt file, a selector model's file, the recorded answers replayed) as a hint names a path; any other, and
    the words that stand for none ("shipped", "default", a Gemini model's name), as Python writes it."""
    return hint_path(value) if isinstance(value, str) and _names_a_file(name, value) else repr(value)


def _names_a_file(name: str, value: str) -> bool:
    """Whether a description's value `name` names a file or folder, not words standing for none."""
    if name == PROMPT_SOURCE:
        return value != "shipped"
    if name == "model":  # a selector model's file by its whole path (`SelectorExtractor.model_name`)
        return Path(value).is_absolute()
    return name == "answers"


def method_said_by_pages(run_dir: str | Path, costs: PageCosts | None = None
                         ) -> tuple[dict[str, object], str | None]:
    """The method that made a run's records, as the pages' own records say it (each done page's `_run/N.json`
    names its method, version and parameters, and, since RecordLens kept them there, the call settings that made
    its answer: `SETTINGS`), for a folder whose run.json cannot be read: ({method, version, parameters[, settings]},
    None) when every page with records (N.json) says it and all say the same (the settings only when every page
    says them); else ({}, why not). `costs`: the folder's records already read, else read here."""
    run = Path(run_dir)
    costs = _costs_of(run, costs)
    said: dict[str, dict[str, object]] = {}
    silent: list[str] = []
    for name in record_files(run):
        cost = costs.get(name) or {}
        if cost.get("status") == DONE and cost.get("method"):
            said[name] = json.loads(json.dumps({key: cost[key] for key in ("method", "version", "parameters",
                                                                           SETTINGS) if key in cost}, default=str))
        else:
            silent.append(name)
    if said and not all(SETTINGS in described for described in said.values()):
        # a page of before the settings were kept with it says nothing of them, which no other page can say for it
        said = {name: {key: value for key, value in described.items() if key != SETTINGS}
                for name, described in said.items()}
    if silent:
        one = len(silent) == 1
        return {}, (f"page {silent[0]} holds records but no readable {META_DIR}/{silent[0]}.json naming their method"
                    if one else f"{counted(len(silent), 'page')} ({listed(silent, 8, total=True)}) hold records but "
                    f"no readable {META_DIR}/N.json naming their method")
    # alike as runs are alike (`run_identity`: the same endpoint however its address ends, the same prompt file)
    kinds = list({json.dumps(run_identity(described), sort_keys=True): described
                  for described in said.values()}.values())
    if len(kinds) > 1:
        return {}, (f"its pages' records name {len(kinds)} different methods, parameters or endpoints "
                    f"({', '.join(sorted({str(kind['method']) for kind in kinds}))})")
    return (kinds[0], None) if kinds else ({}, "no page holds records")


def page_predictions(files: Mapping[str, Path]) -> Iterator[tuple[str, RecordsFile | RecordLensError]]:
    """Each page's prediction file (`files`: page -> its `N.json`, in the order read) read in turn, when the caller
    asks for it: its records, or why they cannot be read (the file named, and where JSON stops in it). A caller that
    lets each page's records go before asking for the next holds one page of the run at a time, however large."""
    for name, path in files.items():
        try:
            read: RecordsFile | RecordLensError = load_records(path)
        except RecordLensError as error:
            read = error
        yield name, read
        del read  # let go before the next page is read, unless the caller keeps it


def read_page_costs(run_dir: str | Path, *, slim: bool = False) -> dict[str, dict[str, object]]:
    """Page name -> the cost record written for it (seconds, tokens, warnings, raw); a record that cannot be read
    as one says nothing about its page (`unreadable_page_records` names those). `slim`: each as a `SlimRecord`,
    what `runs --add` asks of a run's every page without holding what its answers weigh."""
    return {name: _slim(record) if slim else record for name, record, why in _page_records(run_dir) if why is None}


def unreadable_page_records(run_dir: str | Path) -> dict[str, str]:
    """Page name -> why, for the pages whose record `_run/N.json` is there but cannot be read as one (cut short by a
    full disk, or a hand edit that left JSON but no object), which `read_page_costs` passes over."""
    return {name: why for name, _, why in _page_records(run_dir) if why}


def page_record(run_dir: str | Path, name: str, *, slim: bool = False) -> dict[str, object]:
    """Page `name`'s record (`_run/N.json`), {} when there is none or it cannot be read as one; a `SlimRecord`
    with `slim`, and always within `records_read_once`."""
    record = _read_page_record(Path(run_dir) / META_DIR / f"{name}.json")[0]
    return _slim(record) if slim and record else record


class SlimRecord(dict):  # type: ignore[type-arg] - a page's record: JSON's object
    """A page's record (`_run/N.json`) as read to be asked about, not written again: what it says of the page, its
    answers' bulk left out (its `raw` but the model calls it lists, and so of each record kept under "earlier"): an
    MDR page's regions weigh as much as its records, and a run's every record is held at once. The digests the
    whole record tells a run by (`record_digest`, `earlier_record_digests`) are taken before, of the record read."""

    __slots__ = ("digest", "earlier_digests")

    def copy(self) -> SlimRecord:
        copied = SlimRecord(self)
        copied.digest, copied.earlier_digests = self.digest, self.earlier_digests
        return copied


def _slim(record: dict[str, object]) -> dict[str, object]:
    """`record` as a `SlimRecord` (one already is; {}, no record, stays {})."""
    if isinstance(record, SlimRecord) or not record:
        return record
    slim = SlimRecord(_without_bulk(record))
    slim.digest = record_digest(record)
    slim.earlier_digests = tuple(record_digest(each) for each in records_as_written(record.get("earlier")))
    earlier = slim.get("earlier")
    if isinstance(earlier, list):
        slim["earlier"] = [_without_bulk(each) if isinstance(each, dict) else each for each in earlier]
    return slim


def _without_bulk(record: Mapping[str, object]) -> dict[str, object]:
    """A record without its `raw` but the model calls it lists (`model_calls`, all a reader asks of it)."""
    kept = {key: value for key, value in record.items() if key != "raw"}
    raw = record.get("raw")
    if isinstance(raw, dict) and "calls" in raw:
        kept["raw"] = {"calls": raw["calls"]}
    return kept


def record_digest(record: Mapping[str, object]) -> str:
    """A digest of a page's record as read (JSON: its layout aside), which tells the run that wrote it wherever its
    folder lies (`run_matching`); a `SlimRecord`'s is that of the whole record it was read as."""
    if isinstance(record, SlimRecord):
        return record.digest
    text = json.dumps(record, sort_keys=True, default=str)  # ASCII: a name's bytes that are not UTF-8 too
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:20]


def earlier_record_digests(record: Mapping[str, object]) -> list[str]:
    """The digests (`record_digest`) of the records a page's record keeps under "earlier", each as it was written
    (`records_as_written`)."""
    if isinstance(record, SlimRecord):
        return list(record.earlier_digests)
    return [record_digest(each) for each in records_as_written(record.get("earlier"))]


def records_as_written(earlier: object) -> list[Mapping[str, object]]:
    """A record's earlier ones as each was written: a resume kept each without its own "earlier", which was the
    list of those before it (none for the first)."""
    chain = earlier if isinstance(earlier, list) else []
    return [{**record, **({"earlier": chain[:index]} if index else {})}
            for index, record in enumerate(chain) if isinstance(record, dict)]


def _page_records(run_dir: str | Path) -> Iterator[tuple[str, dict[str, object], str | None]]:
    """Each page's record in `_run/` (not run.json, nor a hidden write in progress), with why it cannot be read as
    one (`_read_page_record`)."""
    meta = Path(run_dir) / META_DIR
    for path in sorted(meta.glob("*.json")) if meta.is_dir() else []:
        if path.stem == "run" or path.name.startswith("."):
            continue
        yield path.stem, *_read_page_record(path)


# The page records read so far by a command that holds its run folders' locks (`records_read_once`), by path, each
# a `SlimRecord`
_RECORDS_READ: ContextVar[dict[Path, tuple[dict[str, object], str | None]] | None] = ContextVar(
    "records_read", default=None)


@contextmanager
def records_read_once() -> Iterator[None]:
    """Within it, each page's record (`_run/N.json`) is read once however many questions are asked of it (which
    pages a --restart left made otherwise, then everything `runs --add` stores), and kept as a `SlimRecord`: for a
    command holding the run folders' locks (`run_folders_held`), so that nothing writes them meanwhile, and that
    writes none of them. Of this thread's calls only."""
    token = _RECORDS_READ.set({})
    try:
        yield
    finally:
        _RECORDS_READ.reset(token)


def _read_page_record(path: Path) -> tuple[dict[str, object], str | None]:
    """A page's record file read, with why it cannot be read as one (None when it can: it holds a JSON object;
    else the record is {}); read once within `records_read_once` (slim), each caller given its own copy."""
    read = _RECORDS_READ.get()
    if read is None:
        return _page_record_file(path)
    if path not in read:
        record, why = _page_record_file(path)
        read[path] = _slim(record), why
    record, why = read[path]
    return record.copy(), why


def _page_record_file(path: Path) -> tuple[dict[str, object], str | None]:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        return {}, f"{hint_path(path)}: {system_words(error)}"
    if isinstance(record, dict):
        return record, None
    return {}, f"{hint_path(path)}: it holds a {type(record).__name__}, not a page's record"


def page_identity(loaded: LoadedPage, data: bytes) -> dict[str, str]:
    """The page a prediction was made on, as `_run/N.json` keeps it: its file's bytes (`data`, those parsed into
    `loaded`; a quick test) and its texts (the same page saved in another format or re-encoded has other bytes
    but the same texts)."""
    return {"sha256": hashlib.sha256(data).hexdigest(), "texts": loaded.page.text_digest()}


def file_sha256(path: Path) -> str:
    """A page file's bytes as `page_identity` records them (a file that is no regular one refused, never read)."""
    return hashlib.sha256(read_file_bytes(path)).hexdigest()


def pages_made_otherwise(run_dir: str | Path, names: Iterable[str], sha256_of: Callable[[str], str | None],
                         page_of: Callable[[str], Page | None], costs: PageCosts | None = None) -> list[str]:
    """Of `names`, the pages whose prediction the run made on another page of that name (its texts differ from
    the page scored now: a page saved again, or another page under the name). A page the run does not describe
    (a folder written by hand, or by an older RecordLens) is taken as the same; `page_of` is asked only when the
    bytes differ. `costs`: the folder's records already read, else read here."""
    costs = _costs_of(run_dir, costs)
    differing = []
    for name in names:
        made_on = (costs.get(name) or {}).get(MADE_ON)
        if not isinstance(made_on, dict) or sha256_of(name) == made_on.get("sha256"):
            continue
        page = page_of(name)
        if page is not None and page.text_digest() != made_on.get("texts"):
            differing.append(name)
    return differing


def predicted_on_other_pages(run_dir: str | Path, files: Mapping[str, Path], names: Iterable[str],
                             costs: PageCosts | None = None) -> list[str]:
    """Of `names`, the pages of `files` (name -> page file) the run in `run_dir` predicted on another page of that
    name (`pages_made_otherwise`). A page file that cannot be read now is taken as the same: reading it for its
    extraction or its score says what is wrong with it. `costs`: the folder's records already read, else read here."""
    return pages_made_otherwise(run_dir, [name for name in names if name in files],
                                lambda name: _sha256_or_none(files[name]),
                                lambda name: _page_or_none(files[name], name), costs)


def _sha256_or_none(path: Path) -> str | None:
    try:
        return file_sha256(path)
    except (RecordLensError, OSError):
        return None


def _page_or_none(path: Path, name: str) -> Page | None:
    try:
        return load_page(path, name).page
    except (RecordLensError, OSError):
        return None


def other_pages_message(names: list[str], whose: str) -> str:
    were = "was predicted on another page" if len(names) == 1 else "were predicted on other pages"
    return (f"{counted(len(names), 'page')} of the run ({listed(names, 8, total=True)}) {were} "
            f"under the same names: their texts differ from {whose}, so their scores compare different pages "
            "(extract again on these pages)")
