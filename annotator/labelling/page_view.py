"""The page view: one saved page rendered offline, its records drawn over it, clicks and hovers reported.

`PageView` wraps an `OfflinePage` with a view and injects resources/js/overlay.js (with qwebchannel.js and
dom_rules.js before it) into ApplicationWorld at document creation, and fields_take_no_keys.js into every frame (no
field of the page keeps the keys: a saved page is a record of a page, not an app to use). Python draws through
runJavaScript; the page talks back through a QWebChannel object named "recordlens": a real click reaches the script's
capture-phase listener, which takes the element's XPath under the NEXT-EVAL rules and calls `_Bridge.clicked`.

The view decides nothing about records: it is given XPaths, colour indices, labels and states, and says where
things are. The palette lives here so that other widgets (the record list's bullets) can show the same colours.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QEventLoop, QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWebEngineCore import QWebEngineScript
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QWidget
from shiboken6 import Shiboken

from ...core.command_hints import hint_path
from ...core.errors import SnapshotError, system_words
from ...core.page import LoadedPage, Page, Snapshot, load_page, mhtml_bytes, read_file_bytes
from ...core.store import content_hash
from ..install_check import missing_file
from ..qt.contrast import ink_on
from ..qt.event_loop import run_until_quit, settled_grab
from ..qt.page_loader import OfflinePage, ScriptBridge, every_frame_script, script_slot
from ..qt.page_scripts import document_script, read_script
from ..qt.signals import emit
from ..qt.widgets import web_input_widget

OVERLAY = "overlay.js"
FIELDS_TAKE_NO_KEYS = "fields_take_no_keys.js"  # in every frame: no field of the page keeps the focus
CHANNEL_OBJECT = "recordlens"  # the name overlay.js looks the bridge up by
_MHTML_SUFFIXES = (".mhtml", ".mht")
FOCUS_FRAME = 2  # px around the page, in the highlight colour while the keys are in it

# Twelve colours that stay apart from each other on white and on photos; records cycle through them.
PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#bcbd22", "#3949ab", "#00897b", "#6d4c41",
)
# Review mode: a state's colour replaces the record's own, so the four kinds read at a glance (green, violet,
# orange, crimson: apart from each other on white). Not by colour alone: for a reader with a colour-vision
# deficiency some come close (matched and missed under protanopia), so a missed record is also drawn dashed and
# hatched (overlay.js, by its state), and a spurious one is badged P where the true ones are badged T.
STATE_COLOURS = {"matched": "#2b8a3e", "partial": "#7048e8", "missed": "#e8590c", "spurious": "#c2255c"}


@functools.lru_cache(maxsize=64)
def _ink_named(colour: str) -> str:
    """`ink_on`'s ink for a record colour, by name; worked out once per colour (a page draws thousands of records
    in a dozen colours, and draws them again at every change of selection)."""
    return ink_on(colour).name()


def _drawn(record: dict[str, Any], colour: str, index: int) -> dict[str, Any]:
    """A record as overlay.js draws it: in `colour`, its badge's number in the ink that reads on it (`ink_on`:
    the overlay chooses none itself, so the page and the app judge a colour by one rule), its box by its state (a
    proposed or a missed record dashed, in the colour and the ink)."""
    return {
        "xpaths": [str(x) for x in record.get("xpaths", ())],
        "colour": colour,
        "ink": _ink_named(colour),
        "label": str(record.get("label", index + 1)),
        "selected": bool(record.get("selected", False)),
        "outline": str(record.get("outline", "")),
        "state": str(record.get("state") or ""),
    }


def record_colour(colour_index: int, state: str | None = None) -> str:
    """The colour a record is drawn in: its state's colour in review mode, else its palette entry."""
    if state in STATE_COLOURS:
        return STATE_COLOURS[state]
    return PALETTE[colour_index % len(PALETTE)]


