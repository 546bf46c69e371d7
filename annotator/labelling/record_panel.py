"""The record panel: each record of the page in its overlay colour, with its texts, size and status.

Rows are made from the core's labels and the core's page (`rows_for`); the panel only shows them and says
which are selected. Record k of the page is drawn in colour k, so the bullet here matches its box on the page.
A record's texts are worked out once per page (`RecordTexts`), and rows that did not change are left as they
are: after an accept or a reject on a page of hundreds of records, one row is rewritten, not all of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from PySide6.QtCore import QEvent, QItemSelection, QItemSelectionModel, QObject, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ...core.page import Page
from ...core.records import TEXT_SEPARATOR, TextKeyIndex, texts_of_record
from ...core.store import REJECTED, Label
from ...core.text_search import folded
from ...core.wording import counted
from ..qt.contrast import GRAPHICS, readable_on_rows
from ..qt.row_lines import LINE_SEPARATOR, LinesInTheirOwnDirection, isolated
from ..qt.signals import emit
from ..qt.widgets import colour_dot, searchable, show_focus
from .page_view import record_colour

STATUS_MARKS = {"proposed": "?", "accepted": "✓", "edited": "✎", REJECTED: "✗"}
ID_ROLE = Qt.ItemDataRole.UserRole
# A rejected record's row is grey (besides its ✗ and the word "rejected"), in the shade that reads on the list's
# rows at WCAG's 4.5:1: this grey itself reads at 2.85:1 on white.
REJECTED_GREY = "#999999"
HIDDEN_MARK = "⊘ hidden"  # a record the page shows nothing of (the finder finds them by "hidden")
_TEXT_CHARS = 70
TIP_CHARS = 1000  # of a record's text in its row's tip and spoken form: a record can be a whole page's text
TIP_WIDTH = 80  # characters a line of a row's tip wraps at (a plain-text tip is one line however long)
SPOKEN_SEPARATOR = ", "  # between a record's texts as said: a pause, where the row shows " · "


@dataclass(frozen=True)
class RecordRow:
    id: int
    number: int          # 1-based, the badge on the page
    colour: str
    status: str
    texts: str
    elements: int
    text_entries: int
    origin: str
    flagged: bool
    whole: str = field(default="", compare=False, repr=False)  # every text of the record, for the finder
    unseen: str = ""  # why the page shows nothing of it ("its element is hidden (display: none)"), else ""
    every: tuple[str, ...] = ()  # every text of the record as read (`_as_read`), for its tip and its spoken form

    @property
    def line(self) -> str:
        size = f"{self.elements} el · {counted(self.text_entries, 'text')}"
        flag = "  ⚠ unresolved XPath" if self.flagged else ""
        # Not displayed on the page: accepting it is accepting what nobody sees, so the row says it.
        hidden = f"  {HIDDEN_MARK}" if self.unseen else ""
        texts = isolated(self.texts) or "(no text)"  # the page's words, in their own direction
        return f"{self.number:>2}  {STATUS_MARKS.get(self.status, '?')}  {texts}\n" \
               f"      {size} · {self.status}{flag}{hidden}"

    @property
    def spoken(self) -> str:
        """The row as a screen reader says it: in words where the row has marks (✓, ⚠, ⊘), its texts whole (the
        row cuts them) and without the marks that isolate them: "record 5, proposed, 1 element, 7 texts: …"."""
        flag = ", unresolved XPath" if self.flagged else ""
        hidden = ", hidden: not displayed on the page" if self.unseen else ""
        texts = spoken_text(SPOKEN_SEPARATOR.join(self.every) or self.texts) or "no text"
        return f"record {self.number}, {self.status}{flag}{hidden}, {counted(self.elements, 'element')}, " \
               f"{counted(self.text_entries, 'text')}: {texts}"


def bounded(text: str) -> str:
    """`text`, or its first `TIP_CHARS` with "…" where it goes on: a record's text in a tip or said."""
    return text if len(text) <= TIP_CHARS else text[:TIP_CHARS - 1] + "…"


def tip_text(text: str) -> str:
    """A text for a tip (a record's, a page's title): `bounded`, wrapped (a plain-text tip is one line however
    long), each line in its own direction (`isolated`). Wrapped at line separators, not "\\n": a tip may hold a
    line for each of several records."""
    if not text:
        return "(no text)"
    text = bounded(text)
    return LINE_SEPARATOR.join(isolated(line) for line in _wrapped(text, TIP_WIDTH)) or isolated(text)


