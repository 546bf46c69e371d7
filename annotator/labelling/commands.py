"""Undoable label edits: each QUndoCommand wraps one store change, which the store saves as it happens.

Undo and redo use the store's own history rather than hand-written inverse edits: undo restores the page's
labels to the history entry just before the change, redo to the entry the change wrote. `Project.restore`
brings records back with their ids, so undo can select again the records that were selected when the change was
made (a deleted record comes back selected), and redo those selected when it was undone. Page status lives
outside the label history, so status changes (and the new -> proposed move that proposals make) are undone by
setting the old status again.

Nothing moves on the stack before the store has the write. A command runs its change *before* it is pushed
(`perform`), so a change the store refuses raises where the caller can report it and never reaches the stack; the
stack's first `redo()` call then does nothing. The changes of one step (`push_all`: 700 proposals accepted at
once) are one transaction, so one the store refuses part way leaves none of them stored. Undo and redo go through
`EditGroup`, which writes the step's restore first (`take_back`, `make_again`) and moves the stack only once it
is stored: a QUndoStack moves its index even when a command's undo() raises (Qt only prints the error), and the
next Ctrl+Z would then take back the step before as well as the one never undone. A write the database refuses (a
full disk) raises `NotSaved`, and the window is told (`EditGroup`'s `refused`), so that it stops calling the
project saved.

A step can be said apart from its name (Qt's "text\nactionText": `text()` is the name the history and a refusal
use, `actionText()` the one undo and redo say, the stack's undoText()): "reject record 2", with the number the
record had when the step was made, which undo gives it again, while the history names the records in a column of
its own.

Each undo and redo tells the window the newest history entry it wrote: a restore is only right while the page's
newest entry is the one this window's steps left. Given that entry (`EditGroup.undo(newest=…)`), an undo or a redo
looks at the page's newest entry inside its own write (`judge_as_shown`), and is refused (`ChangedElsewhere`,
nothing written, the stack not moved) when another window or the command line changed the page since. A step
reads the entry it is made over inside its own write too (`push(…, newest=…)`): made over another writer's change,
it clears the older steps before it goes on the stack, since undoing them would take that change back as well.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoCommand, QUndoGroup, QUndoStack

from ...core.errors import RecordLensError
from ...core.store import Change, Project, Provenance, judge_as_shown, mark_as_shown
from ...core.wording import listed
from ..qt.jobs import database_refused

# Told the page whose labels or status changed, the records to select there (None: keep the selection) and the
# newest history entry the step wrote (None: it wrote none).
Notify = Callable[[str, Sequence[int] | None, int | None], None]
Selection = Callable[[str], list[int] | None]  # the records selected on a page now (None: it is not on show)


def said_apart(text: str, said: str | None) -> str:
    """A step's name `text`, said as `said` by undo and redo (Qt takes what follows a newline as actionText())."""
    return text if said is None else f"{text}\n{said}"


class NotSaved(RecordLensError):
    """The project's database refused a write (a full disk): the edit, undo or redo is not in the project, and
    nothing stored before is touched (the transaction is rolled back)."""


@contextmanager
def _saved_or_refused(project: Project, what: str = "") -> Iterator[None]:
    """A write to `project` whose refusal by the database raises `NotSaved`, naming `what` was not saved (and, of
    a damaged database, the project's own file)."""
    try:
        yield
    except sqlite3.Error as error:
        raise NotSaved(f"{what + ' ' if what else ''}NOT saved: "
                       f"{database_refused(error, project.root, again='do it again')}") from error


def _put_back(project: Project, page: str, history_id: int | None, status: str | None, by: Provenance,
              why: str, newest: int | None) -> int | None:
    """The page's labels as right after `history_id`, and its status `status` when a change moved it, in one
    transaction (both or neither), while the page's newest history entry is still `newest` (None: not looked at;
    else `ChangedElsewhere`); `why` names the undo or redo in the page's history. The newest history entry it
    wrote, if any."""

    def restored_and_moved(_: list[int], by: Provenance) -> Change:
        restored = project.restore(page, history_id, by, why=why)
        moved = project.set_status(page, status, by) if status else None
        return moved if moved is not None and moved.id is not None else restored

    with _saved_or_refused(project, f"“{why}”"):
        return judge_as_shown(project, [], restored_and_moved, by, page=page, newest=newest).id


class _Selections:
    """What a label step selects when it is undone (what was selected when it was made) and redone (what was
    selected when it was undone)."""

    def __init__(self, page: str, selection: Selection) -> None:
        # None for a step made on a page not on show (proposals made in the background): its undo keeps whatever
        # is selected then, rather than clearing it.
        self._page, self._selection = page, selection
        self.before = selection(page)
        self.after: list[int] | None = None

    def on_undo(self) -> list[int] | None:
        self.after = self._selection(self._page)
        return self.before


