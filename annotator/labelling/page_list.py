"""The page list: every page with its status and record counts, a status filter, a search box, the progress."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from ...core.store import PAGE_STATUS_WORDS, PAGE_STATUSES, PageInfo
from ...core.text_search import folded
from ..qt.combo_keys import keeps_its_own_keys
from ..qt.row_lines import LinesInTheirOwnDirection, isolated
from ..qt.signals import emit
from ..qt.widgets import searchable, show_focus
from .record_panel import tip_text

STATUS_MARKS = {"new": "○", "proposed": "◐", "labelled": "✓", "reviewed": "★"}
ALL = "all pages"
NAME_ROLE = Qt.ItemDataRole.UserRole
TITLE_CHARS = 40  # of a page's title in its row (whole in the row's tip and spoken form)
# How long the search box waits after a key before it lists what the search finds: the list is filled once a burst
# of keys ends, not at each key (0.1 s a fill at 1,000 pages, a search typed fast under load lagged behind the
# keys). Whoever reads the list before then reads it as the box says (`_settle`). The tests may shorten it.
SEARCH_PAUSE_MS = 150


def _records_words(info: PageInfo) -> str:
    """The page's records by status, in the words the record panel uses ("labelled" is a page status)."""
    accepted = info.true_labels - info.edited
    counts = ((accepted, "accepted"), (info.edited, "edited"), (info.proposed, "proposed"),
              (info.rejected, "rejected"), (info.flagged, "flagged"))
    return " · ".join(f"{n} {word}" for n, word in counts if n) or "no records"


def page_line(info: PageInfo) -> str:
    """The page's row: its mark, name and title (each read in its own direction, a Hebrew name included), and
    its records by status."""
    title = f"  {isolated(info.title[:TITLE_CHARS])}" if info.title else ""
    mark = STATUS_MARKS.get(info.status, "?")
    return f"{mark} {isolated(info.name)}{title}\n      {_records_words(info)}"


def page_spoken(info: PageInfo) -> str:
    """The row as a screen reader says it: the page's status in words (the row shows it as a mark), its whole
    title (the row cuts it at `TITLE_CHARS`), and its records."""
    status = PAGE_STATUS_WORDS.get(info.status, info.status)
    title = f", {info.title}" if info.title else ""
    return f"page {info.name}, {status}{title}; {_records_words(info)}"


def page_tip(info: PageInfo) -> str:
    """The row's tooltip: the page's status in words, its title whole (the row cuts it at `TITLE_CHARS`), where it
    came from, and what its import warned of."""
    title = tip_text(info.title) if len(info.title or "") > TITLE_CHARS else ""  # wrapped: a tip is one line
    return "\n".join(x for x in (f"page {PAGE_STATUS_WORDS.get(info.status, info.status)}", title, info.url,
                                 info.source, *info.warnings) if x)


@dataclass(frozen=True)
class _Row:
    """What the list shows and searches of a page, made once for each PageInfo it has (made again only where the
    project's reading of the page differs): a search typed key by key folded every page's name, title and
    URL and made every row's texts again at each fill, 0.17 s a key at 1,625 pages (`folded`'s cache holds fewer
    texts than three a page, so each fill missed it), and the typing lagged."""

    info: PageInfo
    line: str
    tip: str
    spoken: str
    searched: tuple[str, ...]  # the name, title and URL, folded

    @classmethod
    def of(cls, info: PageInfo) -> _Row:
        return cls(info, page_line(info), page_tip(info), page_spoken(info), searched_texts(info))

    def show(self, item: QListWidgetItem) -> None:
        """`item` as the row of this page: its lines, its tooltip, and what a screen reader says of it."""
        item.setText(self.line)
        item.setToolTip(self.tip)
        item.setData(Qt.ItemDataRole.AccessibleTextRole, self.spoken)


def show_page_row(item: QListWidgetItem, info: PageInfo) -> None:
    """`item` as the row of page `info`: its lines, its tooltip, and what a screen reader says of it."""
    _Row.of(info).show(item)


def searched_texts(info: PageInfo) -> tuple[str, ...]:
    """The page's texts a search looks in, its name, title and URL, folded as the record finder folds them."""
    return tuple(folded(x or "") for x in (info.name, info.title, info.url))


def matches(info: PageInfo, status: str, search: str, searched: tuple[str, ...] | None = None) -> bool:
    """Whether the page is under the status filter and the search stands in its name, title or URL, folded as the
    record finder folds them (any case, accents, Unicode form). `searched`: the page's `searched_texts`, where the
    caller keeps them."""
    if status != ALL and info.status != status:
        return False
    needle = folded(search.strip())
    return not needle or any(needle in x for x in (searched_texts(info) if searched is None else searched))