def _wrapped(text: str, width: int) -> list[str]:
    """`text`'s words in lines of at most `width` characters, a longer word cut across lines: as `textwrap.wrap`
    does, ten times as fast (each of a page's 2,000 rows gets a tip: textwrap took 0.3 s of its filling)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > width:  # a long URL: cut where the line ends, as textwrap breaks long words
            room = width - len(line) - 1 if line else width
            if room < 1:
                lines.append(line)
                line, room = "", width
            lines.append(f"{line} {word[:room]}" if line else word[:room])
            line, word = "", word[room:]
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def spoken_text(text: str) -> str:
    """A record's text as said: `bounded`, its line breaks spaces; no isolates, which a screen reader may name."""
    return " ".join(bounded(text).split())


_OPENERS, _CLOSERS = "([{", ")]}"
_LEAST_SHOWN = 8  # characters of a text cut at a line's end: fewer, and the line ends after the text before it


def _as_read(texts: Sequence[str]) -> list[str]:
    """A record's texts with a bracket's texts read as one, as the page shows them: a reference's "[", "7", "]"
    (three texts) is "[7]", not "[ · 7 · ]", and a line cut after its first texts never ends on a lone "[" that
    reads as a cut gone wrong."""
    read: list[str] = []
    glued = False  # the text before opened a bracket: the next one belongs to it
    for text in texts:
        if read and (glued or text[:1] in _CLOSERS):
            read[-1] += text
        else:
            read.append(text)
        glued = text[-1:] in _OPENERS
    return read


def _cut(line: str, chars: int) -> str:
    """`line` cut at `chars` ("…" where it goes on): after its last whole text when the cut would leave only the
    first few characters of the next one (a "[" or "Pr" reads as a cut gone wrong), else within that text."""
    if len(line) <= chars:
        return line
    cut = line[:chars - 1]
    last = cut.rfind(TEXT_SEPARATOR)
    if last >= 0 and len(cut) - (last + len(TEXT_SEPARATOR)) < _LEAST_SHOWN:
        cut = cut[:last + len(TEXT_SEPARATOR)]
    return cut + "…"


def record_texts(page: Page | None, keys: TextKeyIndex | None, xpaths: Sequence[str],
                 chars: int = _TEXT_CHARS) -> tuple[str, int]:
    """A record's first texts in page order, joined and cut at `chars`, and how many text entries it has."""
    if page is None or keys is None:
        return "", 0
    return _first_texts(texts_of_record(page, keys, xpaths), chars)


def _first_texts(every: Sequence[str], chars: int) -> tuple[str, int]:
    return _cut(TEXT_SEPARATOR.join(_as_read(every)[:6]), chars), len(every)


class RecordTexts:
    """The texts of a page's records (`record_texts`), each worked out once: the record list and the review ask
    for the same records again after every key."""

    def __init__(self, page: Page | None) -> None:
        self.page = page
        self.keys = TextKeyIndex(page.text_map) if page else None
        self._every: dict[tuple[str, ...], list[str]] = {}

    def _texts(self, xpaths: Sequence[str]) -> list[str]:
        key = tuple(xpaths)
        if key not in self._every:
            self._every[key] = texts_of_record(self.page, self.keys, xpaths) if self.page and self.keys else []
        return self._every[key]

    def of(self, xpaths: Sequence[str], chars: int = _TEXT_CHARS) -> tuple[str, int]:
        return _first_texts(self._texts(xpaths), chars) if self.page and self.keys else ("", 0)

    def read(self, xpaths: Sequence[str]) -> tuple[str, ...]:
        """Every text of the record in page order, a bracket's texts as one (`_as_read`): for its tip and what a
        screen reader says of its row."""
        return tuple(_as_read(self._texts(xpaths)))

    def whole(self, xpaths: Sequence[str]) -> str:
        """Every text of the record, in page order (what the finder searches; the row shows the first few)."""
        return " ".join(self._texts(xpaths))