class _Step(QUndoCommand):
    """A step the stack undoes and redoes by a store write: `take_back` and `make_again` write it (raising
    `NotSaved`) before the stack moves, and undo() and redo() then tell the window what they wrote. Called without
    the write made ahead (a stack moved directly), undo() and redo() write it themselves."""

    _project: Project
    _page: str
    _notify: Notify
    _skip_redo: bool

    def __init__(self, text: str, parent: QUndoCommand | None = None) -> None:
        super().__init__(text, parent)
        self._written: tuple[int | None] | None = None  # (the history entry written ahead,), or None: not written

    def take_back(self, newest: int | None = None) -> None:
        """Undo's write, made while the page's newest history entry is still `newest` (None: not looked at)."""
        self._written = (self._write_undo(newest),)

    def make_again(self, newest: int | None = None) -> None:
        """Redo's write, made while the page's newest history entry is still `newest` (None: not looked at)."""
        self._written = (self._write_redo(newest),)

    def forget_write(self) -> None:
        """The write made ahead was rolled back (a step of several, one of which the store refused)."""
        self._written = None

    def undo(self) -> None:
        self._skip_redo = False
        wrote = self._ahead_or(self._write_undo)
        self._notify(self._page, self._selected_after_undo(), wrote)

    def redo(self) -> None:
        if self._skip_redo:  # the change was made before it was pushed
            self._skip_redo = False
            return
        wrote = self._ahead_or(self._write_redo)
        self._notify(self._page, self._selected_after_redo(), wrote)

    def _ahead_or(self, write: Callable[[], int | None]) -> int | None:
        written, self._written = self._written, None
        return write() if written is None else written[0]

    def _write_undo(self, newest: int | None = None) -> int | None:
        raise NotImplementedError

    def _write_redo(self, newest: int | None = None) -> int | None:
        raise NotImplementedError

    def _selected_after_undo(self) -> Sequence[int] | None:
        return None

    def _selected_after_redo(self) -> Sequence[int] | None:
        return None


class _PageStep(_Step):
    """A label step undone by restoring the page to the history entry before it, and redone to the one after."""

    _by: Provenance
    _before: int | None
    _after: int | None
    selections: _Selections

    def _status_moved(self, end: str) -> str | None:
        """The page status the step moved from or to ("from", "to"); None when it moved none."""
        raise NotImplementedError

    def _write_undo(self, newest: int | None = None) -> int | None:
        return _put_back(self._project, self._page, self._before, self._status_moved("from"), self._by,
                         f"undo: {self.text()}", newest)

    def _write_redo(self, newest: int | None = None) -> int | None:
        return _put_back(self._project, self._page, self._after, self._status_moved("to"), self._by,
                         f"redo: {self.text()}", newest)

    def _selected_after_undo(self) -> Sequence[int] | None:
        return self.selections.on_undo()

    def _selected_after_redo(self) -> Sequence[int] | None:
        return self.selections.after


class LabelCommand(_PageStep):
    """One label change (add, accept, reject, edit, delete, merge, split) on one page; `said` as undo and redo say
    it, and `record` the number of the one record it changes (a step of several names them: `push_all`)."""

    def __init__(self, project: Project, page: str, text: str, change: Callable[[], Change], by: Provenance,
                 notify: Notify, selection: Selection, parent: QUndoCommand | None = None, *,
                 said: str | None = None, record: int | None = None) -> None:
        super().__init__(said_apart(text, said), parent)
        self.record = record
        self._project, self._page, self._change, self._by, self._notify = project, page, change, by, notify
        self.selections = _Selections(page, selection)
        self._before: int | None = None
        self._after: int | None = None
        self._page_status: dict[str, str] | None = None
        self._performed = False
        self._skip_redo = False

    def perform(self) -> Change:
        # The entry it is made over, read in its own write: none of another writer's changes comes between (its
        # undo restores to this entry, and would take such a change back)
        with _saved_or_refused(self._project), self._project.writing():
            self._before = self._project.last_change_id(self._page)
            change = self._change()
        self._after = change.id
        status = change.detail.get("page_status")
        self._page_status = status if isinstance(status, dict) else None
        self._performed = self._skip_redo = True
        if change.id is None:
            self.setObsolete(True)
        return change

    def redo(self) -> None:
        if not self._performed:  # pushed without `perform`
            self.perform()
            self._notify(self._page, None, self._after)
            return
        super().redo()

    def _status_moved(self, end: str) -> str | None:
        return self._page_status[end] if self._page_status else None


