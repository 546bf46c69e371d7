"""The page history dialog: every stored change of one page, newest first, and a way back to any of them.

The undo stacks last one session, the store's history lasts as long as the project: this is how a page gets back
to a state from an earlier session. The dialog only picks the entry, and says which history it picked it from
(its newest entry); the window restores through the page's undo stack, so the restore itself can be undone, and
refuses it where the page changed since the list was filled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from datetime import datetime

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from ...core.store import (
    PAGE_STATUS_WORDS,
    Change,
    Label,
    Project,
    Provenance,
    follow_change,
    history_actions,
    history_numbers,
    history_steps,
    is_merge,
    status_moved,
)
from ...core.wording import listed
from ..qt.local_time import local_time, stored_moment, zone_name
from ..qt.screen_fit import resize_to_fit
from ..qt.signals import emit
from ..qt.widgets import closable_window
from . import decision_words as words

# History ids start at 1 (SQLite rowids), so 0 can stand for "before any change" in an item's data, where
# None would read the same as "no data".
START = 0
ENTRY_ROLE = Qt.ItemDataRole.UserRole
COLUMNS = ("#", "When", "Who", "What", "Records")
_IDS_SHOWN = 6
_TIP_RECORDS = 20  # the records a Records tip lists; "and N more" says the rest (a step can touch hundreds)
_XPATHS_SHOWN = 8
# Beside a time earlier than a change made before it: the clock was set back between them.
SET_BACK = "↺"
_WHEN_WIDTH = 150
_CELL_MARGINS = 16  # a cell's padding either side of its text, and room to spare


def who(actor: Provenance) -> str:
    return actor.name if actor.is_person else str(actor)


def change_numbers(history: list[Change]) -> dict[int, int]:
    """History id -> the change's number in the dialog's "#" column (1 is the oldest change of the page): the
    changes of one action (a merge's edit and keep) share its number."""
    return {change.id: k + 1 for k, action in enumerate(history_actions(history)) for change in action
            if change.id is not None}


def _moved(status: object) -> str:
    """A page's status move in the words the page list and the status bar use ("new → in progress")."""
    moved = status if isinstance(status, dict) else {}
    return " → ".join(PAGE_STATUS_WORDS.get(str(moved.get(end)), str(moved.get(end))) for end in ("from", "to"))


def what(change: Change, numbers: dict[int, int] | None = None) -> str:
    detail = change.detail
    if change.action == "status":
        return f"page {_moved(detail)}"
    if change.ends_a_merge:  # the merge's last change, named for the whole of it (`action_what`)
        return _merged(detail)
    if change.action == "restore":
        target = detail.get("to")
        back = ("before any change" if target is None
                else f"change {(numbers or {}).get(int(target), target)}")
        # An undo or redo is a restore underneath: named as the person did it, with where it took the page.
        text = (f"{detail['why']} (as {'before any change' if target is None else f'after {back}'})"
                if detail.get("why") else f"restore to {back}")
    elif detail.get("adjudicated"):
        text = _decided(change, str(detail["adjudicated"]))
    elif change.action == "edit" and change.before and change.after:
        text = f"edit ({_elements_moved(change.before[0].xpaths, change.after[0].xpaths)})"
    else:
        text = change.action
    if change.action == "add" and change.after and not detail.get("adjudicated"):
        text += f" ({change.after[0].status})"
    status = detail.get("page_status")
    if isinstance(status, dict):
        text += f"; page {_moved(status)}"
    return text


def _elements_moved(before: tuple[str, ...], after: tuple[str, ...]) -> str:
    """What an edit did to a record's elements, in a few words ("+1 element", "−2, +1 elements")."""
    added, removed = len(set(after) - set(before)), len(set(before) - set(after))
    parts = [f"−{removed}"] * bool(removed) + [f"+{added}"] * bool(added)
    if parts:
        return ", ".join(parts) + (" element" if added + removed == 1 else " elements")
    # An older RecordLens stored edits that changed nothing; today's refuses them.
    return "reordered" if before != after else "no change"


def _decided(change: Change, name: str) -> str:
    """A decision on another annotator's labels (T, O in the review) named as the person took it, with what it
    did: "take bea's record (added)", "keep the project's version over bea's" (as a merge is, `_merged`)."""
    if change.action == "keep":
        return words.keep(name)
    if change.action == "delete":
        return words.delete(name)
    if change.action == "accept":
        return f"{words.take(name)} (accepted in place)"
    if change.action == "edit" and change.before and change.after:
        moved = _elements_moved(change.before[0].xpaths, change.after[0].xpaths)
        if is_merge(change):  # Shift+T on a matched pair: its edit alone, no pair left to keep (as the export says)
            return f"{_merged(change.detail)} ({moved})"
        return f"{words.take_version(name)} ({moved})"
    if change.action == "add":
        added = len(change.after) - len(change.before)  # records an add moved down are in it too, before and after
        return f"{words.take(name)} (added)" if added == 1 else f"take {name}'s records ({added} added)"
    return f"{change.action}, adjudicated with {name}"


def _merged(detail: dict[str, object]) -> str:
    return f"merge with {detail.get('adjudicated')}'s record"


def action_what(action: list[Change], numbers: dict[int, int] | None = None) -> str:
    """One action (`actions`) in a few words: a merge as "merge with bea's record (+1 element)",
    what its edit did to the record said with it; a change alone as `what` says it."""
    edit, last = action[0], action[-1]
    if len(action) > 1 and last.ends_a_merge and edit.before and edit.after:
        return f"{_merged(last.detail)} ({_elements_moved(edit.before[0].xpaths, edit.after[0].xpaths)})"
    return what(last, numbers)


def step_what(step: list[Change], numbers: dict[int, int]) -> str:
    """A step of several changes in a few words: its name and how many ("accept ×240"), and the page status it
    moved, if it did. A step of one action (a merge's two changes) is said as that action."""
    done = history_actions(step)
    if len(done) == 1:
        return action_what(done[0], numbers)
    moved = [m for change in step if (m := status_moved(change.action, change.detail, change.actor.kind))]
    text = f"{step[0].step[1] if step[0].step else step[0].action} ({len(done)} changes)"
    if moved:
        text += f"; page {_moved({'from': moved[0]['from'], 'to': moved[-1]['to']})}"
    return text


def _as_one_change(step: list[Change]) -> Change:
    """A step's changes as one: the records they touched as they were before the step (not those it made), and
    those it left on the page as they are after it."""
    if len(step) == 1:
        return step[0]
    before: dict[int, Label] = {}
    after: dict[int, Label] = {}
    made_here: set[int] = set()
    for change in step:
        for label in change.before:
            if label.id not in made_here:
                before.setdefault(label.id, label)
            after.pop(label.id, None)
        for label in change.after:
            after[label.id] = label
            if label.id not in before:
                made_here.add(label.id)
    return replace(step[-1], before=tuple(before.values()), after=tuple(after.values()))


def clock_set_back(history: list[Change]) -> dict[int, Change]:
    """History id -> the change made before it whose time is the latest, for each change whose time is earlier
    than that one's. Ids are the order changes were made in; times are what the clock said, and a clock set back
    (by hand, by a time server, or another computer's clock behind) says an earlier time for a later change."""
    set_back: dict[int, Change] = {}
    latest: tuple[datetime, Change] | None = None
    for change in history:
        at = stored_moment(change.at)
        if at is None or change.id is None:
            continue
        if latest is not None and at < latest[0]:
            set_back[change.id] = latest[1]
        else:
            latest = (at, change)
    return set_back


class Times:
    """The "When" column of a page's history: in local time, the zone named once in the column's header (the
    newest change's) and beside a time only in another (a summer time); a time the clock set back marked."""

    def __init__(self, history: list[Change], changes: dict[int, int]) -> None:
        self.zone = zone_name(history[-1].at) if history else ""
        self.header = f"When ({self.zone})" if self.zone else "When"
        self.header_tip = (f"Local times, in {self.zone}; a time in another zone (summer or winter time) names its "
                           "own" if self.zone else "Local times")
        self.set_back = clock_set_back(history)
        self._changes = changes

    def text(self, change: Change) -> str:
        own = zone_name(change.at)
        text = local_time(change.at) + (f" {own}" if own and own != self.zone else "")
        return text + (f" {SET_BACK}" if change.id in self.set_back else "")

    def tip(self, change: Change) -> str:
        earlier = self.set_back.get(change.id) if change.id is not None else None
        if earlier is None:
            return ""
        return (f"Made after change {self._changes[earlier.id]} ({local_time(earlier.at, zone=True)}) though its "
                "time is earlier: the clock was set back between them (or they were made on computers whose "
                "clocks disagree). The list keeps the order the changes were made in.")

    def heading(self) -> str:
        return (f"; {SET_BACK} marks a time earlier than a change made before it (the clock was set back)"
                if self.set_back else "")


def touched(*changes: Change) -> list[Label]:
    """The records changes added, removed or changed, each once (as it was after the last change that touched it,
    if it still existed); not those they only moved to another number (`changed`)."""
    by_id: dict[int, Label] = {}
    for change in changes:
        before, after = changed(change)
        by_id.update((label.id, label) for label in before if label.id not in by_id)
        by_id.update((label.id, label) for label in after)
    return list(by_id.values())


def changed(change: Change) -> tuple[list[Label], list[Label]]:
    """The records a change added, removed or changed, as they were before it and are after it. A record it only
    moved (an add or a split in front of it moves it down, its undo back up) is in its entry as it was and is, so
    that a restore puts it back, but nothing of it changed but its number: no record the change is about."""
    was = {label.id: label for label in change.before}
    moved = {label.id for label in change.after if label.id in was and _same_but_number(was[label.id], label)}
    return ([label for label in change.before if label.id not in moved],
            [label for label in change.after if label.id not in moved])


def _same_but_number(one: Label, other: Label) -> bool:
    """Whether two versions of a record differ at most in their place (compared field by field: a copy of each
    made per record cost seconds for a step of 10,000 records)."""
    return all(getattr(one, name) == getattr(other, name) for name in _UNNUMBERED_FIELDS)


_UNNUMBERED_FIELDS = tuple(f.name for f in fields(Label) if f.name != "position")


@dataclass(frozen=True)
class KeptRecord:
    """What a keep (O: the project's version kept over an annotator's) concerns: the project's record, as it was
    then, and its number on the page (None, 0: the project held none there, the keep is of their record alone)."""

    annotator: str
    label: Label | None
    number: int
    theirs: tuple[str, ...]


@dataclass(frozen=True)
class HistoryNumbers:
    """The numbers a page's history shows, the badge's and the list's, from one replay of the page (a page of
    10,000 records judged one by one has 20,000 changes: each replay of it costs): `changes`, for each change id,
    the number each record it touched had (`history_numbers`); `steps`, for each step (`history_steps`), the
    number each record it touched had as the person saw the step, its changes as one (`_as_one_change`): a record
    it left on the page by its number after the whole step, one it removed by its number just before it (numbered
    change by change, records 5 and 6 deleted together were both "record 5"); `kept`, for each keep (a merge's
    aside: its edit names the record), what it concerns."""

    changes: dict[int | None, dict[int, int]]
    steps: list[dict[int, int]]
    kept: dict[int, KeptRecord]


class _Replay:
    """The changes `history_numbers` replays once, with looks at the page among them: a look names records as the
    page holds them at that moment and changes nothing, so its numbers are theirs then. Read back by `numbered`."""

    def __init__(self) -> None:
        self.replayed: list[Change] = []
        # For each change replayed, what its numbers are of: ("change", its id), ("before" or "after", a step's
        # index), ("kept", a keep's id)
        self._marks: list[tuple[str, int | None]] = []

    def change(self, change: Change) -> None:
        self.replayed.append(change)
        self._marks.append(("change", change.id))

    def look(self, at: Change, labels: tuple[Label, ...], mark: tuple[str, int | None]) -> None:
        self.replayed.append(replace(at, before=labels, after=labels))
        self._marks.append(mark)

    def numbered(self) -> list[tuple[tuple[str, int | None], dict[int, int]]]:
        return list(zip(self._marks, history_numbers(self.replayed), strict=True))


def history_numbers_of(history: list[Change], steps: list[list[Change]]) -> HistoryNumbers:
    """The numbers the history's entries show (`HistoryNumbers`), `steps` being `history_steps(history)`. A step
    of several changes is looked at before and after it; a keep's record (it changes no label) is found among the
    page's records of its moment by the XPaths the keep names (`Adjudication.keep` checks them so), and looked at
    there for its number."""
    replay = _Replay()
    kept: dict[int, KeptRecord] = {}
    # The page's records as they are, for keeps only: a history without one is not walked for them
    records: dict[int, Label] | None = {} if any(change.action == "keep" for change in history) else None
    for index, step in enumerate(steps):
        whole = _as_one_change(step) if len(step) > 1 else None
        if whole is not None:
            replay.look(whole, whole.before, ("before", index))
        for change in step:
            replay.change(change)
            if records is not None:
                follow_change(records, change)
                _look_at_kept(replay, records, change, kept)
        if whole is not None:
            replay.look(whole, whole.after, ("after", index))
    touched: dict[int | None, dict[int, int]] = {}
    steps_seen: list[dict[int, int]] = [{} for _ in steps]
    for (what, of), numbers in replay.numbered():
        if what == "change":
            touched[of] = numbers
        elif what == "kept" and of is not None and (label := kept[of].label) is not None:
            kept[of] = replace(kept[of], number=numbers.get(label.id, 0))
        elif of is not None:  # a step's records before it, then after it: the numbers after it win
            steps_seen[of].update(numbers)
    for index, step in enumerate(steps):
        if len(step) == 1:  # a step of one change: seen as that change is numbered
            steps_seen[index] = touched.get(step[0].id, {})
    # A keep touches no record: its entry names the one it kept, numbered as it was then
    changes = touched | {keep_id: {keep.label.id: keep.number} for keep_id, keep in kept.items() if keep.label}
    return HistoryNumbers(changes, steps_seen, kept)


def _look_at_kept(replay: _Replay, records: dict[int, Label], change: Change, kept: dict[int, KeptRecord]) -> None:
    """A keep's record, the first in display order that is true and has the XPaths it kept, looked at for its
    number (0 and no record: the project held none there, the keep is of the annotator's record alone)."""
    if change.action != "keep" or change.ends_a_merge or change.id is None:
        return
    sides = change.detail.get("kept")
    sides = sides if isinstance(sides, dict) else {}
    ours, theirs = sides.get("ours"), sides.get("theirs") or ()
    held = [label for label in records.values()
            if ours is not None and label.is_true and list(label.xpaths) == list(ours)]
    label = min(held, key=lambda label: (label.position, label.id)) if held else None
    kept[change.id] = KeptRecord(str(change.detail.get("adjudicated", "")), label, 0, tuple(map(str, theirs)))
    if label is not None:
        replay.look(change, (label,), ("kept", change.id))


def _number(label: Label, numbers: dict[int, int]) -> str:
    return str(numbers.get(label.id, "?"))


def _concerned(changes: Change | list[Change], kept: Mapping[int, KeptRecord]) -> list[Label]:
    """The records of the project's the changes touched or kept, each once."""
    labels = {label.id: label for label in touched(*_listed(changes))}
    for keep in _keeps(changes, kept):
        if keep.label is not None:
            labels.setdefault(keep.label.id, keep.label)
    return list(labels.values())


def _keeps(changes: Change | list[Change], kept: Mapping[int, KeptRecord]) -> list[KeptRecord]:
    return [kept[c.id] for c in _listed(changes) if c.id is not None and c.id in kept]


def _theirs_only(changes: Change | list[Change], kept: Mapping[int, KeptRecord]) -> list[KeptRecord]:
    """The keeps among the changes of an annotator's record where the project held none."""
    return [keep for keep in _keeps(changes, kept) if keep.label is None]


def _not_held(keeps: list[KeptRecord]) -> str:
    """"bea's record, not in the project", "2 of bea's records, not in the project"."""
    whose = listed(list(dict.fromkeys(keep.annotator for keep in keeps)))
    return (f"{whose}'s record" if len(keeps) == 1 else f"{len(keeps)} of {whose}'s records") + ", not in the project"


def records_text(changes: Change | list[Change], numbers: dict[int, int],
                 kept: Mapping[int, KeptRecord] | None = None) -> str:
    """The records a change (or a step's changes) touched, or kept (`HistoryNumbers.kept`), by the numbers the list and
    the badges use (`history_numbers`); an annotator's record a keep concerns where the project held none, said."""
    kept = kept or {}
    labels = sorted(_concerned(changes, kept), key=lambda label: numbers.get(label.id, 0))
    theirs = _theirs_only(changes, kept)
    if not labels and not theirs:
        return "0 records" if _adds_no_record(changes) else ""
    # A restore can touch a record twice (the one taken out and the one put back): each number once.
    named = list(dict.fromkeys(_number(label, numbers) for label in labels))
    parts = [f"{'record' if len(named) == 1 else 'records'} {listed(named, _IDS_SHOWN, total=True)}"] * bool(named)
    return "; ".join(parts + [_not_held(theirs)] * bool(theirs))


def _listed(changes: Change | list[Change]) -> list[Change]:
    return [changes] if isinstance(changes, Change) else changes


def _adds_no_record(changes: Change | list[Change]) -> bool:
    """Whether the changes add records and touch none: a page imported with an empty label list (the annotator's
    decision that it holds no record), which an empty cell would hide."""
    listed_changes = _listed(changes)
    return any(c.action == "add" for c in listed_changes) and not touched(*listed_changes)


def _xpaths(xpaths: tuple[str, ...]) -> str:
    return "  ".join(list(xpaths[:_XPATHS_SHOWN]) + (["…"] if len(xpaths) > _XPATHS_SHOWN else []))


def records_tooltip(changes: Change | list[Change], numbers: dict[int, int],
                    kept: Mapping[int, KeptRecord] | None = None) -> str:
    """A line for each record the changes touched or kept (the first `_TIP_RECORDS`, and how many more)."""
    if _adds_no_record(changes):
        return "No record: the page was labelled as holding none"
    kept = kept or {}
    lines = [f"record {_number(label, numbers)} {label.status}: {_xpaths(label.xpaths)}"
             for label in sorted(_concerned(changes, kept), key=lambda label: numbers.get(label.id, 0))]
    lines += [f"{keep.annotator}'s record, which the project does not hold: {_xpaths(keep.theirs)}"
              for keep in _theirs_only(changes, kept)]
    more = len(lines) - _TIP_RECORDS
    return "\n".join(lines[:_TIP_RECORDS] + [f"and {more} more"] * (more > 0))


class HistoryDialog(QDialog):
    """Lists a page's changes; "Restore to here" asks the window to bring the labels back to the chosen one."""

    # The page, the history id (None: before any change), the page's newest entry as listed (None: none): the
    # restore takes back every change after the one chosen, so it is refused over one the list did not show.
    restore_requested = Signal(str, object, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.page: str | None = None
        self.newest: int | None = None  # the newest entry listed
        resize_to_fit(self, 820, 480)
        self.heading = QLabel()
        self.heading.setWordWrap(True)  # a long history's heading says how to read steps and clocks
        self.entries = QTreeWidget()
        self.entries.setHeaderLabels(list(COLUMNS))
        self.entries.setAccessibleName("changes of the page, newest first")
        self.entries.header().setAccessibleName("column headings of the changes")
        self.entries.setRootIsDecorated(False)
        self.entries.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.entries.setColumnWidth(0, 44)
        self.entries.setColumnWidth(1, _WHEN_WIDTH)
        self.entries.setColumnWidth(2, 140)
        self.entries.setColumnWidth(3, 240)
        self.entries.itemSelectionChanged.connect(self._update_button)
        self.restore_button = QPushButton("Restore to here")
        self.restore_button.setToolTip("Bring the page's labels, and its status, back to how they were right "
                                       "after this change (Enter on the chosen row; undoable with Ctrl+Z)")
        self.restore_button.clicked.connect(self._restore)
        # Enter on a chosen row restores to it (the list passes Enter on to the dialog's default button)
        closable_window(self, self.heading, (self.entries, 1), actions=[self.restore_button])
        self._update_button()

    def show_page(self, project: Project, page: str, *, keep_choice: bool = True) -> None:
        """Fill the list from the store, newest first, keeping the chosen entry chosen if it is still there (and
        `keep_choice`); otherwise nothing is chosen, and the arrow keys start from the newest entry."""
        kept = self.chosen() if page == self.page and keep_choice else None
        self.page = page
        history = project.history(page)
        self.newest = history[-1].id if history else None
        steps = history_steps(history)
        self.setWindowTitle(f"History of page {page}")
        count = len(history_actions(history))  # a merge's edit and keep: one change, as the person made it
        grouped = f" in {len(steps)} steps" if len(steps) < count else ""
        changes = change_numbers(history)
        times = Times(history, changes)
        self.heading.setText(f"{count} change{'s' if count != 1 else ''} to page {page}{grouped}, "
                             "newest first" + ("; a step of several changes opens with its arrow" if grouped else "")
                             + times.heading())
        self.entries.clear()
        self.entries.headerItem().setText(1, times.header)
        self.entries.headerItem().setToolTip(1, times.header_tip)
        self.entries.setRootIsDecorated(bool(grouped))
        self.entries.setColumnWidth(0, 110 if grouped else 44)  # "12–251" beside the step's arrow
        shown = history_numbers_of(history, steps)  # the page replayed once for all of them
        numbers, keeps = shown.changes, shown.kept
        for step, seen in zip(reversed(steps), reversed(shown.steps), strict=True):
            item = self._entry(step, changes, numbers, times, keeps, seen)
            done = history_actions(step)
            if len(done) > 1:  # the step's own actions inside it, newest first, each one a place to restore to
                item.addChildren([self._entry(action, changes, numbers, times, keeps, seen)
                                  for action in reversed(done)])
            self.entries.addTopLevelItem(item)
        # Wide enough for a time that names its zone and is marked, the steps' own changes inside them too: measured
        # on the texts, since the tree's size hint measures only the rows shown (a step's stay folded).
        metrics = self.entries.fontMetrics()
        widest = max((metrics.horizontalAdvance(times.text(change)) for change in history), default=0)
        self.entries.setColumnWidth(1, max(_WHEN_WIDTH, widest + _CELL_MARGINS))
        start = QTreeWidgetItem(["0", "", "", "before any change", ""])
        start.setData(0, ENTRY_ROLE, START)
        self.entries.addTopLevelItem(start)
        if kept is not None:
            self.choose(kept)
        elif (newest := self.entries.topLevelItem(0)) is not None:
            self.entries.setCurrentItem(newest, 0, QItemSelectionModel.SelectionFlag.NoUpdate)
        self._update_button()

    @staticmethod
    def _entry(step: list[Change], changes: dict[int, int], numbers: dict[int | None, dict[int, int]],
               times: Times, kept: Mapping[int, KeptRecord], seen: Mapping[int, int]) -> QTreeWidgetItem:
        """One row: a change (a merge's two are one), or a step of several (restoring to it restores to its last
        change). Its records are numbered as the person saw the step they are part of (`seen`: the step's numbers
        in `HistoryNumbers.steps`)."""
        first, last = step[0], step[-1]
        records = {k: v for change in step for k, v in numbers[change.id].items()}  # each record's latest number
        records.update(seen)  # a record the step made and took out again is not in it: its own change numbers it
        number = (str(changes[last.id]) if changes[first.id] == changes[last.id]
                  else f"{changes[first.id]}–{changes[last.id]}")
        item = QTreeWidgetItem([number, times.text(last), who(last.actor), step_what(step, changes),
                                records_text(step, records, kept)])
        item.setData(0, ENTRY_ROLE, last.id)
        item.setToolTip(1, times.tip(last))
        for column in (2, 3):  # who and what, cut to their columns' widths: whole in the tip
            item.setToolTip(column, item.text(column))
        item.setToolTip(4, records_tooltip(step, records, kept))
        return item

    def chosen(self) -> int | None:
        """The chosen entry's history id, START for "before any change", None when nothing is chosen."""
        items = self.entries.selectedItems()
        return int(items[0].data(0, ENTRY_ROLE)) if items else None

    def choose(self, history_id: int) -> None:
        """Choose the row that restores to `history_id`: a step's own row before the change inside it."""
        # Rows and their children walked by index: a QTreeWidgetItemIterator stays registered with the tree
        # until Python frees it, and the tree's clear() then wrote through it (a crash).
        for row in range(self.entries.topLevelItemCount()):
            top = self.entries.topLevelItem(row)
            for item in [top, *(top.child(k) for k in range(top.childCount()))]:
                if int(item.data(0, ENTRY_ROLE)) == history_id:
                    if item is not top:
                        top.setExpanded(True)
                    self.entries.setCurrentItem(item)
                    return

    def _update_button(self) -> None:
        chosen = self.chosen()
        newest = self.entries.topLevelItem(0)
        # Restoring to the newest entry would change nothing: the labels are already as it left them.
        latest = newest is not None and chosen == int(newest.data(0, ENTRY_ROLE))
        self.restore_button.setEnabled(chosen is not None and not latest)

    def _restore(self) -> None:
        chosen = self.chosen()
        if self.page is None or chosen is None:
            return
        emit(self.restore_requested, self.page, None if chosen == START else chosen, self.newest)