class _HeightsKept(LinesInTheirOwnDirection):
    """The page rows' heights, each measured once for its text: Qt asks every row its height again whenever any
    row's text changes (an edit's row brought up to date in place), and measuring each anew (its lines laid out)
    took 0.05 to 0.1 s at 2,000 pages. Kept while a search fills the list again key by key (each fill measured
    every row anew, 0.05 s a key at 1,625 pages); forgotten when the pages are read again (`forget`) and when the
    list's style changes, which the text, font and direction they are kept by do not show."""

    def __init__(self, view: QListWidget) -> None:
        super().__init__(view)
        self._hints: dict[tuple[str, str, Qt.LayoutDirection], QSize] = {}
        view.installEventFilter(self)  # seen before the list lays its rows out again for the new style

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        """The list's events, let through (the delegate's own filter is for editors, which these rows have none of)."""
        if event.type() == QEvent.Type.StyleChange:
            self.forget()
        return False

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        key = (str(index.data(Qt.ItemDataRole.DisplayRole) or ""), option.font.key(), option.direction)
        hint = self._hints.get(key)
        if hint is None:
            hint = self._hints[key] = super().sizeHint(option, index)
        return hint

    def forget(self) -> None:
        self._hints.clear()


class PageList(QWidget):
    """Signal `page_chosen(name)` when the user picks a page (not when the list is refilled)."""

    page_chosen = Signal(str)
    search_done = Signal()  # Enter in the search box: the keys go back to the page
    narrowed = Signal()  # the user changed the status filter or the search, and the list is filled by them

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status_filter = QComboBox()
        self.status_filter.addItem(ALL, ALL)
        for status in PAGE_STATUSES:
            self.status_filter.addItem(PAGE_STATUS_WORDS[status], status)
        self.status_filter.setAccessibleName("show pages")  # its label, not the value it shows
        # On Linux a screen reader names a combo box by its value ("all pages") and by the label it is the buddy
        # of: the label says what the value chooses.
        self.filter_label = QLabel("show pages")
        self.filter_label.setBuddy(self.status_filter)
        keeps_its_own_keys(self.status_filter)  # Alt+Down opens it, not the window's Shift+U
        self.search = QLineEdit()
        self.search.setPlaceholderText("search name, title, URL (Ctrl+F)")
        searchable(self.search, "search pages", "clear the page search")
        self.list = QListWidget()
        self.list.setAccessibleName("pages")
        show_focus(self.list)
        self.list.setAlternatingRowColors(True)
        self._heights = _HeightsKept(self.list)
        self.list.setItemDelegate(self._heights)
        self.progress_label = QLabel()
        # Wrapped where the panel is narrower than it: unwrapped, its longer line under a filter or a search ("· K of
        # M shown") asked the panel for its width, which grew as the filter was set, the page beside shrinking.
        self.progress_label.setWordWrap(True)
        self.progress_bar = QProgressBar()
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setMaximumHeight(6)
        self.progress_bar.setAccessibleName("pages labelled")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for widget in (self.filter_label, self.status_filter, self.search, self.list, self.progress_label,
                       self.progress_bar):
            layout.addWidget(widget)
        self._pages: list[PageInfo] = []
        self._made: dict[str, _Row] = {}  # page name -> its row's texts, made for the page's info as it now is
        self._index: dict[str, int] = {}  # page name -> its place in `_pages`
        self._rows: dict[str, QListWidgetItem] = {}  # page name -> its row, for the pages listed
        self._kept: str | None = None  # the page listed only because it was on show (`_fill`'s `keep`)
        self._search_pause = QTimer(self)
        self._search_pause.setSingleShot(True)
        self._search_pause.setInterval(SEARCH_PAUSE_MS)
        self._search_pause.timeout.connect(self._narrow_as_asked)
        self.status_filter.currentIndexChanged.connect(lambda _: self._narrow_as_asked())
        self.search.textChanged.connect(lambda _: self._search_pause.start())
        self.search.returnPressed.connect(self._open_first_match)
        for clear in self.search.findChildren(QAction):  # the ⓧ button: cleared with the mouse, the keys go back
            clear.triggered.connect(self._hand_keys_back)
        self.list.currentItemChanged.connect(self._on_current)

    def set_pages(self, pages: Sequence[PageInfo], current: str | None) -> None:
        self._settle()  # the page on show stays listed if the search typed so far lists it
        self._pages = list(pages)
        self._index = {info.name: place for place, info in enumerate(self._pages)}
        self._made = {info.name: made for info in self._pages if (made := self._made.get(info.name)) is not None}
        self._heights.forget()  # the texts of edits since: measured again as the rows are laid out
        self.progress_bar.setRange(0, max(1, len(self._pages)))
        self.progress_bar.setValue(self._labelled())
        self._fill_keeping(current)

    def update_pages(self, changed: Sequence[PageInfo], current: str | None) -> bool:
        """The rows of the `changed` pages (those an edit touched) brought up to date in place, the list shown as
        `set_pages` with every page would show it: an edit costs its pages' rows, not the project's. Where an edit
        moves a page in or out of the filter (or the page kept on show under it is no longer on show), the list is
        filled again as `set_pages` fills it. False, and nothing changed, when a page is not among the list's pages
        (added elsewhere): the caller reads the project's pages anew."""
        if any(info.name not in self._index for info in changed):
            return False
        self._settle()
        current = current or self.current_name()
        for info in changed:
            self._pages[self._index[info.name]] = info
        self.progress_bar.setValue(self._labelled())
        if self._rows_come_or_go(changed, current):
            self._fill_keeping(current)
            return True
        for info in changed:
            if (row := self._rows.get(info.name)) is not None:
                self._row(info).show(row)
                self._note_kept(info)
        if current != self.current_name():
            self.select(current)
        self._say_progress()
        return True

    def _rows_come_or_go(self, changed: Sequence[PageInfo], current: str | None) -> bool:
        """Whether `_fill` would list other pages than the list shows: a changed page now in or out of the filter,
        or the page kept listed while on show (out of the filter) no longer on show."""
        keep = current if current in self._rows else None
        if self._kept is not None and self._kept != keep:
            return True
        return any((info.name in self._rows) != (self._matches(info) or info.name == keep) for info in changed)

    def _note_kept(self, info: PageInfo) -> None:
        """A listed page the edit took out of the filter is listed only because it is on show (`_rows_come_or_go`
        let it stay), and one the edit brought back in is listed on its own account."""
        if not self._matches(info):
            self._kept = info.name
        elif self._kept == info.name:
            self._kept = None

    def _row(self, info: PageInfo) -> _Row:
        """The row's texts of page `info`, made once for its info as it now is."""
        made = self._made.get(info.name)
        if made is None or (made.info is not info and made.info != info):
            made = self._made[info.name] = _Row.of(info)
        return made

    def _matches(self, info: PageInfo) -> bool:
        return matches(info, self.status_filter.currentData() or ALL, self.search.text(), self._row(info).searched)

    def _labelled(self) -> int:
        return sum(1 for p in self._pages if p.finished)

    def _say_progress(self) -> None:
        """The project's progress, and how many pages the list shows while a search or a filter narrows it: the
        progress is the project's, not that of the few pages listed."""
        total, shown = len(self._pages), self.list.count()
        narrowed = f" · {shown} of {total} shown" if self.filtered() else ""
        self.progress_label.setText(f"{self._labelled()} / {total} labelled{narrowed}")

    def show_all(self) -> None:
        """Drop the filter and the search."""
        self.status_filter.setCurrentText(ALL)
        self.search.clear()
        self._settle()

    def narrowing(self) -> tuple[str | None, str]:
        """What narrows the list: the page status it shows (None: every one) and the search ("": none)."""
        status = self.status_filter.currentData()
        return (None if status == ALL else status), self.search.text()

    def narrow(self, status: str | None, search: str) -> None:
        """The list filtered by page `status` (None, or a status it does not offer: every page) and searched for
        `search`, filled once: what the project's last session left (`narrowing`), taken up at a start."""
        found = self.status_filter.findData(status) if status is not None else -1
        self.status_filter.blockSignals(True)
        try:
            self.status_filter.setCurrentIndex(max(found, 0))
        finally:
            self.status_filter.blockSignals(False)
        self.search.setText(search)
        self._fill()  # the search's pause with it

    def list_on_show(self, name: str) -> None:
        """Highlight page `name`, the page on show, listed if the filter or the search hides it: as a page whose
        status leaves the filter while on show stays listed (`set_pages`), a page opened from elsewhere (W, the
        Review tab, a start on the page last open) stays listed until another is on show. The filter and the
        search stay as the user left them."""
        self._settle()
        if name not in self._rows and name in self._index:
            self._fill(name, keep=name)
        self.select(name)

    def all_names(self) -> list[str]:
        """Every page of the project, whatever the filter and the search show."""
        return [info.name for info in self._pages]

    def names(self) -> list[str]:
        """The pages the list shows, in order."""
        self._settle()
        return [self.list.item(i).data(NAME_ROLE) for i in range(self.list.count())]

    def current_name(self) -> str | None:
        self._settle()
        return self._current()

    def _current(self) -> str | None:
        item = self.list.currentItem()
        return item.data(NAME_ROLE) if item else None

    def select(self, name: str | None) -> None:
        """Highlight `name` without announcing it."""
        self._settle()
        row = self._rows.get(name) if name is not None else None
        self.list.blockSignals(True)
        try:
            self.list.setCurrentRow(self.list.row(row) if row is not None else -1)
        finally:
            self.list.blockSignals(False)
        if self.list.currentItem():
            self.list.scrollToItem(self.list.currentItem())

    def neighbour(self, name: str | None, step: int) -> str | None:
        names = self.names()
        if not names:
            return None
        if name not in names:
            return names[0] if step > 0 else names[-1]
        index = names.index(name) + step
        return names[index] if 0 <= index < len(names) else None

    def page_after(self, name: str) -> str | None:
        """The page to show in place of page `name` once it goes (removed): the next the list shows, else the one
        before it there, the filter and the search as the user left them; else the project's next, or the one
        before it, listed while on show (`list_on_show`). None when `name` is the project's only page."""
        listed = self.neighbour(name, 1) or self.neighbour(name, -1)
        if listed is not None and listed != name:
            return listed
        every = self.all_names()
        at = every.index(name) if name in every else len(every)
        return next(iter([*every[at + 1:], *reversed(every[:at])]), None)

    def _narrow_as_asked(self) -> None:
        """The user changed the filter, or paused in the search: the list as they ask, said to the window."""
        self._fill()
        emit(self.narrowed)

    def _settle(self) -> None:
        """A search typed whose pause (`SEARCH_PAUSE_MS`) has not ended yet is applied now: the list is read, or
        changed, as the search box says."""
        if self._search_pause.isActive():
            self._narrow_as_asked()

    def _fill_keeping(self, current: str | None) -> None:
        """`_fill` for the pages refreshed, not the filter changed: the page on show stays listed if it was.
        Labelling a page under "new" must not take it out of the list under the user's hands; it goes at the
        first refresh after they leave it. A page the user's own filter or search hid stays hidden."""
        current = current or self._current()
        self._fill(current, keep=current if current in self._rows else None)

    def _fill(self, current: str | None = None, keep: str | None = None) -> None:
        """List the pages the filter and the search match, and page `keep` (the page on show) whatever they say."""
        self._search_pause.stop()  # the search as it stands now is the one listed
        current = current or self._current()
        status, search = self.status_filter.currentData() or ALL, self.search.text()
        self.list.blockSignals(True)
        try:
            self.list.clear()
            self._rows, self._kept = {}, None
            for info in self._pages:
                made = self._row(info)
                matched = matches(info, status, search, made.searched)
                if matched or info.name == keep:
                    item = QListWidgetItem()
                    made.show(item)
                    item.setData(NAME_ROLE, info.name)
                    self.list.addItem(item)
                    self._rows[info.name] = item
                    self._kept = self._kept if matched else info.name
        finally:
            self.list.blockSignals(False)
        self.select(current)
        self._say_progress()

    def _open_first_match(self) -> None:
        """Enter in the search box opens the first page it lists (the only one, once the search is precise) and
        hands the keys back to the page, as Esc does."""
        self._settle()
        if not self.list.count():
            return
        if self.list.currentRow() != 0:
            self.list.setCurrentRow(0)  # announced: the window opens it
        self._hand_keys_back()

    def _hand_keys_back(self) -> None:
        self.search.clearFocus()
        emit(self.search_done)

    def filtered(self) -> str:
        """What narrows the list ("" when it shows every page): said where a page key finds no page."""
        parts = [f"status {self.status_filter.currentText()}"] if self.status_filter.currentData() != ALL else []
        if self.search.text().strip():
            parts.append(f"search “{self.search.text().strip()}”")
        return " and ".join(parts)

    def _on_current(self, item: QListWidgetItem | None, _previous: QListWidgetItem | None) -> None:
        if item is not None:
            emit(self.page_chosen, item.data(NAME_ROLE))
