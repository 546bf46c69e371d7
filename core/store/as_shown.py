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

Some changes are made beside the records shown, on their page, and are judged there too:

    judge_as_shown(project, source, add_siblings, by=person, page="12", adds=siblings)  # G: none made since
    judge_as_shown(project, [], restore_to_change_3, by=person, page="12", newest=41)  # the history as shown

A decision of the Review (T, Shift+T, O, take all) is meant on the disagreements it decides as the review showed
them, open or kept (O): it is refused once one was kept, or its keep taken back, since (a keep changes no label, so
the records alone would not tell), and once a record only the other annotator made is a true record of the page
(another window took it: O would keep "the project has none" of a record it has). One that makes the project's
record their version (T on a pair, or on a record the project rejected) is refused once another true record of the
page is that record, which it would list twice:

    judge_as_shown(project, [], take, by=person, page="12", adds=[theirs], decides=[disagreement], kept=shown_kept)
    judge_as_shown(project, label, edit_to_theirs, by=person, page="12", makes=[theirs])

Records added beside a record (G: one per sibling of it) are refused when one of them is a record of the page now,
whatever its status: the window made none of a record it showed, so another writer made it since (proposed,
accepted, or rejected: "not a record"), and adding it again would list it twice; and the record they are made from
is refused gone, which the add would not notice. A restore to an earlier entry of the page's history takes back
every change after it: it is refused once the page's newest entry is no longer the one the history showed. Undo
and redo are such restores, meant on the newest entry the window's own last step left.

The comparison is of what the change or the mark is about: the status and elements of the records it changes, a
page's status, the records an add would repeat, the keeps of the disagreements decided, the history a restore goes
back through. A change to another record of the page is no reason to refuse an edit of one. Inside a transaction
already open (a step of work judging 700 records) the check joins it, so the step is refused whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from typing import Any, overload

from ..records.model import record_key
from .adjudication import KEEP, Kept
from .db import Provenance, StoreError
from .project import Change, Label, Project, status_moved


class ChangedElsewhere(StoreError):
    """A write refused because what it was meant on (`what`: "record", "page status", "page": its history, or
    "decision": a disagreement kept or open) is no longer as the window showed it: `change` is the newest history
    entry that changed it (None when no entry says so)."""

    def __init__(self, page: str, what: str, change: Change | None, record_id: int | None = None) -> None:
        self.page, self.what, self.change, self.record_id = page, what, change, record_id
        by = f" ({change.action} by {change.actor.name or change.actor}, {change.at})" if change is not None else ""
        super().__init__(f"page {page}: the {what} changed elsewhere since it was shown{by}: nothing written")


@overload
def judge_as_shown(project: Project, shown: Label, change: Callable[[int, Provenance], Change],
                   by: Provenance, *, page: str | None = None, adds: Sequence[Sequence[str]] = (),
                   newest: int | None = None, decides: Collection[Kept] = (), kept: Collection[Kept] = (),
                   makes: Sequence[Sequence[str]] = ()) -> Change: ...


@overload
def judge_as_shown(project: Project, shown: Sequence[Label], change: Callable[[list[int], Provenance], Change],
                   by: Provenance, *, page: str | None = None, adds: Sequence[Sequence[str]] = (),
                   newest: int | None = None, decides: Collection[Kept] = (), kept: Collection[Kept] = (),
                   makes: Sequence[Sequence[str]] = ()) -> Change: ...


def judge_as_shown(project: Project, shown: Label | Sequence[Label], change: Callable[[Any, Provenance], Change],
                   by: Provenance, *, page: str | None = None, adds: Sequence[Sequence[str]] = (),
                   newest: int | None = None, decides: Collection[Kept] = (), kept: Collection[Kept] = (),
                   makes: Sequence[Sequence[str]] = ()) -> Change:
    """`change` on the record `shown` (`project.accept`, `project.reject`, `project.delete`, an edit or a split of
    it: called with its id and `by`), or on the records `shown` (`project.merge`: called with their ids, in that
    order), if each one's status and elements are still as shown; else `ChangedElsewhere` naming the first that is
    not, and nothing written. A record deleted meanwhile is refused by the change itself, in its own words.

    On `page` (the page of the change, needed by these two): a change that `adds` records (G) is refused when one
    of them is a record of the page now, or when a record `shown` is gone (an add would not refuse it itself); one
    meant on the page's history as shown, whose `newest` entry it was (a restore), once the page has a newer one; a
    decision on the disagreements it `decides`, the review having shown `kept` those in force then, once one of them
    was kept since or its keep taken back, or a record only they made is a true record of the page now; a change that
    `makes` the records `shown` into other records (an edit to another annotator's version, an accept of a rejected
    copy of theirs) once another true record of the page is one of them."""
    records = [shown] if isinstance(shown, Label) else list(shown)
    if (adds or newest is not None or decides or makes) and page is None:
        raise ValueError("judge_as_shown: `adds`, `newest`, `decides` and `makes` are judged on a page: name it")
    with project.writing():
        for label in records:
            _refuse_if_changed(project, label, page if adds else None)
        if page is not None:
            _refuse_if_held(project, page, adds)
            _refuse_if_newer(project, page, newest)
            _refuse_if_decided(project, page, decides, kept)
            _refuse_if_made(project, page, [*makes, *_only_theirs(decides)],
                            shown.id if isinstance(shown, Label) else None)
        return change(shown.id if isinstance(shown, Label) else [label.id for label in records], by)


