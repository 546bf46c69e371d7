"""Extractors proposing records, as a background job (annotator/qt/jobs.py): page by page, each page's call in a
daemon thread of its own (a Gemini call may wait minutes); on cancel, an answer on its way is still kept in the
session's run when it comes (not when the app has quit by then).

The propose job does not write proposals itself: it hands each page's records to the interface thread, which
adds them through the undo stack like any other edit. That keeps every label change on one connection and undoable.

Gemini's calls are paid for, so a Propose session with Gemini is also stored as a run of the project
(`ProposalRun`): what it proposed or why it failed, page by page, and every call's tokens, statuses and raw
answers in the run's cost, as `recordlens extract` keeps them in RUN/_run/N.json. Cancel stops its calls (no
further attempt, a wait ends at once); an answer already on its way when Cancel came is still added to the run.
The page being asked is kept in the run as its budget counts (each request before it is sent, each answer's tokens
as read), as `extract` keeps it: an app killed (SIGKILL) part way through a page leaves what the page paid for, and
a page whose answer has not come at Cancel is kept as cancelled with what it paid for, until that answer comes. A
request sent is kept, until its attempt ends (its answer read, or an error status), as an answer whose tokens are
unknown (`Spent.awaited`, told as `extract` is told it): the app killed while it waits, or quit without it (Quit now),
leaves it so, not as an answer that cost 0.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from PySide6.QtCore import Signal

from ...core import extract
from ...core.errors import RecordLensError, os_error_said
from ...core.extract import trimmed
from ...core.llm import BudgetExceededError, CallSettings
from ...core.records import TextKeyIndex
from ...core.runs import (
    DONE,
    FAILED,
    NOT_FINISHED,
    STOPPED,
    Spent,
    check_the_endpoint,
    failed_for_the_endpoint,
    model_calls,
    run_pages,
    spending_told,
    spent_record,
    summed_cost,
)
from ...core.store import Project, Provenance, open_project
from ...core.wording import listed
from ..qt.jobs import BackgroundJob, Cancelled, database_refused, run_until_cancelled
from ..qt.signals import emit
from ..settings import GEMINI

_log = logging.getLogger(__name__)
# Where the app sets what core's words about a Gemini call name (`extract` names the command's options): its
# Settings, and the time limit for an answer it fixes (the app has no setting for it)
APP_SETTINGS = extract.SettingPlaces(model="the Gemini model in Settings",
                                     timeout_s=f"the app's {CallSettings().timeout_s:g} s limit for an answer",
                                     endpoint="the Gemini endpoint in Settings")
# Where the app sets the endpoint, as core's words for a failing endpoint name it (`extract` names --base-url).
ENDPOINT_SETTING = APP_SETTINGS.endpoint
# A page's reason in the run when Cancel came while its answer was awaited (as core's KILLED_PART_WAY words a kill);
# the answer, if it comes, takes this record's place
CANCELLED_PART_WAY = ("cancelled part way through this page, its answer not come by then: the requests and tokens "
                      "counted on the page until then are kept")


@dataclass(frozen=True)
class Proposal:
    """One page's proposed records and who proposed them."""

    page: str
    records: list[list[str]]
    provenance: Provenance
    seconds: float
    warnings: list[str] = field(default_factory=list)
    # The page's text keys as the extractor read it: the records the page holds are weighed against the proposals
    # by the text they cover (`Project.weigh_proposals`); None compares them by their XPaths alone
    keys: TextKeyIndex | None = None