class StatusCommand(_Step):
    """Mark a page new, proposed, labelled or reviewed. With `shown` (the status the window showed), only while the
    page's status is still that one: a mark over one made elsewhere since is refused (`mark_as_shown` raises
    `ChangedElsewhere`, and nothing is written)."""

    def __init__(self, project: Project, page: str, status: str, by: Provenance, notify: Notify,
                 shown: str | None = None) -> None:
        super().__init__(f"mark page {page} {status}")
        self._project, self._page, self._status, self._by, self._notify = project, page, status, by, notify
        self._shown = shown
        # With `shown`, the status the mark is made over (it is refused otherwise): what its undo puts back.
        self._old = shown if shown is not None else project.page(page).status
        self._before: int | None = None  # the page's newest history entry when the mark is made (in its write)
        self._skip_redo = False

    def perform(self) -> Change:
        # its caller says nothing of what it was: the error does
        with _saved_or_refused(self._project, self.text()), self._project.writing():
            self._before = self._project.last_change_id(self._page)
            if self._shown is None:  # the status it is made over, read with it
                self._old = self._project.page(self._page).status
            change = (self._project.set_status(self._page, self._status, self._by) if self._shown is None
                      else mark_as_shown(self._project, self._page, self._status, self._by, self._shown))
        self._skip_redo = True
        if change.id is None:
            self.setObsolete(True)
        return change

    def _write_undo(self, newest: int | None = None) -> int | None:
        return self._set(self._old, f"“undo: {self.text()}”", newest).id

    def _write_redo(self, newest: int | None = None) -> int | None:
        return self._set(self._status, f"“redo: {self.text()}”", newest).id

    def _set(self, status: str, what: str, newest: int | None) -> Change:
        """The page's status set, while its newest history entry is still `newest` (None: not looked at)."""
        project, page = self._project, self._page
        with _saved_or_refused(project, what):
            return judge_as_shown(project, [], lambda _, by: project.set_status(page, status, by), self._by,
                                  page=page, newest=newest)


class BatchCommand(_PageStep):
    """Several label changes of one page made as one step (reject a list of 240 proposals): undone with one
    restore to just before the first and redone with one to just after the last. Undoing them one by one would
    restore 240 times, each walking the history the others wrote: seconds, and 240 history entries."""

    def __init__(self, text: str, commands: list[LabelCommand]) -> None:
        super().__init__(text)
        first, last = commands[0], commands[-1]
        self._project, self._page, self._by, self._notify = first._project, first._page, first._by, first._notify
        self._before, self._after = first._before, last._after
        self.selections = first.selections  # made when the first change was: before any of them
        moved = [c for c in commands if c._page_status]
        self._status_from = moved[0]._status_moved("from") if moved else None
        self._status_to = moved[-1]._status_moved("to") if moved else None
        self._skip_redo = True  # made already, before it was pushed

    def _status_moved(self, end: str) -> str | None:
        return self._status_from if end == "from" else self._status_to


def _steps_of(command: QUndoCommand) -> list[_Step]:
    """The steps a stack entry undoes, in the order they were made: itself, or a macro's children."""
    if isinstance(command, _Step):
        return [command]
    return [step for i in range(command.childCount()) for step in _steps_of(command.child(i))]


def _write_ahead(command: QUndoCommand, undo: bool, newest: int | None = None) -> None:
    """Write what undoing (or redoing) a stack entry writes, all of it or none of it (one transaction), while the
    page's newest history entry is still `newest` (None: not looked at; else `ChangedElsewhere`, nothing written):
    the first step written looks, the others join its transaction."""
    steps = _steps_of(command)
    if not steps:
        return
    project = steps[0]._project
    try:
        with _saved_or_refused(project, f"“{'undo' if undo else 'redo'}: {command.text()}”"), project.writing():
            for k, step in enumerate(reversed(steps) if undo else steps):
                looked = newest if k == 0 else None
                if undo:
                    step.take_back(looked)
                else:
                    step.make_again(looked)
    except BaseException:
        for step in steps:
            step.forget_write()  # rolled back with the transaction
        raise


