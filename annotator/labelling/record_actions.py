"""What labelling does to the page on show: a click on the page, accept, reject, new, merge, split, delete,
siblings, marking the page, restoring its history, undo and redo.

Every decision (what a click does to a record, which siblings match, where a record splits) is a core call;
every change is an undoable store change on the page's own undo stack, so undo never changes a page other than
the one on show. Undo and redo restore the page to an entry of its history, which would take back whatever was
changed since too: they are refused once another window or the command line changed the page after this
window's last step (looked at again inside their write), and a restore from the history once it changed the page
after the history was shown. Accept, reject, the edits of records (a click adding or taking out an element, U and
Shift+U, delete, merge, split), G and the page marks (L, V) are meant on what the window shows: made on a record
or a page status another window or the command line changed since the window read it, or adding a record it made
since (G), they are refused in the same words (the store compares inside its write, `judge_as_shown`,
`mark_as_shown`), rather than silently take that change back or repeat it. The window owns this as
`window.record_actions` and shows what the changes leave.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QUndoStack

from ...core.errors import RecordLensError
from ...core.page import Page
from ...core.records import (
    normalise_xpath,
    parent_xpath,
    places_in_page_order,
    record_key,
    relevelled,
    replace_xpath,
    same_list,
    sibling_records,
    siblings_above,
    split_parts,
    toggle_xpath,
    whole_page,
)
from ...core.store import REJECTED, Change, ChangedElsewhere, Label, Provenance, judge_as_shown
from ...core.wording import counted, listed
from ..qt.local_time import local_time
from .commands import LabelCommand, StatusCommand, push, push_all
from .history_dialog import change_numbers, what, who
from .page_view import unseen_words
from .record_panel import HIDDEN_MARK

if TYPE_CHECKING:
    from .review_controller import ReviewChoice
    from .window_parts import LabellingWindow, RecordsAt

_WANTED = {"one": "one record", "some": "a record", "two": "two or more records (Ctrl+click)"}
# A click the overlay reports on what RecordLens does not address, its XPath after these (overlay.js's IN_FRAME
# and IN_SHADOW): inside a frame of the page (or on the frame), on what a shadow root of the element shows.
IN_FRAME = "frame:"
IN_SHADOW = "shadow:"
# What the line above the page says over a shadow root's text whose host holds no text of the page's own (a click
# there makes no record: `_refused_shadow`).
SHADOW_SAYS = "click: nothing (the text shown there is inside a shadow root, which RecordLens does not read)"
# Why the element cursor did not move (overlay.js `moveCursor` found nowhere to go that way).
_CURSOR_STAYS = {
    "next": "no next element: this is the page's last",
    "previous": "no previous element: this is the page's first",
    "parent": "no element around this one but the whole page, which is no record",
    "child": "no element inside this one",
}
# The statuses whose decision A and R overturn: accepting a rejected record, rejecting an accepted or edited one
# (accepting an edited record keeps it a record: no decision overturned).
_OVERTURNED_BY = {"accept": (REJECTED,), "reject": ("accepted", "edited")}
_FRAMES_NOT_LABELLED = ("what a frame shows cannot be labelled: RecordLens reads the page's own document, not the "
                        "documents of its frames")


def records_named(numbers: Sequence[int | str]) -> str:
    """"record 3" or "records 3, 4, ..." (the first few named)."""
    return f"record{'s' if len(numbers) > 1 else ''} {listed([str(n) for n in numbers])}"


def holds_words(others: Sequence[int]) -> str:
    """"; it holds records 2, 4 as well": what a record widened by a click or by U now holds of other records
    ("" when none)."""
    return f"; it holds {records_named(others)} as well" if others else ""


def _named(page: Page | None, xpath: str) -> str:
    """An element as a person names it: its tag and the start of its text ("<span> “Anime Season 2024”")."""
    element = page.resolve(xpath) if page is not None else None
    if element is None:
        return xpath
    text = " ".join(element.text().split())
    return f"<{element.tag}>" + (f" “{text[:40]}{'…' if len(text) > 40 else ''}”" if text else "")


class _Selected(list[int]):
    """The records selected on the page on show when a step was made or undone, and the Review list's rows chosen
    then (`ReviewChoice`; None out of review): undo and redo choose both again. The undo commands keep it as the
    list of records it is."""

    def __init__(self, ids: Sequence[int], review: ReviewChoice | None) -> None:
        super().__init__(ids)
        self.review = review


class _ReadOnce:
    """The selection of a page as the commands of one step read it when they are made: read once for all of
    them, then (`read_live`) as it is when read. 10,000 records judged at once are 10,000 commands, and each
    reading a selection of 10,000 rows froze the window for a minute."""

    def __init__(self, read: Callable[[str], list[int] | None]) -> None:
        self._read = read
        self._held: dict[str, list[int] | None] | None = {}

    def __call__(self, page: str) -> list[int] | None:
        if self._held is None:
            return self._read(page)
        if page not in self._held:
            self._held[page] = self._read(page)
        return self._held[page]

    def read_live(self) -> None:
        self._held = None


def record_to_select(found: RecordsAt) -> int | None:
    """With no record selected, the record a click on a record's own element, or inside one, selects (the
    record itself, or the innermost around it) rather than starting a copy of it or a record nested in it."""
    return found.holders[0] if found.holders else found.innermost


def click_new_record(found: RecordsAt, *, armed: bool = False, new_key: str = "N") -> str:
    """What a click with no record selected does, said while hovering: select the record there, refuse an
    element holding records (a stray click in the gap between cards would take in a whole list), or start a new
    record. After N (`armed`) it starts a new record wherever it lands, and says the records it would hold."""
    number = None if armed else record_to_select(found)
    if number is not None:
        return f"click: select record {number}"
    if found.within and not armed:
        return (f"click: nothing, it holds {records_named(found.within)} ({new_key}, then a click, makes a record "
                "of it)")
    return "click: new record" + (f" (it holds {records_named(found.within)})" if found.within else "")


def click_on_record(number: int, found: RecordsAt) -> str:
    """What a click that would add an element to record `number` does, said while hovering it. An element inside
    one of the record's own elements, or holding some, changes the record's level (`relevelled`) rather than
    adding the same text twice."""
    others = [n for n in found.within if n != number]
    holds = f" (it holds {records_named(others)} as well)" if others else ""
    if number in found.around:
        return f"click: narrow record {number} to this element"
    if number in found.within:
        return f"click: widen record {number} to this element{holds}"
    return f"click: add to record {number}{holds}"


class RecordActions:
    def __init__(self, window: LabellingWindow) -> None:
        self.window = window
        self.arm_new = False  # the next click on the page starts a new record
        self.offered_next = False  # J on the last record offered the next page: J again opens it
        self.picked: tuple[int, str] | None = None  # (record id, XPath) the last click added: U climbs from it
        self._climbed: list[str] = []  # the elements climbed from, for going back down
        # L (or V) on a page with proposals asked: the same key again marks it, while that question is still what
        # the status bar says
        self.confirm_mark: tuple[str | None, str, str] | None = None  # (page, the status, the question)
        # What the last key that moved the selection said (A / R on to the next proposal, J / K), with the selection
        # it left: a note that the record is not displayed follows it rather than replacing it (`_say_unseen`).
        self._step_said: tuple[str, tuple[int, ...]] | None = None
        # (page, record) when A / R decided the page's last proposal and, with none to move on to, left the
        # selection on it: the next A or R of that rhythm is refused there rather than overturn the decision just
        # made (`_refused_after_the_last`). Any selection since (a click, J / K, the list) lifts it: A / R on a
        # record the user chose changes it.
        self.decided_last: tuple[str, int] | None = None
        self._stacks: dict[str, QUndoStack] = {}
        # page -> the newest history entry this window wrote there (through its undo steps)
        self._newest_own_change: dict[str, int] = {}
        # Why the last write was refused (the store's NotSaved: a full disk), for whoever says it again
        # later (the end of a Propose job); None once a write goes through, or when the database was gone
        self.refusal: RecordLensError | None = None
        # The selection last said to be undisplayed, and which of it (`_say_unseen`): said once, not per drawing.
        self._unseen_said: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        window.page_view.overlays_drawn.connect(self._on_drawn)

    # -- records the page does not display --------------------------------------------------------------------

    def _on_drawn(self, _boxes: int) -> None:
        """The page's records are on screen: the record list marks those the page displays nothing of (hidden with
        display: none, of no size), and a selection of such records is said, as nothing is drawn for them."""
        window = self.window
        if window.page_name is None or window.reviewing.active():  # review draws a run's records, not these
            return
        drawn = window.page_view.unseen_records()
        unseen = {label.id: unseen_words(why, len(label.xpaths)) if why else ""
                  for label in window.labels if (why := drawn.get(tuple(label.xpaths))) is not None}
        window.record_panel.mark_unseen(unseen)
        self._say_unseen({i: why for i, why in unseen.items() if why})

    def _say_unseen(self, unseen: dict[int, str]) -> None:
        """Say that the record selected (or some of those selected) is not displayed on the page: selected, it
        shows no box, no badge and no mark beside the scroll bar, and accepting it is accepting what nobody sees
        there. Said once per selection: a drawing again after an edit says nothing new."""
        window = self.window
        selected = window.record_panel.selected_ids()
        hidden = [i for i in selected if i in unseen]
        said = (tuple(selected), tuple(hidden))
        if not hidden or said == self._unseen_said:
            self._unseen_said = said if hidden else None
            return
        self._unseen_said = said
        if len(selected) == 1:
            text = (f"record {self._numbers(hidden)[0]} is not displayed on the page: {unseen[hidden[0]]}; its "
                    "texts are in the record list")
            step = self._what_the_step_said(selected)
            text = f"{step}; {text}" if step else text
        else:
            # After the words of what selected them ("12 records selected: A or R judges them all"), which it
            # qualifies; else on its own.
            before = window.statusBar().currentMessage()
            after = before.startswith(counted(len(selected), "record"))
            which = "of them" if after else f"of the {len(selected)} records selected"
            text = (f"{len(hidden)} {which} {'is' if len(hidden) == 1 else 'are'} not displayed on the page "
                    f"({records_named(self._numbers(hidden))}, marked “{HIDDEN_MARK}” in the list)")
            text = f"{before}; {text}" if after else text
        window.message(text, 15000, of_selection=True)

    def _said_by_the_step(self) -> None:
        """What the status bar says now is what the key that just moved the selection did (`_step_said`)."""
        self._step_said = (self.window.statusBar().currentMessage(), tuple(self.window.record_panel.selected_ids()))

    def _what_the_step_said(self, selected: Sequence[int]) -> str:
        """What the key that made the selection `selected` said, while the status bar still says it (or, its few
        seconds over, nothing since); "" otherwise."""
        if self._step_said is None or self._step_said[1] != tuple(selected):
            return ""
        on_show = self.window.statusBar().currentMessage()
        return self._step_said[0] if on_show in (self._step_said[0], "") else ""

    # -- undo stacks ---------------------------------------------------------------------------------------------

    def stack(self, page: str) -> QUndoStack:
        """The page's own undo stack: undo never changes a page other than the one on show."""
        if page not in self._stacks:
            stack = QUndoStack(self.window)
            self.window.undo_group.addStack(stack)
            self._stacks[page] = stack
        return self._stacks[page]

    def drop_stacks(self, page: str | None = None) -> None:
        """Another project: the undo stacks of this one's pages go; or one page's, the page being removed."""
        for name in [page] if page is not None else list(self._stacks):
            self._newest_own_change.pop(name, None)
            stack = self._stacks.pop(name, None)
            if stack is not None:
                self.window.undo_group.removeStack(stack)

    def _command(self, page: str, text: str, change: Callable[[], Change],
                 selection: Callable[[str], list[int] | None] | None = None, *, said: str | None = None,
                 record: int | None = None) -> LabelCommand:
        return LabelCommand(self.window.project, page, text, change, self.window.person, self._on_store_changed,
                            selection or self._selected_on, said=said, record=record)

    def _selected_on(self, page: str) -> list[int] | None:
        if page != self.window.page_name:
            return None
        return _Selected(self.window.record_panel.selected_ids(), self.window.reviewing.choice())

    def _pushed(self, page: str, command: LabelCommand | StatusCommand, failure: str) -> Change | None:
        """Push the command on the page's stack; None, and `failure` with the reason shown, when the store refuses."""
        changes = self._pushed_as_one_step(page, [command], failure)
        return None if changes is None else changes[0]

    def _pushed_as_one_step(self, page: str, commands: Sequence[LabelCommand | StatusCommand], failure: str,
                            step: str = "") -> list[Change] | None:
        """The commands on the page's stack as one undo step (named `step` when there are several), stored in one
        transaction, unless the project's database is gone or the store refuses one of them: then None, `failure`
        with the reason shown, and none of them stored (those made before the refusal rolled back with it)."""
        self.refusal = None
        if self._refused_unsaved():
            return None
        # Made over a change another writer made since this window's last step, the step clears the older ones
        # first: their undo would take that change back too (the new step's own undo restores only its change)
        newest = self._newest_own_change.get(page)
        try:
            changes = [push(self.stack(page), commands[0], newest)] if len(commands) == 1 else \
                push_all(self.stack(page), step, list(commands), newest)  # type: ignore[arg-type]
        except ChangedElsewhere as error:  # before RecordLensError, of which it is one
            self._refused_as_changed(error, commands[0].text())
            return None
        except RecordLensError as error:
            self.refusal = error
            none = f" (none of the {len(commands)} changes stored)" if len(commands) > 1 else ""
            self.window.message(f"{failure}{error}{none}", 10000)
            return None
        self._wrote(page, changes)
        self.window.saved()
        return changes

    def _refused_unsaved(self) -> bool:
        """An edit refused (and why said) while the project's database is no longer at its path: it would be lost."""
        return self.window.database_gone(say=True)

    def _wrote(self, page: str, changes: Sequence[Change | None]) -> None:
        ids = [c.id for c in changes if c is not None and c.id is not None]
        if ids:
            self._newest_own_change[page] = max(ids)

    def _overtaken(self, page: str) -> bool:
        """Whether the page's newest change is no longer the one this window's undo steps left there: another
        window or the command line changed the page since."""
        newest = self._newest_own_change.get(page)
        return newest is not None and self.window.project.last_change_id(page) != newest

    def _refused_as_changed(self, error: ChangedElsewhere, step: str) -> None:
        """A verdict or a mark refused by the store: what it was meant on (as the window showed it) was changed
        elsewhere since. Said as undo says its refusal, and the page shown as the project now is."""
        numbers = self._numbers([error.record_id]) if error.record_id is not None else []
        subject = f"record {numbers[0]} of page {error.page}" if numbers else f"page {error.page}"
        self._say_changed_elsewhere(subject, error.change, f"{step} refused; shown as the project now is")

    def _say_changed_elsewhere(self, subject: str, newest: Change | None, refused: str) -> None:
        """The one wording of a step refused because another window or the command line changed `subject` (the
        page, or one record of it) since this window read it (`newest`: the change that did), said after the page
        is shown as it now is, with its list and history."""
        window = self.window
        window.refresh_pages()
        window.reload_labels()
        window.tools.refresh_history()
        by = f" ({what(newest)} by {who(newest.actor)}, {local_time(newest.at)})" if newest is not None else ""
        window.message(f"{subject} changed elsewhere since{by}: {refused}", 15000)

    def _forget_steps(self, page: str) -> None:
        self.stack(page).clear()
        self._newest_own_change.pop(page, None)

    def edit(self, text: str, change: Callable[[], Change], *, said: str | None = None) -> Change | None:
        """Make one store change through the page's undo stack; None (and a message) when the store refuses.
        `said`: the step as undo and redo say it, naming its records by their numbers now ("reject record 2")."""
        page = self.window.page_name
        assert page is not None
        return self._pushed(page, self._command(page, text, change, said=said), f"{text}: ")

    def edit_as_shown(self, text: str, shown: Label | Sequence[Label], change: Callable[[Any, Provenance], Change],
                      *, adds: Sequence[Sequence[str]] = (), newest: int | None = None, said: str | None = None
                      ) -> Change | None:
        """`edit` of the record (or records) `shown`, meant on them as the window shows them: refused, and said,
        where another window or the command line changed one since (`judge_as_shown`), rather than written over
        that change. `change` is called with the record's id (the records' ids) and the window's person. On the
        page on show, it `adds` records none of which is a record there now (G), or restores the page over a
        history whose `newest` entry was that one (`judge_as_shown`)."""
        project, person, page = self.window.project, self.window.person, self.window.page_name
        return self.edit(text, lambda: judge_as_shown(project, shown, change, person, page=page, adds=adds,
                                                      newest=newest), said=said)

    def edit_each(self, text: str, ids: Sequence[int], change: Callable[[int], Change], *,
                  numbers: Mapping[int, int] | None = None) -> int | None:
        """One change per record, as one undo step: how many changed something (a record rejected twice does
        not), or None (and a message) when the store refused one of them. With `numbers` (record id -> its number
        in the list), undo and redo name the records: "reject record 2", `text` being one record's change."""
        page = self.window.page_name
        assert page is not None
        selection = _ReadOnce(self._selected_on)
        numbers = numbers or {}
        commands = [self._command(page, text, lambda i=i: change(i), selection, record=numbers.get(i),
                                  said=f"{text} {numbers[i]}" if i in numbers else None) for i in ids]
        selection.read_live()  # what undo selects again is read when undone, not kept from now
        changes = self._pushed_as_one_step(page, commands, f"{text}: ", text)
        return None if changes is None else sum(1 for c in changes if c.id is not None)

    def edit_each_as_shown(self, text: str, ids: Sequence[int], change: Callable[[int, Provenance], Change]
                           ) -> int | None:
        """`edit_each`, each record as the list shows it: one changed elsewhere since is refused (the step whole),
        not changed anew (`judge_as_shown`)."""
        shown = {label.id: label for label in self.window.labels}
        project, person = self.window.project, self.window.person
        return self.edit_each(text, ids, lambda i: judge_as_shown(project, shown[i], change, person)
                              if i in shown else change(i, person), numbers=self._places())

    def add_proposals(self, page: str, records: list[list[str]], provenance: Provenance) -> bool:
        """An extractor's new records for a page (any page, not only the one on show), as one undoable change;
        whether they were stored (why not: `refusal`)."""
        project = self.window.project
        command = self._command(page, f"{len(records)} proposals",
                                lambda: project.add_records(page, records, provenance))
        if self._pushed(page, command, f"page {page}: proposals not stored: ") is None:
            return False
        if page == self.window.page_name:
            window = self.window
            before = {label.id for label in window.labels}
            window.reload_labels()
            # Nothing selected: the first new proposal is, so that A and R go through them at once (not while a
            # new record is being started, nor under review, where it would move the page under the reviewer).
            first = next((label.id for label in window.labels if label.id not in before), None)
            idle = not (self.arm_new or window.reviewing.active() or window.record_panel.selected_ids())
            if first is not None and idle:
                window.select_records([first])
        return True

    def _on_store_changed(self, page: str, selected: Sequence[int] | None, wrote: int | None = None) -> None:
        """Undo or redo changed a page: show it as it now is, with the records the step selects (scrolled to
        when they are others than those selected)."""
        if wrote is not None:
            self._newest_own_change[page] = wrote
        window = self.window
        window.saved()
        if page != window.page_name:
            return
        moved = selected is not None and list(selected) != window.record_panel.selected_ids()
        window.reload_labels(selected)
        review = selected.review if isinstance(selected, _Selected) else None
        if review is not None:  # after the redraw, which keeps the rows chosen since (the next open one after T)
            window.reviewing.choose(review)
        if moved:
            window.scroll_to_selected()

    # -- records -------------------------------------------------------------------------------------------------

    def on_element_clicked(self, xpath: str) -> None:
        window = self.window
        if window.page_name is None:
            return
        if self.refused_in_review("edit"):
            return
        if xpath.startswith(IN_FRAME):  # the overlay is not in frames: what was clicked there is not known
            window.message(f"no record made: that click was in a frame of the page, and {_FRAMES_NOT_LABELLED}")
            return
        shadow, xpath = xpath.startswith(IN_SHADOW), xpath.removeprefix(IN_SHADOW)
        if shadow and self._refused_shadow(xpath):
            return
        if whole_page(xpath):  # a click in a margin lands on <body> or <html>
            window.message("the whole page is no record: click an element inside it")
            return
        project, person = window.project, window.person
        armed, self.arm_new = self.arm_new, False
        current = None if armed else window.current_label()
        self._climbed = []
        number = window.labels.index(current) + 1 if current is not None else None
        found = window.records_at(xpath)
        if current is None and not armed and self._select_instead(found):
            return
        around = [n for n in found.around if n != number]
        page = window.page_view.core_page
        element = page.resolve(xpath) if page is not None else None
        textless = element is not None and not element.text().strip()
        if current is None:
            # Numbered in page order among the records there, as G numbers the records it adds.
            place = places_in_page_order(page, [(label.id, label.xpaths) for label in window.labels],
                                         [[xpath]])[0] if page is not None else None
            there = {label.id for label in window.labels}
            # Its number once placed: where the record it goes in front of is, or after the last
            number = [label.id for label in window.labels].index(place) + 1 if place is not None else len(there) + 1
            change = self.edit("new record", lambda: project.add_record(window.page_name, [xpath], person,
                                                                        before=place), said=f"new record {number}")
            # The change holds the records it moved down too: the new one is the one not there before.
            made = next((label for label in change.after if label.id not in there), None) if change else None
            if made is not None:
                self.picked = (made.id, xpath)
                window.reload_labels([made.id])
                # What matters most first: a status bar cuts a long message at its end.
                head = f"new record {window.labels.index(window.label(made.id)) + 1}" + (
                    " (the records after it now have numbers 1 higher)" if place is not None else "") + (
                    " of its own text alone: the text its shadow root shows is not read" if shadow else "")
                # Numbered again after the record was placed: the records it holds and those it lies inside, by
                # their numbers now (a record holding it comes after it when placed in front: one number higher).
                now = window.records_at(xpath)
                held = [n for n in now.within if window.labels[n - 1].id != made.id]
                holds = (f" It holds {records_named(held)} as well ({window.keys_for('undo')} takes it "
                         "back).") if held else ""
                nested = _nesting_words([n for n in now.around if window.labels[n - 1].id != made.id], textless)
                # The warnings before the keys: a status bar too narrow for the whole line cuts its end.
                if textless:
                    # A record without text expands to nothing: it can never match a true record.
                    window.message(f"{head}, but this element holds no text (an image or an icon), so it scores "
                                   "nothing: U takes its parent." + holds + nested)
                elif holds or nested:
                    window.message(f"{head}." + holds + nested + " U takes the element's parent instead, Shift+U "
                                   "back down.")
                else:
                    window.message(f"{head}; U takes the element's parent instead, Shift+U back down.")
            return
        xpaths = toggle_xpath(current.xpaths, xpath)
        adding = len(xpaths) > len(current.xpaths)
        level = relevelled(page, current.xpaths, xpath) if adding and page is not None else None
        if level is not None:
            self._relevel(current, number, xpath, found, *level)
            return
        if not xpaths:
            deleted = self.edit_as_shown("delete record", current, project.delete, said=f"delete record {number}")
            if deleted is not None:
                window.message(f"record {number} deleted: its only element was clicked out of it "
                               f"({window.keys_for('undo')} brings it back)")
            window.reload_labels([] if deleted is not None else [current.id])  # refused: still selected
            return
        verb = "add to" if adding else "remove from"
        self.picked = (current.id, xpath) if adding else None
        unresolved = [x for x in current.unresolved if x in xpaths]
        made = self.edit_as_shown(f"{verb} record", current,
                                  lambda i, by: project.edit(i, xpaths, by, unresolved=unresolved),
                                  said=f"{verb} record {number}")
        window.reload_labels([current.id])
        if made is None:  # refused: the refusal's message stays
            return
        held = [n for n in found.within if n != number] if adding else []
        shared = [n for n in found.holders if n != number] if adding else []
        if adding and (around or held or shared):
            undo = window.keys_for("undo")
            holds = f" It holds {records_named(held)} as well ({undo} takes it back)." if held else ""
            also = (f" It is {records_named(shared)}'s element too: two records now share it ({undo} takes it "
                    "back).") if shared else ""
            # An edit numbers nothing again: the records around it keep the numbers found before it.
            window.message(f"added to record {number}." + also + _nesting_words(around, textless) + holds)
            return
        # Said as every other click is: the status bar would still tell the step before (the hover line only
        # said what the click would do).
        window.message(_toggled_words(adding, number, _named(page, xpath), len(xpaths)))

    def _refused_shadow(self, xpath: str) -> bool:
        """A click on text a shadow root shows (a web component's card) makes no record of its host when the host
        holds no text of the page's own: the core reads no shadow root (as no extractor does), so the record would
        hold nothing, and its parent (U) nothing more of the shadow's text either."""
        page = self.window.page_view.core_page
        element = page.resolve(xpath) if page is not None else None
        if element is None or element.text().strip():
            return False
        self.window.message(f"no record made: the text shown there is inside a shadow root of {_named(page, xpath)}, "
                            "and RecordLens reads no shadow root (the page's own elements hold no text there), so a "
                            "record of it would hold nothing")
        return True

    def _select_instead(self, found: RecordsAt) -> bool:
        """With nothing selected (and no N before it), a click on a record's element or inside a record selects
        that record, and one on an element holding records is refused: a copy of a record, a record nested in
        another or one swallowing a whole list is what `labels check` flags, made by a click meant to select."""
        window = self.window
        number = record_to_select(found)
        new_key = window.keys_for("new_record")
        if number is not None:
            label = window.labels[number - 1]
            window.select_records([label.id], scroll=False)
            window.record_panel.scroll_to_id(label.id)
            focused = window.keys_for("focused_element")
            window.message(f"record {number} selected: a click now adds to it or takes from it ({focused} too, on the "
                           f"element in keyboard focus); Esc deselects, {new_key} then a click (or {focused}) starts a "
                           "record here", of_selection=True)
            return True
        if found.within:
            window.message(f"no record made: this element holds {records_named(found.within)}. {new_key}, then a "
                           "click, makes a record of it (a wrapper around them); a click on an element of its own "
                           "starts a record")
            return True
        return False

    def _relevel(self, label: Label, number: int | None, xpath: str, found: RecordsAt, how: str,
                 replaced: list[str], after: list[str]) -> None:
        """A click inside the record's own element, or on one holding some of them: one edit that narrows or
        widens the record to the element clicked, from which U and Shift+U then climb."""
        window = self.window
        made = self.edit_as_shown(f"{how} record", label, lambda i, by: window.project.edit(i, after, by),
                                  said=f"{how} record {number}")
        window.reload_labels([label.id])
        if made is None:
            return
        self.picked, self._climbed = (label.id, xpath), []
        page = window.page_view.core_page
        was = _named(page, replaced[0]) if len(replaced) == 1 else counted(len(replaced), "element")
        others = [n for n in found.within if n != number] if how == "widen" else []  # an edit keeps the numbers
        holds = holds_words(others)
        # The elements by tag and text: their XPaths are on the line above the page, and would push the keys
        # out of the status bar.
        window.message(f"record {number} {how}ed to {_named(page, xpath)} (was {was}){holds}; U and Shift+U "
                       f"change its level, {window.keys_for('undo')} takes it back")

    def _picked_in(self, label: Label) -> None:
        """Undo and redo change a record under U's feet: climb from the element the record still holds (back down
        the elements climbed from, after a U undone), or from none."""
        if self.picked is None or self.picked[0] != label.id:
            return
        held = {normalise_xpath(x) for x in label.xpaths}
        xpath = self.picked[1]
        while normalise_xpath(xpath) not in held and self._climbed:
            xpath = self._climbed.pop()
        self.picked = (label.id, xpath) if normalise_xpath(xpath) in held else None
        if self.picked is None:
            self._climbed = []

    def _repick(self, new: str, climbing: bool) -> None:
        window = self.window
        label = window.current_label()
        if self.picked is None or label is None or label.id != self.picked[0]:
            # E is the keyboard's click (the only way to pick an element without a mouse): named as well
            window.message("click an element into the selected record first (from the keyboard: "
                           f"{window.keys_for('go_to_page')}, Tab to the element, then "
                           f"{window.keys_for('focused_element')}; Ctrl+arrows reach any element); U then climbs "
                           "to its parent")
            return
        old = self.picked[1]
        xpaths = replace_xpath(label.xpaths, old, new)
        number = window.labels.index(label) + 1  # an edit keeps the numbers
        level = "parent" if climbing else "child"
        change = self.edit_as_shown(f"{level} element", label, lambda i, by: window.project.edit(i, xpaths, by),
                                    said=f"{level} element for record {number}")
        if change is None:
            return
        if climbing:
            self._climbed.append(old)
        self.picked = (label.id, new)
        window.reload_labels([label.id])
        element = window.page_view.core_page.resolve(new) if window.page_view.core_page else None
        # As a click that widens a record says it: the records the element now taken holds.
        others = [n for n in window.records_at(new).within if n != number]
        window.message(f"record {number} now holds {new}"
                       + (f" ({element.tag})" if element is not None and hasattr(element, "tag") else "")
                       + holds_words(others) + (f" ({window.keys_for('undo')} takes it back)" if others else ""))

    def do_parent_element(self) -> None:
        if self.refused_in_review("change a record's level"):
            return
        if (label := self.window.current_label()) is not None:
            self._picked_in(label)
        parent = parent_xpath(self.picked[1]) if self.picked else None
        if self.picked is not None and parent is None:
            self.window.message("no parent to climb to: above this element is the whole page, which is no record")
            return
        self._repick(parent or "", climbing=True)

    def do_child_element(self) -> None:
        if self.refused_in_review("change a record's level"):
            return
        if (label := self.window.current_label()) is not None:
            self._picked_in(label)
        if not self._climbed:
            self.window.message("nothing to go back down to (U climbs first)")
            return
        self._repick(self._climbed.pop(), climbing=False)

    def refused_in_review(self, doing: str) -> bool:
        """Whether the Review tab is on show, where the keys and clicks that select or change the project's records
        act on nothing it shows: then said, with the key back to labelling (`doing`: what they do there)."""
        window = self.window
        if not window.reviewing.active():
            return False
        window.message(f"review mode: switch to the Records tab ({window.keys_for('review')}) to {doing}")
        return True

    def _need(self, count: str, doing: str) -> list[int] | None:
        """The records selected, when they are `count` (`_WANTED`) for `doing` (said in Review, where it is not
        done); None, and what to do said, when not."""
        ids = self.window.record_panel.selected_ids()
        if self.window.page_name is None or self.refused_in_review(doing):
            return None
        if not self.window.labels:  # nothing that J / K or a click on a row could select
            self.window.message(f"{self._no_records_words()}: {self.window.keys_for('propose')} proposes some, or a "
                                "click on an element of the page starts one")
            return None
        if (count == "one" and len(ids) != 1) or (count == "some" and not ids) or (count == "two" and len(ids) < 2):
            self.window.message(f"select {_WANTED[count]} first (J / K, or click its row)")
            return None
        return ids

    def _judge(self, verb: str, change: Callable[[int, Provenance], Change]) -> None:
        ids = self._need("some", f"{verb} records")
        if ids is None or self._refused_after_the_last(ids):
            return
        self.decided_last = None
        following = self._next_proposed_after(ids[-1], judged=set(ids))  # read before the labels are reloaded
        numbers = self._numbers(ids)
        judged = self.window.label(ids[0]) if len(ids) == 1 else None
        proposal = judged is not None and judged.status == "proposed"
        overturned = self._overturned_words(verb, ids)  # read before the labels are reloaded
        changed = self.edit_each_as_shown(f"{verb} record", ids, change)
        if changed is not None:
            if len(ids) == 1:
                self.window.reload_labels(following)
                moved_on = bool(following) and following[0] != ids[0]
                done = f"{verb}ed record {numbers[0]}" if changed else f"record {numbers[0]} was {verb}ed already"
                done += f" ({overturned})" if overturned else ""  # a decision overturned is said, as of a list
                self.window.message(done + (f"; next proposal: record {self._numbers(following)[0]}" if moved_on
                                            else f"; no proposal left {self._where_proposals_are()}"),
                                    15000 if overturned else 3000)
                self._said_by_the_step()
                if proposal and not moved_on:
                    self.decided_last = (self.window.page_name or "", ids[0])
                return
            # A list judged at once: on to the next proposal, or nothing selected (not the list's last record,
            # judged now, with the page scrolled to it).
            left = bool(following) and following[0] not in ids
            self.window.reload_labels(following if left else [])
            notes = [f"{len(ids) - changed} already {verb}ed"] if changed < len(ids) else []
            notes += [overturned] if overturned else []
            self.window.message(f"{verb}ed {counted(changed, 'record')}" + (f" ({'; '.join(notes)})" if notes else "")
                                + ("" if left else f"; no proposal left {self._where_proposals_are()}"),
                                15000 if overturned else 6000)
            self._said_by_the_step()
        else:  # stay on them: those made stay made, and the same key again changes only the others
            self.window.reload_labels(ids)

    def _overturned_words(self, verb: str, ids: Sequence[int]) -> str:
        """The decisions that A or R (`verb`) over the records `ids` overturns, with the key that takes them back:
        "record 1 was accepted: Ctrl+Z takes the whole step back" ("" when it overturns none). Said of every
        selection, however it was made (Ctrl+A, Shift+click, Shift+G): among many records, one accepted and then
        rejected with the others is a decision lost unseen; and of one record alike, in the same words, so that
        a decision overturned reads the same whatever was selected."""
        chosen = set(ids)
        place = self._places()
        parts = []
        for status in _OVERTURNED_BY[verb]:
            numbers = sorted(place[label.id] for label in self.window.labels
                             if label.id in chosen and label.status == status)
            if numbers:
                parts.append(f"{records_named(numbers)} {'was' if len(numbers) == 1 else 'were'} {status}")
        if not parts:
            return ""
        return f"{' and '.join(parts)}: {self.window.keys_for('undo')} takes the whole step back"

    def _where_proposals_are(self) -> str:
        """Where the next proposal was looked for: the page, or with words in the finder the records found."""
        if self.window.record_panel.found_ids() is None:
            return f"on page {self.window.page_name}"
        return "among the records found (Esc lists every record)"

    def _refused_after_the_last(self, ids: Sequence[int]) -> bool:
        """A or R on the record an A / R left selected as it decided the page's last proposal (`decided_last`),
        not selected since: refused, and said, as a key of that rhythm pressed once more than the page had
        proposals would silently overturn the decision just made."""
        window = self.window
        if self.decided_last != (window.page_name, ids[0]) or len(ids) != 1:
            return False
        label = window.label(ids[0])
        if label is None:
            return False
        following = window.page_list.neighbour(window.page_name, 1)
        next_page = f", or {window.keys_for('next_page')} for the next page" if following is not None else ""
        window.message(f"record {self._numbers(ids)[0]} is already {label.status}; no proposal left "
                       f"{self._where_proposals_are()}: select a record to change it{next_page}", 10000)
        return True

    def _next_proposed_after(self, record_id: int, judged: set[int]) -> list[int]:
        """Accept/reject move on to the next proposal, so a page is reviewed with one key per record."""
        shown = set(self.window.record_panel.shown_ids())  # with words in the finder, through the records found
        labels = [label for label in self.window.labels if label.id in shown or label.id == record_id]
        order = [label.id for label in labels]
        start = order.index(record_id) + 1 if record_id in order else 0
        for label in labels[start:] + labels[:start]:
            if label.status == "proposed" and label.id not in judged:
                return [label.id]
        return [record_id] if record_id in order else []

    def do_accept(self) -> None:
        self._judge("accept", self.window.project.accept)
        self.window.scroll_to_selected()

    def do_reject(self) -> None:
        self._judge("reject", self.window.project.reject)
        self.window.scroll_to_selected()

    def do_new_record(self) -> None:
        window = self.window
        if self.refused_in_review("start a new record"):
            return
        window.record_panel.select_ids([])
        window.redraw()
        self.arm_new = True
        # E named beside the click: from the keyboard, the element in focus is the one a record starts from
        window.message(f"click an element of the page, or press {window.keys_for('focused_element')} on the one in "
                       f"keyboard focus ({window.keys_for('go_to_page')}, then Tab or Ctrl+arrows), to start a new "
                       "record (Esc cancels)")

    def do_focused_element(self) -> None:
        """E: the page's element the keyboard is on (the element cursor, or where Tab moved the focus) does what a
        click on it would, by the same rules (start a record, add it to the selected one or take it out, select
        the record it is in). With none, the element cursor shows, and the keys go to the page to move it: a page
        of paragraphs has no link or field that Tab could reach."""
        window = self.window
        if window.page_name is None or not window.page_loaded or self.refused_in_review("edit"):
            return
        xpath = window.page_view.focused_xpath()
        if xpath is None and window.page_view.focus_in_frame():  # as a click there: the overlay is not in frames
            window.message(f"the element in focus is inside a frame of the page, and {_FRAMES_NOT_LABELLED} (a "
                           "click there makes no record either): Tab moves on out of the frame")
        elif xpath is None:
            window.actions_by_name["go_to_page"].trigger()
            self._move_cursor("start", before="no element of the page had the keys: ")
        else:
            self.on_element_clicked(xpath)

    def do_cursor_next(self) -> None:
        self._move_cursor("next")

    def do_cursor_previous(self) -> None:
        self._move_cursor("previous")

    def do_cursor_parent(self) -> None:
        self._move_cursor("parent")

    def do_cursor_child(self) -> None:
        self._move_cursor("child")

    def _move_cursor(self, how: str, before: str = "") -> None:
        """The element cursor moved (`PageView.move_cursor`) and where it is said, with what E does there (the
        line above the page says it too, as for the pointer); `before` goes in front of that."""
        window = self.window
        move = window.page_view.move_cursor(how) if window.page_loaded else None
        if move is None:
            return
        if move.path is None:
            window.message(f"{before}the page shows no element to put the element cursor on")
            return
        keys = (f"{window.keys_for('cursor_next')} / {window.keys_for('cursor_previous')} move it to the next / "
                f"previous element, {window.keys_for('cursor_parent')} / {window.keys_for('cursor_child')} to the "
                "element around it / the first inside it")
        where = f"the element cursor is on {_named(window.page_view.core_page, move.path)}"
        if move.frame:
            window.message(f"{before}{where}, a frame of the page, and {_FRAMES_NOT_LABELLED}; {keys}")
        elif how == "start":
            focused = window.keys_for("focused_element")
            window.message(f"{before}{where} (outlined; {window.point_at(move.path)}); {keys}, Tab to a link or "
                           f"field, and {focused} acts on the one in focus as a click does")
        elif not move.moved:
            window.message(f"{_CURSOR_STAYS[how]}: {where} ({window.point_at(move.path)})")
        else:
            window.message(f"{where} ({window.point_at(move.path)}; {window.keys_for('focused_element')} does "
                           "what a click does)")

    def do_find_record(self) -> None:
        panel = self.window.record_panel
        self.window.tabs.setCurrentWidget(panel)  # from Review too, the page left where it is (`SideTabs`)
        panel.finder.setFocus()
        panel.finder.selectAll()

    def do_deselect(self) -> None:
        """Esc: out of the search box back to the page if typing there; with words in the record finder, every
        record listed again; else cancel a new record and deselect."""
        search = self.window.page_list.search
        if search.hasFocus():
            search.clearFocus()
            self.window.page_view.view.setFocus()
            return
        view = self.window.page_view
        if view.holds_focus():  # out of the page (and of a field of it) to the record list: Tab never gets out
            view.let_go_of_the_keys()
            self.window.actions_by_name["go_to_records"].trigger()
        panel = self.window.record_panel
        if panel.finder.hasFocus() or panel.found_ids() is not None:  # first Esc: every record listed again
            panel.leave_finder()
            self.window.message("every record listed again (the finder is empty)")
            return
        self.arm_new = False
        self.window.select_records([], scroll=False)

    def do_merge(self) -> None:
        ids = self._need("two", "merge records")
        if ids is not None:
            window = self.window
            numbers = self._numbers(ids)
            said = f"merge {records_named(numbers)}"
            # The records as the list shows them, in the order selected (the first is where the merge goes)
            shown = [label for i in ids if (label := window.label(i)) is not None]
            change = (self.edit_as_shown(f"merge {len(ids)} records", shown, window.project.merge, said=said)
                      if len(shown) == len(ids) else  # one not in the list: nothing shown to compare with
                      self.edit(f"merge {len(ids)} records", lambda: window.project.merge(ids, window.person),
                                said=said))
            window.reload_labels([change.record.id] if change and change.record else None)
            if change and change.record:
                now = self._numbers([change.record.id])
                gone = [n for n in numbers if n not in now]  # the places merged away: records after them move up
                moved = "; the records after them moved up" if gone and min(gone) <= len(window.labels) else ""
                window.message(f"merged records {', '.join(map(str, numbers))} into record "
                               f"{now[0] if now else '?'}{moved} ({window.keys_for('undo')} takes it back)")

    def _places(self) -> dict[int, int]:
        """Each record's number (its place in the list), by its id."""
        return {label.id: k + 1 for k, label in enumerate(self.window.labels)}

    def _numbers(self, ids: Sequence[int]) -> list[int]:
        """The records' numbers (their places in the list), in order."""
        place = self._places()
        return sorted(place[i] for i in ids if i in place)

    def _one_on_page(self, doing: str) -> tuple[Label, Page] | None:
        """The one selected record and the page it is on, for the edits that look at the page's structure."""
        ids = self._need("one", doing)
        page = self.window.page_view.core_page
        label = self.window.label(ids[0]) if ids else None
        return None if label is None or page is None else (label, page)

    def do_split(self) -> None:
        chosen = self._one_on_page("split a record")
        if chosen is None:
            return
        label, page = chosen
        parts = split_parts(page, label.xpaths)
        if len(parts) < 2:
            self.window.message("this record lies in one block: nothing to split (remove elements by clicking them)")
            return
        number = self._numbers([label.id])
        # The parts in page order among the other records (a merge of records far apart splits back in place).
        before = places_in_page_order(page, [(other.id, other.xpaths) for other in self.window.labels
                                             if other.id != label.id], parts)
        numbered = {other.id: k for k, other in enumerate(self.window.labels)}
        change = self.edit_as_shown("split record", label,
                                    lambda i, by: self.window.project.split(i, parts, by, before=before),
                                    said=f"split record {number[0]}" if number else None)
        made = [r.id for r in change.after if r.id not in numbered] if change else []
        self.window.reload_labels(made or None)
        if change:
            now = self._numbers(made)
            renumbered = any(numbered.get(other.id, k) != k for k, other in enumerate(self.window.labels))
            moved = "; the numbers of other records moved" if renumbered else ""
            self.window.message(f"split record {number[0] if number else '?'} into {len(now)} records, numbered "
                                f"{', '.join(map(str, now))} in page order{moved} "
                                f"({self.window.keys_for('undo')} takes it back)")

    def do_delete(self) -> None:
        ids = self._need("some", "delete records")
        if ids is not None:
            numbers = self._numbers(ids)
            deleted = self.edit_each_as_shown("delete record", ids, self.window.project.delete)
            # What is still there stays selected (a deletion refused, a full disk: pressed again once space is freed)
            self.window.reload_labels(None if deleted is None else [])
            if deleted is None or not numbers:
                return
            said = f"deleted record{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"
            if numbers[0] <= len(self.window.labels):
                # Numbers are places in the list: say so when the records after the deleted ones move up.
                self.window.message(f"{said}; the records after {'them' if len(numbers) > 1 else 'it'} now have "
                                    f"numbers {len(numbers)} lower")
            else:  # the last ones: no number moves, but the deletion is said all the same
                self.window.message(f"{said} ({self.window.keys_for('undo')} brings "
                                    f"{'them' if len(numbers) > 1 else 'it'} back)")

    def do_siblings(self) -> None:
        chosen = self._one_on_page("apply a record to its siblings")
        if chosen is None:
            return
        label, page = chosen
        window = self.window
        existing = [other.xpaths for other in window.labels if other.status != REJECTED]
        # A rejection says "this is not a record": G makes none there again (as a proposal adds none), and says so.
        rejected = {record_key(other.xpaths): other.id for other in window.labels if other.status == REJECTED}
        found = sibling_records(page, label.xpaths, existing)
        records = [record for record in found if record_key(record) not in rejected]
        left_out = [rejected[record_key(record)] for record in found if record_key(record) in rejected]
        if not records:
            just_clicked = self.picked is not None and self.picked[0] == label.id
            window.message(_all_siblings_rejected(self._numbers(left_out)) if left_out else
                           _no_siblings_message(page, label.xpaths, [other.xpaths for other in window.labels],
                                                just_clicked))
            return
        # Numbered in page order: siblings before the record (or before a later list already labelled) come
        # in front of the records that follow them on the page, not after the list's last record
        before = places_in_page_order(page, [(other.id, other.xpaths) for other in window.labels], records)
        # Computed from the records shown: refused where another window or the command line made one of them a
        # record since (it would be listed twice), or changed or deleted the record they are made from.
        project, name = window.project, window.page_name
        number = window.labels.index(label) + 1
        added = self.edit_as_shown(f"apply to {len(records)} siblings", label,
                                   lambda _, by: project.add_records(name, records, by, before=before), adds=records,
                                   said=f"apply record {number} to {len(records)} siblings")
        if added is None:  # refused: the refusal's message stays
            return
        window.reload_labels([label.id])
        number = [other.id for other in window.labels].index(label.id) + 1  # its place may have moved
        numbers = self._numbers(left_out)  # after the records added: the numbers the list shows now
        skipped = (f"; left out {counted(len(left_out), 'sibling')} rejected before ({records_named(numbers)})"
                   if left_out else "")
        window.message(f"added {counted(len(records), 'record')}, one per sibling of record {number}, numbered in "
                       f"page order{skipped}")

    def do_select_all(self) -> None:
        """Ctrl+A: every record of the page not rejected (the page's own select-all of its text is no use here)."""
        window = self.window
        if self.refused_in_review("select and judge records"):
            return
        found = window.record_panel.found_ids()  # the finder's words narrow "every record" to those it shows
        ids = [label.id for label in window.labels
               if label.status != REJECTED and (found is None or label.id in found)]
        window.select_records(ids, scroll=False)
        which = "" if found is None else f" of those found (“{window.record_panel.finder.text().strip()}”)"
        window.message(f"{counted(len(ids), 'record')}{which} selected: A or R judges "
                       f"{'it' if len(ids) == 1 else 'them all'}" if ids else f"no record{which} to select",
                       of_selection=bool(ids))

    def do_select_list(self) -> None:
        """Shift+G: the records of the selected one's list that were decided as it was, so that one A or R judges
        a proposed list whole: a menu of hundreds of links proposed as records is rejected with two keys, not
        hundreds (`_in_the_list_with`). On a proposal, the list's other proposals alone: the records judged before
        stay as they were decided (A there overturns no rejection, R no acceptance), and are said as left out. On
        a rejected record, its whole list: pointing at a rejection, the user means the list as rejected (to accept
        it back, or delete it). On an accepted or edited one, the list's records not rejected. What A or R then
        overturns is said as they do it (`_overturned_words`)."""
        chosen = self._one_on_page("select and judge a record's list")
        if chosen is None:
            return
        label, page = chosen
        window = self.window
        number = window.labels.index(label) + 1
        if not any(page.resolve(x) is not None for x in label.xpaths):
            window.message(f"record {number} names no element of this page: it stands in no list")
            return
        shown = [other for other in window.labels if _in_the_list_with(label, other)]
        ids = [shown[i].id for i in same_list(page, label.xpaths, [other.xpaths for other in shown])]
        left_out = self._left_out_of_the_list(label, page, ids)
        if not [i for i in ids if i != label.id]:
            window.message(self._alone_in_its_list(label, number, left_out))
            return
        window.select_records(ids, scroll=False)
        window.record_panel.scroll_to_id(label.id)  # the list stays where the reviewer was, not at its end
        left = (f"; left out {counted(len(left_out), 'record')} judged before ({self._by_status(left_out)})"
                if left_out else "")
        window.message(f"{counted(len(ids), 'record')} of record {number}'s list selected: A or R judges them all, Esc "
                       f"clears the selection{left}", of_selection=True)

    def _left_out_of_the_list(self, label: Label, page: Page, ids: Sequence[int]) -> list[Label]:
        """The records of `label`'s list that Shift+G on it did not select (`ids`) for their status."""
        labels, selected = self.window.labels, set(ids)
        return [labels[i] for i in same_list(page, label.xpaths, [other.xpaths for other in labels])
                if labels[i].id not in selected and labels[i].id != label.id
                and not _in_the_list_with(label, labels[i])]

    def _by_status(self, labels: Sequence[Label]) -> str:
        """"accepted: record 1; rejected: records 3, 4": the records `labels`, by status."""
        by_status: dict[str, list[int]] = {}
        for label in labels:
            by_status.setdefault(label.status, []).append(label.id)
        return "; ".join(f"{status}: {records_named(self._numbers(ids))}" for status, ids in by_status.items())

    def _alone_in_its_list(self, label: Label, number: int, left_out: Sequence[Label]) -> str:
        """Why Shift+G selected nothing more than record `number`: its list holds no other record, or only
        records of a status it leaves out (`left_out`: said, with the way to select them)."""
        if not left_out:
            return f"record {number}'s list holds no other record (G adds its siblings)"
        wanted = "other proposal" if label.status == "proposed" else "other record that is not rejected"
        statuses = {other.status for other in left_out}
        if len(statuses) == 1:
            were = "is" if len(left_out) == 1 else "are"
            which = (f"{counted(len(left_out), 'other record')} {were} {left_out[0].status} "
                     f"({records_named(self._numbers([other.id for other in left_out]))})")
        else:
            which = f"{counted(len(left_out), 'other record')} were judged before ({self._by_status(left_out)})"
        # A rejected one selects the whole list; an accepted or edited one every record of it not rejected, which
        # is all of it when no rejected one was left out
        pointed = REJECTED if REJECTED in statuses else left_out[0].status
        article = "an" if pointed[0] in "aeiou" else "a"
        return (f"record {number}'s list holds no {wanted}: its {which}; {self.window.keys_for('select_list')} on "
                f"{article} {pointed} one selects them all")

    def _step_record(self, step: int) -> None:
        """J / K; J on the last record offers the next page, and J again opens it."""
        window = self.window
        if self.refused_in_review(f"step through its records (here, {window.keys_for('go_to_records')} goes to the "
                                  "Review list, whose rows ↑ and ↓ choose)"):
            return
        ids = window.record_panel.shown_ids()  # with words in the finder, the records found
        selected = [i for i in window.record_panel.selected_ids() if i in ids]
        if not ids and step < 0:  # K: no record to go back to, and not the next page to offer
            self.offered_next = False
            before = window.page_list.neighbour(window.page_name, -1)
            window.message(self._no_records_words() + (f"; PgUp opens page {before}" if before is not None else ""))
            return
        at_end = not ids or (step > 0 and bool(selected) and selected[-1] == ids[-1])
        if at_end:
            following = window.page_list.neighbour(window.page_name, 1)
            if self.offered_next and following is not None:
                self.offered_next = False
                window.open_page(following)
                window.message(f"page {following}")  # not the offer, still in the status bar, to open it
                return
            self.offered_next = following is not None
            where = f"last record of page {window.page_name}" if ids else self._no_records_words()
            window.message(f"{where}: J again opens page {following} (PgDn)" if following is not None
                           else f"last record of the last page ({window.page_name})" if ids
                           else f"{where}, the last page")
            return
        self.offered_next = False
        if step < 0 and selected == ids[:1]:
            before = window.page_list.neighbour(window.page_name, -1)
            window.message(f"first record of page {window.page_name}" + (f": PgUp opens page {before}"
                                                                           if before is not None else ""))
            return
        index = ids.index(selected[-1 if step > 0 else 0]) + step if selected else (0 if step > 0 else len(ids) - 1)
        window.select_records([ids[max(0, min(len(ids) - 1, index))]])
        window.record_panel.announce_selection()  # as a click says it: the list's selection says nothing aloud
        self._said_by_the_step()

    def _no_records_words(self) -> str:
        """A page with no record to select: none at all, or none that the finder's words find."""
        window = self.window
        if window.record_panel.found_ids() is not None and window.labels:
            return f"no record found on page {window.page_name} (Esc lists every record)"
        return f"no records on page {window.page_name}"

    def do_next_record(self) -> None:
        self._step_record(1)

    def do_previous_record(self) -> None:
        self._step_record(-1)

    # -- the page ------------------------------------------------------------------------------------------------

    def _already(self, status: str) -> bool:
        """Whether the page on show is `status` already, as shown and in the project: a mark is meant on the status
        shown, and refused (`mark_as_shown`) where another window or the command line changed it since (it would
        take that change back)."""
        window = self.window
        return window.page_name is not None and window.shown_status == status == window.project.page(
            window.page_name).status

    def _mark(self, status: str) -> None:
        window = self.window
        if window.page_name is None:
            return
        shown = window.shown_status
        if self._already(status):
            window.message(f"page {window.page_name} is already {status}")
            return
        command = StatusCommand(window.project, window.page_name, status, window.person, self._on_store_changed,
                                shown=shown)
        if self._pushed(window.page_name, command, "") is None:
            return
        window.reload_labels()
        window.message(f"page {window.page_name} marked {status}")

    def _mark_once_asked(self, status: str, action: str) -> None:
        """L or V (`action`); on a page that still has proposals, say what export will do with them and ask for the
        same key again: export writes a labelled or reviewed page's accepted and edited records alone, so a page
        marked with its proposals unjudged is exported as a page of no records."""
        window = self.window
        proposed = [label for label in window.labels if label.status == "proposed"]
        # The question stands only while it is on show: another action's message, or its 15 s, ends it; and it is
        # the question of this key (L's answered by V would mark the page reviewed).
        asked = self.confirm_mark is not None and self.confirm_mark == (
            window.page_name, status, window.statusBar().currentMessage())
        if proposed and not asked and not self._already(status):
            # What to press first: a status bar too narrow for the whole line cuts its end.
            question = (f"{window.keys_for(action)} again marks page {window.page_name} {status} with "
                        f"{len(proposed)} proposed record(s) nobody judged (A / R judge them first): export writes "
                        "only accepted and edited records, so they would be left out")
            self.confirm_mark = (window.page_name, status, question)
            window.message(question, 15000)
            return
        self.confirm_mark = None
        self._mark(status)

    def do_mark_labelled(self) -> None:
        self._mark_once_asked("labelled", "mark_labelled")

    def do_mark_reviewed(self) -> None:
        self._mark_once_asked("reviewed", "mark_reviewed")

    def restore_to(self, page: str, history_id: int | None, newest: int | None = None) -> Change | None:
        """Bring the page's labels back to just after history entry `history_id` (None: before any change).

        It goes through the page's undo stack as a label change, so Ctrl+Z takes the restore back. It takes back
        every change after that entry: with `newest` (the page's newest entry as the history showed it), it is
        refused, as undo is, once another window or the command line changed the page since."""
        window = self.window
        if page != window.page_name:
            window.message(f"page {page} is not the page on show: restore not made")
            return None
        if history_id is None:
            text = "restore to before any change"
        else:
            history = window.project.history(page)
            entry = next((c for c in history if c.id == history_id), None)
            number = change_numbers(history).get(history_id, history_id)
            text = f"restore to change {number}" + (f" ({local_time(entry.at)})" if entry else "")
        change = self.edit_as_shown(text, [], lambda _, by: window.project.restore(page, history_id, by),
                                    newest=newest)
        window.reload_labels()
        if change is not None:
            window.message(f"page {page}: {text}" if change.id is not None
                           else f"page {page}: the labels are already as they were then")
        return change

    def do_undo(self) -> None:
        group = self.window.undo_group
        if not self._refused_overtaken("undo"):
            self._guarded(lambda: group.undo(newest=self._newest_on_show()), "undone", group.undoText(), "undo")

    def do_redo(self) -> None:
        group = self.window.undo_group
        if not self._refused_overtaken("redo"):
            self._guarded(lambda: group.redo(newest=self._newest_on_show()), "redone", group.redoText(), "redo")

    def _newest_on_show(self) -> int | None:
        """The newest history entry this window's steps left on the page on show: undo and redo are written only
        while it is still the page's newest (looked at inside their write)."""
        page = self.window.page_name
        return None if page is None else self._newest_own_change.get(page)

    def _refused_overtaken(self, step: str) -> bool:
        """Undo or redo refused (and why said) when it would take back a change it did not make: the project's
        database is gone, or another window or the command line changed the page since this window's last step
        (its steps then go, and the page is shown as it now is). A change made after this look is found by the
        look inside the write (`_guarded`)."""
        window = self.window
        page = window.page_name
        if page is None:
            return False
        if self._refused_unsaved():
            return True
        if not window.project.has_page(page):
            window.reload_labels()  # removed elsewhere: said, and the next page shown
            return True
        if not self._overtaken(page):
            return False
        self._refuse_overtaken(page, window.project.history(page)[-1], step)
        return True

    def _refuse_overtaken(self, page: str, newest: Change | None, step: str) -> None:
        """Undo or redo (`step`) refused on a page another writer changed since this window's last step (`newest`:
        the change that did): the steps go, and the page is shown as it now is."""
        self._forget_steps(page)
        self._say_changed_elsewhere(f"page {page}", newest, f"{step} refused; the history "
                                    f"({self.window.keys_for('history')}) can restore any earlier state")

    def say_nothing_to(self, what: str) -> None:
        """Ctrl+Z (or redo) with nothing on this page's stack: a restart or another page starts a new one, and
        the page's history holds what came before."""
        window = self.window
        history = window.keys_for("history")
        where = f" on page {window.page_name} in this session" if window.page_name else ""
        window.message(f"nothing to {what}{where}" + (
            f"; {history} lists every change to the page, earlier sessions' too, and restores any of them"
            if window.page_name and what == "undo" else ""))

    def _guarded(self, action: Callable[[], None], done: str, text: str, step: str) -> None:
        """Undo or redo (`step`), said (the message of the step it takes back would otherwise stay on show)."""
        try:
            action()
        except ChangedElsewhere as error:  # the page changed after the look before it: seen inside the write
            self._refuse_overtaken(error.page, error.change, step)
            return
        except RecordLensError as error:
            self.window.message(f"could not change the project: {error}", 10000)
            self.window.reload_labels()
            return
        # The page too: under Recent messages a line of a page left since would not say which one it was
        where = f" on page {self.window.page_name}" if self.window.page_name else ""
        self.window.message(f"{done}{where}: {text}" if text else f"nothing to {done.removesuffix('ne')}")