@dataclass
class ProposalRun:
    """A Propose session with a paid model as a run of the project: its records or failure per page, and in its
    cost each page's calls (`page_costs`), the tokens summed, and why it stopped early, if it did. Written after every
    page, so that a crash keeps what was paid for; thread-safe (a late answer is added from its call's thread)."""

    root: Path
    run_id: int
    status: str = "running"
    pages: dict[str, dict[str, object]] = field(default_factory=dict)
    stopped: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    # Page -> when it began to be asked, while what it spends is kept as its budget counts (`record_spent`) and it
    # has no record of its own yet: the page a Cancel leaves part way (`cancelled`)
    _asking: dict[str, float] = field(default_factory=dict, repr=False)
    # The pages whose own record is kept (an answer, a failure, a stop, a cancel): a budget tell that comes after it
    # (one on its way as the call's hook was let go) is no longer what the page spent, and leaves that record. A
    # session asks each page once, as its run holds one record per page.
    _ended: set[str] = field(default_factory=set, repr=False)

    @classmethod
    def start(cls, project: Project, extractor: object) -> ProposalRun:
        parameters = {**getattr(extractor, "parameters", {}), "version": getattr(extractor, "version", ""),
                      "settings": getattr(extractor, "settings", {}), "made_in": "the app's Propose"}
        return cls(project.root, project.runs.start(str(getattr(extractor, "name", "")), parameters))

    def record(self, project: Project, page: str, outcome: object) -> None:
        """A page's outcome (an Extraction, or the error it failed or stopped with) kept in the run, in place of
        any record kept before (as it spent, or at Cancel)."""
        with self._lock:
            self._asking.pop(page, None)
            self._ended.add(page)
            if isinstance(outcome, extract.Extraction):
                project.runs.add_predictions(self.run_id, {page: outcome.records})
                self.pages[page] = {"status": DONE, "tokens": outcome.tokens or {},
                                    "seconds": round(outcome.seconds, 3), "warnings": outcome.warnings,
                                    "raw": outcome.raw}
            else:
                details = dict(getattr(outcome, "details", None) or {})
                reason = str(getattr(outcome, "reason", None) or outcome)
                stopped = isinstance(outcome, BudgetExceededError)
                if not stopped:  # a stop is no failure of the page: asked again next time, as `extract` does
                    project.runs.add_predictions(self.run_id, {}, {page: reason})
                self.pages[page] = {"status": NOT_FINISHED if stopped else FAILED,
                                    **details, "reason": reason}
            self._save(project)

    def cancelled(self, project: Project, page: str) -> None:
        """Cancel came while `page` was asked: the record of what it spent, kept as its budget counted, says it was
        cancelled then (not killed), with its seconds until now. Nothing when the page spent nothing, or its own
        record is kept already (its answer came in its call's thread first); an answer that comes later takes its
        place (`record_late`)."""
        with self._lock:
            begun = self._asking.pop(page, None)
            spent = self.pages.get(page)
            if begun is None or spent is None:
                return
            self._ended.add(page)
            self.pages[page] = {**spent, "reason": CANCELLED_PART_WAY, "seconds": round(time.monotonic() - begun, 3)}
            self._save(project)

    def finish(self, project: Project, status: str, stopped: str = "") -> None:
        with self._lock:
            self.status, self.stopped = status, stopped
            self._save(project)

    def record_late(self, page: str, outcome: object) -> None:
        """An answer that came after Cancel, added through a connection of its own (this is its call's thread)."""
        try:
            with open_project(self.root) as project:
                self.record(project, page, outcome)
        except Exception:  # noqa: BLE001 - a daemon thread has no one to tell but the log
            _log.exception("the answer for page %s that came after Cancel could not be kept in run %s",
                           page, self.run_id)

    def record_spent(self, page: str, begun: float, spent: Spent) -> None:
        """What the page being asked has spent so far (`spending_told`: each count of its budget, and each attempt's
        end), kept in the run at once, a request awaited among its answers whose tokens are unknown: an app killed
        part way through the page leaves it, not finished (`spent_record`). The page's own record, once it ends,
        takes its place, and a tell that comes after it leaves it. Called from the call's thread, so through a
        connection of its own."""
        try:
            with open_project(self.root) as project, self._lock:
                if page in self._ended:
                    return
                self._asking[page] = begun
                self.pages[page] = spent_record(spent, time.monotonic() - begun, spent.awaited)
                self._save(project)
        except Exception:  # noqa: BLE001 - the call goes on (it is counted): the page's own record may yet be kept
            _log.exception("what page %s spent could not be kept in run %s as it was spent", page, self.run_id)

    def _save(self, project: Project) -> None:
        # summed as a run added from a folder is; each page's record as in its _run/N.json
        # "calls": its call records; its requests (every attempt) are summed_cost's
        cost: dict[str, object] = {"tokens": {}, **summed_cost(self.pages.values()),
                                   "calls": sum(len(model_calls(c.get("raw"))) for c in self.pages.values()),
                                   "page_costs": self.pages}
        if self.stopped:
            cost[STOPPED] = self.stopped
        if self.status == "running":  # kept page by page; it has not ended
            project.runs.keep_cost(self.run_id, cost)
        else:
            project.runs.finish(self.run_id, status=self.status, cost=cost)


