"""The main window's background jobs: one at a time, its progress and a Cancel button in the status bar, and
proposing records, the job the window starts itself (Propose, Propose for new pages).

A job works on its own Project in its own thread (annotator/qt/jobs.py); proposals come back to this thread and
are stored through the page's undo stack like any other edit. The window owns this as `window.jobs`.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QProgressBar

from ...core.command_hints import hint_path
from ...core.errors import RecordLensError
from ...core.extract import TrainingProgress, create, examples_kept_apart, given_back
from ...core.output_paths import OutputPathError
from ...core.runs import check_the_endpoint
from ...core.store import (
    REJECTED,
    Label,
    Project,
    forget_project_model,
    labelled_page_names,
    model_freshness,
    project_model,
    train_on_project,
    unusable_said,
)
from ...core.wording import counted, named_and_more, shortened
from ..qt.jobs import BackgroundJob, Cancelled, database_refused
from ..qt.widgets import button
from ..settings import GEMINI, credential_left_out, extractor_params, gemini_key, proposal_method
from .propose import ENDPOINT_SETTING, Proposal, ProposeWorker, answer_limit_s, caution_of, waiting_said

if TYPE_CHECKING:
    from .window_parts import LabellingWindow

_log = logging.getLogger(__name__)
REASON_WIDTH = 120  # a page's failure as the job's end says it (whole under Recent messages, Ctrl+Shift+M)
NOT_STORED = "its proposals were not stored"
BAR_WIDTH = 220  # the progress bar in the status bar, as wide as a job's name needs
WORDS_BAR_WIDTH = 330  # wider where the bar says a phase, a count and a time left ("fitting 6/80, about 40 min left")
BAR_STEPS = 1000  # a share of the whole work (TrainingProgress.share) as the bar's value


@dataclass
class ProposeTally:
    """What one Propose job did, page by page, for the message that ends it: each page's own message is
    overwritten by the next one at once, so the end says it all (each is kept under Recent messages)."""

    records: int = 0
    proposed: list[str] = field(default_factory=list)  # pages records were proposed on
    empty: list[str] = field(default_factory=list)  # pages the extractor found no records on
    already: list[str] = field(default_factory=list)  # pages whose proposals were all on the page already
    failed: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)  # failed page -> why, as said when it failed
    # A page of `empty` -> the proposals it held before, left as they were: the page's count beside the status bar
    # still shows them, and read after "no records found" it must not pass for what this Propose found
    kept: dict[str, int] = field(default_factory=dict)
    # Page -> its records proposed now but left out, as records of the page (in any status) cover their texts
    # already: accepted, each would make a pair of records that cover the same text (labels check); and how many of
    # those were covered by rejected records alone
    left_out: dict[str, int] = field(default_factory=dict)
    left_out_by_rejected: dict[str, int] = field(default_factory=dict)
    # Page -> its earlier proposals, still undecided, that this Propose did not make again (machine output: kept,
    # and said, for a person to reject); `select_hint`: how to select them
    not_made: dict[str, int] = field(default_factory=dict)
    select_hint: str = ""
    # Page -> its undecided proposals of other extractors, by extractor, that this Propose did not make: not ones it
    # no longer makes (it never made them), said as what they are, left as they were
    others: dict[str, dict[str, int]] = field(default_factory=dict)
    # Pages whose proposals came with warnings (a model's answer of two JSON lists, XPaths that name no element...),
    # each said as it came, in full under Recent messages; `messages_hint`: where to read them. A page that got no
    # records is not among them: "no records found" says it, its warning (why) said with its page
    warned: list[str] = field(default_factory=list)
    messages_hint: str = ""

    def fail(self, page: str, reason: str) -> None:
        self.failed.append(page)
        self.reasons[page] = reason

    def summary(self, said: str = "") -> str:
        """The job's end; each failure with its reason, shortened, unless `said` (the stop's words) holds it."""
        parts = []
        if self.records:
            parts.append(f"{counted(self.records, 'record')} proposed on {_pages(self.proposed)}")
        if self.empty:
            parts.append(f"no records found on {_pages(self.empty)}{self._kept()}")
        if self.already:
            parts.append(f"nothing new on {_pages(self.already)}")
        if self.left_out:
            parts.append(self._left_out())
        if self.not_made:
            parts.append(self._not_made())
        if self.others:
            parts.append(self._others())
        if self.failed:
            parts.append(f"failed on {self._failures(said)}")
        if self.warned:
            parts.append(self._warned())
        return "done: " + "; ".join(parts) if parts else "done"

    def _warned(self) -> str:
        """"the proposals came with warnings: Recent messages (Ctrl+Shift+M) say them", naming the pages where
        this Propose went over several."""
        return (f"the proposals{self._where(self.warned)} came with warnings"
                + (f": Recent messages ({self.messages_hint}) say them" if self.messages_hint else ""))

    def note_left_out(self, page: str, covered_by: Sequence[Sequence[Label]]) -> None:
        """The page's proposals left out, each with the records of the page that cover its text."""
        if covered_by:
            self.left_out[page] = len(covered_by)
            self.left_out_by_rejected[page] = sum(all(label.status == REJECTED for label in held)
                                                  for held in covered_by)

    def _where(self, pages: Sequence[str]) -> str:
        """" on page 2" where this Propose went over several pages; "" where it went over one."""
        return "" if len({*self.proposed, *self.empty, *self.already, *self.failed}) <= 1 else f" on {_pages(pages)}"

    def _left_out(self) -> str:
        """"8 left out: the page's records cover their texts already (3 by rejected records)"."""
        pages = list(self.left_out)
        rejected = sum(self.left_out_by_rejected.values())
        whose = "the page's" if len(pages) == 1 else "the pages'"
        return (f"{sum(self.left_out.values()):,} left out{self._where(pages)}: {whose} records cover their texts "
                "already" + (f" ({rejected:,} by rejected records)" if rejected else ""))

    def _not_made(self) -> str:
        """"43 earlier proposals the model no longer makes are still undecided: how to select them"."""
        count = sum(self.not_made.values())
        verb = "is" if count == 1 else "are"
        return (f"{counted(count, 'earlier proposal')} the model no longer makes {verb} still undecided"
                f"{self._where(list(self.not_made))}" + (f": {self.select_hint}" if self.select_hint else ""))

    def note_others(self, page: str, labels: Sequence[Label]) -> None:
        """The page's undecided proposals of other extractors, counted by extractor."""
        by: dict[str, int] = {}
        for label in labels:
            by[label.origin.name] = by.get(label.origin.name, 0) + 1
        if by:
            self.others[page] = by

    def _others(self) -> str:
        """"3 undecided proposals of selector, another extractor, stay as they were" (of several extractors, each
        with its count): the page holds them beside this Propose's, and its Select earlier proposals leaves them."""
        by: dict[str, int] = {}
        for counts in self.others.values():
            for name, count in counts.items():
                by[name] = by.get(name, 0) + count
        count = sum(by.values())
        whose = (f"of {next(iter(by))}, another extractor," if len(by) == 1 else
                 f"of other extractors ({named_and_more([f'{n:,} of {name}' for name, n in by.items()])})")
        return (f"{counted(count, 'undecided proposal')} {whose} stay{'s' if count == 1 else ''} as "
                f"{'it was' if count == 1 else 'they were'}{self._where(list(self.others))}")

    def _kept(self) -> str:
        """" (its 240 earlier proposals stay)", or of several pages " (earlier proposals stay: 240 on page 25, 3
        on page 7)"; "" when no page that got none held any."""
        held = [(page, self.kept[page]) for page in self.empty if self.kept.get(page)]
        if not held:
            return ""
        if len(self.empty) == 1:
            count = held[0][1]
            return f" (its {counted(count, 'earlier proposal')} stay{'s' if count == 1 else ''})"
        return f" (earlier proposals stay: {named_and_more([f'{n:,} on page {page}' for page, n in held])})"

    def _failures(self, said: str) -> str:
        """"page 76 (HTTP 500 …)", or pages grouped by their reason: "pages 1, 2 (reason), page 3 (another)"; a
        failing endpoint's advice (check it) once, after them."""
        advice = f"; {check_the_endpoint(ENDPOINT_SETTING)}"  # what the endpoint's failures end with
        by_reason: dict[str, list[str]] = {}
        for page in self.failed:
            by_reason.setdefault(self.reasons.get(page, ""), []).append(page)
        groups = []
        for reason, pages in by_reason.items():
            why = reason.removesuffix(advice)
            known = not why or why in said  # a stop for a failing endpoint has said its reason
            groups.append(_pages(pages) if known else f"{_pages(pages)} ({shortened(why, REASON_WIDTH)})")
        endpoint = any(reason.endswith(advice) and reason.removesuffix(advice) not in said for reason in by_reason)
        return ", ".join(groups) + (advice if endpoint else "")