def _refuse_if_changed(project: Project, shown: Label, gone_from: str | None = None) -> None:
    """`ChangedElsewhere` when the record's status or elements are no longer those `shown`, or (`gone_from`: the
    page it was on) when it is gone."""
    row = project.one("SELECT status, xpaths FROM records WHERE id = ?", (shown.id,))
    if row is None and gone_from is not None:
        raise ChangedElsewhere(gone_from, "record", _last_touching(project, gone_from, shown.id), shown.id)
    if row is not None and (row[0], tuple(json.loads(row[1]))) != (shown.status, shown.xpaths):
        page = project.one("SELECT p.name FROM pages p JOIN records r ON r.page_id = p.id WHERE r.id = ?",
                           (shown.id,))[0]
        raise ChangedElsewhere(page, "record", _last_touching(project, page, shown.id), shown.id)


def _refuse_if_held(project: Project, page: str, adds: Sequence[Sequence[str]]) -> None:
    """`ChangedElsewhere` naming the page's record that one of `adds` already is (its XPaths as `record_key`
    compares them), in any status."""
    if not adds:
        return
    held = {record_key(label.xpaths): label.id for label in project.labels(page)}
    again = next((held[key] for record in adds if (key := record_key(record)) in held), None)
    if again is not None:
        raise ChangedElsewhere(page, "record", _last_touching(project, page, again), again)


def _refuse_if_newer(project: Project, page: str, newest: int | None) -> None:
    """`ChangedElsewhere` naming the page's newest history entry when it is no longer `newest`."""
    if newest is not None and project.last_change_id(page) != newest:
        history = project.history(page)  # none: the page was removed and imported again since
        raise ChangedElsewhere(page, "page", history[-1] if history else None)


def _refuse_if_decided(project: Project, page: str, decides: Collection[Kept], kept: Collection[Kept]) -> None:
    """`ChangedElsewhere` naming the page's newest keep (or restore, which puts back the keeps of its entry) when one
    of the disagreements `decides` is kept now and not in `kept` (the keeps shown), or the other way round; and the
    project's record of it, when it has one."""
    if not decides:
        return
    now = project.adjudication.in_force(project.page_id(page))
    moved = next((decision for decision in decides if (decision in now) != (decision in kept)), None)
    if moved is not None:
        ours = next((label.id for label in project.labels(page) if moved.ours is not None
                     and label.xpaths == moved.ours), None)
        raise ChangedElsewhere(page, "decision", next((change for change in reversed(project.history(page))
                                                       if change.action in (KEEP, "restore")), None), ours)


def _only_theirs(decides: Collection[Kept]) -> list[tuple[str, ...]]:
    """The records of the disagreements decided that only the other annotator made (the project none)."""
    return [decision.theirs for decision in decides if decision.ours is None and decision.theirs is not None]


def _refuse_if_made(project: Project, page: str, records: Sequence[Sequence[str]], besides: int | None) -> None:
    """`ChangedElsewhere` naming the page's true record, other than record `besides` (the one the change is made
    on), that one of `records` already is (`Adjudication.held_by`): another writer made it since the page was
    shown, and the change would list it twice, or decide a disagreement that is gone (O keeping "the project has
    none" of a record it now has)."""
    if not records:
        return
    held_as = project.adjudication.held_by(page)
    again = next((label.id for record in records if (label := held_as(record, besides)) is not None), None)
    if again is not None:
        raise ChangedElsewhere(page, "record", _last_touching(project, page, again), again)


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