class ProposeWorker(BackgroundJob):
    """Runs one extractor on some pages; `proposed(Proposal)` for each page that produced records."""

    proposed = Signal(object)

    def __init__(self, project_root: Path, pages: Sequence[str], method: str, params: dict[str, object]) -> None:
        key = params.get("api_key")
        super().__init__(project_root, self._propose, secrets=[key] if isinstance(key, str) else [])
        self.pages = list(pages)
        self.method = method
        self._params = params
        self.caution = ""  # what makes the extractor's proposals doubtful (a model learnt from few pages), if any
        self.stopped = ""  # why the job stopped before its last page (a quota, a failing endpoint), if it did
        self.stored_run: ProposalRun | None = None  # the project's run of a Gemini session
        self._read: tuple[str, TextKeyIndex] | None = None  # the page read last, and its text keys

    def _propose(self, project: Project, job: BackgroundJob) -> None:
        # Each page is read in a thread of its own, and the C allocator keeps the high-water mark of the largest
        # parse for the process, arena by arena (tens of MB after one large page): given back as the job ends
        # (bench/propose_memory.py). The allocator trimmed alone, without Learn's full collection first: as much
        # memory back, in under a millisecond rather than tens, and no collection in a job's thread (the GUI
        # thread's, `main_thread_gc`). Cancelled, the traceback that holds the page being read is let go first.
        cancelled = False
        try:
            self._propose_session(project)
        except Cancelled:
            cancelled = True
        finally:
            trimmed()
        if cancelled:
            raise Cancelled

    def _propose_session(self, project: Project) -> None:
        # Gemini's calls stop at Cancel, and its waits and retries are said as they happen.
        hooks = ({"cancel": self._cancel, "notify": self._say_while_running, "setting_places": APP_SETTINGS}
                 if self.method == GEMINI else {})
        extractor = extract.create(self.method, **self._params, **hooks)
        self.caution = caution_of(extractor)
        self.stored_run = ProposalRun.start(project, extractor) if self.method == GEMINI else None
        status = "failed"
        try:
            self._propose_pages(project, extractor)
            status = "finished"
        except Cancelled:
            status = "cancelled"
            raise
        finally:
            if self.stored_run is not None:
                try:
                    self.stored_run.finish(project, status, self.stopped)
                except Exception as error:  # noqa: BLE001 - the session's own end (or error) is what to say
                    _log.warning("run %s could not be marked %s: %s", self.stored_run.run_id, status, error)

    def _say_while_running(self, message: str) -> None:
        """A wait before a retry, said as it starts, while the job runs. After Cancel, a call let finish in its own
        thread makes no further attempt, so its wait is none to say; and the job, ended, may be deleted by then: an
        emit on it raised in that thread, and the page was kept in the run as failed for that error."""
        if self.cancelled:
            return
        with contextlib.suppress(RuntimeError):  # deleted between the look and the emit: no one is left to tell
            self.say(message)

    def _propose_pages(self, project: Project, extractor: extract.Extractor) -> None:
        # core's loop over pages, as `extract` runs it: its stop rules, and its words for why it stopped
        end = run_pages(self._pages_in_turn(), partial(self._extract, project, extractor),
                        answered=partial(self._answered, project), failed=partial(self._failed, project),
                        stopped=partial(self._keep_stop, project), check=self.check, setting=ENDPOINT_SETTING)
        if end.stopped_on is None:
            self.report(len(self.pages), len(self.pages), "")
            return
        # A quota's page is no failure (the run keeps it not finished, and the next Propose asks it again, as
        # `extract` resumes it): the stop names it; an endpoint's page failed, and was said so as it failed.
        self._stop(end.stopped_on, end.reason, self.pages[self.pages.index(end.stopped_on) + 1:])

    def _pages_in_turn(self) -> Iterator[str]:
        """The pages one by one, as `each` gives them, stopping at once when the job is cancelled; with a paid model
        each reported as what the job waits for, and how long at most (an answer can take minutes, which the bar
        would otherwise show as "proposing with gemini" alone), else by its name."""
        for done, name in enumerate(self.pages):
            self.check()
            said = waiting_said(answer_limit_s(self._params), name) if self.method == GEMINI else name
            self.report(done, len(self.pages), said)
            yield name

    def _extract(self, project: Project, extractor: extract.Extractor, name: str) -> extract.Extraction:
        page = project.load(name).page  # here: the Project is this thread's
        self._read = (name, TextKeyIndex(page.text_map))  # read here, off the interface thread
        if self.stored_run is None:
            return run_until_cancelled(lambda: extractor.extract(page), self._cancel)
        # Kept as the caller's budget counts and its attempts end, as `extract` keeps a page (a method without one
        # tells nothing): a kill leaves what the page spent, a request awaited then with its tokens unknown
        caller = getattr(extractor, "caller", None)
        keep = partial(self.stored_run.record_spent, name, time.monotonic())
        with spending_told(getattr(caller, "budget", None), keep, attempts=caller):
            return run_until_cancelled(lambda: extractor.extract(page), self._cancel,
                                       late=partial(self.stored_run.record_late, name))

    def _answered(self, project: Project, name: str, extraction: extract.Extraction) -> None:
        provenance = proposal_provenance(extraction)
        keys = self._read[1] if self._read is not None and self._read[0] == name else None
        self._read = None
        # Proposed first: a paid answer's records reach the page even if the run cannot be written just now
        # an empty record, or one repeating another of the answer, is kept in the run as answered, not proposed
        proposed = extract.proposal_of(extraction, keys)
        emit(self.proposed, Proposal(name, proposed.records, provenance, extraction.seconds,
                                     [self.scrub(w) for w in proposed.warnings], keys))
        if self.stored_run is not None:
            self._keep_in_run(project, name, extraction)

    def _failed(self, project: Project, name: str, error: Exception) -> None:
        """One page's failure (a timeout, bad HTML), kept in the run and said; Cancel ends the loop as it came, the
        page kept in the run as cancelled if it had spent anything."""
        if isinstance(error, Cancelled):
            self._keep_cancel(project, name)
            raise error
        if self.stored_run is not None:
            self.stored_run.record(project, name, error)
        message = failure_said(error, project.root)
        self.report_failure(name, f"{message}; {check_the_endpoint(ENDPOINT_SETTING)}"
                            if failed_for_the_endpoint(error) else message)

    def _keep_stop(self, project: Project, name: str, error: Exception) -> None:
        """A quota or a cancel: the calls paid for on the page are kept in the run; no further page is asked."""
        if self.stored_run is not None:
            self.stored_run.record(project, name, error)

    def _keep_cancel(self, project: Project, name: str) -> None:
        if self.stored_run is None:
            return
        try:
            self.stored_run.cancelled(project, name)
        except Exception as error:  # noqa: BLE001 - the cancel is what to say; the page keeps what it spent
            _log.warning("page %s could not be marked cancelled in run %s: %s", name, self.stored_run.run_id, error)

    def _keep_in_run(self, project: Project, name: str, extraction: extract.Extraction) -> None:
        assert self.stored_run is not None
        try:
            self.stored_run.record(project, name, extraction)
        except Exception as error:  # noqa: BLE001 - a locked database or a run deleted meanwhile
            _log.warning("page %s: its calls could not be kept in run %s: %s", name, self.stored_run.run_id, error)
            self.say(f"page {name} proposed, but its calls could not be kept in run {self.stored_run.run_id} "
                        f"({error})")

    def _stop(self, page: str, reason: str, not_reached: Sequence[str]) -> None:
        left = f"; not reached: {listed(list(not_reached), 8, total=True)}" if not_reached else ""
        self.stopped = self.scrub(f"stopped on page {page}: {reason}{left}")


