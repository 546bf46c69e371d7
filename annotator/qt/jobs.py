"""Long work off the interface thread, in a QThread with its *own* `Project` on the same folder (a Project is one
SQLite connection, usable from one thread only).

A job reports progress item by item and stops at once when cancelled: a call that may wait minutes (a Gemini
call) runs in a daemon thread of its own through `run_until_cancelled`, and its answer, on cancel, is handed to
`late` when given (a paid answer kept), else dropped, so Cancel does not wait for it. The window waits for those
answers at quit (`answers_on_their_way`), unless the user quits at once.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QThread, Signal

from ...core.deadline_calls import POLL_S, WaitCancelled, call_within, late_outcomes_pending
from ...core.errors import RecordLensError, os_error_said
from ...core.store import PROJECT_DB, Project, database_problem, open_project
from .signals import emit


class Cancelled(Exception):
    pass


T = TypeVar("T")


def answers_on_their_way() -> int:
    """How many calls cancelled part way are still waiting for an answer that their `late` keeps."""
    return late_outcomes_pending()


def database_refused(error: sqlite3.Error, root: Path, again: str) -> str:
    """What a refusal by the database of the project in `root` means, and what to do (`again`: how the user
    repeats what was refused): a damaged database said with what to do with the project's own files, as the
    commands say it (`database_problem`)."""
    return database_problem(error, again=again, database=root / PROJECT_DB)


def run_until_cancelled(call: Callable[[], T], cancel: threading.Event, poll_s: float = POLL_S,
                        late: Callable[[T | BaseException], None] | None = None) -> T:
    """`call()` in a daemon thread, waited for until it returns or `cancel` is set (then Cancelled at once).
    `late`, if given, is handed what a call cancelled part way ends with (its value or its error), in that daemon
    thread: a paid answer arriving after Cancel is kept rather than dropped."""
    try:
        return call_within(call, cancelled=cancel.is_set, late=late, poll_s=poll_s, name="recordlens-job-call")
    except WaitCancelled:
        raise Cancelled from None


class BackgroundJob(QThread):
    """Runs `work(project, job)` in its own thread and Project. Emit through the job's methods only.

    Signals: `progress(done, total, what)`, `failed(what, message)` (one item failed; the job goes on),
    `notice(message)` (said on the way), `done(cancelled, message)` (the end, whatever happened; message is
    non-empty when the whole job failed).
    """

    progress = Signal(int, int, str)
    notice = Signal(str)  # what the job meets on the way (a wait before a retry), for the status bar
    failed = Signal(str, str)
    done = Signal(bool, str)

    def __init__(self, project_root: Path, work: Callable[[Project, BackgroundJob], None], *,
                 secrets: Sequence[str] = ()) -> None:
        super().__init__()
        self._root = project_root
        self._work = work
        self._cancel = threading.Event()
        # Set by the user's own Cancel only: a stop by the app's end (a quit, SIGTERM, another project opened) is
        # not one the user chose for this job, and what it leaves part way stays marked as stopped (an import's)
        self._cancelled_by_user = threading.Event()
        # Anything that must never reach a message (the Gemini key), scrubbed from every text sent out.
        self._secrets = [s for s in secrets if s]
        self.started_at: float | None = None  # time.monotonic() when started: how long it has run, at quit

    def start(self, priority: QThread.Priority = QThread.Priority.InheritPriority) -> None:
        self.started_at = time.monotonic()
        super().start(priority)

    def cancel(self, *, by_user: bool = True) -> None:
        """Stop the job between its steps; `by_user`: the user's Cancel, rather than the app's end stopping it."""
        if by_user:
            self._cancelled_by_user.set()
        self._cancel.set()

    @property
    def cancelled_by_user(self) -> bool:
        """Whether the user's Cancel stopped it (told then what it did, they need not be told again)."""
        return self._cancelled_by_user.is_set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        if self._cancel.is_set():
            raise Cancelled

    def each(self, names: Sequence[str]) -> Iterator[str]:
        """`names` one by one, each reported as progress, stopping at once (Cancelled) when the job is cancelled:
        the progress callback core's long functions take."""
        for done, name in enumerate(names):
            self.check()
            self.report(done, len(names), name)
            yield name

    def report(self, done: int, total: int, what: str) -> None:
        emit(self.progress, done, total, what)

    def say(self, message: str) -> None:
        emit(self.notice, self.scrub(message))

    def report_failure(self, what: str, message: str) -> None:
        emit(self.failed, what, self.scrub(message))

    def scrub(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "[key]")
        return text

    def run(self) -> None:  # the thread
        message = ""
        try:
            with open_project(self._root) as project:
                self._work(project, self)
        except Cancelled:
            pass
        except RecordLensError as error:
            message = str(error)
        except sqlite3.Error as error:  # a damaged database, a full disk: said with what to do, not as a type name
            message = database_refused(error, self._root, again="start it again")
        except OSError as error:  # a read that failed (a flaky share), a write refused: the file, the system's words
            message = os_error_said(error)
        except Exception as error:  # noqa: BLE001 - the thread must end with a message, not a traceback
            message = f"{type(error).__name__}: {error}"
        emit(self.done, self._cancel.is_set(), self.scrub(message))