class EditGroup(QUndoGroup):
    """The window's undo group, whose undo and redo move the page's stack only once the step's write is stored.
    Its undo() and redo() are Python methods, not overrides of Qt's slots: a QUndoView or an action from
    createUndoAction() would move a stack without the write-ahead, so the app has neither (its keys and menus call
    these).

    `refused` is told of every write the database refuses (an edit, an undo, a redo) before `NotSaved` is
    raised on to whoever asked: the stack is then as it was, the project too. Given `newest` (the page's newest
    history entry as the window's own last step left it), undo and redo are refused (`ChangedElsewhere`, raised
    on, the stack and the project as they were) when another writer changed the page since, looked at inside the
    write."""

    def __init__(self, parent: QObject, refused: Callable[[NotSaved], None]) -> None:
        super().__init__(parent)
        self.refused = refused

    def addStack(self, stack: QUndoStack) -> None:  # noqa: N802 (Qt override)
        super().addStack(stack)
        stack.refused = self.refused  # type: ignore[attr-defined]  # how `push` tells the window of a refusal

    def undo(self, newest: int | None = None) -> None:
        stack = self.activeStack()
        if stack is not None and stack.canUndo():
            self._ahead(stack.command(stack.index() - 1), True, newest)
            stack.undo()

    def redo(self, newest: int | None = None) -> None:
        stack = self.activeStack()
        if stack is not None and stack.canRedo():
            self._ahead(stack.command(stack.index()), False, newest)
            stack.redo()

    def _ahead(self, command: QUndoCommand, undo: bool, newest: int | None) -> None:
        try:
            _write_ahead(command, undo, newest)
        except NotSaved as error:
            self.refused(error)
            raise


def _tell_refused(stack: QUndoStack, error: NotSaved) -> None:
    """The window of the stack's group hears of an edit the database refused (a stack of no `EditGroup`: nobody)."""
    refused = getattr(stack, "refused", None)
    if refused is not None:
        refused(error)


def push(stack: QUndoStack, command: LabelCommand | StatusCommand, newest: int | None = None) -> Change:
    """Run the command's change now (raising what the store raises) and put it on the stack. `newest`: the page's
    newest history entry as the stack's steps left it (None: none); the change made over another clears them
    first (`_forget_overtaken`)."""
    try:
        change = command.perform()
    except NotSaved as error:
        _tell_refused(stack, error)
        raise
    if change.id is not None:
        _forget_overtaken(stack, command._before, newest)
        stack.push(command)
    return change


def _forget_overtaken(stack: QUndoStack, made_over: int | None, newest: int | None) -> None:
    """The stack's steps cleared when the step just made was made over another history entry (`made_over`, read in
    its write) than the one they left (`newest`): another window or the command line changed the page between
    them, and undoing them would take that change back too. The new step's own undo restores only what it
    changed."""
    if newest is not None and made_over != newest:
        stack.clear()


def push_all(stack: QUndoStack, text: str, commands: list[LabelCommand], newest: int | None = None) -> list[Change]:
    """Several changes as one undo step, stored as one step of work (`Project.one_step`): in one transaction, all
    of them or none. A change the store refuses part way (a record deleted meanwhile, a full disk) raises, with
    none of the changes before it stored and nothing pushed: the stack and the project still agree.

    Changes that change nothing (rejecting a rejected record) are left off the stack, and a step of no change
    at all is not pushed: it would take a Ctrl+Z that does nothing. The step is named `text ×N`, N the changes
    made, and undo and redo say the records it changed too when each command names its own (`record`). `newest`:
    as `push` takes it."""
    if not commands:
        return []
    try:
        # the history shows them as one step, as the undo stack does; a refused COMMIT is said as a refused edit
        with _saved_or_refused(commands[0]._project), commands[0]._project.one_step(text):
            changes = [command.perform() for command in commands]
    except NotSaved as error:
        _tell_refused(stack, error)
        raise
    if any(change.id is not None for change in changes):
        _forget_overtaken(stack, commands[0]._before, newest)
    _push_as_one(stack, text, [command for command, change in zip(commands, changes, strict=True)
                               if change.id is not None])
    return changes


def _push_as_one(stack: QUndoStack, text: str, made: list[LabelCommand]) -> None:
    """The commands made (their changes stored) on the stack as one undo step, named `text ×N` (and said with the
    numbers of the records they changed, "reject record ×4 (records 1, 3, 4, 5)", when each names its own)."""
    numbers = sorted(command.record for command in made if command.record is not None)
    named = f"{text} ×{len(made)}"
    said = f"{named} (records {listed([str(n) for n in numbers])})" if len(numbers) == len(made) else None
    if len(made) == 1:
        stack.push(made[0])
    elif made and len({command._page for command in made}) == 1:
        stack.push(BatchCommand(said_apart(named, said), made))
    elif made:
        stack.beginMacro(said_apart(named, said))
        for command in made:
            stack.push(command)
        stack.endMacro()