def found(row: RecordRow, query: str, records: int | None = None) -> bool:
    """Whether a row answers the finder: a number is the record of that number (one beyond the page's
    `records` is searched as a text, a price or a year); words must all stand in its texts, status or origin,
    or be "hidden" for a record the page does not display, folded as every search folds them (any case, accents,
    Unicode form: "resume" finds "Résumé")."""
    query = query.strip()
    if query.isdecimal() and (records is None or 1 <= int(query) <= records):  # "²" is a digit, not decimal
        return row.number == int(query)
    haystack = folded(f"{row.whole or row.texts} {row.status} {row.origin}{' hidden' if row.unseen else ''}")
    return all(word in haystack for word in folded(query).split())


def rows_for(labels: Sequence[Label], texts: RecordTexts) -> list[RecordRow]:
    rows = []
    for k, label in enumerate(labels):
        line, entries = texts.of(label.xpaths)
        rows.append(RecordRow(label.id, k + 1, record_colour(label.id), label.status, line, len(label.xpaths), entries,
                              str(label.changed_by or label.origin), label.flagged,
                              f"{texts.whole(label.xpaths)} {label.origin} {label.changed_by or ''}",
                              every=texts.read(label.xpaths)))
    return rows


class _Inks:
    """What a row is drawn in on the list's rows in a palette: a rejected record's text in the grey that reads
    there (`REJECTED_GREY` at 4.5:1), and each record's dot in the shade of its colour that shows there at WCAG's
    3:1 for graphics (on a dark theme's rows the palette's indigo, brown and blue showed at 1.7 to 2.7:1; on a
    light one its yellow, cyan and orange at 2 to 2.5:1). The hue stays: the dot is still its box's colour."""

    def __init__(self, palette: QPalette) -> None:
        self.rows = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.AlternateBase)
        self._palette = QPalette(palette)
        self.rejected = readable_on_rows(REJECTED_GREY, palette)
        self._dots: dict[str, str] = {}

    def dot(self, colour: str) -> str:
        if colour not in self._dots:  # worked out once a colour: a page of hundreds of records has twelve
            self._dots[colour] = readable_on_rows(colour, self._palette, GRAPHICS).name()
        return self._dots[colour]


def _show_row(item: QListWidgetItem, row: RecordRow, inks: _Inks) -> None:
    item.setIcon(colour_dot(inks.dot(row.colour)))
    item.setText(row.line)
    item.setData(ID_ROLE, row.id)
    item.setData(Qt.ItemDataRole.AccessibleTextRole, row.spoken)
    unseen = f"\nnot displayed on the page: {row.unseen}" if row.unseen else ""
    texts = tip_text(TEXT_SEPARATOR.join(row.every) or row.texts)  # whole: the row cuts them
    item.setToolTip(f"record {row.number}: {row.status}, by {row.origin}{unseen}\n{texts}")
    item.setForeground(inks.rejected if row.status == REJECTED else QBrush())


class _RecordList(QListWidget):
    """The record list, where Space selects the current row (Ctrl+Space toggles it) as in any list. Qt feeds
    Space to the type-ahead search as well, and every row's text begins with a space (its number is aligned
    right), so the search moved the selection on to the next row."""

    def keyboardSearch(self, search: str) -> None:  # noqa: N802 (Qt override)
        if search.strip():
            super().keyboardSearch(search)