@dataclass(frozen=True)
class XPathBox:
    """Where one XPath is on the rendered page."""

    xpath: str
    resolved: bool
    path: str | None  # the resolved element's own XPath under the NEXT-EVAL rules
    rect: tuple[float, float, float, float] | None  # x, y, width, height in document (CSS pixel) coordinates
    visible: bool  # False for a resolved element without a rendered box (display: none, <head> content)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> XPathBox:
        rect = data.get("rect")
        return cls(data["xpath"], bool(data["resolved"]), data.get("path"),
                   tuple(rect) if rect else None, bool(data.get("visible")))


@dataclass(frozen=True)
class CursorMove:
    """Where the element cursor is after a move."""

    path: str | None  # its element's XPath; None: the page shows no element to put it on
    moved: bool  # False: there was nowhere to go that way (the last element, the whole page above, none inside)
    frame: bool  # it is on a frame of the page, whose content cannot be labelled


@dataclass(frozen=True)
class DrawSummary:
    """What the last `show_records` drew."""

    records: int
    xpaths: int
    resolved: int
    boxes: int  # resolved elements with a rendered box
    generation: int
    marks: tuple[float | None, ...] = ()  # where each record starts, as a fraction of the page's height
    built: int = 0  # records whose boxes were made anew (the others were drawn before and kept theirs)
    unseen: tuple[str | None, ...] = ()  # per record: None when it has a box, else why not (`unseen_words`)


# Why a record has no box on the page, as overlay.js tells it, said of its element(s) ("its element is …").
_UNSEEN_WORDS = {
    "none": "hidden (display: none)",
    "head": "in the page's <head>, which is never shown",
    "details": "inside a closed <details>",
    "contents": "without a box of its own (display: contents)",
    "size": "of no size on the page (0 × 0 px)",
    "visibility": "hidden (visibility: hidden)",
    "opacity": "transparent (opacity: 0)",
    "offpage": "placed wholly off the page, where no scrolling reaches",
    "clipped": "cut to no height or width on the page (overflow: hidden)",
}
# A reason set on an element around the record's ("none:div"): what that element has, said with its tag.
_UNSEEN_AROUND = {
    "none": "hidden (display: none on an enclosing <{tag}>)",
    "visibility": "hidden (visibility: hidden on an enclosing <{tag}>)",
    "opacity": "transparent (opacity: 0 on an enclosing <{tag}>)",
}


def unseen_words(why: str, elements: int = 1) -> str:
    """What keeps a record off the page, as a sentence's end: "its element is hidden (display: none on an
    enclosing <div>)". `why` is overlay.js's reason (DrawSummary.unseen); `elements`: how many the record has."""
    if why == "unresolved":
        return "no XPath of it names an element of the page as shown"
    kind, _, tag = why.partition(":")
    around = _UNSEEN_AROUND.get(kind) if tag else None
    said = around.format(tag=tag) if around else _UNSEEN_WORDS.get(why, "not rendered")
    return f"its elements are {said}" if elements > 1 else f"its element is {said}"


def parse_js_result(raw: Any) -> Any:
    """A script's JSON answer, or None when there is none: a page torn down mid-call answers '' or None."""
    if not isinstance(raw, str) or not raw:
        return None
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return None


def _locate_js(xpaths: Sequence[str]) -> str:
    """The overlay's call that tells where each of `xpaths` is (`PageView.locate`)."""
    return f"__recordlens.overlay.locate({json.dumps(json.dumps(list(xpaths)))})"


def _top_in_view_js(xpath: str) -> str:
    """Where the element at `xpath` is, and the view's height: one call to the page, so a renderer that hangs at quit
    holds the window for `top_in_view`'s wait once, not twice."""
    return f"JSON.stringify([{_locate_js([xpath])}, document.documentElement.clientHeight])"


def _located(raw: Any) -> list[XPathBox]:
    return [XPathBox.from_json(d) for d in parse_js_result(raw) or []]


def _shown_rect(boxes: Sequence[XPathBox]) -> tuple[float, float, float, float] | None:
    """The first of `boxes`' rectangle on the page (document coordinates, CSS px), if its element shows there."""
    box = boxes[0] if boxes else None
    return box.rect if box is not None and box.visible else None


