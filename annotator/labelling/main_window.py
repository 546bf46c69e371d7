"""The main window: pages on the left, the page with its records drawn in the middle, records and review on the
right, a status bar. It builds the views and wires them to six controllers it owns: `record_actions` (every
edit of the page's records, through the page's undo stack), `reviewing` (review mode and scoring a run), `jobs`
(the background job and proposing), `tools` (the history, shortcut sheet, settings and agent windows), `zoom`
(the page's zoom) and `importing` (pages imported from the window, or dropped on it). Every decision (what a
click does to a record, which siblings match, how records are classed in review) is a core call.

The window also watches its project (`ProjectWatch`): what another window or the command line changes shows
within seconds, and a database moved or deleted under it is said rather than edits being called saved (as is an
edit the database refused, on a full disk: `saved` and `not_saved`). Its own background jobs write through a
connection of their own: while one runs the window does not look, and when it ends the window shows the project
as it now is without calling that a change made elsewhere.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import socket
import sys
import time
import warnings
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QObject, QPoint, QSize, Qt, QTimer, SignalInstance
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QPainter,
    QPixmap,
    QShortcut,
)
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QProgressDialog,
    QSizePolicy,
    QTabWidget,
    QWidget,
)
from shiboken6 import Shiboken

from ...core import owner_files
from ...core.command_hints import hint_path, hint_words
from ...core.errors import RecordLensError
from ...core.records import PageReview, click_effect, whole_page
from ...core.store import (
    APP_OPEN_MARK,
    PAGE_STATUS_WORDS,
    REJECTED,
    REMOVED,
    Change,
    Label,
    PageInfo,
    Project,
    Provenance,
    forget_stopped_proposes,
    init_project,
    mark_propose,
    open_project,
    project_holding,
    remove_page,
    stopped_imports_said,
    stopped_proposes_said,
    take_upgrades,
    unmark_propose,
)
from ...core.text_forms import unicode_form, visible
from ...core.wording import counted, listed
from ..program import PROG
from ..qt.contrast import warning_style
from ..qt.event_loop import spin
from ..qt.file_dialogs import FileDialog as QFileDialog  # Qt's, never opening a file it lists (see there)
from ..qt.jobs import BackgroundJob, answers_on_their_way
from ..qt.local_time import stored_moment
from ..qt.menu_bar import HOLDS_THE_KEYS, KeysMenuBar
from ..qt.message_bar import MessageBar
from ..qt.proportional_split import Share, dragged_widths, follow_dragged_widths, split_in_proportion
from ..qt.screen_fit import (
    available_area,
    first_placement,
    holds,
    kept_within,
    saved_maximised,
    saved_normal_size,
)
from ..qt.widgets import column, side_by_side
from ..settings import KeyStore, ReviewWalk, Settings, default_key_store, settings_path
from .commands import EditGroup, NotSaved
from .job_controller import JobController
from .messages_dialog import MessageLog
from .page_import import PageImport, dropped_paths
from .page_list import PageList
from .page_view import PageView
from .propose import ProposeWorker, answer_limit_s
from .record_actions import IN_SHADOW, SHADOW_SAYS, RecordActions, click_new_record, click_on_record
from .record_panel import STATUS_MARKS, RecordPanel, RecordTexts, rows_for
from .review_controller import ReviewController
from .review_panel import ReviewPanel
from .shortcuts import (
    IN_THE_PAGE,
    MENU_TITLES,
    OF_THE_PAGE_ON_SHOW,
    SHORTCUTS,
    WAIT_FOR_THE_PAGE_AHEAD,
    key_sequences,
    menu_texts,
    tip,
)
from .tool_windows import ToolWindows
from .window_parts import RecordsAt
from .zoom import ZoomControl

_BUTTONS = (("accept", "Accept"), ("reject", "Reject"), ("new_record", "New"), ("siblings", "Siblings"),
            ("merge", "Merge"), ("split", "Split"), ("delete", "Delete"), ("propose", "Propose"))

# The statuses a record's badge on the page is marked by, as its row in the list marks them: still to be decided
# ("?", its box dashed too) and turned down ("✗"). A record accepted or edited shows its number alone.
_MARKED_ON_THE_PAGE = ("proposed", REJECTED)


def badge_text(number: int, status: str) -> str:
    """What a record's badge on the page says: its number, and the list's mark for a status still to be decided
    or turned down ("4 ?", "4 ✗")."""
    return f"{number} {STATUS_MARKS[status]}" if status in _MARKED_ON_THE_PAGE else str(number)


class PageNotShown(RecordLensError):
    """A page whose snapshot cannot be read (gone, not a file, not a page): the page on show stays."""


class Breadcrumb(QLabel):
    """The hovered element's XPath, text and records on one line above the page.

    What the hover shows must never change the layout: the label asks for no width of its own (a long text
    would otherwise widen the window past the screen, or take width from the page list and re-wrap it), keeps
    one line's height, and elides what does not fit, with the whole text in its tooltip."""

    def __init__(self) -> None:
        super().__init__(" ")
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(0)
        self.setFixedHeight(self.fontMetrics().height() + 6)
        self._full = " "

    def setText(self, text: str) -> None:  # noqa: N802 (Qt override)
        self._full = " ".join((text or " ").splitlines()).replace("\t", " ") or " "  # one line
        self.setToolTip(self._full if self._full.strip() else "")
        self._elide()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, event) -> None:  # noqa: N802, ANN001 (Qt override)
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = max(0, self.contentsRect().width() - 4)
        super().setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, width))


class SideTabs(QTabWidget):
    """The right panel's tabs (Records, Review). A tab hidden while a widget of it holds the keys lets them go
    first: hidden with them, Qt hands them on along the window's Tab chain, to Chromium's page among others, which
    takes keys come by Tab as a Tab into it, focusing its first link and scrolling the page to it, away from the
    place labelling or review had it at. One home for every switch (a click on a tab, F6, /, a start in Review):
    the tab shown then takes the keys as Qt gives them (to the control of it that had them last), or as whoever
    showed it gives them (F6: the review's list, or the record list)."""

    def tabInserted(self, index: int) -> None:  # noqa: N802 (Qt override)
        super().tabInserted(index)
        self.widget(index).installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        # Hidden as another tab is shown (not the window minimised, nor hidden with a parent): before Qt moves on
        # the keys it holds
        if event.type() == QEvent.Type.Hide and not event.spontaneous() and isinstance(watched, QWidget) \
                and watched.isHidden():
            focus = QApplication.focusWidget()
            if focus is not None and watched.isAncestorOf(focus):
                focus.clearFocus()
        return super().eventFilter(watched, event)


# px of page a window keeps when it is made small. With the side panels' least widths (the page list's ~104, the
# right panel's buttons ~350) the window's least width is ~762 px: at 200 % a 1600-px screen has 800 (400 here
# made it 862, and a maximised window spilled its right panel and its saved mark off the screen).
PAGE_MIN_WIDTH = 300
DEFAULT_SIZE = QSize(1530, 920)  # the first window's, on a screen that holds it (else maximised)
# The page list's and the right panel's widths as a share of the window's (the page takes the rest) until the
# person drags a divider: not a third of a small window, nor a sliver of a wide one.
SIDE_PANELS = (Share(0.16, least=180, most=360), None, Share(0.25, least=350, most=520))
# How often a window looks whether its project changed elsewhere, or its database went; 0: never (the app tests,
# which call `check_project` where the timer would)
WATCH_MS = 1500
# How long after the last scroll or change of selection the window keeps where the user is on the page (as a quit
# does): a crash or `kill -9` loses at most this much of it, and a wheel's run of scroll events makes one write.
PLACE_KEPT_MS = 1000
# How long quitting waits for answers a cancelled Propose already asked for: a Gemini call's default timeout (a
# cancelled session tries no call again); the dialog's Quit now ends the wait any time.
ANSWERS_WAIT_S = answer_limit_s({})
# Pages added elsewhere that a look finds within this many seconds of the last look that found some are counted on:
# said with the total since the first (an import of 40 pages spans several looks). The project keeps no mark of
# which import added a page, so two imports within the gap are counted together, and the total says it may be so.
ARRIVALS_GAP_S = 30.0


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file is at `path` (device, inode): another one after a move or a delete and a copy put back."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _identity_words(path: Path) -> str | None:
    """`_identity` as the settings keep it ("DEVICE:INODE")."""
    found = _identity(path)
    return None if found is None else f"{found[0]}:{found[1]}"


def _as_read(name: str) -> str:
    """A name as the page list shows it, for the title: a name saved decomposed (macOS's `Zoe` and a combining
    diaeresis) reads `Zoë`, as it does in the list, not `Zoe\\u0308` (`visible` escapes marks in a text not in
    NFC, so that a terminal shows how two names differ; the title names one). What a reader cannot see is still
    escaped: a control or zero-width character, bytes of a folder's name that are not UTF-8 (which Qt would drop)."""
    return visible(unicode_form(name))


def _pages_words(names: Sequence[str], what: str, aside: str = "") -> str:
    """"page 7 removed", or "3 pages removed (7, 8, 9)": the pages a look found changed elsewhere, the first few
    by name, as the page list shows them (`_as_read`); an `aside` goes in the brackets ("page 7 added (3 in all
    since 12:01:03)", "3 pages added (7, 8, 9; …)")."""
    if len(names) == 1:
        return f"page {_as_read(names[0])} {what}" + (f" ({aside})" if aside else "")
    return f"{counted(len(names), 'page')} {what} ({listed([_as_read(name) for name in names])}" + (
        f"; {aside})" if aside else ")")


def _first_imported(pages: Sequence[PageInfo], names: Sequence[str]) -> str:
    """When the first of pages `names` was imported, in local time ("12:01:02"): a look finds pages imported
    before it, so its own time would leave them out of a count "since" it. Now when no time is stored."""
    named = set(names)
    moments = [m for info in pages if info.name in named and (m := stored_moment(info.imported_at)) is not None]
    return min(moments).astimezone().strftime("%H:%M:%S") if moments else time.strftime("%H:%M:%S")


