"""A verdict, an edit or a page mark made on what a window showed: refused when another writer changed it since.

Two windows (or a window and the command line) on one project each show the labels as they last read them, and
look again only every 1.5 s. A person's accept, reject, edit or page mark is meant on what their window shows:
made on a record another window has rejected since, an accept would silently take that reject back (while alone,
the same key on a record shown accepted writes nothing), and an element clicked into it would make it `edited`,
a true record again, over that reject; a merge or a split of records changed since would drop the other's
change with the records it replaces. So these writes compare the state shown with the project's state inside
their own write transaction, and refuse (`ChangedElsewhere`, naming the change that came between) when they
differ:

    judge_as_shown(project, shown_label, project.accept, by=person)      # the record as the window showed it
    judge_as_shown(project, shown_label, project.delete, by=person)      # any change made on one record shown
    judge_as_shown(project, shown_labels, project.merge, by=person)      # ... or on several (merged in that order)
    mark_as_shown(project, "12", "labelled", by=person, shown="proposed")  # the page's status as shown

The comparison is of what the change or the mark is about: the status and elements of the records it changes, a
page's status. A change to another record of the page is no reason to refuse. Inside a transaction already open
(a step of work judging 700 records) the check joins it, so the step is refused whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, overload

from .db import Provenance, StoreError
from .project import Change, Label, Project, status_moved


class ChangedElsewhere(StoreError):
    """A write refused because what it was meant on (`what`: "record" or "page status") is no longer as the window
    showed it: `change` is the newest history entry that changed it (None when no entry says so)."""

    def __init__(self, page: str, what: str, change: Change | None, record_id: int | None = None) -> None:
        self.page, self.what, self.change, self.record_id = page, what, change, record_id
        by = f" ({change.action} by {change.actor.name or change.actor}, {change.at})" if change is not None else ""
        super().__init__(f"page {page}: the {what} changed elsewhere since it was shown{by}: nothing written")


@overload
def judge_as_shown(project: Project, shown: Label, change: Callable[[int, Provenance], Change],
                   by: Provenance) -> Change: ...


@overload
def judge_as_shown(project: Project, shown: Sequence[Label], change: Callable[[list[int], Provenance], Change],
                   by: Provenance) -> Change: ...


def judge_as_shown(project: Project, shown: Label | Sequence[Label], change: Callable[[Any, Provenance], Change],
                   by: Provenance) -> Change:
    """`change` on the record `shown` (`project.accept`, `project.reject`, `project.delete`, an edit or a split of
    it: called with its id and `by`), or on the records `shown` (`project.merge`: called with their ids, in that
    order), if each one's status and elements are still as shown; else `ChangedElsewhere` naming the first that is
    not, and nothing written. A record deleted meanwhile is refused by the change itself, in its own words."""
    records = [shown] if isinstance(shown, Label) else list(shown)
    with project.writing():
        for label in records:
            _refuse_if_changed(project, label)
        return change(shown.id if isinstance(shown, Label) else [label.id for label in records], by)


def _refuse_if_changed(project: Project, shown: Label) -> None:
    """`ChangedElsewhere` when the record's status or elements are no longer those `shown` (not when it is gone)."""
    row = project.one("SELECT status, xpaths FROM records WHERE id = ?", (shown.id,))
    if row is not None and (row[0], tuple(json.loads(row[1]))) != (shown.status, shown.xpaths):
        page = project.one("SELECT p.name FROM pages p JOIN records r ON r.page_id = p.id WHERE r.id = ?",
                           (shown.id,))[0]
        raise ChangedElsewhere(page, "record", _last_touching(project, page, shown.id), shown.id)


def mark_as_shown(project: Project, page: str, status: str, by: Provenance, shown: str) -> Change:
    """Set the page's status to `status` if it is still `shown`; else `ChangedElsewhere`, and nothing written."""
    with project.writing():
        if project.page(page).status != shown:
            raise ChangedElsewhere(page, "page status", _last_status_move(project, page))
        return project.set_status(page, status, by)


def _last_touching(project: Project, page: str, record_id: int) -> Change | None:
    """The newest history entry of the page with the record before or after it."""
    return next((change for change in reversed(project.history(page))
                 if any(label.id == record_id for label in change.before + change.after)), None)


def _last_status_move(project: Project, page: str) -> Change | None:
    """The newest history entry of the page that moved its status (a mark, or a change that moved it too)."""
    return next((change for change in reversed(project.history(page))
                 if status_moved(change.action, change.detail, change.actor.kind)), None)