class RecordPanel(QWidget):
    """Signal `selection_changed()` when the user selects records (not when rows are refilled).

    The buttons are given the window's actions, so each shows its shortcut and follows its enabled state."""

    selection_changed = Signal()
    find_done = Signal()  # Enter or Esc in the finder: the keys go back to the page
    # Which record the keys just selected (Enter in the finder, J / K: `announce_selection`), for the status bar:
    # a click says what it selected, and the status bar is what a screen reader reads out.
    announced = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.finder = QLineEdit()
        self.finder.setPlaceholderText("find a record: its number or words (/)")
        searchable(self.finder, "find a record", "clear the record finder")
        self.finder.textChanged.connect(lambda _: self._show_found())
        self.finder.returnPressed.connect(self._choose_first_found)
        for clear in self.finder.findChildren(QAction):  # the ⓧ button: cleared with the mouse, the keys go back
            clear.triggered.connect(lambda: emit(self.find_done))
        self.summary = QLabel()
        # A longer summary ("· 1 edited") wraps instead of widening the panel and moving the splitter.
        self.summary.setWordWrap(True)
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.list = _RecordList()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setAlternatingRowColors(True)
        self.list.setItemDelegate(LinesInTheirOwnDirection(self.list))
        self.list.setAccessibleName("records")
        show_focus(self.list)
        self._inks = _Inks(self.list.palette())
        self.list.installEventFilter(self)  # a theme switched: the grey and the dots follow
        self.buttons = QGridLayout()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.finder)
        layout.addWidget(self.summary)
        layout.addWidget(self.list, 1)
        layout.addLayout(self.buttons)
        self._rows: list[RecordRow] = []
        self._unseen: dict[int, str] = {}  # record id -> why the page shows nothing of it (`mark_unseen`)
        self.list.itemSelectionChanged.connect(self._on_selection)

    def add_button(self, action, row: int, column: int) -> QPushButton:  # noqa: ANN001 - a QAction
        button = QPushButton(action.iconText())
        button.setToolTip(action.toolTip())  # the action's text and every one of its keys
        button.clicked.connect(action.trigger)
        action.enabledChanged.connect(button.setEnabled)
        button.setEnabled(action.isEnabled())
        self.buttons.addWidget(button, row, column)
        return button

    def set_rows(self, rows: Sequence[RecordRow], selected: Sequence[int]) -> None:
        # Rows are made from the labels alone: whether the page shows a record is known from its drawing.
        rows = [self._with_unseen(row) for row in rows]
        before, self._rows = self._rows, list(rows)
        self.list.blockSignals(True)
        try:
            if [row.id for row in before] == [row.id for row in rows]:
                for index, (old, row) in enumerate(zip(before, rows, strict=True)):
                    if old != row:
                        _show_row(self.list.item(index), row, self._inks)
            else:
                scrolled = self.list.verticalScrollBar().value()
                self.list.clear()
                for row in rows:
                    item = QListWidgetItem()
                    _show_row(item, row, self._inks)
                    self.list.addItem(item)
                if not {row.id for row in before} & {row.id for row in rows}:
                    self.list.scrollToTop()  # another page's records: not where the last page's list was left
                else:  # the same page's records, some added or deleted: the list stays where it was
                    self.list.doItemsLayout()
                    self.list.verticalScrollBar().setValue(scrolled)
        finally:
            self.list.blockSignals(False)
        self._show_found()
        self.select_ids(selected)

    def mark_unseen(self, unseen: Mapping[int, str]) -> None:
        """Say in the rows of these records (id -> why the page shows nothing of it, "" for one it shows) whether
        they are displayed; the marks stay with the records until a drawing says otherwise."""
        self._unseen.update(unseen)
        changed = False
        for index, row in enumerate(self._rows):
            marked = self._with_unseen(row)
            if marked is not row:
                self._rows[index] = marked
                _show_row(self.list.item(index), marked, self._inks)
                changed = True
        if changed and self.finder.text().strip():
            self._show_found()  # "hidden" in the finder: the rows found follow

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if watched is self.list and event.type() == QEvent.Type.PaletteChange:
            self._inks_for_the_theme()
        return False

    def _inks_for_the_theme(self) -> None:
        """The list's palette changed (another theme): the rows in the grey and the dots that show on its rows
        now."""
        inks = _Inks(self.list.palette())
        if inks.rows == self._inks.rows:
            return
        self._inks = inks
        for index, row in enumerate(self._rows):
            _show_row(self.list.item(index), row, inks)

    def _with_unseen(self, row: RecordRow) -> RecordRow:
        """The row with the mark its drawing gave its record (itself when it has that mark already: no copy)."""
        why = self._unseen.get(row.id, "")
        return row if why == row.unseen else replace(row, unseen=why)

    def _show_found(self) -> None:
        """Hide the rows the finder does not find (none when it is empty), and say how many it shows."""
        query = self.finder.text()
        shown = 0
        for index, row in enumerate(self._rows):
            hidden = bool(query.strip()) and not found(row, query, len(self._rows))
            self.list.setRowHidden(index, hidden)
            shown += not hidden
        counts: dict[str, int] = {}
        for row in self._rows:
            counts[row.status] = counts.get(row.status, 0) + 1
        text = counted(len(self._rows), "record") + "".join(f" · {n} {s}" for s, n in sorted(counts.items()))
        if query.strip():
            text += f" · {shown} found" if shown else " · none found"
        self.summary.setText(text)

    def _choose_first_found(self) -> None:
        """Enter in the finder selects the first record it shows (announced: the page scrolls to it), and hands
        the keys back to the page; the finder keeps its words, so the rows found stay listed."""
        first = next((row.id for index, row in enumerate(self._rows)
                      if self.finder.text().strip() and not self.list.isRowHidden(index)), None)
        if first is not None:
            self.select_ids([first])
            emit(self.selection_changed)
            self.list.doItemsLayout()  # the rows just hidden: the row found is where the list shows it now
            self.scroll_to_id(first)
            self.announce_selection()
        emit(self.find_done)

    def found_ids(self) -> list[int] | None:
        """The records the finder shows, in display order; None when it is empty (every record is shown)."""
        if not self.finder.text().strip():
            return None
        return [row.id for index, row in enumerate(self._rows) if not self.list.isRowHidden(index)]

    def shown_ids(self) -> list[int]:
        """The records the list shows, in display order: those found while the finder holds words, else all
        (what J / K walk and a judgement moves on through)."""
        found = self.found_ids()
        return self.ids() if found is None else found

    def forget_finder(self) -> None:
        """Another page is on show: the finder starts empty there (not announced: the rows follow)."""
        self.finder.blockSignals(True)
        self.finder.clear()
        self.finder.blockSignals(False)

    def leave_finder(self) -> None:
        """Esc in the finder: its words go, every row is listed again, and the keys go back to the page. The record
        chosen while finding stays in view (every row listed again, the list would show its top)."""
        self.finder.clear()
        chosen = self.list.currentItem()
        if chosen is not None and chosen.isSelected():
            self.list.scrollToItem(chosen)
        emit(self.find_done)

    def ids(self) -> list[int]:
        return [row.id for row in self._rows]

    def selected_ids(self) -> list[int]:
        """Selected records in display order."""
        chosen = {item.data(ID_ROLE) for item in self.list.selectedItems()}
        return [i for i in self.ids() if i in chosen]

    def selection_words(self) -> str:
        """Which records are selected, for the status bar: one by its number, status and first texts ("record 4
        selected, proposed: Cast-Iron Skillet 26 cm · $39"), several by their numbers; "" with none."""
        chosen = set(self.selected_ids())
        rows = [row for row in self._rows if row.id in chosen]
        if len(rows) == 1:
            row = rows[0]
            return f"record {row.number} selected, {row.status}: {isolated(row.texts) or '(no text)'}"
        numbers = ", ".join(str(row.number) for row in rows)
        return f"records {numbers} selected" if rows else ""

    def announce_selection(self) -> None:
        """Say which records are selected (`announced`): the keys selected them, and nothing else tells."""
        words = self.selection_words()
        if words:
            emit(self.announced, words)

    def current_id(self) -> int | None:
        """The record clicks edit: the one selected, when exactly one is."""
        selected = self.selected_ids()
        return selected[0] if len(selected) == 1 else None

    def select_ids(self, ids: Sequence[int]) -> None:
        """Select these records without announcing it; the last of them becomes current and is scrolled to.
        One selection replaces the old one (clearing it first and adding rows one by one costs a repaint of the
        list per step on a page of hundreds of records)."""
        model = self.list.model()
        rows = self._rows_of(ids)
        selection = QItemSelection()
        for row in rows:
            selection.select(model.index(row, 0), model.index(row, 0))
        self.list.blockSignals(True)
        try:
            chooser = self.list.selectionModel()
            chooser.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
            if rows:
                chooser.setCurrentIndex(model.index(rows[-1], 0), QItemSelectionModel.SelectionFlag.NoUpdate)
                self.list.scrollToItem(self.list.item(rows[-1]))
        finally:
            self.list.blockSignals(False)

    def scroll_to_id(self, record_id: int) -> None:
        """Bring the record's row into view (selection unchanged)."""
        for row in self._rows_of([record_id]):
            self.list.scrollToItem(self.list.item(row))

    def _rows_of(self, ids: Sequence[int]) -> list[int]:
        """The rows showing these records, top to bottom."""
        wanted = set(ids)
        return [row for row in range(self.list.count()) if self.list.item(row).data(ID_ROLE) in wanted]

    def _on_selection(self) -> None:
        emit(self.selection_changed)
