"""The mark a Propose over the new pages (the app's Shift+P) keeps in the project while it runs, so that one stopped
part way by the app's end (quit, killed, crashed) is said when the project is opened next: over how many pages it
ran, how many got proposals, and that the same Propose goes on with the rest (`stopped_proposes_said`).

The mark is the one an import keeps (`import_marks`), in the project's hidden `.running/`: `propose-TOKEN`, a lock
the proposing process holds while it runs (freed by the system however the process ends, so a Propose under way is
never taken for a stopped one), and `propose-TOKEN.json`, the pages it was started on. The description is written
once the lock is held; a Propose that ends with its window there to say how (through its pages, cancelled, stopped
by a quota) removes both, one stopped by the app's end keeps its description. The next Propose over the new pages
takes the stopped ones over: it proposes for the pages they left new. A mark is a help, never a condition: one that
cannot be written leaves the Propose to run unmarked, and one that cannot be read is not said.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import atomic
from ..wording import counted
from .db import now
from .runs import RUNNING_MARKS, keep_unmarked, mark_gone, release_mark, take_mark

__all__ = ["ProposeMark", "StoppedPropose", "forget_stopped_proposes", "mark_propose", "stopped_proposes",
           "stopped_proposes_said", "unmark_propose"]

_PREFIX = "propose-"
_DESCRIBED = ".json"
_NEW = "new"  # the page status a Propose over the new pages proposes for (schema.PAGE_STATUSES)


@dataclass(frozen=True)
class ProposeMark:
    """The mark of a Propose this process runs now (`mark_propose`), until `unmark_propose`."""

    lock: Path
    description: Path


@dataclass(frozen=True)
class StoppedPropose:
    """A Propose over the new pages that the app's end stopped part way: the pages it was started on, as its mark
    says."""

    description: Path  # its file in `.running/`
    pages: tuple[str, ...]
    started: str  # when it began (`db.now`)
    process: int  # the process that ran it

    def message(self, statuses: Mapping[str, str], again: str) -> str | None:
        """What the project's next opening says of it (`statuses`: each page's status now; `again`: the keys of a
        Propose over the new pages); None when none of its pages is left new (all proposed for since, or judged)."""
        left = sum(1 for page in self.pages if statuses.get(page) == _NEW)
        if not left:
            return None
        proposed = sum(1 for page in self.pages if page in statuses and statuses[page] != _NEW)
        got = f"{proposed} of them {'has' if proposed == 1 else 'have'} proposals"
        return (f"a Propose over {counted(len(self.pages), 'new page')} was stopped part way, the app closed or "
                f"killed (begun {self.started} by process {self.process}): {got}; {again} goes on with the "
                f"{counted(left, 'page')} left new")

    def forget(self) -> None:
        with contextlib.suppress(OSError):
            self.description.unlink()
        with contextlib.suppress(OSError):
            _lock_of(self.description).unlink()


def mark_propose(root: Path, pages: Sequence[str]) -> ProposeMark | None:
    """Mark a Propose over `pages` as under way in the project at `root`; None when no mark can be written there
    (it runs unmarked)."""
    lock = Path(root) / RUNNING_MARKS / f"{_PREFIX}{uuid.uuid4().hex[:12]}"
    description = _described(lock)
    try:
        try:
            take_mark(lock)
        except OSError:  # a file system without locks: named in its file, judged by that line
            keep_unmarked(lock)
        atomic.write_text(description, json.dumps({"pages": list(pages), "started": now(),
                                                   "process": os.getpid()}), durable=False)
    except OSError:
        release_mark(lock)
        return None
    return ProposeMark(lock, description)


def unmark_propose(mark: ProposeMark, *, said: bool) -> None:
    """The Propose has ended: `said`, its window said how (through its pages, cancelled, stopped by a quota), and
    its mark goes; else (the app quit, another project opened) its description stays, to be said. The lock is
    given up all the same: this process may live on."""
    if said:
        with contextlib.suppress(OSError):
            mark.description.unlink()
    release_mark(mark.lock)


def stopped_proposes(root: Path) -> list[StoppedPropose]:
    """The Proposes over the new pages of the project at `root` that stopped part way, oldest first: their
    description is there and no live process holds their lock (this process's own under way are not looked at)."""
    try:
        described = sorted((Path(root) / RUNNING_MARKS).glob(f"{_PREFIX}*{_DESCRIBED}"))
    except OSError:
        return []
    stopped = [found for path in described if mark_gone(_lock_of(path)) and (found := _read(path)) is not None]
    return sorted(stopped, key=lambda found: found.started)


def forget_stopped_proposes(root: Path) -> None:
    """A new Propose over the new pages takes the stopped ones over: it proposes for the pages they left new."""
    for stopped in stopped_proposes(root):
        stopped.forget()
    # and the locks of those killed between taking their lock and describing themselves, which say nothing
    with contextlib.suppress(OSError):
        for lock in (Path(root) / RUNNING_MARKS).glob(f"{_PREFIX}*"):
            if not lock.name.endswith(_DESCRIBED) and not _described(lock).exists() and mark_gone(lock):
                lock.unlink(missing_ok=True)


def stopped_proposes_said(root: Path, statuses: Mapping[str, str], again: str) -> list[str]:
    """What opening the project at `root` says of its Proposes stopped part way, one line each (`statuses`: each
    page's status; `again`: the keys of a Propose over the new pages). Reads only."""
    return [said for found in stopped_proposes(root) if (said := found.message(statuses, again)) is not None]


def _lock_of(description: Path) -> Path:
    return description.with_name(description.name.removesuffix(_DESCRIBED))


def _described(lock: Path) -> Path:
    return lock.with_name(lock.name + _DESCRIBED)


def _read(path: Path) -> StoppedPropose | None:
    """A stopped Propose's description; None for one that cannot be read (half written by a power cut)."""
    try:
        held = json.loads(path.read_text(encoding="utf-8"))
        return StoppedPropose(path, tuple(str(p) for p in held["pages"]), str(held.get("started", "")),
                              int(held.get("process", 0)))
    except (OSError, ValueError, KeyError, TypeError):
        return None