def _holds_nothing(folder: Path) -> bool:
    """Whether `folder` is not there or holds nothing a user put in it (hidden entries aside, as `project init`
    counts what a folder held): where the app offers to make a project."""
    try:
        return not folder.exists() or (folder.is_dir() and not any(not e.name.startswith(".") for e in
                                                                     folder.iterdir()))
    except OSError:
        return False


def _fingerprint(project: Project) -> str | None:
    """What tells this project from another and survives a move: its first page's snapshot (sha256) and when it
    was imported (another project of the same pages was imported at another moment); None when it has no pages."""
    names = project.page_names()  # the first by name, its counts alone made (not every page's)
    first = project.page(names[0]) if names else None
    return f"{first.snapshot}@{first.imported_at}" if first else None


class ProjectWatch:
    """What a window knows of its project beyond its own connection: whether another RecordLens window has it
    open too (an operating-system lock, freed however that window ends: `owner_files`), whether another
    connection committed since the last look (SQLite's data_version, a cheap read: the command line, another
    window, and this window's own background jobs, which write through their own connection; the window does not
    look while one runs and looks again, quietly, when it ends), and whether the database file at the project's
    path is still the one this window writes to (a folder moved, deleted or replaced while open: the writes would
    go to a file nobody sees)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        # The main database, as SQLite opened it; read as bytes, since a folder's name need not be UTF-8.
        path = project.one("SELECT CAST(file AS BLOB) FROM pragma_database_list WHERE name = 'main'")[0]
        self.file = Path(os.fsdecode(path))
        self._identity = _identity(self.file)
        self._version = self._data_version()
        self.lock: owner_files.Lock | None = None

    def claim(self) -> str:
        """Take the project's open mark: "" when no other window holds it, else a notice saying one does."""
        try:
            self.lock = owner_files.take(self.project.root / APP_OPEN_MARK, attempts=1)
        except owner_files.Held as held:
            host, pid = held.owner or ("", 0)
            who = f" (process {pid}{'' if host == socket.gethostname() else f' on {host}'})" if pid else ""
            return (f"{_as_read(self.project.root.name)} is open in another RecordLens window too{who}: each window "
                    "shows the other's changes within seconds, and undo takes back only a change nobody changed since")
        except OSError:
            pass  # a folder this user may not write to: no mark, and nothing to say
        return ""

    def release(self) -> None:
        if self.lock is not None:
            with contextlib.suppress(OSError):
                owner_files.release(self.lock)
            self.lock = None

    def database_gone(self) -> bool:
        return self._identity is not None and _identity(self.file) != self._identity

    def changed_elsewhere(self) -> bool:
        """Whether another connection committed since the last look (this window's own writes do not count)."""
        version = self._data_version()
        changed, self._version = version != self._version, version
        return changed

    def _data_version(self) -> int:
        return int(self.project.one("PRAGMA data_version")[0])


def answers_on_their_way_said(waiting: int) -> str:
    """What the quit's dialog says of the answers a cancelled Propose still waits for: "1 answer ... when it comes",
    "2 answers ... when they come"."""
    one = waiting == 1
    return (f"{counted(waiting, 'answer')} already asked of the model (and paid for) on the way: kept in the "
            f"project's run when {'it comes' if one else 'they come'}. Quit now loses {'it' if one else 'them'}.")