def _is_archive(path: Path, data: bytes) -> bool:
    """Chromium opens MHTML as an archive only from a file named so; a misnamed file is shown as HTML instead.
    `data`: the file's bytes, read once by the caller."""
    if path.suffix.lower() not in _MHTML_SUFFIXES:
        return False
    return not data[:64].lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def _has_bare_line_feeds(data: bytes) -> bool:
    """Whether a line of the file ends in LF alone."""
    return data.count(b"\n") != data.count(b"\r\n")


def _archive_as_read(snapshot: Snapshot) -> bytes | None:
    """The archive as the core read it, in Chromium's layout: its HTML and resources written again (None when a
    part cannot be: a header value with a line break, say)."""
    where = {"url": snapshot.url} if snapshot.url else {}
    try:
        return mhtml_bytes(snapshot.html, title=snapshot.title, resources=snapshot.resources.values(), **where)
    except ValueError:
        return None


def _page_bytes(path: Path) -> bytes:
    """A saved page's bytes (`read_file_bytes`); a read that failed for a moment (a flaky share), which core lets
    through for a command to stop on, said as any page that cannot be read is: in the system's words after the file,
    named as a hint writes a path, not as Python writes an OSError."""
    try:
        return read_file_bytes(path)
    except OSError as error:
        raise SnapshotError(f"Cannot read {hint_path(path)}: {system_words(error)}.") from error


def _page_scripts() -> list[QWebEngineScript]:
    """overlay.js and the scripts it needs, for every document of the page, and fields_take_no_keys.js for every
    frame of it (the labelling keys are never typed into the page). They are read from the app's folder: one
    missing there is an incomplete install, said in a line that names it (not a traceback)."""
    try:
        return [document_script("recordlens-overlay", OVERLAY),
                every_frame_script("recordlens-fields", read_script(FIELDS_TAKE_NO_KEYS))]
    except FileNotFoundError as error:
        raise missing_file(error.filename) from None


class ScrollMarks(QWidget):
    """A thin strip beside the page's scroll bar with a tick where each record starts: where the records are."""

    WIDTH = 6

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFixedWidth(self.WIDTH)
        self.marks: list[tuple[float, str]] = []
        self.setToolTip("where the page's records are")

    def set_marks(self, marks: Sequence[tuple[float, str]]) -> None:
        self.marks = list(marks)
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#eeeeee"))
        height = max(1, self.height() - 3)
        for fraction, colour in self.marks:
            painter.fillRect(QRectF(0, fraction * height, self.WIDTH, 3), QColor(colour))
        painter.end()


class _Bridge(ScriptBridge):
    """The object overlay.js calls: an element clicked or hovered (its XPath), overlays painted (their
    generation), a frame produced (its token), the page scrolled (its y). Emitting happens in PageView only."""

    clicked = script_slot("clicked", str)
    hovered = script_slot("hovered", str)
    painted = script_slot("painted", int)
    framed = script_slot("framed", int)
    scrolled = script_slot("scrolled", int)


class _WindowKeysFirst(QObject):
    """On the widget that takes the page's keys: a key the window has a shortcut for runs it, whatever the page has in
    focus. Chromium claims every key (a ShortcutOverride accepted) for a page with the caret in a field, and then PgDn
    scrolled the page and J was typed into a field the page focused itself (`autofocus`); its claim refused, the key
    goes to Qt's shortcuts, and one that has none (an arrow, Space, Tab, Ctrl+C) still reaches the page. The page's
    fields never keep the focus either (fields_take_no_keys.js), but Qt hears of one for a moment first, and of one
    in a closed shadow root, which no script outside it sees, for good."""

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        return event.type() == QEvent.Type.ShortcutOverride  # refused: filtered out, never accepted