def _in_the_list_with(chosen: Label, other: Label) -> bool:
    """Whether Shift+G on the record `chosen` selects `other`, a record of its list: a record decided before is
    left as it was decided unless the record pointed at is decided too (`do_select_list`)."""
    if other.id == chosen.id or chosen.status == REJECTED:
        return True
    if chosen.status == "proposed":
        return other.status == "proposed"
    return other.status != REJECTED


def _nesting_words(around: Sequence[int], textless: bool) -> str:
    """" It lies inside record 3: …": the records (by their numbers now) that hold an ancestor of the element a
    record was made of or given. labels check names a record without text as unresolved, not as nested: of one,
    the nesting is said, no more."""
    if not around:
        return ""
    return (f" It lies inside record {', '.join(map(str, around))}"
            + ("." if textless else ": labels check flags records nested in others."))


def _toggled_words(adding: bool, number: int, element: str, elements: int) -> str:
    """"added to record 1: <li> “DeFi” (2 elements)", or "removed from record 1: <li> “DeFi” (1 element left)": a
    click that gave the selected record an element or took one from it (`elements`: how many it holds now)."""
    count = counted(elements, "element")
    if adding:
        return f"added to record {number}: {element} ({count})"
    return f"removed from record {number}: {element} ({count} left)"


def _all_siblings_rejected(numbers: Sequence[int]) -> str:
    """Why G added nothing where every sibling without a record has a rejected one (`numbers`: those records)."""
    siblings = "the sibling" if len(numbers) == 1 else f"the {len(numbers)} siblings"
    were = "was" if len(numbers) == 1 else "were"
    return (f"G adds nothing: {siblings} without a record {were} rejected before ({records_named(numbers)}); "
            "accept one to make it a record again")


def _no_siblings_message(page: Page, xpaths: Sequence[str], existing: Sequence[Sequence[str]],
                         just_clicked: bool) -> str:
    """Why G added nothing and, when the element sits alone inside a repeated block (a link in its list item, a
    title in its card), the level whose siblings G would make the most records of (`siblings_above`: the card,
    not a wrapper of the title inside it that has one sibling): reached with U when the element was just clicked
    into the record (U climbs from the element clicked)."""
    said = "G adds nothing: no sibling of the same structure without a record already"
    above = siblings_above(page, xpaths, existing)
    if above is None:
        return said
    levels, ancestor, count = above
    where = f"the enclosing {ancestor.tag} ({levels} level{'s' if levels != 1 else ''} up)"
    if not just_clicked:
        return f"{said}; {where} has {count} sibling{'s' if count != 1 else ''} without a record"
    presses = {1: "U", 2: "U twice"}.get(levels, f"U {levels} times")
    return f"{said}; {presses}, then G, would add {count} record{'s' if count != 1 else ''}, one per sibling of {where}"
