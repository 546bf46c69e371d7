"""The mark a Propose over the new pages (the app's Shift+P) keeps in the project while it runs, so that one stopped
part way by the app's end (quit, killed, crashed) is said when the project is opened next: over how many pages it
ran, how many got proposals, and that the same Propose goes on with the rest (`stopped_proposes_said`).

The mark is a piece of work's (`work_marks`, as an import's), in the project's hidden `.running/`: `propose-TOKEN`, a
lock the proposing process holds while it runs (freed by the system however the process ends, so a Propose under way
is never taken for a stopped one), and `propose-TOKEN.json`, the pages it was started on. The description is written
once the lock is held; a Propose that ends with its window there to say how (through its pages, cancelled, stopped by
a quota) removes both, one stopped by the app's end keeps its description. The next Propose over the new pages takes
the stopped ones over: it proposes for the pages they left new. A mark is a help, never a condition: one that cannot
be written leaves the Propose to run unmarked, and one that cannot be read is not said.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..wording import counted
from .runs import RUNNING_MARKS
from .work_marks import WorkMark, forget_work, mark_work, remove_bare_locks, stopped_work, unmark_work

__all__ = ["ProposeMark", "StoppedPropose", "forget_stopped_proposes", "mark_propose", "stopped_proposes",
           "stopped_proposes_said", "unmark_propose"]

_PREFIX = "propose-"
_NEW = "new"  # the page status a Propose over the new pages proposes for (schema.PAGE_STATUSES)


ProposeMark = WorkMark  # the mark of a Propose this process runs now (`mark_propose`), until `unmark_propose`


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
        forget_work(self.description)


def mark_propose(root: Path, pages: Sequence[str]) -> ProposeMark | None:
    """Mark a Propose over `pages` as under way in the project at `root`; None when no mark can be written there
    (it runs unmarked)."""
    return mark_work(root, _PREFIX, {"pages": list(pages)})


def unmark_propose(mark: ProposeMark, *, said: bool) -> None:
    """The Propose has ended: `said`, its window said how (through its pages, cancelled, stopped by a quota), and
    its mark goes; else (the app quit, another project opened) its description stays, to be said. The lock is
    given up all the same: this process may live on."""
    unmark_work(mark, done=said)


def stopped_proposes(root: Path) -> list[StoppedPropose]:
    """The Proposes over the new pages of the project at `root` that stopped part way, oldest first
    (`work_marks.stopped_work`)."""
    stopped = [found for path, held in stopped_work(root, _PREFIX) if (found := _read(path, held)) is not None]
    return sorted(stopped, key=lambda found: found.started)


def forget_stopped_proposes(root: Path) -> None:
    """A new Propose over the new pages takes the stopped ones over: it proposes for the pages they left new."""
    for stopped in stopped_proposes(root):
        stopped.forget()
    # and the locks of those killed between taking their lock and describing themselves, which say nothing
    remove_bare_locks(Path(root) / RUNNING_MARKS, _PREFIX)


def stopped_proposes_said(root: Path, statuses: Mapping[str, str], again: str) -> list[str]:
    """What opening the project at `root` says of its Proposes stopped part way, one line each (`statuses`: each
    page's status; `again`: the keys of a Propose over the new pages). Reads only."""
    return [said for found in stopped_proposes(root) if (said := found.message(statuses, again)) is not None]


def _read(path: Path, held: dict) -> StoppedPropose | None:
    """A stopped Propose's description; None for one that does not say what a Propose's says."""
    try:
        return StoppedPropose(path, tuple(str(p) for p in held["pages"]), str(held.get("started", "")),
                              int(held.get("process", 0)))
    except (ValueError, KeyError, TypeError):
        return None
