"""Undoable label edits: each QUndoCommand wraps one store change, which the store saves as it happens.

Undo and redo use the store's own history rather than hand-written inverse edits: undo restores the page's
labels to the history entry just before the change, redo to the entry the change wrote. `Project.restore`
brings records back with their ids, so undo can select again the records that were selected when the change was
made (a deleted record comes back selected), and redo those selected when it was undone. Page status lives
outside the label history, so status changes (and the new -> proposed move that proposals make) are undone by
setting the old status again.

A command runs its change *before* it is pushed (`perform`), so a change the store refuses raises where the
caller can report it and never reaches the stack; the stack's first `redo()` call then does nothing.

Each undo and redo tells the window the newest history entry it wrote: a restore is only right while the page's
newest entry is the one this window's steps left (record_actions refuses it once another window or the command
line changed the page since).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QUndoCommand, QUndoStack

from ...core.store import Change, Project, Provenance

# Told the page whose labels or status changed, the records to select there (None: keep the selection) and the
# newest history entry the step wrote (None: it wrote none).
Notify = Callable[[str, Sequence[int] | None, int | None], None]
Selection = Callable[[str], list[int] | None]  # the records selected on a page now (None: it is not on show)


def _put_back(project: Project, page: str, history_id: int | None, status: str | None, by: Provenance,
              notify: Notify, selected: Sequence[int] | None, why: str) -> None:
    """The page's labels as right after `history_id`, and its status `status` when a change moved it; `why`
    names the undo or redo in the page's history."""
    restored = project.restore(page, history_id, by, why=why)
    moved = project.set_status(page, status, by) if status else None
    wrote = next((c.id for c in (moved, restored) if c is not None and c.id is not None), None)
    notify(page, selected, wrote)


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


class LabelCommand(QUndoCommand):
    """One label change (add, accept, reject, edit, delete, merge, split) on one page."""

    def __init__(self, project: Project, page: str, text: str, change: Callable[[], Change], by: Provenance,
                 notify: Notify, selection: Selection, parent: QUndoCommand | None = None) -> None:
        super().__init__(text, parent)
        self._project, self._page, self._change, self._by, self._notify = project, page, change, by, notify
        self.selections = _Selections(page, selection)
        self._before: int | None = None
        self._after: int | None = None
        self._page_status: dict[str, str] | None = None
        self._performed = False
        self._skip_redo = False
        self.result: Change | None = None

    def perform(self) -> Change:
        self._before = self._project.last_change_id(self._page)
        change = self._change()
        self.result = change
        self._after = change.id
        status = change.detail.get("page_status")
        self._page_status = status if isinstance(status, dict) else None
        self._performed = self._skip_redo = True
        if change.id is None:
            self.setObsolete(True)
        return change

    def redo(self) -> None:
        if not self._performed:
            self.perform()
            self._notify(self._page, None, self._after)
        elif self._skip_redo:
            self._skip_redo = False
        else:
            _put_back(self._project, self._page, self._after, self._status("to"), self._by, self._notify,
                      self.selections.after, f"redo: {self.text()}")

    def undo(self) -> None:
        self._skip_redo = False
        _put_back(self._project, self._page, self._before, self._status("from"), self._by, self._notify,
                  self.selections.on_undo(), f"undo: {self.text()}")

    def _status(self, end: str) -> str | None:
        """The page status the change moved from or to ("from", "to"); None when it moved none."""
        return self._page_status[end] if self._page_status else None


class StatusCommand(QUndoCommand):
    """Mark a page new, proposed, labelled or reviewed."""

    def __init__(self, project: Project, page: str, status: str, by: Provenance, notify: Notify) -> None:
        super().__init__(f"mark page {page} {status}")
        self._project, self._page, self._status, self._by, self._notify = project, page, status, by, notify
        self._old = project.page(page).status
        self._skip_redo = False

    def perform(self) -> Change:
        change = self._project.set_status(self._page, self._status, self._by)
        self._skip_redo = True
        if change.id is None:
            self.setObsolete(True)
        return change

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        change = self._project.set_status(self._page, self._status, self._by)
        self._notify(self._page, None, change.id)

    def undo(self) -> None:
        self._skip_redo = False
        change = self._project.set_status(self._page, self._old, self._by)
        self._notify(self._page, None, change.id)


class BatchCommand(QUndoCommand):
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
        self._status_from = moved[0]._status("from") if moved else None
        self._status_to = moved[-1]._status("to") if moved else None
        self._skip_redo = True  # made already, before it was pushed

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        _put_back(self._project, self._page, self._after, self._status_to, self._by, self._notify,
                  self.selections.after, f"redo: {self.text()}")

    def undo(self) -> None:
        self._skip_redo = False
        _put_back(self._project, self._page, self._before, self._status_from, self._by, self._notify,
                  self.selections.on_undo(), f"undo: {self.text()}")


def push(stack: QUndoStack, command: LabelCommand | StatusCommand) -> Change:
    """Run the command's change now (raising what the store raises) and put it on the stack."""
    change = command.perform()
    if change.id is not None:
        stack.push(command)
    return change


def push_all(stack: QUndoStack, text: str, commands: list[LabelCommand]) -> list[Change]:
    """Several changes as one undo step; those already made stay made (and undoable) if a later one fails.

    Changes that change nothing (rejecting a rejected record) are left off the stack, and a step of no change
    at all is not pushed: it would take a Ctrl+Z that does nothing. The step is named `text ×N`, N the changes
    made."""
    changes: list[Change] = []
    made: list[LabelCommand] = []
    if not commands:
        return changes
    try:
        with commands[0]._project.one_step(text):  # the history shows them as one step, as the undo stack does
            for command in commands:
                change = command.perform()
                changes.append(change)
                if change.id is not None:
                    made.append(command)
    finally:
        if len(made) == 1:
            stack.push(made[0])
        elif made and len({command._page for command in made}) == 1:
            stack.push(BatchCommand(f"{text} ×{len(made)}", made))
        elif made:
            stack.beginMacro(f"{text} ×{len(made)}")
            for command in made:
                stack.push(command)
            stack.endMacro()
    return changes
