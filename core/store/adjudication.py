"""Adjudication decisions that change no label: the project's version of a disagreement with another annotator
kept (O in the app's review), so that it no longer counts as open.

    change = project.adjudication.keep("12", "bea", theirs=["/html[1]/body[1]/div[2]"], ours=None, by=person)
    project.adjudication.kept("12", "bea")            # {Kept("bea", ("/html[1]/body[1]/div[2]",), None)}

A decision is an entry of the page's history (action "keep", noted as an adjudication with the annotator), so it
is undone and redone as every change is (`Project.restore`), and travels with the page's history wherever that
goes. The decisions in force are read back from the history: a keep adds one, a restore puts back those in force
right after the entry it restores to. A decision names both sides by their XPaths: once their record or the
project's record is not so any more (imported again, edited), it names no disagreement of the review and the
disagreement is open again. Agreement figures never look at decisions: keeping changes no label.

    project.adjudication.held_as("151", theirs)       # the project's record that is theirs already, or None
    project.adjudication.merged(ours, theirs)         # Shift+T's record: both's XPaths, none an ancestor covers
    project.adjudication.merge("12", label, "bea", theirs, by=person)   # Shift+T: that record, and decided
    project.adjudication.decided_since("128", "ben", imported_at)   # what was decided on their labels since then

A merge is a decision too: the merged record may still hold their record as a small part of its text (a partial
pair), which no label change can close, so the merge stores beside its edit the keep of the pair it leaves (noted
as the merge's, `Kept.merged`), in the same step of work: the review lists the pair as decided, W passes it by, an
undo takes both back. `decided_since` counts such a merge once, as merged.

The decisions in force on a page, record by record, with when and by whom (what an export writes):

    project.adjudication.trace("12")   # Trace(records={41: (Decision("bea", "taken", ...),)}, page=(...))
    project.adjudication.taken_from("bea")   # {"12": 1}: the project's records taken or merged from bea's set

A take (T: a record of theirs added, a rejected record of the project's accepted, a record edited to theirs) or a
merge (Shift+T) stays with the record until a change of someone's own touches its XPaths or status (the record is
theirs then); a later decision adds to it (taken from bea, then merged with ben). A keep (O) is in force as
`in_force` says, and while it names a disagreement still there (the project's record `ours`, their `theirs`). The
decisions that concern no record of the project's are the page's: a keep where the project has none, a record
deleted on their word (T where they made none). A restore puts back those in force right after its entry.

A decision never adds a record the project has already (`held_as`: the XPaths compared as the scorer normalises
them, `record_key`), nor keeps "the project has none" of a record of theirs it has. Their labels imported again
leave the decisions taken on the ones replaced as they are; the import names them (`decided_since`), so that the
lead can look at them again.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..records.model import normalise_xpath, record_key
from ..records.review import MATCHED, MISSED, SPURIOUS, ReviewRecord
from ..wording import counted
from .db import Provenance, StoreError, now
from .schema import REJECTED, TRUE_LABEL_STATUSES

if TYPE_CHECKING:
    from .project import Change, Label, Project

KEEP = "keep"  # the history action of a decision to keep the project's version
MERGED = "merged"  # a keep's note that a merge (Shift+T) made it: the merge's edit is the decision that counts
_RESTORE = "restore"
# What a decision in force did (`Decision.decision`): the words of `Decided` and of the review
TAKEN, KEPT, DELETED = "taken", "kept", "deleted"  # and MERGED


@dataclass(frozen=True)
class Kept:
    """A disagreement whose project's version was kept: the annotator's record and the project's, by their XPaths
    (None: that side has no record there, a record only the other made)."""

    annotator: str
    theirs: tuple[str, ...] | None
    ours: tuple[str, ...] | None
    # Stored with a merge (Shift+T): the project's record is the merge of both. Not part of what the decision
    # names: a review record's `disagreement` is the same decision, whoever made it
    merged: bool = field(default=False, compare=False)


def disagreement(record: ReviewRecord, annotator: str) -> Kept | None:
    """The decision that would keep the project's version of a review record of the annotator against the
    project's labels (predicted = theirs, true = the project's); None for a matched record, no disagreement."""
    if record.kind == MATCHED:
        return None
    theirs = None if record.kind == MISSED else tuple(record.xpaths)
    ours = None if record.kind == SPURIOUS else tuple(record.true_xpaths or record.xpaths)
    return Kept(annotator, theirs, ours)


@dataclass(frozen=True)
class Decided:
    """The adjudication decisions with an annotator in force on a page that were taken since a moment (their
    labels' import): disagreements kept, and the project's records taken, merged or deleted on their word (those
    still there by their numbers on the page, as the Records tab numbers them)."""

    kept: int = 0
    taken: tuple[int, ...] = ()
    merged: tuple[int, ...] = ()
    deleted: int = 0

    @property
    def count(self) -> int:
        return self.kept + len(self.taken) + len(self.merged) + self.deleted

    def words(self) -> str:
        """"3 adjudication decisions made on them: 1 kept, 1 taken (record 9), 1 merged (record 1)"."""
        parts = [f"{self.kept} kept"] if self.kept else []
        parts += [f"{len(numbers)} {what} ({_records(numbers)})"
                  for what, numbers in (("taken", self.taken), ("merged", self.merged)) if numbers]
        parts += [f"{self.deleted} deleted"] if self.deleted else []
        return f"{counted(self.count, 'adjudication decision')} made on them: {', '.join(parts)}"


@dataclass(frozen=True)
class Decision:
    """An adjudication decision in force (`Adjudication.trace`): with whose record (`annotator`), what it did
    (taken, merged, kept, deleted), when and by whom (its history entry's). `theirs`: a keep's record of theirs not
    taken (None: they made none there); `ours`: the project's record a keep kept or a delete deleted."""

    annotator: str
    decision: str
    at: str
    by: Provenance
    theirs: tuple[str, ...] | None = None
    ours: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Trace:
    """The decisions in force on a page: those of each record of the project's (by id, oldest first), and the
    page's, which concern no record of the project's (a keep where it has none, a record deleted on their word)."""

    records: dict[int, tuple[Decision, ...]] = field(default_factory=dict)
    page: tuple[Decision, ...] = ()


@dataclass(frozen=True)
class _Walked:
    """The decisions in force right after a history entry, as `Adjudication.trace` walks the history."""

    records: dict[int, tuple[Decision, ...]] = field(default_factory=dict)
    deleted: tuple[Decision, ...] = ()
    kept: dict[Kept, Decision] = field(default_factory=dict)


def _inside(key: str, keys: Collection[str]) -> bool:
    """Whether the element of XPath `key` is inside one of `keys`' (all as the scorer normalises them)."""
    return any(key.startswith(other + "/") for other in keys)


def _covers(record: Sequence[str], xpaths: Sequence[str]) -> bool:
    """Whether the record holds every element of `xpaths`, itself or an ancestor of it (as the scorer normalises
    XPaths): a merge (`Adjudication.merged`) leaves out the project's XPaths an ancestor covers, and still keeps
    all of the project's record."""
    keys = {normalise_xpath(xpath) for xpath in record}
    return all(key in keys or _inside(key, keys) for key in map(normalise_xpath, xpaths))


def adjudicated_with(change: Change) -> str | None:
    """The annotator a change was an adjudication with (their record decided it: T, Shift+T, O, a delete on their
    word), as its history entry notes it; None for a change of someone's own (labelling, an import, proposals)."""
    annotator = change.detail.get("adjudicated")
    return annotator if isinstance(annotator, str) and annotator else None


def is_merge(change: Change) -> bool:
    """Whether a change is an edit on another annotator's word that kept all of the project's record (Shift+T's
    merge; also a T whose record holds the project's whole): said as a merge by the history and the export."""
    return (change.action == "edit" and bool(change.detail.get("adjudicated")) and bool(change.before)
            and bool(change.after) and _covers(change.after[0].xpaths, change.before[0].xpaths))


def _records(numbers: Sequence[int]) -> str:
    return f"record {numbers[0]}" if len(numbers) == 1 else f"records {', '.join(map(str, numbers))}"


class Adjudication:
    """The decisions to keep the project's version of a disagreement, page by page (`project.adjudication`)."""

    def __init__(self, project: Project) -> None:
        self._project = project

    def keep(self, page: str, annotator: str, theirs: Sequence[str] | None, ours: Sequence[str] | None,
             by: Provenance) -> Change:
        """Keep the project's record `ours` (None: it has none there) against the annotator's `theirs` (None: they
        made none there): one history entry, by `by`, that changes no label. Keeping a decision in force again
        changes nothing (the change's id is None)."""
        project = self._project
        decision = Kept(annotator, None if theirs is None else tuple(theirs), None if ours is None else tuple(ours))
        with project.writing():
            self._check(page, decision)
            if decision in self.kept(page, annotator):  # in force already: nothing to store, nor to undo
                from .project import Change  # the project module imports this one

                return Change(None, page, now(), by, KEEP, (), (), _detail(decision))
            return project.log_decision(page, by, KEEP, _detail(decision))

    @staticmethod
    def merged(ours: Sequence[str], theirs: Sequence[str]) -> list[str]:
        """The record of both versions (Shift+T): the project's XPaths, then theirs, each once (as the scorer
        normalises them), but those an ancestor XPath of the record already covers. An element inside another of
        the record adds none of its text (the scorer takes an element's text with its descendants'), and stored
        beside it would make the record look as if it held more (`li[1]`, `li[1]/b[1]`, `li[1]/span[1]`: 3
        elements for one)."""
        xpaths = [*ours, *theirs]
        keys = {normalise_xpath(x) for x in xpaths}
        kept: dict[str, str] = {}
        for xpath in xpaths:
            key = normalise_xpath(xpath)
            if key not in kept and not _inside(key, keys):
                kept[key] = xpath
        return list(kept.values())

    def merge(self, page: str, ours: Label, annotator: str, theirs: Sequence[str], by: Provenance) -> Change:
        """Shift+T on a pair: the project's record `ours` takes both versions' XPaths (`merged`), its edit noted as
        adjudicated with the annotator, and the pair the merged record makes with their record `theirs` is decided
        as a keep (`MERGED`), one step of work with the edit: a merge that leaves their record a small part of the
        project's (still partial) is a decision taken, not an open disagreement. The decision's change is
        returned; the edit's (its id None, nothing stored) when the merge is the record as it stands (keep it
        instead, as O does)."""
        project = self._project
        xpaths = self.merged(ours.xpaths, theirs)
        with project.writing(), project.one_step(f"merge {annotator}'s record into the project's"):
            edit = project.edit(ours.id, xpaths, by, adjudicated=annotator)
            if edit.id is None:
                return edit
            decision = Kept(annotator, tuple(theirs), tuple(xpaths), merged=True)
            self._check(page, decision)  # their record as the project holds it: else nothing is merged either
            return project.log_decision(page, by, KEEP, _detail(decision))

    def held_as(self, page: str, xpaths: Sequence[str], besides: int | None = None) -> Label | None:
        """The project's true record of the page that is already the record `xpaths` (their XPaths as the scorer
        normalises them: order and spelling aside), other than record `besides` (the one a decision changes);
        None when the project lacks it. Taking such a record would list it twice."""
        return self.held_by(page)(xpaths, besides)

    def held_by(self, page: str) -> Callable[[Sequence[str], int | None], Label | None]:
        """`held_as` for many records of one page (a step of hundreds of rows): the page's true records are read
        and keyed once."""
        by_key: dict[frozenset[str], list[Label]] = {}
        for label in self._project.labels(page, TRUE_LABEL_STATUSES):
            by_key.setdefault(record_key(label.xpaths), []).append(label)

        def held_as(xpaths: Sequence[str], besides: int | None = None) -> Label | None:
            return next((label for label in by_key.get(record_key(xpaths), ()) if label.id != besides), None)
        return held_as

    def decided_since(self, page: str, annotator: str, since: str) -> Decided:
        """The decisions with the annotator taken on the page since `since` (a time: when their labels of it, now
        being replaced, were imported) that are still in force: a keep still in force, a record taken or merged
        still there as the decision left it, a record deleted still gone. An edit that still covers every element
        of the project's record (itself or an ancestor: `_covers`) is a merge (Shift+T), another a take (T)."""
        project = self._project
        labels = project.labels(page)
        now_held = {label.id: label for label in labels}
        numbers = {label.id: k + 1 for k, label in enumerate(labels)}
        kept: set[Kept] = set()
        taken: list[int] = []
        merged: list[int] = []
        deleted = 0

        def still(label: Label) -> bool:
            held = now_held.get(label.id)
            return held is not None and held.xpaths == label.xpaths

        in_force = self.in_force(project.page_id(page))
        for change in project.history(page):
            if change.at < since or change.detail.get("adjudicated") != annotator:
                continue
            if change.action == KEEP:
                decision = _decision(change.detail)
                if decision in in_force and not decision.merged:  # a merge's: counted by its edit, as merged
                    kept.add(decision)
            elif change.action == "add":
                moved = {label.id for label in change.before}  # records moved down to make room: not taken
                taken += [numbers[label.id] for label in change.after if label.id not in moved and still(label)]
            elif change.action == "edit" and change.record is not None and still(change.record):
                was = change.before[0].xpaths if change.before else ()
                (merged if _covers(change.record.xpaths, was) else taken).append(numbers[change.record.id])
            elif change.action == "accept" and change.record is not None and still(change.record) \
                    and now_held[change.record.id].status != REJECTED:  # a rejection taken over (T)
                taken.append(numbers[change.record.id])
            elif change.action == "delete":
                deleted += sum(1 for label in change.before if label.id not in now_held)
        return Decided(len(kept), tuple(sorted(set(taken))), tuple(sorted(set(merged))), deleted)

    def trace(self, page: str) -> Trace:
        """The decisions in force on the page, record by record (see the module notes); an empty trace, read from
        no history, for a page where no one adjudicated."""
        project = self._project
        page_id = project.page_id(page)
        if project.one("SELECT 1 FROM label_history WHERE page_id = ? AND detail LIKE ? LIMIT 1",
                       (page_id, '%"adjudicated"%')) is None:
            return Trace()
        walked = _Walked()
        after: dict[int, _Walked] = {}
        for change in project.history(page):
            walked = _walk(walked, change, after)
            if change.id is not None:
                after[change.id] = walked
        labels = project.labels(page)
        records = {label.id: list(walked.records.get(label.id, ())) for label in labels}
        page_decisions = list(walked.deleted)
        true_ids = {tuple(label.xpaths): label.id for label in reversed(labels) if label.is_true}  # the first's
        in_force = self.in_force(page_id)
        names = set(project.annotators.names())
        theirs_held: dict[str, list[list[str]]] = {}
        for decision, done in walked.kept.items():
            if decision not in in_force or decision.annotator not in names:
                continue
            theirs = theirs_held.setdefault(decision.annotator, project.annotators.records(decision.annotator, page))
            if decision.theirs is not None and list(decision.theirs) not in theirs:
                continue  # their record is not so any more (imported again): the decision names no disagreement
            if decision.ours is None:
                page_decisions.append(done)
            elif tuple(decision.ours) in true_ids:
                records[true_ids[tuple(decision.ours)]].append(done)
        return Trace({k: tuple(sorted(v, key=_when)) for k, v in records.items() if v},
                     tuple(sorted(page_decisions, key=_when)))

    def taken_from(self, annotator: str) -> dict[str, int]:
        """Page -> how many of the project's records hold a record taken (or merged) from the annotator's set, by the
        decisions in force (`trace`, as an export's `adjudication` says them), on the pages where a decision with
        them was taken: their name as a record's origin is theirs as an annotator, not a person's of the app."""
        project = self._project
        rows = project.db.execute(
            "SELECT DISTINCT p.name FROM label_history h JOIN pages p ON p.id = h.page_id "
            "WHERE json_extract(h.detail, '$.adjudicated') = ?", (annotator,)).fetchall()
        found = {}
        for (page,) in rows:
            taken = sum(1 for decisions in self.trace(page).records.values()
                        if any(d.annotator == annotator and d.decision in (TAKEN, MERGED) for d in decisions))
            if taken:
                found[page] = taken
        return found

    def kept(self, page: str, annotator: str) -> frozenset[Kept]:
        """The decisions in force on a page for one annotator (those whose records may no longer be there too:
        compare them with the review's, `disagreement`)."""
        return frozenset(d for d in self.in_force(self._project.page_id(page)) if d.annotator == annotator)

    def kept_pages(self, annotator: str) -> dict[str, frozenset[Kept]]:
        """Every page with a decision in force for the annotator, with its decisions."""
        rows = self._project.db.execute(
            "SELECT DISTINCT p.name, p.id FROM label_history h JOIN pages p ON p.id = h.page_id WHERE h.action = ?",
            (KEEP,)).fetchall()
        found = {name: frozenset(d for d in self.in_force(page_id) if d.annotator == annotator)
                 for name, page_id in rows}
        return {name: decisions for name, decisions in found.items() if decisions}

    def in_force(self, page_id: int) -> frozenset[Kept]:
        """The page's decisions in force now, every annotator's."""
        _, states = self._states(page_id)
        return states[-1] if states else frozenset()

    def differ_after(self, page_id: int, entry: int | None) -> bool:
        """Whether the page's decisions in force now are not those right after history entry `entry` (None: before
        any entry), which a restore to it puts back (`Project.restore`); its keep and restore entries read once."""
        ids, states = self._states(page_id)
        return (states[-1] if states else frozenset()) != _state_after(ids, states, entry)

    def _states(self, page_id: int) -> tuple[list[int], list[frozenset[Kept]]]:
        """The page's keep and restore entries, oldest first, with the decisions in force right after each."""
        rows = self._project.db.execute(
            "SELECT id, action, detail FROM label_history WHERE page_id = ? AND action IN (?, ?) ORDER BY id",
            (page_id, KEEP, _RESTORE)).fetchall()
        ids: list[int] = []
        states: list[frozenset[Kept]] = []
        current: frozenset[Kept] = frozenset()
        for entry, action, detail in rows:
            noted = json.loads(detail)
            if action == KEEP:
                current = current | {_decision(noted)}
            else:
                to = noted.get("to")
                current = _state_after(ids, states, to if isinstance(to, int) else None)
            ids.append(entry)
            states.append(current)
        return ids, states

    def _check(self, page: str, decision: Kept) -> None:
        """A decision names a disagreement as the project holds it now: the project's true record (or, naming none,
        the project still lacking theirs: taken meanwhile, the disagreement is gone), and the annotator's record of
        the page."""
        project = self._project
        if decision.theirs is None and decision.ours is None:
            raise StoreError("a decision to keep the project's version needs their record, the project's, or both")
        if decision.annotator not in project.annotators.names():
            raise StoreError(f"no label set named {decision.annotator!r} in the project: there is nothing of theirs "
                             "to decide against")
        if decision.ours is not None and list(decision.ours) not in [
                list(label.xpaths) for label in project.labels(page, TRUE_LABEL_STATUSES)]:
            raise StoreError(f"page {page} has no such record of the project's (changed meanwhile?): nothing kept; "
                             "review the page again and choose again")
        if decision.ours is None and decision.theirs is not None and (
                held := self.held_as(page, decision.theirs)) is not None:
            number = [label.id for label in project.labels(page)].index(held.id) + 1
            raise StoreError(f"page {page} already holds {decision.annotator}'s record, as its record {number} (taken "
                             "meanwhile?): nothing kept; review the page again and choose again")
        if decision.theirs is not None and list(decision.theirs) not in project.annotators.records(
                decision.annotator, page):
            raise StoreError(f"{decision.annotator}'s labels of page {page} hold no such record (imported again?): "
                             "nothing kept; review the page again and choose again")


def _walk(walked: _Walked, change: Change, after: dict[int, _Walked]) -> _Walked:
    """The decisions in force right after `change`, from those right before it (`walked`) and those right after
    each earlier entry (`after`, which a restore puts back)."""
    if change.action == _RESTORE:
        to = change.detail.get("to")
        return after.get(to, _Walked()) if isinstance(to, int) else _Walked()
    annotator = adjudicated_with(change)
    before = {label.id: label for label in change.before}
    still = {label.id for label in change.after}
    # Records only moved down by an insertion are in the entry as they were and are: not touched
    touched = [label for label in change.after if label.id not in before or
               (label.xpaths, label.status) != (before[label.id].xpaths, before[label.id].status)]
    records = {k: v for k, v in walked.records.items() if k in still or k not in before}
    if annotator is None:  # a change of someone's own: the records are theirs now
        for label in touched:
            records.pop(label.id, None)
        return _Walked(records, walked.deleted, walked.kept)

    def done(decision: str, theirs: Sequence[str] | None = None, ours: Sequence[str] | None = None) -> Decision:
        return Decision(annotator, decision, change.at, change.actor, None if theirs is None else tuple(theirs),
                        None if ours is None else tuple(ours))

    if change.action == KEEP:
        kept = _decision(change.detail)
        if kept.merged or kept in walked.kept:  # a merge's: its edit is the decision, said with the record
            return walked
        return _Walked(records, walked.deleted, {**walked.kept, kept: done(KEPT, kept.theirs, kept.ours)})
    for label in touched:
        was = before.get(label.id)
        if change.action == "edit" and was is not None and _covers(label.xpaths, was.xpaths):
            records[label.id] = (*records.get(label.id, ()), done(MERGED))
        else:  # their record instead of whatever the record was
            records[label.id] = (done(TAKEN),)
    deleted = tuple(done(DELETED, ours=label.xpaths) for label in change.before if label.id not in still)
    return _Walked(records, walked.deleted + deleted, walked.kept)


def _when(decision: Decision) -> str:
    return decision.at


def _state_after(ids: list[int], states: list[frozenset[Kept]], entry: int | None) -> frozenset[Kept]:
    """The decisions in force right after history entry `entry` (None: before any), from the keep and restore
    entries up to it."""
    if entry is None:
        return frozenset()
    at = bisect.bisect_right(ids, entry)
    return states[at - 1] if at else frozenset()


def _detail(decision: Kept) -> dict[str, object]:
    return {"adjudicated": decision.annotator, "kept": {
        "theirs": None if decision.theirs is None else list(decision.theirs),
        "ours": None if decision.ours is None else list(decision.ours)}, **({MERGED: True} if decision.merged else {})}


def _decision(detail: dict[str, object]) -> Kept:
    kept = detail.get("kept")
    sides = kept if isinstance(kept, dict) else {}

    def side(name: str) -> tuple[str, ...] | None:
        value = sides.get(name)
        return None if value is None else tuple(str(x) for x in value)

    return Kept(str(detail.get("adjudicated", "")), side("theirs"), side("ours"), merged=detail.get(MERGED) is True)