class MainWindow(QMainWindow):
    def __init__(self, project: Project, *, settings: Settings | None = None, settings_file: Path | None = None,
                 key_store: KeyStore | None = None, saves_settings: bool = True, stands_in_for: str | None = None
                 ) -> None:
        """`saves_settings` False (a screenshot) leaves the user's settings as they were; `stands_in_for` names
        the project last open when `project` (the demo) opened in its place: it stays the one last open."""
        super().__init__()
        self.setStatusBar(MessageBar())  # a long message ends in "…" before the zoom and counts
        self.project = project
        self.settings_file = settings_file or settings_path()
        self.settings = settings or Settings.load(self.settings_file)
        self.keys = key_store or default_key_store()
        self.page_name: str | None = None
        self.labels: list[Label] = []
        self._page_texts = RecordTexts(None)
        self._selection_restored = False  # the selection at the last quit is restored once, on the first page
        self.page_loaded = False
        self.closed = False
        self.messages = MessageLog()
        self._positions: dict[str, int] = {}  # page -> where the user was on it (scroll position), this session
        self._hovered = ""  # the element under the pointer, whose line is said again when the records change
        self.saves_settings = saves_settings  # False for a screenshot: what the user left stays theirs
        self._stands_in_for = stands_in_for
        self._shown_state: tuple[tuple[Label, ...], str] | None = None  # the page on show's records and status
        self.watch = ProjectWatch(project)
        # What the last look at the project found (`_take_stock`): its pages, and its newest history entry. The next
        # look says what differs. Not the page list, which the window's own edits bring up to date in between: pages
        # imported elsewhere would be in it before any look said them.
        self._pages_seen: list[str] = []
        self._changes_seen = 0
        # The newest history entry when the page list last read every page: an edit's rows are those of the pages
        # with entries since (`_refresh_edited_pages`).
        self._changes_listed = 0
        # Page -> the newest of its history entries the window has known (shown, or written itself), kept once the
        # page is gone: a page put back with that history is told from one imported under its name (`_restored`).
        # The window's own edits make entries that no look records.
        self._known_ends: dict[str, int] = {}
        # Pages added elsewhere that looks keep finding: when the last look found some (time.monotonic), when the
        # first of them was imported (local time, as said) and how many in all (`_added_words`).
        self._arrivals: tuple[float, str, int] | None = None
        self._follow_a_move()
        self._database_said = False  # the database gone has been said (once; the status bar keeps saying it)
        self._refused: str | None = None  # why the last edit, undo or redo was not saved (a full disk)
        # The last message that tells a selection, and the records selected then (`_unsay_a_gone_selection`).
        self._said_of: tuple[str, tuple[int, ...]] | None = None
        self._said_of_page: tuple[str, str] | None = None  # the last message that tells of a page on show, and it
        self._terminating = False  # closing on SIGTERM (`close_on_terminate`): no question asked
        self._maximised_to_fit = False  # maximised at start because the screen cannot hold it (`restore_geometry`)
        self._kept_walk: ReviewWalk | None = None  # W's walk the last session left, until a W takes it up
        # The page the page keys are on their way to, until it has loaded (`_step_page`); None: none. The keys that
        # act on the page on show wait for it meanwhile, with what each runs (`_held`), in the order pressed.
        self._ahead: str | None = None
        self._held: list[tuple[str, Callable[[], None]]] = []
        # How the load of a page the keys passed over ended, while the page ahead was still to be opened (None: it
        # has not): the page on show's outcome if the page ahead then cannot be.
        self._passed_over_load: bool | None = None
        # Opens the page ahead on the next turn of the event loop: every page key handled before that turn (the
        # repeats of a held key, queued while the window was busy opening a page) only moves it.
        self._to_the_page_ahead = QTimer(self)
        self._to_the_page_ahead.setSingleShot(True)
        self._to_the_page_ahead.setInterval(0)
        self._to_the_page_ahead.timeout.connect(self._open_the_page_ahead)
        # Keeps where the user is on the page once it has stayed put (`_place_moved`): made before anything that
        # scrolls or selects
        self._place_timer = QTimer(self)
        self._place_timer.setSingleShot(True)
        self._place_timer.setInterval(PLACE_KEPT_MS)
        self._place_timer.timeout.connect(self._keep_the_place)

        self.page_list = PageList()
        self.page_view = PageView()
        self.breadcrumb = Breadcrumb()
        self.record_panel = RecordPanel()
        self.review_panel = ReviewPanel()
        self.tabs = SideTabs()
        self.tabs.addTab(self.record_panel, "Records")
        self.tabs.addTab(self.review_panel, "Review")
        self.undo_group = EditGroup(self, refused=self.not_saved)
        self.record_actions = RecordActions(self)
        self.reviewing = ReviewController(self)
        self.jobs = JobController(self)
        self.tools = ToolWindows(self)
        self.zoom = ZoomControl(self)
        self.importing = PageImport(self)
        self._build_layout()
        self.setAcceptDrops(True)  # pages dropped on the window are imported (the page view passes drops on)
        self.actions_by_name: dict[str, QAction] = {}
        self._build_actions()
        self._build_status_bar()
        self._connect()
        self._take_up_the_list_and_the_walk()
        self._take_stock()
        self.review_panel.set_runs(self.project.runs.all(), annotators=self.project.annotators.names())
        self._update_title()
        self._open_first_page()
        self._watch_timer = QTimer(self)
        self._watch_timer.setInterval(WATCH_MS)
        self._watch_timer.timeout.connect(self.check_project)
        if WATCH_MS > 0:
            self._watch_timer.start()
        self._say_if_open_elsewhere()
        self._order_the_tab_chain()
        # The keys start in the page list (not in the filter above it, where Down changed the filter unseen), and
        # come back there, or to the record list, whenever the window gets them back with nowhere to go.
        self.page_list.list.setFocus()

    # -- building ----------------------------------------------------------------------------------------------

    def _build_layout(self) -> None:
        centre = column(self.breadcrumb, (self.page_view, 1))
        # A small window takes its width from the side panels too, not from the page alone (800 px wide left the
        # page 160 px: the splitter shrinks a pane only once the stretching one is at its minimum).
        centre.setMinimumWidth(PAGE_MIN_WIDTH)
        self.panels = split_in_proportion(side_by_side(self.page_list, centre, self.tabs, sizes=(250, 900, 380),
                                                       stretch=1), SIDE_PANELS)
        self.setCentralWidget(self.panels)
        # The widths the person dragged the panels to before: theirs again (their share, in a window of another
        # size). None kept, or one that is not these panels' (damaged, another version's): the shares, as at first.
        kept = self.settings.dragged_panel_widths()
        if kept is not None:
            follow_dragged_widths(self.panels, kept)
        # The size it would like; `restore_geometry` (at start) makes it one that fits the screen.
        self.resize(DEFAULT_SIZE)

    def _build_actions(self) -> None:
        menus: dict[str, object] = {}
        texts = menu_texts()
        menu_bar = KeysMenuBar()
        self.setMenuBar(menu_bar)
        menu_bar.holds_the_keys.connect(self._say_the_menu_bar_holds_the_keys)
        for shortcut in SHORTCUTS:
            action = QAction(texts[shortcut.name], self)
            action.setShortcuts(key_sequences(shortcut))
            action.setToolTip(tip(shortcut))  # every key: a menu shows only the first (Del, not Backspace)
            action.triggered.connect(self._handler(shortcut.name))
            if shortcut.name in IN_THE_PAGE:  # heard while the page has the keys (its view, or a child of it)
                action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                self.page_view.addAction(action)
            else:
                action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
                self.addAction(action)  # shortcuts work with the menu bar hidden too
            if shortcut.group not in menus:
                menus[shortcut.group] = menu = self.menuBar().addMenu(MENU_TITLES[shortcut.group])
                menu.setToolTipsVisible(True)  # an item's tip names all its keys
            menus[shortcut.group].addAction(action)  # type: ignore[attr-defined]
            self.actions_by_name[shortcut.name] = action
        for position, (name, short) in enumerate(_BUTTONS):
            action = self.actions_by_name[name]
            action.setIconText(short)
            self.record_panel.add_button(action, position // 4, position % 4)
        # The agent-benchmark tools live in their own window, built only when first asked for.
        agent = self.menuBar().addMenu(MENU_TITLES["Agent"])
        agent.addAction("&Agent benchmarks…").triggered.connect(self.tools.open_agent_tools)
        self._grey_when_nothing_to(self.undo_group.canUndoChanged, "undo")
        self._grey_when_nothing_to(self.undo_group.canRedoChanged, "redo")
        self.actions_by_name["cancel_job"].setEnabled(False)

    def _handler(self, name: str) -> Callable[[], None]:
        """What a shortcut's action does: `do_NAME` of the window or of the controller it belongs to; one that acts
        on the page on show says, with no page open, how to get one (it did nothing, and said nothing)."""
        for owner in (self, self.record_actions, self.reviewing, self.jobs, self.tools, self.zoom,
                      self.importing):
            handler = getattr(owner, f"do_{name}", None)
            if handler is not None:
                handler = self._on_a_page(handler) if name in OF_THE_PAGE_ON_SHOW else handler
                return self._when_the_page_is_there(name, handler) if name in WAIT_FOR_THE_PAGE_AHEAD else handler
        raise LookupError(f"nothing does shortcut {name!r}")

    def _on_a_page(self, handler: Callable[[], None]) -> Callable[[], None]:
        def with_a_page() -> None:
            if self.page_name is None:
                self.message(self.no_page_words())
            else:
                handler()

        return with_a_page

    def _when_the_page_is_there(self, name: str, handler: Callable[[], None]) -> Callable[[], None]:
        """A key that acts on the page on show, pressed while the page keys are on their way to another page (or
        behind keys that wait for it): it waits too, and is carried out once that page has loaded
        (`_carry_out_the_held_keys`), never on a page the keys passed over, which may still be the one drawn."""
        def once_there() -> None:
            if self._ahead is not None or self._held:
                self._held.append((self.keys_for(name), handler))
            else:
                handler()

        return once_there

    def no_page_words(self) -> str:
        """What a key that needs a page says while none is open: a project with no pages says how to import some."""
        if self.project.pages():
            return f"no page open: open one from the page list first ({self.keys_for('go_to_pages')}, then Enter)"
        return (f"no page open: this project has no pages yet; import saved pages first "
                f"({self.keys_for('import_pages')}, or a folder with {self.keys_for('import_folder')})")

    def _grey_when_nothing_to(self, can_changed: SignalInstance, name: str) -> None:
        """Undo or redo greyed out while there is nothing to take back, and its keys then answering why rather
        than doing nothing (a disabled action's shortcut is not heard)."""
        action = self.actions_by_name[name]

        def answer() -> None:
            # Pressed on the way to another page, it waited for it (`_when_the_page_is_there`): that page's stack
            # may hold something to take back, where the page the keys left had nothing
            if action.isEnabled():
                getattr(self.record_actions, f"do_{name}")()
            else:
                self.record_actions.say_nothing_to(name)

        answers = [QShortcut(keys, self, self._when_the_page_is_there(name, answer)) for keys in action.shortcuts()]

        def enable(can: bool) -> None:
            action.setEnabled(can)
            for shortcut in answers:
                shortcut.setEnabled(not can)

        can_changed.connect(enable)
        enable(False)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.blocked_label = QLabel()
        self.counts_label = QLabel()
        self.saved_label = QLabel("saved")
        for widget in (self.jobs.progress_bar, self.jobs.cancel_button, self.zoom.label, self.blocked_label,
                       self.counts_label, self.saved_label):
            bar.addPermanentWidget(widget)
        self.jobs.progress_bar.setAccessibleName("job progress")
        self._on_blocked(0)

    def _connect(self) -> None:
        self.page_list.page_chosen.connect(self.open_page)
        self.page_list.search_done.connect(lambda: self.page_view.view.setFocus())
        self.page_list.narrowed.connect(self._remember_the_list)
        self.record_panel.find_done.connect(lambda: self.page_view.view.setFocus())
        self.page_view.element_clicked.connect(self._on_element_clicked)
        self.page_view.hovered.connect(self._on_hovered)
        self.page_view.blocked_count_changed.connect(self._on_blocked)
        self.page_view.loaded.connect(self._on_loaded)
        self.page_view.scrolled.connect(self._place_moved)
        self.record_panel.selection_changed.connect(self._on_record_selection)
        # A click on the row of the record already selected changes no selection, but chooses it all the same
        self.record_panel.list.itemClicked.connect(self._on_record_clicked)
        self.record_panel.announced.connect(lambda words: self.message(words, of_selection=True))
        self.tabs.currentChanged.connect(lambda _: self.reviewing.on_tab())
        self.review_panel.run_chosen.connect(self.reviewing.on_run_chosen)
        self.review_panel.runs_opening.connect(self.reviewing.list_runs_again)
        self.review_panel.page_chosen.connect(self.jump_to_page)
        self.review_panel.record_chosen.connect(self.reviewing.on_review_record)
        self.review_panel.score_requested.connect(self.reviewing.score_run)
        self.review_panel.kinds_changed.connect(self.reviewing.draw_shown)

    # -- what callers use, and small helpers -------------------------------------------------------------------

    @property
    def person(self) -> Provenance:
        return Provenance.person(self.settings.person)

    @property
    def job(self) -> BackgroundJob | None:
        """The background job running, if any."""
        return self.jobs.job

    @property
    def job_progress(self) -> QProgressBar:
        return self.jobs.progress_bar

    @property
    def review(self) -> PageReview | None:
        """The page on show classed against the run under review (review mode only)."""
        return self.reviewing.review

    def propose(self, pages: Sequence[str], method: str | None = None) -> ProposeWorker | None:
        return self.jobs.propose(pages, method)

    def do_cancel_job(self) -> None:
        self.jobs.do_cancel_job()

    def start_review(self, run_id: object) -> None:
        """Review a run (its id) or another annotator's labels ("annotator:NAME") against the project's."""
        self.reviewing.start_review(run_id)

    def edit(self, text: str, change: Callable[[], Change]) -> Change | None:
        """One store change through the page's undo stack (see RecordActions.edit)."""
        return self.record_actions.edit(text, change)

    def edit_each(self, text: str, ids: Sequence[int], change: Callable[[int], Change]) -> int | None:
        """One change per item of `ids`, as one undo step (see RecordActions.edit_each)."""
        return self.record_actions.edit_each(text, ids, change)

    def message(self, text: str, ms: int = 6000, *, of_selection: bool = False, of_page: str | None = None) -> None:
        """One line in the status bar for `ms`, kept in full in the message log (the bar cuts a long one).
        `of_selection`: it tells which records are selected now ("record 3 selected: …"), true only while that
        selection holds (`_unsay_a_gone_selection`); `of_page`: it tells of that page as on show ("W: page 7, …
        open here"), true only while it is (`_unsay_a_gone_page`)."""
        self.messages.add(text)
        self.tools.refresh_messages()
        self.statusBar().showMessage(text, ms)
        self.statusBar().setToolTip(f"{text}\n\n(Recent messages: {self.messages_keys()})")
        self._said_of = (text, tuple(self.record_panel.selected_ids())) if of_selection else None
        self._said_of_page = (text, of_page) if of_page is not None else None

    def _unsay_a_gone_selection(self) -> None:
        """The message on show goes when it tells a selection that is no longer the one (Esc, a click on the
        list's empty part, another page, the record deleted): read after it, "record 3 selected" is a lie. Any
        other message stays, and so does one whose selection still holds (the list redrawn after a change)."""
        if self._said_of is None or tuple(self.record_panel.selected_ids()) == self._said_of[1]:
            return
        text, self._said_of = self._said_of[0], None
        self._unsay(text)

    def _unsay_a_gone_page(self, name: str) -> None:
        """The message on show goes when it tells of a page on show and page `name` opens in its place (the arrow
        keys in the page list, PgDn): "W: page 7, the first is chosen" read on page 8 is a lie."""
        if self._said_of_page is None or self._said_of_page[1] == name:
            return
        text, self._said_of_page = self._said_of_page[0], None
        self._unsay(text)

    def _unsay(self, text: str) -> None:
        """The status bar's message `text` gone, unless replaced meanwhile or gone with its time."""
        if self.statusBar().currentMessage() == text:
            self.statusBar().clearMessage()
            self.statusBar().setToolTip(f"(Recent messages: {self.messages_keys()})")  # its tip told it in full

    def messages_keys(self) -> str:
        return self.keys_for("messages") or "Application menu"

    def keys_for(self, name: str) -> str:
        """The keys of an action, as a message names them ("" when it has none)."""
        action = self.actions_by_name.get(name)
        return action.shortcut().toString() if action is not None else ""

    def label(self, record_id: int) -> Label | None:
        return next((label for label in self.labels if label.id == record_id), None)

    def current_label(self) -> Label | None:
        return self.label(self.record_panel.current_id() or -1)

    def shows_project(self, root: Path) -> bool:
        """Whether the window still shows the project at `root`: a job's end that comes after it closed its project
        (a quit) or opened another is no news for it."""
        return not self.closed and self.project.root == root

    @property
    def shown_status(self) -> str | None:
        """The status of the page on show as the window last read it (what its counts line says; None with no
        page): a mark (L, V) is meant on it, and refused where the project's is no longer that one."""
        return self._shown_state[1] if self._shown_state is not None else None

    def _update_title(self) -> None:
        page = f" — page {_as_read(self.page_name)}" if self.page_name else ""
        lost = " — NOT SAVED: the project's database is gone" if self._database_said else ""
        self.setWindowTitle(f"RecordLens — {_as_read(self.project.root.name)}{page}{lost}")

    # -- the project changed elsewhere -------------------------------------------------------------------------

    def _say_if_open_elsewhere(self) -> None:
        notice = self.watch.claim()
        if notice and self.saves_settings:  # a screenshot: a notice shown for good would be in the picture
            self.message(notice, 0)

    def check_project(self) -> None:
        """What the window looks at every WATCH_MS: a database no longer at the project's path is said, and what
        another window or the command line changed is shown."""
        if self.closed:
            return
        if self.watch.lock is None:
            self.watch.claim()  # the window that held the mark closed: this one holds it now, quietly
        if self.database_gone():
            return
        if self.jobs.job is not None:  # this window's job writes through its own connection: looked at as it ends
            return
        if self.watch.changed_elsewhere():
            self.show_changes_made_elsewhere()

    def after_own_job(self, *_: object) -> None:  # done(cancelled, failure)
        """This window's job has ended (after what the job itself does then): what it wrote is this window's
        doing, said by the job's own message, so the project is shown as it now is without calling it a change
        made elsewhere, and the next look starts from here."""
        if not self.closed and not self.database_gone() and self.watch.changed_elsewhere():
            self.show_changes_made_elsewhere(say=False)

    def show_changes_made_elsewhere(self, say: bool = True) -> None:
        """The page list as the project now is, and the page on show if its records or status changed; a page
        removed elsewhere gives way to the next one. What is only this window's (the selection of records still
        there, a record being started, the list's filter and search) stays. `say` False: the changes are this
        window's own job's, which says what it did itself."""
        before, changes_known = self._pages_seen, self._changes_seen
        gone = self.page_name if self.page_name is not None and not self.project.has_page(self.page_name) else None
        pages = self._take_stock(show=gone is None)  # a page gone: the next one is that of the list as it was
        names = [info.name for info in pages]
        known, now_held = set(before), set(names)
        added = [n for n in names if n not in known]
        restored = self._restored(added, changes_known)
        said = [_pages_words(changed, verb) for changed, verb in (
            ([n for n in before if n not in now_held and n != gone], "removed"), (restored, "restored")) if changed]
        arrived = [n for n in added if n not in set(restored)]
        if arrived and say:  # not this window's own import, nor counted with what arrives from elsewhere
            said.append(self._added_words(arrived, pages))
        if gone is not None:  # the status bar tells first why another page is on show, then the rest
            self._page_gone_elsewhere(said if say else ())
            return
        if self.page_name is None and names:
            self._open_first_page()
        elif self.page_name is not None and self._page_state() != self._shown_state:
            self.reload_labels()
            self.tools.refresh_history()
            said.append(f"page {self.page_name} changed")
        self.reviewing.follow_changes_elsewhere(say)  # an annotator's labels imported again are read again
        if said and say:
            self.message(f"{', '.join(said)} elsewhere (another window, or the command line): shown as the project "
                         "now is", 10000)

    def _added_words(self, added: Sequence[str], pages: Sequence[PageInfo]) -> str:
        """"3 pages added (…)", and while pages keep arriving from elsewhere (found again within ARRIVALS_GAP_S),
        how many since the first of them was imported: "4 pages added (…; 7 in all since 12:01:02, by one import or
        more)". Each page is named by the look that found it, once; the status bar, which shows the last, does not
        read as if only they came. Nothing tells one import's pages from another's (`ARRIVALS_GAP_S`): the total
        is of every page added meanwhile, and says so."""
        now = time.monotonic()
        if self._arrivals is not None and now - self._arrivals[0] <= ARRIVALS_GAP_S:
            since, total = self._arrivals[1], self._arrivals[2] + len(added)
        else:
            since, total = _first_imported(pages, added), len(added)
        self._arrivals = (now, since, total)
        return _pages_words(added, "added", "" if total == len(added)
                            else f"{total} in all since {since}, by one import or more")

    def _restored(self, added: Sequence[str], changes_known: int) -> list[str]:
        """The pages among `added` (not in the list at the last look) that `recordlens project restore-page` put
        back: they come back with their labels' history, whose entries keep their ids. Its oldest entry is one the
        window had known: no newer than the newest at the last look (`changes_known`), or than the newest of the
        page's own it knew (`_known_ends`: the window's own edits and removal make entries no look sees). A page
        imported since has only newer ones (ids are never reused), and the oldest stays old after an edit made
        to the page put back. A page without labels comes back without history, and cannot be told from one
        imported, nor can a page removed before the window opened whose entries were the project's newest: those
        are called added."""
        restored = []
        for name in added:
            first = self.project.first_change_id(name)
            if first is not None and first <= max(changes_known, self._known_ends.get(name, 0)):
                restored.append(name)
        return restored

    def _know_the_changes_of(self, name: str) -> None:
        """Remember the newest history entry of page `name` as the window has it now (`_restored`)."""
        last = self.project.last_change_id(name)
        if last is not None:
            self._known_ends[name] = max(last, self._known_ends.get(name, 0))

    def _page_state(self) -> tuple[tuple[Label, ...], str]:
        assert self.page_name is not None
        return tuple(self.project.labels(self.page_name)), self.project.page(self.page_name).status

    def _page_gone_elsewhere(self, also: Sequence[str] = ()) -> None:
        """The page on show was removed elsewhere (`recordlens project remove-page`, another window): its undo
        steps go with it, and the next page of the list is shown. Said in one message with `also`, the other
        changes the same look found ("2 pages added (3, 4)")."""
        gone = self.page_name
        after = self.page_list.neighbour(gone, 1) or self.page_list.neighbour(gone, -1)
        # Said here: the next look does not say it again. Found gone by `reload_labels`, before a look, the page is
        # still among those the last look saw (a look that found it gone has dropped it already)
        self._forget_page(gone)
        self.record_actions.drop_stacks(gone)
        self.page_name = None
        self.refresh_pages()
        # A filter that now hides every page is no reason to show none: the project's first, listed while on show
        names = self.page_list.names() or self.page_list.all_names()
        after = after if after in names else (names[0] if names else None)
        if after is not None:
            self.open_page(after)
        else:
            self._show_no_page()
        self.message(f"page {gone} was removed from the project elsewhere (another window, or `recordlens project "
                     f"remove-page`; `recordlens project restore-page` puts it back)"
                     + (f": page {after} is shown" if after else "")
                     + (f"; also {', '.join(also)} elsewhere" if also else ""), 15000)

    def _forget_page(self, name: str | None) -> None:
        """A page gone that the window has said or did itself is no news for the next look."""
        self._pages_seen = [seen for seen in self._pages_seen if seen != name]

    def database_gone(self, say: bool = False) -> bool:
        """Whether the database file at the project's path is no longer the one this window writes to. Shown for
        as long as it lasts in the title and where "saved" was; said when it goes, and again with `say` (an
        edit refused, a job's changes stored in the file nobody will see)."""
        gone = self.watch.database_gone()
        went = gone and not self._database_said
        if gone != self._database_said:
            self._database_said = gone
            self._update_title()
            self._show_saved_mark()
        if went or (gone and say):
            self.message(self._database_gone_text(), 0)
        return gone

    def _database_gone_text(self) -> str:
        return (f"{hint_path(self.watch.file)} is no longer the database this window writes to (the project folder was "
                "moved, renamed, deleted or replaced while open): edits are not saved. If the folder was moved, open "
                f"it where it is now ({self.keys_for('open_project')}); if it was deleted, copy the project back from "
                "a backup and open that")

    # -- pages ---------------------------------------------------------------------------------------------------

    def refresh_pages(self) -> None:
        """The page list as the project now is (after the window's own edits too: what it shows newly from
        elsewhere is said at the next look, `show_changes_made_elsewhere`)."""
        self._changes_listed = self.project.last_change_id() or 0  # read first: an entry made meanwhile is read again
        self.page_list.set_pages(self.project.pages(), self.page_name)

    def _refresh_edited_pages(self) -> None:
        """The rows of the pages changed since the list last read every page (the edit's own, and any page another
        window changed meanwhile), in place: an edit costs its pages' rows, not the project's, which at 2,000 pages
        took 0.3 s a key. A changed page the list does not hold (imported elsewhere since) has the whole list read
        again, as imports, removals and the looks at changes made elsewhere have it; pages added or removed
        elsewhere without a change of labels are listed by the next look."""
        newest = self.project.last_change_id() or 0
        changed = self.project.pages_changed_since(self._changes_listed)
        if self.page_list.update_pages(changed, self.page_name):
            self._changes_listed = newest
        else:
            self.refresh_pages()

    def _take_stock(self, show: bool = True) -> list[PageInfo]:
        """A look at the project: its pages, shown in the list unless `show` is False, and remembered with its
        newest history entry for the next look to compare with."""
        # Read before the pages: a page imported in between is in the list read, never taken for one restored. The
        # highest yet: a page removed takes its entries along, and the newest left may be older than its own.
        newest = self.project.last_change_id() or 0
        self._changes_seen = max(self._changes_seen, newest)
        pages = self.project.pages()
        self._pages_seen = [info.name for info in pages]
        if show:
            self._changes_listed = newest
            self.page_list.set_pages(pages, self.page_name)
        return pages

    def open_page(self, name: str) -> None:
        """Show page `name`; one whose snapshot cannot be read is said, and the page on show stays."""
        try:
            self.show_page(name)
        except PageNotShown as error:
            self.message(str(error), 15000)
            self.page_list.select(self.page_name)

    def show_page(self, name: str) -> None:
        """Show page `name`, or raise a PageNotShown saying why it cannot be (the page on show then stays): for a
        caller that must not go on with another page than the one it named (`--screenshot --page`)."""
        if self.page_name is not None and self.page_loaded:
            self._positions[self.page_name] = self.page_view.scroll_y
        try:
            path = self.project.snapshot_file(name)
            self.page_view.open(path)
        except (RecordLensError, OSError) as error:
            # the store's error may name the page already (`Project.snapshot_file`): said once
            raise PageNotShown(f"page {name} cannot be shown: {str(error).removeprefix(f'page {name}: ')}"
                               ) from error
        self._passed_over_load = None
        if self._ahead is not None and name != self._ahead:  # opened from elsewhere (W, the list, a page removed)
            self._give_up_the_page_ahead(f"page {name} opened before page {self._ahead} was reached")
        self._unsay_a_gone_page(name)
        self.page_name = name
        self.page_loaded = False
        self.record_panel.forget_finder()  # what was looked for on the last page, not on this one
        self.record_actions.arm_new = False
        self.undo_group.setActiveStack(self.record_actions.stack(name))
        self.page_list.list_on_show(name)  # opened from elsewhere (W, a start): listed, the filter left as it is
        self.breadcrumb.setText(" ")
        self._hovered = ""  # an element of the last page: nothing of this one is under the pointer yet
        self._update_title()
        self.reload_labels([])
        self.tools.refresh_history()
        self.record_actions.offered_next = False
        self._remember_page(name)

    def _remember_page(self, name: str) -> None:
        self.settings.remember_page(self.project_key(), name)
        if self._stands_in_for is not None:  # the demo in place of a project that is gone: that one stays last
            self.settings.last_project = self._stands_in_for
        self._remember_the_list_and_the_walk()  # W's page among them: where its walk stands goes with it
        self.save_where_the_user_was()

    def _remember_the_list_and_the_walk(self) -> None:
        """What narrows the page list (its status filter and search) and where W's walk stands, for the next start,
        as the page on show is: a start comes back to the list as it was left, and W goes on where it was."""
        key = self.project_key()
        self.settings.remember_page_filter(key, *self.page_list.narrowing())
        self.settings.remember_review_walk(key, self.reviewing.walk() or self._kept_walk)

    def _remember_the_list(self) -> None:
        """The user narrowed the page list: kept at once, as a page opened is."""
        self._remember_the_list_and_the_walk()
        self.save_where_the_user_was()

    def _take_up_the_list_and_the_walk(self) -> None:
        """The page list narrowed as the project's last session left it, and the walk W was on kept for the first
        W on its run (`do_worst_page`). Not for a screenshot, which shows every page (and the rows it is asked
        for), nor keeps anything of its own."""
        key, kept = self.project_key(), self.saves_settings
        self.page_list.narrow(*(self.settings.page_filter(key) if kept else (None, "")))
        self._kept_walk = self.settings.review_walk(key) if kept else None

    def do_worst_page(self) -> None:
        """W (`ReviewController.do_worst_page`). Its first in a session on the run the last session's W walked goes
        on with that walk, from the page after the last one it opened, as a start comes back on the page last
        open: not from the run's worst page again."""
        kept = self._kept_walk
        if kept is not None and kept.run == self.reviewing.run_id and self.reviewing.walk() is None:
            self.reviewing.take_up_walk(kept)
            self._kept_walk = None
        self.reviewing.do_worst_page()

    def jump_to_page(self, name: str) -> None:
        """A page chosen elsewhere (W, the Review tab's worst pages): opened with the page list's filter and search
        as the user left them, the page listed while on show (`show_page`). Clearing them would undo the user's
        choice unasked, and unsaid."""
        self.open_page(name)

    def _on_loaded(self, ok: bool) -> None:
        if self._ahead is not None and self._ahead != self.page_name:
            # A page the keys passed over, whose load ended before the page ahead's began: neither placed nor
            # taken as loaded (its place is not kept, no key acts on it); the page ahead is on its way.
            self._passed_over_load = ok
            return
        self._ahead = None
        self.page_loaded = ok
        if not ok:
            dropped = self._let_go_of_the_held_keys("it")
            self.message(f"page {self.page_name} did not load in the browser" + (f"; {dropped}" if dropped else ""),
                         15000)
            return
        self._place_the_page()
        if self._held:  # after the turn: not inside the browser's own report of the load
            QTimer.singleShot(0, self, self._carry_out_the_held_keys)

    def _place_the_page(self) -> None:
        """The page just loaded where the user was on it: as at the last quit (the first page after a start), the
        run's first error in review, else where the user last was on it this session, or at its first record."""
        if not self._selection_restored and self._restore_the_last_quit():
            return
        if self.reviewing.active():
            self.reviewing.show_first_error()
        else:
            self._show_where_the_records_are()

    def _restore_the_last_quit(self) -> bool:
        """The first page after a start as it was at the last quit: its records selected then, scrolled as it was
        (else to the first of them). In Review too, which a start reopens when it was quit in Review: the page
        shows the run's records, and the selection is there again on going back to labelling. Done once, so that
        from now on the quit saves this session's selection and scroll (`_remember_selection`), and so does each
        change of them once it has stayed a second (`_keep_the_place`): before, either would write over what the
        last quit kept, unseen. Whether the page was placed (else it opens as any page does)."""
        self._selection_restored = True
        ids = {label.id for label in self.labels}
        kept = [i for i in self.settings.last_selection(self.project_key(), self.page_name or "") if i in ids]
        scroll_y = self.settings.last_scroll(self.project_key(), self.page_name or "")
        if kept:
            self.select_records(kept, scroll=False)
        shown = self._first_shown(kept)
        if scroll_y is not None:  # the page as it was left, not re-centred on the selection
            top = self.settings.last_selection_top(self.project_key(), self.page_name or "")
            if shown is not None and top is not None:
                # A record the user saw at the quit: the offset moved by as much as it has moved since, none on a
                # page laid out as it was; on one laid out otherwise (another font size, scale, zoom or width) the
                # record at its place in the view, which the offset alone would leave off the screen.
                self.page_view.scroll_back(scroll_y, shown.xpaths[0], top)
            else:  # nothing selected in view at the quit (scrolled away from), or settings of an earlier RecordLens
                self.page_view.scroll_to_y(scroll_y)
            return True
        if shown is not None:  # the first of them: several selected have no one current record
            self.page_view.scroll_to(shown.xpaths[0])
            return True
        return False

    def _first_shown(self, ids: Collection[int]) -> Label | None:
        """The first of the records `ids` in page order that has elements: the one a page is placed by (several
        selected have no one current record)."""
        return next((label for label in self.labels if label.id in ids and label.xpaths), None)

    def _show_where_the_records_are(self) -> None:
        """A page opens where the user last was on it this session; else at its first record."""
        if self.page_name in self._positions:
            self.page_view.scroll_to_y(self._positions[self.page_name])
            return
        first = next((label for label in self.labels if label.status != REJECTED and label.xpaths), None)
        if first is not None:
            self.page_view.scroll_to(first.xpaths[0])

    def _on_blocked(self, count: int) -> None:
        self.blocked_label.setText(f"{count} request{'s' if count != 1 else ''} blocked")

    def _on_element_clicked(self, xpath: str) -> None:
        """A click on the page, taken only once the page the page keys went to is there: the page drawn meanwhile is
        one they passed over, or the one they left, and the click would change it."""
        if self._ahead is not None:
            self.message(f"that click was not taken: page {self._ahead} is on its way (the page drawn is not it yet)")
            return
        self.record_actions.on_element_clicked(xpath)

    def _on_hovered(self, xpath: str) -> None:
        if not self.page_loaded:  # the last page's overlay, still there while the next one loads
            return
        self._hovered = xpath
        shadow, xpath = xpath.startswith(IN_SHADOW), xpath.removeprefix(IN_SHADOW)
        page = self.page_view.core_page
        element = page.resolve(xpath) if page and xpath else None
        if element is None:
            self.breadcrumb.setText(xpath or " ")
            return
        text = element.text()
        text = text if len(text) <= 120 else text[:119] + "…"
        found = self.records_at(xpath)
        owner = f"   [record {', '.join(map(str, found.holders))}]" if found.holders else ""
        owner += f"   [inside record {', '.join(map(str, found.around))}]" if found.around else ""
        # Whose element it is before the element's own text, which can be long enough to push it out of sight.
        says = self._click_says(xpath, found, shadow_only=shadow and not text.strip())
        self.breadcrumb.setText(f"{says}{owner}   {element.key}   “{text}”")

    def point_at(self, xpath: str) -> str:
        """The element cursor is on `xpath`: the line above the page follows it as it follows the pointer, and
        what a click there (E) would do is returned."""
        self._on_hovered(xpath)
        return self._click_says(xpath, self.records_at(xpath))

    def records_at(self, xpath: str) -> RecordsAt:
        """The records that hold the element, one of its ancestors (a click there nests a record in those, which
        `labels check` flags) or one of its descendants. One pass over the records: it runs on every hover and
        after every change."""
        page = self.page_view.core_page
        element = page.resolve(xpath) if page is not None else None
        found = RecordsAt()
        if element is None:
            return found
        holder_of: dict[int, int] = {}  # id() of an element a record holds -> the first such record's number
        for k, label in enumerate(self.labels):
            if label.status == REJECTED:
                continue
            held = [e for e in (page.resolve(x) for x in label.xpaths) if e is not None]
            for e in held:
                holder_of.setdefault(id(e), k + 1)
            if any(e is element for e in held):
                found.holders.append(k + 1)
            if any(e.is_ancestor_of(element) for e in held):
                found.around.append(k + 1)
            if any(element.is_ancestor_of(e) for e in held):
                found.within.append(k + 1)
        ancestor = element.parent
        while found.around and ancestor is not None and found.innermost is None:
            found.innermost = holder_of.get(id(ancestor))
            ancestor = ancestor.parent
        return found

    def _refresh_click_line(self) -> None:
        """Say again what a click will do: the records or the selection changed under a pointer that did not."""
        if self._hovered:
            self._on_hovered(self._hovered)

    def _click_says(self, xpath: str, found: RecordsAt, *, shadow_only: bool = False) -> str:
        """What a click on the hovered element (`found`: the records it touches) will do, said before it is
        done. `shadow_only`: the pointer is on what a shadow root shows, its host holding no text of the page's
        own (a click there makes no record)."""
        if self.reviewing.active():
            return "review: a click edits nothing"
        if shadow_only:
            return SHADOW_SAYS
        if whole_page(xpath):
            return "click: nothing (the whole page is no record)"
        current = None if self.record_actions.arm_new else self.current_label()
        if current is None:
            return click_new_record(found, armed=self.record_actions.arm_new, new_key=self.keys_for("new_record"))
        number = self.labels.index(current) + 1
        if click_effect(current.xpaths, xpath) == "remove":
            return f"click: remove from record {number}"
        return click_on_record(number, found)

    # -- records: showing ------------------------------------------------------------------------------------------

    def page_texts(self) -> RecordTexts:
        """The records' texts on the page on show, kept until another page is shown."""
        if self._page_texts.page is not self.page_view.core_page:
            self._page_texts = RecordTexts(self.page_view.core_page)
        return self._page_texts

    def reload_labels(self, selected: Sequence[int] | None = None) -> None:
        """Read the page's labels again and redraw; `selected` None keeps the records still there selected."""
        if self.page_name is None:
            return
        if not self.project.has_page(self.page_name):  # removed elsewhere since the window last looked
            self._page_gone_elsewhere()
            return
        keep = self.record_panel.selected_ids() if selected is None else list(selected)
        self.labels = self.project.labels(self.page_name)
        self._know_the_changes_of(self.page_name)  # the window's own edits among them
        ids = {label.id for label in self.labels}
        self.record_panel.set_rows(rows_for(self.labels, self.page_texts()), [i for i in keep if i in ids])
        self._unsay_a_gone_selection()
        counts: dict[str, int] = {}
        for label in self.labels:
            counts[label.status] = counts.get(label.status, 0) + 1
        status_key = self.project.page(self.page_name).status
        self._shown_state = (tuple(self.labels), status_key)
        status = PAGE_STATUS_WORDS.get(status_key, "")
        self.counts_label.setText(f"page {status} · " + (" · ".join(f"{n} {s}" for s, n in counts.items())
                                                        or "no records"))
        self.redraw()

    def redraw(self) -> None:
        """Draw the records over the page: the page's own, or in review mode the run's against them."""
        if self.reviewing.active():
            self.reviewing.draw()
            return
        self.reviewing.review = None
        selected = set(self.record_panel.selected_ids())
        self.page_view.show_records([
            # The colour follows the record (its id), not its number: a delete renumbers, it does not repaint.
            # The status draws it (a proposed record dashed): what still needs a decision shows on the page. A
            # rejected record is drawn only while selected (chosen in the list, it would show nowhere).
            {"xpaths": list(label.xpaths), "colour_index": label.id, "state": label.status,
             "label": badge_text(k + 1, label.status), "selected": label.id in selected}
            for k, label in enumerate(self.labels) if label.status != REJECTED or label.id in selected])
        self._refresh_click_line()

    def select_records(self, ids: Sequence[int], scroll: bool = True) -> None:
        """Select records as the user would (the panel, the drawing, and scroll to the first)."""
        self.record_panel.select_ids(ids)
        self._on_record_selection(scroll)

    def _on_record_selection(self, scroll: bool = True) -> None:
        self._place_moved()
        self.record_actions.arm_new = False
        self.record_actions.decided_last = None  # a record chosen: A / R change it
        self._unsay_a_gone_selection()
        self.redraw()
        if scroll:
            self.scroll_to_selected()

    def _on_record_clicked(self) -> None:
        self.record_actions.decided_last = None

    def scroll_to_selected(self) -> None:
        label = self.current_label()
        if label and label.xpaths:
            self.page_view.scroll_to(label.xpaths[0])

    def saved(self) -> None:
        """A change is stored: say when (unless the database it went to is no longer the project's), and bring the
        page list (the rows of the pages it changed) and the history up to date. An edit refused before is no
        longer the last one."""
        if not self.database_gone(say=True):
            self._refused = None
            self._show_saved_mark(f"saved {time.strftime('%H:%M:%S')}")
        self._refresh_edited_pages()
        self.tools.refresh_history()

    def not_saved(self, error: NotSaved) -> None:
        """The database refused an edit, an undo or a redo (a full disk): where "saved" was says so until a later
        change is saved. Whoever asked for it says why in the status bar (the error is raised on to it)."""
        self._refused = f"{error}\n\nIt says saved again once a change is saved."
        self._show_saved_mark()

    def _show_saved_mark(self, saved: str = "saved") -> None:
        """Where "saved" is: NOT SAVED while the database is gone (which says more, and for as long as it lasts), or
        while the last change is one the database refused; else `saved`. Why in its tip."""
        why = self._database_gone_text() if self._database_said else self._refused
        self.saved_label.setStyleSheet(warning_style(self, bold=True) if why else "")  # readable on a dark theme
        self.saved_label.setText(saved if why is None else "NOT SAVED" if self._database_said
                                 else "last edit NOT SAVED")
        self.saved_label.setToolTip(why or "")

    # -- page status and navigation ------------------------------------------------------------------------------

    def _step_page(self, step: int) -> None:
        """PgDn / PgUp. With no page on its way, the next page opens at once, as it always has; it is then on its
        way until it has loaded. A page key pressed meanwhile (a held key's repeats queue while a heavy page is read)
        moves the page ahead instead, in the page list at once, and the page ahead opens on the next turn of the
        event loop, in place of a load still under way: however many keys queued, one page is read and loaded,
        and no page passed over is drawn. Keys that act on the page on show wait for the page ahead
        (`_when_the_page_is_there`); a page key pressed behind them waits with them, so each acts on the page it
        was pressed on the way to."""
        if self._held:
            self._held.append((self.keys_for("next_page" if step > 0 else "previous_page"),
                               lambda: self._step_page_now(step)))
            return
        self._step_page_now(step)

    def _step_page_now(self, step: int) -> None:
        here = self._ahead or self.page_name
        name = self.page_list.neighbour(here, step)
        if name is not None and name != here:
            on_the_way, self._ahead = self._ahead is not None, name
            if on_the_way:
                self.page_list.select(name)  # the user sees where the keys are going
                self._to_the_page_ahead.start()
            else:
                self._open_the_page_ahead()
            return
        narrowed = self.page_list.filtered()
        self.message(f"no {'next' if step > 0 else 'previous'} page in the list" + (
            f": it shows only pages of {narrowed}; clear that to move through every page" if narrowed else ""))

    def do_next_page(self) -> None:
        self._step_page(1)

    def do_previous_page(self) -> None:
        self._step_page(-1)

    def _open_the_page_ahead(self) -> None:
        """Open the page the page keys are on their way to (`_step_page`); one that cannot be shown is said, with
        the keys that waited for it, and the page on show stays."""
        self._to_the_page_ahead.stop()  # opened now (the first key): not again on the next turn
        name = self._ahead
        if name is None or self.closed:
            return
        try:
            self.show_page(name)
        except PageNotShown as error:
            self._ahead = None
            dropped = self._let_go_of_the_held_keys("it")
            self.message(f"{error}; {dropped}" if dropped else str(error), 15000)
            self.page_list.select(self.page_name)
            if self._passed_over_load is not None:  # the page on show, passed over, had loaded: as any page loaded
                loaded, self._passed_over_load = self._passed_over_load, None  # told once, not at a later failure
                self._on_loaded(loaded)

    def _give_up_the_page_ahead(self, why: str) -> None:
        """Another page was opened, or none is left to open, before the page keys' page was reached: the keys that
        waited for it are not carried out, and `why` says so."""
        self._to_the_page_ahead.stop()
        ahead, self._ahead = self._ahead, None
        dropped = self._let_go_of_the_held_keys(f"page {ahead}")
        if dropped:
            self.message(f"{why}: {dropped}", 15000)

    def _let_go_of_the_held_keys(self, page: str) -> str:
        """The keys that waited for the page ahead, dropped: what to say of them ("2 keys pressed on the way to
        `page` not carried out (J, A)"), or "" when none waited."""
        held, self._held = self._held, []
        if not held:
            return ""
        keys = ", ".join(key for key, _ in held)
        return f"{counted(len(held), 'key')} pressed on the way to {page} not carried out ({keys})"

    def _carry_out_the_held_keys(self) -> None:
        """The page ahead has loaded: the keys that waited for it, in the order pressed (a key pressed meanwhile
        waits behind them). A page key among them sets off for another page, and the keys after it wait for that
        one."""
        while self._held and self._ahead is None and not self.closed:
            _, run = self._held.pop(0)
            run()

    # -- where the keys go ------------------------------------------------------------------------------------------

    def do_go_to_pages(self) -> None:
        self.page_list.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def do_go_to_page(self) -> None:
        if self.page_view.view is not None:
            self.page_view.view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _say_the_menu_bar_holds_the_keys(self) -> None:
        """Esc closed a menu (or Alt was pressed alone): the menu bar keeps the keys, its title highlighted, until
        a second Esc gives them back."""
        self.message(HOLDS_THE_KEYS)

    def do_go_to_records(self) -> None:
        """The record list, or in review the review's (its run chooser while it has no rows)."""
        if self.tabs.currentWidget() is self.review_panel:
            self.review_panel.first_control().setFocus(Qt.FocusReason.ShortcutFocusReason)
        else:
            self.record_panel.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _order_the_tab_chain(self) -> None:
        """Tab goes through the window as it is laid out: the page filter, the page search, the page list, the
        page, then the right panel (its tabs, the record finder, the records, the buttons). The widget that takes
        the page's keys is Chromium's, made anew as pages load, and a new one joins the chain at its end (after
        the buttons, before the filter): put back in place before each move (`focusNextPrevChild`)."""
        pages, view = self.page_list, self.page_view.view
        page = [self.page_view.input_widget() or view] if view is not None and Shiboken.isValid(view) else []
        for first, second in itertools.pairwise((pages.status_filter, pages.search, pages.list, *page, self.tabs)):
            QWidget.setTabOrder(first, second)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802, A002 (Qt override)
        """Tab and Shift+Tab, and the page handing the keys on past its first or last element (Chromium's own
        Tab, no key event of Qt's): Qt draws a button's focus ring only in a window it knows the keys moved in
        by the keyboard, so the keys passed on by the page went to the Propose button unseen, and Space ran it.
        Said after the move: Qt unsays it for a move it did not see a Tab key make."""
        self._order_the_tab_chain()
        moved = super().focusNextPrevChild(next)
        self.setAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange)
        if (focus := self.focusWidget()) is not None:
            focus.update()  # drawn again, with its focus ring
        return moved

    def do_review(self) -> None:
        """F6 switches between labelling and review, and the keys go along: to the review's list (or its run
        chooser), or back to the record list."""
        self.reviewing.do_review()
        self.do_go_to_records()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        # Back from the agent window or a dialog with no widget to give the keys to: the page list has them.
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow() and self.focusWidget() is None:
            self.page_list.list.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def do_search(self) -> None:
        self.page_list.search.setFocus()
        self.page_list.search.selectAll()

    # -- application -------------------------------------------------------------------------------------------

    def do_open_project(self) -> None:
        if not self._may_stop_the_job("open another project", "&Open another"):  # it stops the job as a quit does
            return
        folder = QFileDialog.getExistingDirectory(self, "Open a RecordLens project", str(self.project.root))
        if not folder:
            return
        created = ""
        try:
            project = open_project(folder)
        except RecordLensError as error:
            if (made := self._create_a_project(Path(folder), error)) is None:
                return
            project, created = made, f"created project {hint_path(made.root)}"
        self.set_project(project)
        self.say_upgrades()
        if created:
            self.message(created)

    def _create_a_project(self, folder: Path, why_not: RecordLensError) -> Project | None:
        """A project made in `folder`, which holds nothing yet (or is not there), once the user says so, as
        `recordlens project init` makes one: the app's only way to make one, and the packaged app puts no
        `recordlens` on PATH. None, said, where `folder` holds something (`why_not` says what the user most
        likely meant), and when the user does not want it."""
        if (holding := project_holding(folder)) is not None:  # its snapshots/, say: that project was meant
            QMessageBox.warning(self, "RecordLens", f"{hint_path(folder)} lies inside the RecordLens project "
                                f"{hint_path(holding)}: open that project, or choose a folder outside it")
            return None
        if not _holds_nothing(folder):
            QMessageBox.warning(self, "RecordLens", str(why_not))
            return None
        empty = "is empty" if folder.exists() else "is made with it"
        if not self.ask(f"{hint_path(folder)} is not a RecordLens project yet. Create one there?",
                        f"The folder {empty}. Import saved pages into the new project with "
                        f"{self.keys_for('import_pages')}, or drop them on the window.", "&Create project", "Cancel"):
            return None
        try:
            return init_project(folder)
        except (RecordLensError, OSError) as error:  # an unwritable folder, a full disk: said, the project stays
            QMessageBox.warning(self, "RecordLens", f"no project was created: {error}")
            return None

    def say_upgrades(self, *, on_screen: bool = True) -> None:
        """A project this process brought up from an earlier schema is said once, as the command line says it: on
        stderr, and in the status bar for good (the earlier RecordLens can no longer open it; how to go back); so is
        an import of the project opened that was stopped part way."""
        for upgrade in take_upgrades():
            print(f"{PROG}: {upgrade.message()}", file=sys.stderr)
            if on_screen:
                self.message(upgrade.message(), 0)
        # An import of the project stopped part way (killed, the app quit during it, a full disk), said as every
        # command on it says it: which, how many of its pages are in, and how to finish it
        # and a Propose over the new pages that the app's end stopped part way (`do_propose_new`)
        statuses = {info.name: info.status for info in self.project.pages()}
        for stopped in [*stopped_imports_said(self.project.root),
                        *stopped_proposes_said(self.project.root, statuses, self.keys_for("propose_new"))]:
            print(f"{PROG}: {stopped}", file=sys.stderr)
            if on_screen:
                self.message(stopped, 0)

    def do_propose_new(self) -> None:
        """Shift+P: the job controller starts the Propose over the new pages; the window marks it in the project
        while it runs, so that one the app's end stops part way (a quit, a kill) is said at the next opening
        (`say_upgrades`). One that ends while the window shows its project has said how it ended: its mark goes."""
        before = self.jobs.job
        self.jobs.do_propose_new()
        job = self.jobs.job
        if not isinstance(job, ProposeWorker) or job is before:
            return
        root = self.project.root
        forget_stopped_proposes(root)  # this one proposes for the pages they left new
        mark = mark_propose(root, job.pages)
        if mark is not None:
            job.done.connect(lambda *_: unmark_propose(mark, said=self.shows_project(root)))

    def set_project(self, project: Project) -> None:
        self._to_the_page_ahead.stop()
        self._ahead, self._held = None, []  # the last project's page, and keys meant for it
        self._remember_selection()
        self._selection_restored = False
        self.jobs.stop()
        self.watch.release()
        self.project.close()
        self.project = project
        self.watch = ProjectWatch(project)
        self._follow_a_move()
        self._stands_in_for = None  # the user chose this project: it is the one the app reopens
        self._shown_state = None
        self._refused = None  # the last project's "not saved", if it was said, no longer holds
        self._show_saved_mark()
        self.database_gone()
        self.record_actions.drop_stacks()
        self.reviewing.forget_runs()
        self.tools.hide_history()
        self.page_name = None
        self._changes_seen, self._arrivals, self._known_ends = 0, None, {}  # another project's: none carries over
        self._take_up_the_list_and_the_walk()  # this project's, not the last one's
        self._take_stock()
        self.review_panel.set_runs(project.runs.all(), annotators=project.annotators.names())
        self._update_title()
        self._open_first_page()
        self._say_if_open_elsewhere()

    def _open_first_page(self) -> None:
        """The page this project was left on (the settings remember it), else the first of the list, at the
        project's zoom; listed whatever the list's filter (`show_page`), which stays as the last session left it."""
        self.zoom.restore()
        if (name := self.start_page_name()) is not None:
            self.open_page(name)
        else:
            self._show_no_page()

    def start_page_name(self) -> str | None:
        """The page a start opens: the one this project was left on, else the first the list shows, else the
        project's first (a filter that hides every page is no reason to show none); None: no page."""
        every = self.page_list.all_names()
        last = self.settings.last_page(self.project_key())
        return last if last in every else next(iter(self.page_list.names() or every), None)

    def _show_no_page(self) -> None:
        """A project without pages (new, or its last one removed): nothing of a page on show, and what to do."""
        if self._ahead is not None:
            self._give_up_the_page_ahead(f"page {self._ahead} is no longer in the project")
        self.page_name = None
        self.labels = []
        self.record_panel.set_rows([], [])
        self.counts_label.setText("")
        self._update_title()
        self.page_view.show_note(
            f"This project has no pages yet.\n\nImport saved pages (MHTML or HTML) with {self.keys_for('import_pages')}"
            f", a folder of pages or a dataset with its labels (html/ and gt/) with {self.keys_for('import_folder')}, "
            "or drop files on this window.")

    def ask(self, question: str, details: str, yes: str = "", no: str = "", *,
            moot_on: SignalInstance | None = None) -> bool:
        """Yes or no from the user, No the default (also on Esc); `yes` and `no` name the buttons by what they do
        ("&Quit", "&Keep working") in place of Yes and No. `moot_on`: a signal after which the question no longer
        holds (the job it asks about has ended): the box closes as a Yes, rather than go on saying what is past."""
        box = QMessageBox(QMessageBox.Icon.Question, "RecordLens", question,
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setInformativeText(details)
        for button, text in ((QMessageBox.StandardButton.Yes, yes), (QMessageBox.StandardButton.No, no)):
            if text:
                box.button(button).setText(text)
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.setEscapeButton(QMessageBox.StandardButton.No)
        moot = None
        if moot_on is not None:
            moot = moot_on.connect(lambda *_: box.done(QMessageBox.StandardButton.Yes))
        try:
            return box.exec() == QMessageBox.StandardButton.Yes
        finally:
            if moot is not None:
                # A job that ended while the box was open may be deleted already (`JobController`), its
                # connections gone with it: nothing is left to disconnect, which PySide says in a warning
                with warnings.catch_warnings(), contextlib.suppress(RuntimeError):
                    warnings.simplefilter("ignore", RuntimeWarning)
                    moot_on.disconnect(moot)

    def do_remove_page(self) -> None:
        """Take the page on show out of the project, once the user has said yes; what it held is kept."""
        name = self.page_name
        if name is None:
            self.message("no page to remove")
            return
        if self.jobs.busy():
            return
        # All that remove_page writes to removed/ before the page goes, and the way back
        held = f"Its {counted(len(self.labels), 'record')} and their history" if self.labels else "Its history"
        if not self.ask(f"Remove page {name} from the project?",
                        f"{held}{self._their_labels_of(name)}, and runs' predictions and scores for it are first "
                        f"written to {hint_path(self.project.root / REMOVED)}; its snapshot stays in the project's "
                        "snapshots. Undo cannot bring the page back; `recordlens project restore-page` can, from that "
                        "copy (the status bar names it once the page is removed)."):
            return
        after = self.page_list.page_after(name)  # the list's filter and search kept, as the user left them
        self._know_the_changes_of(name)  # its history comes back with restore-page: that page is said restored
        try:
            removed = remove_page(self.project, name)
        except RecordLensError as error:
            self.message(f"page {name} not removed: {error}", 15000)
            return
        self.record_actions.drop_stacks(name)
        self._forget_page(name)  # this window's doing, not news of elsewhere
        self.page_name = None
        self.refresh_pages()
        if after is not None and after != name:
            self.open_page(after)
        else:
            self._show_no_page()
        restore = hint_words(["recordlens", "project", "restore-page", removed.kept, "--project", self.project.root])
        self.message(f"page {name} removed; what it held is kept in {hint_path(removed.kept)} (`{restore}` puts it "
                     "back)", 15000)

    def _their_labels_of(self, page: str) -> str:
        """", the labels bea and cyd made of it (as other annotators)": the other annotators' labels of the page
        that go with it ("" when none labelled it)."""
        annotators = self.project.annotators
        names = [name for name in annotators.names() if page in annotators.pages(name)]
        if not names:
            return ""
        if len(names) == 1:
            return f", the labels {names[0]} made of it (as another annotator)"
        if len(names) <= 3:
            return f", the labels {', '.join(names[:-1])} and {names[-1]} made of it (as other annotators)"
        return f", the labels {len(names)} other annotators made of it ({listed(names, 3)})"

    def do_quit(self) -> None:
        self.close()

    def wait_until_drawn(self, timeout_ms: int = 30_000) -> None:
        """Until the page and its records are on screen (screenshots, tests): the page the page keys are on their
        way to, if they are."""
        deadline = time.monotonic() + timeout_ms / 1000
        while self._to_the_page_ahead.isActive() and time.monotonic() < deadline:
            spin(1)  # the page ahead is opened, and its load is the one waited for
        if not self.page_view.wait_until_loaded(timeout_ms):
            raise RuntimeError(f"page {self.page_name} did not load")
        self.page_view.wait_until_drawn(timeout_ms)
        self.page_view.settled_image()

    def snapshot(self) -> QPixmap:
        """The window as it looks, with the page as the browser last drew it.

        A grab of the whole window reuses an older frame of the web view (seen: review overlays missing), while
        a grab of the view itself is current, so the view's own picture is painted over its place."""
        picture = self.grab()
        view = self.page_view.view
        if view is not None:
            painter = QPainter(picture)
            painter.drawImage(view.mapTo(self, QPoint(0, 0)), self.page_view.settled_image())
            painter.end()
        return picture

    def shutdown(self) -> None:
        """Stop the job, release the browser, close the project (before the QApplication goes away)."""
        if self.closed:
            return
        self.closed = True
        self._watch_timer.stop()
        self._place_timer.stop()  # the quit keeps the place itself, now
        self._remember_selection()
        self.jobs.stop()
        self._keep_the_answers_on_their_way()
        self.tools.close()
        self.page_view.dispose()
        self.watch.release()
        self.project.close()

    def _may_stop_the_job(self, doing: str = "quit", yes: str = "&Quit") -> bool:
        """Whether quitting (or `doing` another thing that stops the job, its button `yes`) may stop the job that
        runs: asked when the job's work would be lost (Learn's fits, whose workers a quit kills; the model in place
        stays as it is), Keep working the default. A job that ends while asked leaves nothing to lose: a Yes."""
        loses, job = self.jobs.quitting_loses(doing), self.jobs.job
        return loses is None or job is None or self.ask(*loses, yes=yes, no="&Keep working", moot_on=job.finished)

    def _keep_the_answers_on_their_way(self) -> None:
        """Answers a cancelled Propose asked the model for, paid for, are stored in its run as they come: at quit
        the app waits for them (at most `ANSWERS_WAIT_S`), unless the user chooses to quit at once and lose them."""
        waiting = answers_on_their_way()
        if not waiting:
            return
        dialog = QProgressDialog(answers_on_their_way_said(waiting), "Quit now", 0, 0, self)
        dialog.setWindowTitle("RecordLens: quitting")
        dialog.setWindowModality(Qt.WindowModality.ApplicationModal)  # no edit nor Propose once the job is stopped
        dialog.setMinimumDuration(0)
        dialog.show()
        deadline = time.monotonic() + ANSWERS_WAIT_S
        try:
            while answers_on_their_way() and not dialog.wasCanceled() and time.monotonic() < deadline:
                spin(50)
        finally:
            dialog.close()
            dialog.deleteLater()

    def _remember_selection(self) -> None:
        """The records selected at quit, so that the next start selects them again (`_restore_the_last_quit`),
        the rows chosen in the Review list likewise, and the window's place (and its panels' widths, once
        dragged). The selection not before the first page has been shown: what the last quit remembered would be
        lost unseen."""
        if self.page_name is not None and self._selection_restored:
            selected = self.record_panel.selected_ids()
            shown = self._first_shown(selected) if self.page_loaded else None
            # and where that record starts, if the user sees it: a start on a page laid out otherwise keeps it in view
            top = self.page_view.top_in_view(shown.xpaths[0]) if shown is not None else None
            self.settings.remember_selection(self.project_key(), self.page_name, selected,
                                             self.page_view.scroll_y if self.page_loaded else None, top)
        # A window the app maximised to fit a small screen keeps the place the person gave it, for a larger screen
        if not (self._maximised_to_fit and self.isMaximized()):
            self.settings.window_geometry = bytes(self.saveGeometry().toBase64().data()).decode("ascii")
        widths = dragged_widths(self.panels)
        if widths is not None:  # dragged in this session (else what an earlier one kept stays, unchanged)
            self.settings.remember_panel_widths(widths)
        self.reviewing.remember_rows()
        self._remember_the_list_and_the_walk()
        self.save_where_the_user_was()

    def _place_moved(self, *_: object) -> None:
        """The page scrolled or the records selected changed: kept once they stay so for PLACE_KEPT_MS (each change
        starts the wait again), so that an app killed comes back where it was, not where the last quit left it."""
        self._place_timer.start()

    def _keep_the_place(self) -> None:
        """Where the user is on the page (its records selected, its scroll, where the first selected one shows),
        written where the quit writes it (`_remember_selection`), atomically as every save of the settings is. The
        page asked where the record shows without waiting for it (the quit waits): no event loop turns inside this
        timer's slot, and a page that does not answer keeps nothing until the next change."""
        if self.closed or self.page_name is None or not self._selection_restored or not self.page_loaded:
            return
        page, selected, scroll_y = self.page_name, self.record_panel.selected_ids(), self.page_view.scroll_y

        def keep(top: float | None) -> None:
            if self.closed or self.page_name != page or not self.page_loaded:  # quit, or another page, meanwhile
                return
            self.settings.remember_selection(self.project_key(), page, selected, scroll_y, top)
            self.save_where_the_user_was()

        shown = self._first_shown(selected)
        if shown is None:
            keep(None)
        else:
            self.page_view.top_in_view_later(shown.xpaths[0], keep)

    def restore_geometry(self) -> bool:
        """Put the window where it was at the last quit (size, place, maximised, and screen); False when nothing
        was kept or Qt refused it (a screen much narrower or wider than then, a scale factor changed): then the
        window takes its first place, maximised if it was. Qt itself keeps a restored window within the available
        area of the screen it was saved on (of the main screen when that one is gone), and the window's screen is
        that one from then on (the main one before: not where a window saved on a second screen goes). A screen
        narrower or lower than the window's least size, or than the window was, gets it maximised, as at a first
        start: shown at its restored size, the window would grow past the screen's edge. On one that holds both,
        a window its least size grows past an edge is moved back in."""
        kept = self.settings.window_geometry
        saved = bytes(QByteArray.fromBase64(kept.encode("ascii")).data()) if kept else b""
        if saved and self.restoreGeometry(QByteArray(saved)):
            least, area = self.minimumSizeHint().expandedTo(self.minimumSize()), available_area(self)
            normal = saved_normal_size(saved)
            if not holds(area, least) or (normal is not None and not holds(area, normal)):
                self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)
                self._maximised_to_fit = not saved_maximised(saved)  # this screen's need, not the person's choice
            elif not self.isMaximized():
                self.setGeometry(kept_within(self.geometry(), least, area))
            return True
        placement = first_placement(DEFAULT_SIZE, available_area(self))
        self.setGeometry(placement.geometry)
        if placement.maximised or saved_maximised(saved):
            self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)
            # a place kept from another screen, refused here: kept for that screen, unless it was maximised
            self._maximised_to_fit = bool(saved) and not saved_maximised(saved)
        return False

    def save_where_the_user_was(self) -> None:
        if not self.saves_settings:  # a screenshot: the project, page and selection remembered stay the user's
            return
        with contextlib.suppress(OSError):  # where the user was is a convenience: never an error
            self.settings.save(self.settings_file)

    def project_key(self) -> str:
        """How the settings name this project (its resolved folder; `_follow_a_move` carries what they remember
        of it over when the folder moves)."""
        return str(self.project.root.resolve())

    def _follow_a_move(self) -> None:
        """The project's place (page, selection, scroll, zoom, review) remembered under the folder it had before a
        move or rename is taken over: the settings know a project by its database file and its fingerprint too."""
        database = self.watch.file.name
        self.settings.follow_move(self.project_key(), _identity_words(self.watch.file),
                                  _fingerprint(self.project), lambda folder: _identity_words(Path(folder) / database))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt override)
        if dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt override)
        paths = dropped_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.importing.import_paths(paths)

    def close_on_terminate(self) -> None:
        """SIGTERM (`kill PID`, a session logging out): closes as Ctrl+Q does, but asks nothing of a job that runs
        (no one may be there to answer, and the session would be held; Learn's work is lost, the model in place
        stays). What the job leaves unfinished is said on stderr, with the line of an import it stopped part way
        that the next opening says too (which import, how many of its pages are in, how to finish it)."""
        root, unfinished = self.project.root, self.jobs.left_unfinished()
        said_before = set(stopped_imports_said(root))  # those stopped earlier, said when the project was opened
        self._terminating = True
        self.close()
        if not self.closed or not unfinished:
            return
        print(f"{PROG}: SIGTERM: {unfinished}", file=sys.stderr)
        for stopped in stopped_imports_said(root):
            if stopped not in said_before:
                print(f"{PROG}: {stopped}", file=sys.stderr)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        # a Learn let run, or unsaved task edits kept: the app stays (the job asked first: a No there stops nothing)
        if not self.closed and not ((self._terminating or self._may_stop_the_job()) and self.tools.may_close()):
            event.ignore()
            return
        self.shutdown()
        super().closeEvent(event)