def _not_stored(refusal: RecordLensError | None, root: Path) -> str:
    """Why a page's proposals were not stored in the project in `root`, as the job's end says it: the database's
    refusal (a full disk, a damaged file) in the store's own words, else that they were not."""
    cause = refusal.__cause__ if refusal is not None else None
    return f"{NOT_STORED}: {database_refused(cause, root, again='propose again')}" if isinstance(
        cause, sqlite3.Error) else NOT_STORED


def _kept_in(worker: ProposeWorker, project: Project) -> str:
    """What a Gemini session spent, in the words `recordlens runs` says it (its requests, every attempt, and its
    tokens, answers whose tokens are unknown said beside them), and where its paid calls are kept; "" for an
    extractor that pays for none."""
    if worker.stored_run is None:
        return ""
    run_id = worker.stored_run.run_id
    try:
        spent = project.runs.get(run_id).spent or "nothing"
    except (RecordLensError, sqlite3.Error) as error:  # a locked database, the run deleted meanwhile: where it is
        _log.warning("what run %s spent could not be read: %s", run_id, error)
        return f"; its calls and tokens are kept as run {run_id} (Review, recordlens runs)"
    return f"; it spent {spent}: its calls are kept as run {run_id} (Review, recordlens runs)"


def _with_warnings(proposal: Proposal) -> str:
    """The warnings the page's proposals came with, after what the page's message says ("" when none)."""
    return "".join(f"; warning: {warning}" for warning in proposal.warnings)