class PageView(QWidget):
    """A saved page with record overlays. Call `dispose()` before the QApplication goes away.

    Signals: `loaded(ok)`, `element_clicked(xpath)` (a real click while annotating), `hovered(xpath)` ("" when
    the pointer leaves), `blocked_count_changed(n)` (requests refused since the page was opened),
    `overlays_drawn(boxes)` (the frame showing the records of the last `show_records` has been produced).
    """

    loaded = Signal(bool)
    scrolled = Signal(int)
    element_clicked = Signal(str)
    hovered = Signal(str)
    blocked_count_changed = Signal(int)
    overlays_drawn = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Read before the browser page is made: a script that cannot be read (an incomplete install) is said with no
        # page to close, which Qt would delete otherwise in the collector's order, its profile before it.
        scripts = _page_scripts()
        self.offline = OfflinePage(with_view=True)
        self.view = self.offline.view
        # A file dropped on the page would be opened by Chromium in the snapshot's place: the window imports it.
        self.view.setAcceptDrops(False)
        self.scroll_marks = ScrollMarks()
        self.view.setAccessibleName("page")
        self.view.setAccessibleDescription("the saved page; Tab moves through its links and fields, E acts on the "
                                           "one in focus as a click does, Esc leaves the page")
        layout = QHBoxLayout(self)
        # Room for the focus frame, drawn while the keys are in the page (`has_focus_frame`).
        layout.setContentsMargins(FOCUS_FRAME, FOCUS_FRAME, FOCUS_FRAME, FOCUS_FRAME)
        layout.setSpacing(0)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.scroll_marks)
        # Where the page would be, while there is none to show (a new project): what to do first.
        self.note = QLabel(self)
        self.note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.note.setWordWrap(True)
        self.note.hide()

        self.scroll_y = 0  # the page's vertical scroll position, as last reported
        self.offline.expose(CHANNEL_OBJECT, _Bridge(clicked=self._on_clicked, hovered=self._on_hovered,
                                                    painted=self._on_painted, framed=self._on_framed,
                                                    scrolled=self._on_scrolled))
        self.offline.page.scripts().insert(scripts)
        self.offline.loaded.connect(self._on_loaded)
        self.offline.request_blocked.connect(self._on_blocked)

        self.loaded_page: LoadedPage | None = None
        # The content hash of the bytes of the page on show, as read: a score made of it keeps it (`Runs.add_scores`)
        self.loaded_hash: str | None = None
        self._is_loaded = False
        self._records: list[dict[str, Any]] = []
        self._annotating = True
        self._generation = 0  # numbers every drawing sent to any page, so late answers can be told apart
        self._painted = 0  # the latest drawing the page reported on screen
        self._frame_token = 0  # the latest frame asked for by settled_image
        self._framed = 0  # the latest frame the page reported produced
        self.last_summary: DrawSummary | None = None
        self._waiting: QEventLoop | None = None
        self._zoom = 1.0
        self._framed_focus = False
        self._window_keys_first = _WindowKeysFirst(self)
        QApplication.instance().focusChanged.connect(self._on_focus_changed)

    # -- the page -------------------------------------------------------------------------------------------

    @property
    def core_page(self) -> Page | None:
        return self.loaded_page.page if self.loaded_page else None

    def show_note(self, text: str) -> None:
        """A line in place of the page ("": the page again)."""
        self.note.setText(text)
        self.note.setVisible(bool(text))
        self.view.setVisible(not text)
        if text:
            self.note.setGeometry(self.rect())
            self.note.raise_()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.note.setGeometry(self.rect())

    def open(self, path: str | Path) -> None:
        """Show a saved page (HTML or MHTML); `loaded` follows. Records of the previous page are dropped.

        The file is read and parsed by the core first (`core_page`), so an unreadable file raises the core's
        RecordLensError here and the view keeps showing what it showed."""
        path = Path(path)
        data = _page_bytes(path)  # once: parsed by the core, and looked at for its line ends
        loaded = load_page(path, data=data)
        self.loaded_hash = content_hash(data)
        self.show_note("")
        self.loaded_page = loaded
        self._is_loaded = False
        self._records = []
        self.scroll_y = 0
        self.scroll_marks.set_marks([])
        self.last_summary = None
        self.offline.reset_blocked()
        emit(self.blocked_count_changed, 0)
        # An archive of an XHTML page is shown from the core's text too: Chromium would parse it as XML (a
        # parser-error page, or its XML viewer without the XHTML namespace), while the core and every label read
        # it with the HTML parser. Its archived images are then not shown; its records are.
        if _is_archive(path, data) and loaded.snapshot.media_type != "application/xhtml+xml":
            self._show_archive(path, data, loaded.snapshot)
        else:
            # The core's decoded text, served as UTF-8 with the charset stated: page and core read the same.
            self.offline.load_html(loaded.snapshot.html, path.name)

    def _show_archive(self, path: Path, data: bytes, snapshot: Snapshot) -> None:
        """Chromium splits an archive on CRLF only: one whose lines end in LF alone (written by hand, by a script
        or by a tool other than a browser) shows as an empty page, while the core reads it. And it reads a 7bit or
        8bit part's lines joined, and lines that are not UTF-8 as Latin-1 (`Snapshot.chromium_reads_otherwise`): a
        page in Shift_JIS shows as mojibake, while the core reads, and the user labels, the text the bytes hold.
        Such an archive is shown as the core read it, written again in Chromium's layout (the core's HTML, so the
        page's elements, XPaths and texts are the core's; its images and stylesheets kept); one that cannot be,
        from the core's HTML alone."""
        if not (_has_bare_line_feeds(data) or snapshot.chromium_reads_otherwise):
            self.offline.load_mhtml(path)
        elif (archive := _archive_as_read(snapshot)) is not None:
            self.offline.load_mhtml_bytes(archive, path.name)
        else:
            self.offline.load_html(snapshot.html, path.name)

    def wait_until_loaded(self, timeout_ms: int = 30_000) -> bool:
        return self.offline.wait_until_loaded(timeout_ms)

    @property
    def blocked_count(self) -> int:
        return self.offline.blocked_count

    @property
    def zoom(self) -> float:
        """The page's zoom factor (1.0: CSS pixels are screen pixels)."""
        return self._zoom

    def set_zoom(self, factor: float, *, keep_place: bool = False, pointer: tuple[float, float] | None = None) -> None:
        """Zoom the page (it stays zoomed from page to page). Record boxes and clicks follow the page; badges,
        borders and the hover tip keep their size on screen. With `keep_place`, what the user looks at stays at
        its height on screen: the element under `pointer` (the view's own pixels), else the selected record
        while in view, else the middle of the view."""
        # What the page shows now: a step still on its way (keys pressed fast) has not reached the view yet.
        before = self.view.zoomFactor() if self.view is not None and Shiboken.isValid(self.view) else self._zoom
        self._zoom = float(factor)

        def zoom(_noted: object = None) -> None:
            if self.view is None or not Shiboken.isValid(self.view):  # the answer of a page closed meanwhile
                return
            self.view.setZoomFactor(self._zoom)
            if self._is_loaded:
                self._scale_overlay()

        if not (keep_place and self._is_loaded and self.view is not None):
            zoom()
            return
        x, y = ("null", "null") if pointer is None else (pointer[0] / before, pointer[1] / before)
        # The note is taken before the zoom is asked for, so that it reads the page as the user saw it.
        self.offline.run_js_async(f"__recordlens.overlay.keepInPlace({x}, {y}, {before!r})", zoom)

    def _scale_overlay(self) -> None:
        """The overlay's badges, borders and tip keep their size on screen whatever the zoom."""
        self.offline.run_js_async(f"__recordlens.overlay.setScale({1.0 / self._zoom!r})")

    def _on_loaded(self, ok: bool) -> None:
        self._is_loaded = ok
        if self.view is not None and abs(self.view.zoomFactor() - self._zoom) > 1e-6:
            self.view.setZoomFactor(self._zoom)  # a new document may come with another zoom: set it again
        if ok:
            self._scale_overlay()
            self.offline.run_js_async(f"__recordlens.overlay.setAnnotating({json.dumps(self._annotating)})")
            # Always, none included: "drawn" must come for a page without records too (a screenshot waits on it).
            self._send_records()
        emit(self.loaded, ok)

    def _on_blocked(self, _url: str) -> None:
        emit(self.blocked_count_changed, self.offline.blocked_count)

    # -- records --------------------------------------------------------------------------------------------

    def show_records(self, records: Sequence[dict[str, Any]]) -> None:
        """Draw `records` (each: xpaths, and optionally colour_index, label, state, selected, outline: "true" for
        a review pair's true record, drawn dashed and unfilled beside the predicted one), replacing any. `state` is
        a record's status in labelling (a proposed record is drawn dashed, a decided one solid, in its own colour)
        or its kind in review (whose colour it is drawn in; a missed one dashed and hatched).

        Before the page has loaded they are kept and drawn when it has; `overlays_drawn` follows either way."""
        self._records = [_drawn(r, record_colour(int(r.get("colour_index", i)), r.get("state")), i)
                         for i, r in enumerate(records)]
        if self._is_loaded:
            self._send_records()

    def _send_records(self) -> None:
        self._generation += 1
        spec = json.dumps({"records": self._records, "generation": self._generation})
        self.offline.run_js_async(f"__recordlens.overlay.show({json.dumps(spec)})", self._on_drawn)

    def _on_drawn(self, raw: Any) -> None:
        data = parse_js_result(raw)
        if data is None:
            return  # the page went away meanwhile; the next load redraws
        # A drawing of an earlier page or an earlier set of records answers late: it is not the one on show.
        if "error" in data or data.get("generation") != self._generation:
            return
        data["marks"] = tuple(data.get("marks") or ())
        data["unseen"] = tuple(data.get("unseen") or ())
        self.last_summary = DrawSummary(**data)
        self.scroll_marks.set_marks([(m, r["colour"]) for m, r in zip(self.last_summary.marks, self._records,
                                                                        strict=False) if m is not None])
        if self._painted >= self._generation:  # the frame came out before this answer arrived
            self._announce_drawn()

    def _on_painted(self, generation: int) -> None:
        self._painted = max(self._painted, generation)
        if self.last_summary and generation == self.last_summary.generation:
            self._announce_drawn()

    def _announce_drawn(self) -> None:
        assert self.last_summary is not None
        if self._waiting is not None:
            self._waiting.quit()
        emit(self.overlays_drawn, self.last_summary.boxes)

    def unseen_records(self) -> dict[tuple[str, ...], str]:
        """The records of the last drawing (by their XPaths), each with why it has no box on the page ("" for one
        that has): a record selected with nothing drawn is said, and marked in the record list. Empty until the
        drawing's answer has come."""
        summary = self.last_summary
        if summary is None or summary.generation != self._generation:
            return {}
        return {tuple(record["xpaths"]): why or "" for record, why in zip(self._records, summary.unseen, strict=False)}

    def overlays_ready(self) -> bool:
        """True once the records last given are on screen."""
        return (self.last_summary is not None and self.last_summary.generation == self._generation
                and self._painted >= self._generation)

    def wait_until_drawn(self, timeout_ms: int = 30_000) -> DrawSummary:
        """Spin the event loop until the records last given are on screen (tests, bench, screenshots)."""
        # A drawing of records given before the last ones can end a wait (its frame is announced too), so the
        # wait goes on until the last ones are on screen or the time is up.
        deadline = time.monotonic() + timeout_ms / 1000
        while not self.overlays_ready() and (left := deadline - time.monotonic()) > 0:
            run_until_quit(max(1, int(left * 1000)), lambda loop: setattr(self, "_waiting", loop))
        if not self.overlays_ready():
            raise TimeoutError(f"overlays were not drawn within {timeout_ms} ms")
        assert self.last_summary is not None
        return self.last_summary

    def select_record(self, index: int | None) -> None:
        """Emphasise record `index` (None or -1: no selection)."""
        chosen = -1 if index is None else index
        for i, record in enumerate(self._records):
            record["selected"] = i == chosen
        if self._is_loaded:
            self.offline.run_js_async(f"__recordlens.overlay.select({int(chosen)})")

    def set_annotating(self, on: bool) -> None:
        """While annotating (the default) a click reports its element and the page ignores it; off, the page
        gets its clicks and nothing is reported. Alt+click always reaches the page."""
        self._annotating = bool(on)
        if self._is_loaded:
            self.offline.run_js_async(f"__recordlens.overlay.setAnnotating({json.dumps(self._annotating)})")

    # -- where things are ------------------------------------------------------------------------------------

    def scroll_to(self, xpath: str, callback: Callable[[tuple[float, ...] | None], None] | None = None) -> None:
        """Scroll the element into the middle of the view; `callback` gets its viewport box (None: unresolved)."""
        def done(raw: Any) -> None:
            if callback is not None:
                box = parse_js_result(raw)
                callback(tuple(box) if box is not None else None)

        # The app's scroll is no move of the keys: Tab still goes into the page from its top (`tabFromTheTop`).
        shown = f"__recordlens.overlay.scrollTo({json.dumps(xpath)})"
        self.offline.run_js_async(f"[{shown}, __recordlens.tabFromTheTop()][0]", done)

    def locate(self, xpaths: Sequence[str], timeout_ms: int = 30_000) -> list[XPathBox]:
        """For every XPath: resolved or not, and its box on the rendered page (synchronous)."""
        return _located(self.offline.run_js(_locate_js(xpaths), timeout_ms))

    def top_in_view(self, xpath: str, timeout_ms: int = 5_000) -> float | None:
        """Where the element at `xpath` starts on the page (document y, CSS px), if some of it shows in the view
        (synchronous). None: it is out of view, not found or shown nowhere, or the page did not answer in time."""
        try:
            return self._top_shown(self.offline.run_js(_top_in_view_js(xpath), timeout_ms))
        except TimeoutError:
            return None

    def top_in_view_later(self, xpath: str, then: Callable[[float | None], None]) -> None:
        """`top_in_view` without waiting for the page (no event loop turned inside the caller's): `then` gets it
        when the page answers, and is never called when it does not."""
        self.offline.run_js_async(_top_in_view_js(xpath), lambda raw: then(self._top_shown(raw)))

    def _top_shown(self, raw: Any) -> float | None:
        """`top_in_view`'s answer, from the page's (`_top_in_view_js`)."""
        answer = parse_js_result(raw)
        if not isinstance(answer, list) or len(answer) != 2:
            return None
        located, view = answer
        rect = _shown_rect(_located(located))
        if rect is None or not isinstance(view, int | float):
            return None
        _, top, _, height = rect
        return top if top < self.scroll_y + view and top + height > self.scroll_y else None

    def boxes(self, timeout_ms: int = 30_000) -> list[list[XPathBox]]:
        """Per record drawn, per XPath, where it is (synchronous; for tests, the bench and "scroll to")."""
        raw = self.offline.run_js("__recordlens.overlay.boxes()", timeout_ms)
        return [[XPathBox.from_json(d) for d in record] for record in parse_js_result(raw) or []]

    def grab_png(self, path: str | Path, timeout_ms: int = 30_000) -> Path:
        """Save what the view shows, overlays included, as PNG (waits for them to be on screen first)."""
        if self._records:
            self.wait_until_drawn(timeout_ms)
        target = Path(path)
        if not self.settled_image(timeout_ms).save(str(target), "PNG"):
            raise OSError(f"could not write {target}")
        return target

    def settled_image(self, timeout_ms: int = 5_000, interval_ms: int = 50) -> QImage:
        """What the view shows once the page's overlays are in a frame and the picture is stable (settled_grab)."""
        self._frame_token += 1
        token = self._frame_token
        self.offline.run_js_async(f"__recordlens.overlay.ping({token})")
        return settled_grab(self.view, lambda: self._framed >= token, timeout_ms, interval_ms)

    # -- the keyboard ------------------------------------------------------------------------------------------

    def holds_focus(self) -> bool:
        """Whether the keys go to the page (the view or the widget it forwards them to)."""
        focus = QApplication.focusWidget()
        return self.view is not None and Shiboken.isValid(self.view) and focus is not None and (
            focus is self.view or self.view.isAncestorOf(focus) or focus is self.input_widget())

    def input_widget(self) -> QWidget | None:
        """The widget that takes the page's keys and wheel (`web_input_widget`)."""
        return web_input_widget(self.view)

    def has_focus_frame(self) -> bool:
        return self._framed_focus

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if not Shiboken.isValid(self):
            return
        framed = self.holds_focus()
        if framed and new is not None:  # Chromium's widget, made anew as pages load: watched from when it has the keys
            new.installEventFilter(self._window_keys_first)  # once: installed again, it moves to the front
        if framed != self._framed_focus:
            self._framed_focus = framed
            self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        super().paintEvent(event)
        if self._framed_focus:  # the panel the keys go to is framed, as the lists are (`show_focus`)
            painter = QPainter(self)
            painter.fillRect(self.rect(), self.palette().color(QPalette.ColorRole.Highlight))
            painter.end()

    def focused_xpath(self, timeout_ms: int = 5_000) -> str | None:
        """The XPath of the page's element the keyboard is on (the element cursor, or where Tab moved the focus),
        or None: the page itself."""
        if not self._is_loaded:
            return None
        found = self.offline.run_js("__recordlens.overlay.focusedPath()", timeout_ms)
        return found if isinstance(found, str) and found else None

    def focus_in_frame(self, timeout_ms: int = 5_000) -> bool:
        """Whether the keyboard is on an element inside a frame of the page (an <iframe>'s link): one that cannot
        be labelled, as a click on it is not reported."""
        return self._is_loaded and self.offline.run_js("__recordlens.overlay.focusInFrame()", timeout_ms) is True

    def move_cursor(self, how: str, timeout_ms: int = 5_000) -> CursorMove | None:
        """Move the element cursor, the keyboard's pointer drawn as an outline of its own, which E acts on as a
        click does. `how` (overlay.js `moveCursor`): "next" or "previous" element in document order, "parent" (the
        element around it), "child" (its first element inside), or "start" (where it is). With no cursor yet, any
        move puts it on the element in focus, else the one at the middle of the view, else the first one the view
        shows. It is brought into view. None before the page has loaded."""
        if not self._is_loaded:
            return None
        data = parse_js_result(self.offline.run_js(f"__recordlens.overlay.moveCursor({json.dumps(how)})", timeout_ms))
        if data is None:
            return None
        return CursorMove(data.get("path") or None, bool(data.get("moved")), bool(data.get("frame")))

    def let_go_of_the_keys(self) -> None:
        """The keys leave the page: a field of it keeps no caret (letters would go on typing into it)."""
        if self._is_loaded:
            self.offline.run_js_async("__recordlens.overlay.blurFocused()")

    # -- events from the page --------------------------------------------------------------------------------

    def _on_clicked(self, xpath: str) -> None:
        emit(self.element_clicked, xpath)

    def _on_framed(self, token: int) -> None:
        self._framed = max(self._framed, token)

    def _on_hovered(self, xpath: str) -> None:
        emit(self.hovered, xpath)

    def _on_scrolled(self, y: int) -> None:
        self.scroll_y = y
        emit(self.scrolled, y)

    def scroll_back(self, y: int, xpath: str, top: float) -> None:
        """Scroll the page back to `y`, where it was left while the element at `xpath` started at `top` (document
        y): moved by as much as the element has moved since, so that it is at the same place in the view on a page
        laid out otherwise (another font size, scale or width), and exactly to `y` on a page laid out as it was, or
        where the element is not found now."""
        page = self.loaded_page

        def scroll(raw: Any) -> None:
            if self.loaded_page is not page or not self._is_loaded:  # another page since, or none
                return
            now = _shown_rect(_located(raw))
            self.scroll_to_y(y if now is None else max(0, round(y + now[1] - top)))

        self.offline.run_js_async(_locate_js([xpath]), scroll)

    def scroll_to_y(self, y: int) -> None:
        """Scroll the page to a vertical position (a page reopened where the user left it)."""
        self.offline.run_js_async(f"window.scrollTo(0, {int(y)})")

    # -- lifetime ---------------------------------------------------------------------------------------------

    def dispose(self) -> None:
        """Release the browser page and profile (before the QApplication goes away). Idempotent.

        The widget is hidden too: an empty window left on screen would still take the pointer's events."""
        if self.view is not None:
            QApplication.instance().focusChanged.disconnect(self._on_focus_changed)
        self.offline.close()
        self.view = None
        self.hide()