def answer_limit_s(params: Mapping[str, object]) -> float:
    """How long a Propose with Gemini waits for one request's answer at most: the time limit `params` give its
    caller, else the caller's own (`CallSettings.timeout_s`), which the app does not change."""
    given = params.get("timeout_s")
    return float(given) if isinstance(given, int | float) else CallSettings().timeout_s


def waiting_said(limit_s: float, page: str | None = None) -> str:
    """"waiting for the model's answer on page 3 (at most 5 min per request)", or of each page when `page` is None:
    what a Propose with Gemini waits for, and how long at most (a retry, said as it starts, waits again)."""
    limit = f"{limit_s / 60:g} min" if limit_s >= 120 and limit_s % 60 == 0 else f"{limit_s:g} s"
    return f"waiting for the model's answer on {f'page {page}' if page else 'each page'} (at most {limit} per request)"


def failure_said(error: Exception, root: Path) -> str:
    """A page's failure as Propose says it: core's errors in their own words, a refusal by the database of the
    project in `root` with what to do, a system's error (a read that failed for a moment) in its own words after the
    file it names as a hint writes a path (not Python's `[Errno 5] …: '/x/y'`), anything else with its kind."""
    if isinstance(error, RecordLensError):
        return str(error)
    if isinstance(error, sqlite3.Error):
        return database_refused(error, root, again="propose again")
    if isinstance(error, OSError):
        return os_error_said(error)
    return f"{type(error).__name__}: {error}"


def proposal_provenance(extraction: extract.Extraction) -> Provenance:
    """Who proposed a page's records: the extractor, its version, and the model file it used by its digest, as a
    run's parameters name it (`model_digest`: the shipped selector model or a project's own learnt one), so that
    History and exports tell proposals of two models apart as `recordlens runs` tells their runs apart. The digest
    goes in the version ("1.0 model 3f2a9c1b5d6e7f80"): a provenance has no field of its own for a model."""
    digest = extraction.parameters.get("model_digest")
    version = f"{extraction.version} model {digest}" if isinstance(digest, str) and digest else extraction.version
    return Provenance.extractor(extraction.method, version, extraction.input_format or "", seed=_seed(extraction))


def _seed(extraction: extract.Extraction) -> int | None:
    """The seed the extractor really sent (Gemini's default 0 included), not only one a user gave."""
    seed = extraction.parameters.get("seed")
    return seed if isinstance(seed, int) else None


def caution_of(extractor: object) -> str:
    """What makes an extractor's proposals doubtful, in core's words, as `recordlens train` says it too (only the
    selector's model has a caution: one stage only, from few pages); "" when nothing does."""
    return str(getattr(extractor, "caution", "") or "")