def _pages(names: list[str]) -> str:
    return f"page{'s' if len(names) > 1 else ''} {named_and_more(names)}"


def _ago(seconds: float) -> str:
    """"12 s", or "3 min" past two minutes."""
    return f"{round(seconds)} s" if seconds < 120 else f"{round(seconds / 60)} min"


def _how_fresh(project: Project):  # core's ModelFreshness, which core.store does not export, or None
    """`model_freshness`, or None when it cannot be told (a labelled page that cannot be read now): what depends on
    it is a note, never a reason to stop."""
    try:
        return model_freshness(project)
    except (RecordLensError, OSError) as error:
        _log.warning("whether this project's learnt model is current cannot be told: %s", error)
        return None


def _changed_while_learning(project: Project, learn_keys: str) -> str:
    """Asked as Learn ends: what changed in the labelled pages while the model was learnt, and that learning again
    includes it ("labels of page 46 changed while learning: learn again (Ctrl+Shift+L) to include the change");
    "" when the model is the one the labels give now."""
    fresh = _how_fresh(project)
    if fresh is None or fresh.current:
        return ""
    several = len(fresh.changed) + len(fresh.new) + len(fresh.gone) > 1
    return (f"{fresh.changes()} while learning: learn again ({learn_keys}) to include the "
            f"change{'s' if several else ''}")


def _replacing(unusable: str) -> str:
    """Said as Learn starts, as `train --project` says it then, where the project's learnt model cannot be used
    (`project_model`'s reason): the model learnt takes its place, the file set aside (where, said as Learn ends);
    "" for a usable model, or none."""
    return (f": this project's learnt model is unusable ({unusable}): the model learnt replaces it, and it is set "
            "aside in models/") if unusable else ""


class JobController:
    def __init__(self, window: LabellingWindow) -> None:
        self.window = window
        self.job: BackgroundJob | None = None
        self._done: str | Callable[[], str] = "done"  # what the status bar says when the running job ends well
        self._cancelled: str | Callable[[], str] = "cancelled"  # and when it is cancelled
        # Project folder -> the runs this window's Propose sessions stored in it (Gemini's): see `own_runs`
        self._own_runs: dict[Path, set[int]] = {}
        # (project folder, page) -> the page's undecided proposals that this window's last Propose of it did not
        # make again, by id: what Propose → Select earlier proposals … selects (`do_select_not_made`)
        self._not_made: dict[tuple[Path, str], list[int]] = {}
        self._what = ""  # the running job's name, as it started
        # What quitting while it runs loses, asked about first ("": nothing worth a question); a function when it
        # depends on how far the job has come (an import: the pages not in yet)
        self._at_quit: str | Callable[[], str] = ""
        self.progress_bar = QProgressBar()
        self.progress_bar.setMaximumWidth(BAR_WIDTH)
        self._words_in_bar = False  # the running job's progress words shown in the bar in place of its name
        self.cancel_button = button("Cancel", self.do_cancel_job)
        self.progress_bar.hide()
        self.cancel_button.hide()

    def _show_running(self, running: bool) -> None:
        self.progress_bar.setVisible(running)
        self.cancel_button.setVisible(running)
        self.window.actions_by_name["cancel_job"].setEnabled(running)

    def busy(self, said: str = "a job is running") -> bool:
        """Whether a job runs; if so, `said` and how to cancel it are in the status bar (what waits for it is not
        done)."""
        if self.job is None:
            return False
        self.window.message(f"{said}; cancel it first (Ctrl+.)")
        return True

    def start(self, job: BackgroundJob, what: str, done: str | Callable[[], str] = "done",
              cancelled: str | Callable[[], str] = "cancelled", at_quit: str | Callable[[], str] = "",
              words_in_bar: bool = False, said: str = "") -> bool:
        """Run `job` in the background; `done` is said when it ends well (a warning that must outlast it), or
        asked for then, when it depends on what the job found; `cancelled` when it is cancelled (what was kept);
        `at_quit`, what quitting while it runs would lose, or asked for at the quit when that depends on how far
        the job has come: the window asks before it quits (`quitting_loses`); "" asks nothing. `words_in_bar`: the
        bar shows what each progress report says (Learn's phase, count and time left) in place of the job's name,
        which its tooltip keeps. `said`: what the status bar says as it starts, where that is more than `what` (a
        Propose with Gemini: what it waits for, and how long at most)."""
        if self.busy("another job is running"):
            return False
        self.job = job
        self._done = done
        self._cancelled = cancelled
        self._at_quit = at_quit
        self._words_in_bar = words_in_bar
        self.progress_bar.setMaximumWidth(WORDS_BAR_WIDTH if words_in_bar else BAR_WIDTH)
        job.progress.connect(self._on_progress)
        job.failed.connect(lambda page, text: self.window.message(f"page {page}: {text}", 15000))
        job.notice.connect(lambda text: self.window.message(text, 60000))  # a wait before a retry, as it starts
        job.done.connect(self._on_done)
        self.progress_bar.setRange(0, 0)
        self._what = what
        self._show_what(what)
        self._show_running(True)
        self.window.message(said or what)
        job.done.connect(self.window.after_own_job)  # last: after what the job itself does when it ends
        job.start()
        return True

    def _on_progress(self, done: int, total: int, what: str) -> None:
        if what and self._words_in_bar:  # the words first: the bar's value shows them
            self._show_what(what, f"{self._what}: {what}")
        elif what:
            self.progress_bar.setToolTip(f"{self._what}\n{done} / {total}: {what}")
        self.progress_bar.setRange(0, max(total, 1))
        self.progress_bar.setValue(done)

    def _show_what(self, what: str, whole: str | None = None) -> None:
        """`what` in the bar, ended with "…" where the bar is too narrow; whole in its tooltip (or `whole` there)."""
        bar = self.progress_bar
        room = bar.maximumWidth() - 2 * bar.fontMetrics().horizontalAdvance("M")  # the bar's own margins
        # QProgressBar reads "%p", "%v" and "%m" in its format (and shows "%%" as it is): a zero-width space after a
        # name's own "%" keeps it a "%" on screen
        shown = bar.fontMetrics().elidedText(what, Qt.TextElideMode.ElideRight, room)
        bar.setFormat(shown.replace("%", "%\u200b"))
        bar.setToolTip(what if whole is None else whole)

    def _on_done(self, cancelled: bool, failure: str) -> None:
        job, self.job = self.job, None
        if job is not None:
            job.wait()
            # Its connections (closures that hold the job itself, a Propose's tally) are kept by the Qt object, out
            # of the collector's sight: without this every ended job stayed in memory for the app's life.
            job.deleteLater()
        self._show_running(False)
        if self.window.closed:  # quit while it ran: no one to tell, and what the end would ask of its project is gone
            return
        # Only the end it came to is asked for: a `done` that reads the project is not asked at a cancel.
        end = self._cancelled if cancelled else (f"failed: {failure}" if failure else self._done)
        said = end() if callable(end) else end
        self.window.message(said, 10000 if said in ("done", "cancelled") else 30000)  # longer for what a user must read

    def do_cancel_job(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.window.message("cancelling…")

    def quitting_loses(self, doing: str = "quit") -> tuple[str, str] | None:
        """The question to ask before quitting (or `doing` another thing that stops the job: "open another
        project") while a job whose work that throws away runs (Learn's minutes of fits, the pages an import has
        not brought in yet), and what it loses; None when no such job runs, or it has nothing left to lose."""
        if self.job is None:
            return None
        loses = self._loses()
        if not loses:
            return None
        started = self.job.started_at
        since = f" (started {_ago(time.monotonic() - started)} ago)" if started is not None else ""
        return f"{self._what} is running{since}: {doing} anyway?", loses

    def stop(self) -> None:
        """Cancel the job and wait for its thread (the project is about to close): the app's end stops it, not the
        user's Cancel, so what it leaves part way stays marked as stopped (an import's mark)."""
        if self.job is not None:
            self.job.cancel(by_user=False)
            self.job.wait()

    def left_unfinished(self) -> str:
        """What stopping the running job now leaves unfinished, as the app's end (SIGTERM) says it on stderr:
        "importing downloads stopped part way. The import stops after the page under way: …"; "" when no job
        runs."""
        if self.job is None:
            return ""
        loses = self._loses()
        return f"{self._what} stopped part way" + (f". {loses}" if loses else "")

    def _loses(self) -> str:
        """What stopping the running job now throws away (`start`'s `at_quit`, asked for when it is a function)."""
        return self._at_quit() if callable(self._at_quit) else self._at_quit

    # -- proposing -----------------------------------------------------------------------------------------------

    def do_propose(self) -> None:
        if self.window.page_name is not None:
            self.propose([self.window.page_name])

    def do_propose_new(self) -> None:
        infos = self.window.project.pages()
        pages = [info.name for info in infos if info.status == "new"]
        others = len(infos) - len(pages)
        left = f" ({counted(others, 'page')} not new left as they are)" if others else ""
        if not pages:
            self.window.message(f"no new page to propose records for{left}")
            return
        self.propose(pages, note=f"{counted(len(pages), 'new page')}{left}", after=left)

    def propose(self, pages: Sequence[str], method: str | None = None, note: str = "", after: str = ""
                ) -> ProposeWorker | None:
        """Propose records for these pages in the background; `note` says which pages, as the job starts."""
        window = self.window
        key = gemini_key(window.keys)
        chosen = method
        method = method or proposal_method(window.settings, has_key=bool(key))
        # Gemini chosen but no key this session (a key kept for the session only is gone after a restart).
        keyless = ("Gemini is the default extractor but no key is set (Settings, Ctrl+,)"
                   if chosen is None and window.settings.default_extractor == GEMINI and method != GEMINI else "")
        left_out = credential_left_out(window.settings.gemini_endpoint) if method == GEMINI else None
        if left_out:  # saved without its credential (the settings file keeps none): every call would be refused
            window.message(f"the Gemini endpoint in Settings {left_out}: give it again in Settings (Ctrl+,) to "
                           "propose with Gemini", 15000)
            return None
        params = extractor_params(method, window.settings, key)
        problem, learnt, stale = "", "", ""
        if method == "selector":
            model, problem = project_model(window.project.root)
            if model is not None:  # the project's own model, learnt from its labels
                params["model"] = str(model)
                learnt = ", as learnt from this project's labels"
                stale = self._out_of_date()
        worker = ProposeWorker(window.project.root, pages, method, params)
        root = window.project.root
        worker.done.connect(lambda *_: self._own_run(root, worker))  # before the window looks at what it wrote
        tally = ProposeTally(select_hint=f"Propose → {self._action_text('select_not_made')}, then R rejects them",
                             messages_hint=window.messages_keys())
        worker.proposed.connect(lambda proposal: self._on_proposal(proposal, tally, root))
        worker.failed.connect(tally.fail)
        # Said only for the selector's learnt model: Gemini's params name a model too, its own.
        what, warning = f"proposing with {method}{learnt}" + (f" for {note}" if note else ""), ""
        if problem:  # said as the job starts and again as it ends well, so that "done" does not hide it
            # The way out first: a status bar cuts a long message at its end.
            warning = (f"proposed with the shipped model: this project's learnt model is unusable; "
                       f"{self._relearn()}. Why: {problem}")
            what = f"{what}: {warning}"
        if stale:  # said as the job starts, and as it ends after what it did (which a status bar would cut)
            what = f"{what}: {stale}"
        if keyless:  # said as the job starts and as it ends, as the warning above
            what = f"{keyless}: {what}"
            warning = "; ".join(part for part in (f"{keyless}: proposed with {method}", warning) if part)

        def done() -> str:  # `after`: said again as the job ends (the pages it left as they were)
            # What it did comes before the notes that stay true whatever it found (the model out of date, then the
            # caution of a model learnt from few pages): a status bar cuts a long message at its end, and a fixed
            # caution first would hide that this Propose found nothing. Recent messages keep the whole.
            caution = (f"proposed with this project's model of {worker.caution}; Propose → {self._forget_text()} "
                       "goes back to the shipped model") if worker.caution else ""
            summary = (tally.summary(worker.stopped).removeprefix("done").lstrip(": ") if worker.stopped
                       else tally.summary())
            said = [part for part in (worker.stopped, warning, summary) if part]
            notes = [part for part in (stale, caution) if part]
            return "; ".join(said) + after + _kept_in(worker, window.project) + "".join(f"; {note}" for note in notes)

        def cancelled() -> str:
            stopped = ": no further Gemini call is made" if worker.stored_run else ""
            return f"cancelled{stopped}{_kept_in(worker, window.project)}"

        # A paid model's answer can take minutes: what the job waits for, and how long at most, said as it starts and
        # in the bar page by page (`ProposeWorker._pages_in_turn`)
        waits = f"; {waiting_said(answer_limit_s(params))}" if method == GEMINI else ""
        return worker if self.start(worker, what, done, cancelled, words_in_bar=bool(waits),
                                    said=what + waits) else None

    @property
    def own_runs(self) -> frozenset[int]:
        """The runs of the open project that this window's Propose sessions stored: one changed after its session
        ended got the answer that was on its way at Cancel (added when it comes), this window's doing, not a change
        made elsewhere."""
        return frozenset(self._own_runs.get(self.window.project.root, ()))

    def _own_run(self, root: Path, worker: ProposeWorker) -> None:
        """A Propose session in the project at `root` has ended: its run, if it stored one, is this window's."""
        if worker.stored_run is not None:
            self._own_runs.setdefault(root, set()).add(worker.stored_run.run_id)

    def _action_text(self, name: str) -> str:
        """An action's name as a message names it: its menu text without the note in brackets."""
        return self.window.actions_by_name[name].text().replace("&", "").split(" (")[0]

    def _forget_text(self) -> str:
        return self._action_text("forget_model")

    def _out_of_date(self) -> str:
        """"this project's learnt model is out of date (learnt from 9 of the 10 labelled pages; …): Learn …
        (Ctrl+Shift+L) learns it again", or "" when it is the one the labels give now. Asked at each Propose: cheap,
        as the model is read once and each page's digest is remembered (made as Learn ends; a page is parsed only
        when its labels changed since)."""
        fresh = _how_fresh(self.window.project)
        if fresh is None or fresh.current:
            return ""
        return f"this project's learnt model is out of date ({fresh.sentence()}): {self._relearn()}"

    def _relearn(self) -> str:
        """How to replace an unusable learnt model: Learn, once there are labelled pages to learn from."""
        learning = f"{self._action_text('learn')} ({self.window.keys_for('learn')})"
        if labelled_page_names(self.window.project):
            return f"{learning} learns it again"
        return (f"no page is marked labelled yet: label pages and mark them (L), then {learning} learns it again; "
                f"or Propose → {self._forget_text()} sets it aside")

    def do_learn(self) -> BackgroundJob | None:
        """Train the selector on the pages marked labelled, into the project: Propose then follows this project's
        own policy (secondary lists or not, navigation or not) instead of the shipped model's."""
        pages = labelled_page_names(self.window.project)
        if not pages:
            self.window.message("no page is marked labelled yet (L): there is nothing to learn from")
            return None

        learnt: dict[str, str] = {}
        lock_notes: list[str] = []  # a killed training's lock taken over, in `train --project`'s words
        # Compared with the shipped model only where Propose reads a model: as the caution of one stage, said only
        # then (a few fits the user would wait for to no purpose otherwise)
        window = self.window
        to_compare = proposal_method(window.settings, has_key=bool(gemini_key(window.keys))) == "selector"

        def work(project: Project, job: BackgroundJob) -> None:
            # Cancelled, the traceback that holds every page's example is let go here, before the memory they took
            # is given back (an error other than a cancel keeps its traceback for its message; the memory is freed
            # as the job ends, though not trimmed)
            try:
                learn(project, job)
            except Cancelled:
                cancelled = True
            else:
                cancelled = False
            given_back()
            if cancelled:
                raise Cancelled

        def learn(project: Project, job: BackgroundJob) -> None:
            with examples_kept_apart() as settle:
                train(project, job, settle)

        def train(project: Project, job: BackgroundJob, settle: Callable[[], None]) -> None:
            seen: list[str] = []
            shown = TrainingProgress()  # one bar for both phases, in `train`'s words

            def said() -> None:
                job.report(round(shown.share * BAR_STEPS), BAR_STEPS, shown.words)

            def progress(name: str) -> None:
                job.check()
                seen.append(name)  # each page is read, then prepared
                if len(seen) % 2 == 0:
                    settle()
                shown.preparing(len(seen) // 2, len(pages))
                said()

            def fitting(done: int, total: int) -> None:
                # Cancel stops the fits too (their worker processes are killed), not only the reading of pages.
                job.check()
                shown.fitting(done, total)
                said()

            started = time.perf_counter()

            def already_there(said: str) -> None:  # the model Learn would write is in place: nothing fitted
                learnt["in_place"] = f"{said}: not trained again (checked in {time.perf_counter() - started:.1f} s)"

            def noted(note: str) -> None:  # said at once, in the status bar and Recent messages, and as Learn ends
                lock_notes.append(note)
                job.say(note)

            def comparing(done: int, total: int) -> None:
                # A model of one stage is compared with the shipped model before it is written: a few more fits,
                # which Cancel stops as it stops the model's own (no model written then).
                job.check()
                if not learnt.get("comparing"):  # said once: the status bar tells why Learn goes on after its fits
                    # not "each left out in turn": above 5 pages they are left out in 5 folds (the figures say
                    # which, `cross_validation.comparison_folds`)
                    learnt["comparing"] = (f"comparing with the shipped model on the {learnt_from}, each scored by "
                                           "a model learnt without it")
                    job.say(learnt["comparing"])
                shown.comparing(done, total)
                said()

            def compared(lines: list[str], shipped_better: bool) -> None:
                learnt["compared"] = "; ".join(lines)
                if shipped_better:
                    learnt["shipped_better"] = "yes"

            def set_aside(kept: Path) -> None:  # said as a hint writes a path, as `train --project` says it
                learnt["replaced"] = hint_path(kept.relative_to(project.root))

            model = train_on_project(project.root, progress=progress, check=fitting, in_place=already_there,
                                     set_aside=set_aside, noted=noted, compared=compared if to_compare else None,
                                     comparing=comparing)
            learnt["caution"] = caution_of(create("selector", model=str(model)))  # as Propose with it will say
            # Each labelled page's digest made here, off the interface thread, and remembered in the project: what
            # the end of the job and every Propose ask of the model (`_changed_while_learning`, `_out_of_date`)
            # then parses no page, except one whose labels change later.
            _how_fresh(project)

        learnt_from = counted(len(pages), "labelled page")
        forget = self._forget_text()
        # Cancelled, nothing is written: whatever Propose used before, it still uses.
        in_place, unusable = project_model(self.window.project.root)
        learnt_before = in_place is not None
        earlier = "this project's earlier learnt model" if learnt_before else "the shipped model"
        cancelled = f"learning cancelled: no model written; Propose still uses {earlier}"

        def done() -> str:
            """Labels changed while it learnt, first (the way out first: a status bar cuts a long message at its
            end); then decided by the model learnt and by the extractor Propose uses."""
            # Said rather than learnt again at once: the person is still labelling (the edit shows it), another
            # Learn would keep Propose waiting as long again, and would end as this one did if they go on; they
            # learn again once their labels are as they want them.
            changed = _changed_while_learning(self.window.project, self.window.keys_for("learn"))
            # The lock taken over last: it changes nothing of what Learn did, and a short Learn overwrites its notice.
            # The comparison's figures after what Learn did: long, they are read whole under Recent messages.
            return "; ".join(part for part in (changed, learnt_said(), compared_said(), *lock_notes) if part)

        def compared_said() -> str:
            """How the model of one stage learnt did on the project's labelled pages against the shipped model, in
            `train --cv`'s words ("" when it was not compared)."""
            if not learnt.get("compared"):
                return ""
            return ("on this project's labelled pages, each scored by a model learnt without it: "
                    f"{learnt['compared']}")

        def learnt_said() -> str:
            """Decided by the model learnt (too few pages, or too few of them with records, give one stage only)
            and by the extractor Propose uses (only the selector reads a model)."""
            window = self.window
            method = proposal_method(window.settings, has_key=bool(gemini_key(window.keys)))
            if learnt.get("in_place"):
                return kept_said(method)
            # a damaged one too: the project's model path is the project's, so Learn sets it aside and replaces it
            replaced = (f"; the earlier learnt model{unusable_said(unusable)} is kept as {learnt['replaced']}"
                        if learnt.get("replaced") else "")
            if method != "selector":
                return (f"learned from {learnt_from}, but Propose uses {method} (Settings): choose the offline "
                        f"selector there for Propose to follow this project's labels{replaced}")
            if not learnt.get("caution"):
                return f"Propose now follows this project's labels (learned from {learnt_from}){replaced}"
            if learnt.get("shipped_better"):  # measured: said plainly, before the figures; the user decides
                return (f"learned {learnt['caution']}; the shipped model did better on this project's own labelled "
                        f"pages: Propose → {forget} goes back to it, or label more pages and learn again{replaced}")
            # In core's words, as `train` and Propose with this model say it; Recent messages keep what the
            # status bar cuts.
            return (f"learned {learnt['caution']}; Propose → {forget} goes back to the shipped model, or label more "
                    f"pages and learn again{replaced}")

        def kept_said(method: str) -> str:
            """The model in place is the one Learn would write again (the same pages, labels and seed): said as
            `train --project` says it, nothing set aside, then what Propose does with it."""
            said = learnt["in_place"]
            if method != "selector":
                return (f"{said}; Propose uses {method} (Settings): choose the offline selector there for Propose to "
                        "follow this project's labels")
            if learnt.get("caution"):
                return (f"{said}; it is of {learnt['caution']}; Propose → {forget} goes back to the shipped model, or "
                        "label more pages and learn again")
            return f"{said}; Propose follows this project's labels"

        job = BackgroundJob(self.window.project.root, work)
        # Said through start(): a message of its own would be overwritten by the job's end as soon as it showed.
        # Quitting kills the fits: minutes of work lost, so the window asks first.
        at_quit = f"No model will be written: Propose still uses {earlier}."
        return job if self.start(job, f"learning from {learnt_from}{_replacing(unusable)}", done=done,
                                 cancelled=cancelled, at_quit=at_quit, words_in_bar=True) else None

    def do_forget_model(self) -> None:
        """Propose with the shipped model again: the project's learnt model is set aside (kept, not deleted)."""
        if self.busy():
            return
        try:
            kept = forget_project_model(self.window.project.root)
        except OutputPathError as error:  # models/ cannot be written: the model stays, and Propose still uses it
            self.window.message(f"the learnt model cannot be set aside: {error}; Propose still uses it", 30000)
            return
        except RecordLensError as error:  # another window's Learn, or `train --project`, is writing a model now
            self.window.message(f"{self._forget_text()} refused: {error}", 30000)
            return
        if kept is None:
            self.window.message("this project has learnt no model: Propose already uses the shipped one")
            return
        self.window.message(f"Propose uses the shipped model again; the learnt one is kept as "
                            f"{hint_path(kept.relative_to(self.window.project.root))}", 15000)

    def _remember_not_made(self, root: Path, page: str, labels: Sequence[Label]) -> None:
        self._not_made[(root, page)] = [label.id for label in labels]

    def do_select_not_made(self) -> None:
        """Select the page's earlier proposals that its last Propose (in this window) did not make again and that
        are still undecided: R then rejects exactly those. Undecided machine output is not withdrawn by a Propose
        that no longer makes it (a person decides), but it is said, and one key away from rejected."""
        window = self.window
        if window.record_actions.refused_in_review("select records") or window.page_name is None:
            return
        page = window.page_name
        remembered = self._not_made.get((window.project.root, page))
        if remembered is None:
            window.message(f"page {page} has not been proposed for in this window: {window.keys_for('propose')} "
                           "proposes, and says which earlier proposals the model no longer makes")
            return
        still = set(remembered)
        ids = [label.id for label in window.labels if label.id in still and label.status == "proposed"]
        if not ids:
            window.message(f"no earlier proposal that the last Propose of page {page} did not make is still "
                           "undecided")
            return
        window.select_records(ids, scroll=False)
        window.record_panel.scroll_to_id(ids[0])
        window.message(f"{counted(len(ids), 'earlier proposal')} the model no longer makes selected: R rejects "
                       f"{'it' if len(ids) == 1 else 'them all'}, Esc clears the selection", of_selection=True)

    def _on_proposal(self, proposal: Proposal, tally: ProposeTally, root: Path) -> None:
        window = self.window
        # A page's proposals that came as the window closed its project (a quit) or opened another are not this
        # window's to store: its project is closed, or another one's page may bear the same name. (A Gemini
        # session's answers are kept in its run all the same.)
        if not window.shows_project(root):
            return
        if not proposal.records:
            tally.empty.append(proposal.page)
            tally.kept[proposal.page] = window.project.page(proposal.page).proposed  # counted by the store
            # its own earlier proposals, none made again; another extractor's are not for it to select
            weighed = window.project.weigh_proposals(proposal.page, [], proposal.keys, proposal.provenance)
            self._remember_not_made(root, proposal.page, weighed.not_made)
            # its warnings say why, where its extractor says it ("no repeated structure with text was found")
            window.message(f"page {proposal.page}: {proposal.provenance.name} found no records"
                           + _with_warnings(proposal))
            return
        weighed = window.project.weigh_proposals(proposal.page, proposal.records, proposal.keys, proposal.provenance)
        records = weighed.new
        if records and not window.record_actions.add_proposals(proposal.page, records, proposal.provenance):
            # the store refused them: said at once, and again at the end, with why (a full disk)
            tally.fail(proposal.page, _not_stored(window.record_actions.refusal, root))
            return
        tally.note_left_out(proposal.page, weighed.covered_by)
        self._remember_not_made(root, proposal.page, weighed.not_made)
        if weighed.not_made:
            tally.not_made[proposal.page] = len(weighed.not_made)
        tally.note_others(proposal.page, weighed.others)
        if not records:
            tally.already.append(proposal.page)
            window.message((f"page {proposal.page}: nothing new among its {len(proposal.records)} proposals "
                            f"({len(weighed.covered_by)} left out: the page's records cover their texts already)"
                            if weighed.covered_by else
                            f"page {proposal.page}: all {len(proposal.records)} proposals are already on the page")
                           + _with_warnings(proposal))
            tally.warned += [proposal.page] if proposal.warnings else []
            return
        tally.records += len(records)
        tally.proposed.append(proposal.page)
        if proposal.warnings:  # as `extract` says them ("warning: page 7: ..."), once for the page
            tally.warned.append(proposal.page)
            window.message(f"page {proposal.page}: {counted(len(records), 'record')} proposed"
                           + _with_warnings(proposal))
