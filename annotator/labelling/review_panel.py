"""The review panel: choose a run, see the page's matched / partial / missed / spurious records and P/R/F1, the
run's means, and the pages it did worst on. The classes and figures come from `recordlens.core.records.review`.
Each class has a toggle that shows or hides its records, in the list and over the page: a run that proposes
hundreds of spurious boxes would otherwise hide the records it missed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFocusEvent, QKeyEvent, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QVBoxLayout,
    QWidget,
)

from ...core.path_text import shown_bytes
from ...core.records import (
    KINDS,
    MATCHED,
    MISSED,
    PARTIAL,
    SPURIOUS,
    DatasetScore,
    PageReview,
    PageScore,
    ReviewRecord,
    element_words,
    record_key,
)
from ...core.store import RunInfo, StoredScore, method_settings, run_origin
from ...core.wording import counted, shortened
from ..qt.combo_keys import keeps_its_own_keys
from ..qt.contrast import GRAPHICS, readable_on
from ..qt.local_time import local_time
from ..qt.row_lines import LinesInTheirOwnDirection, isolated
from ..qt.signals import emit
from ..qt.widgets import dot_that_shows, show_focus
from ..settings import RowKey
from .page_view import STATE_COLOURS
from .record_panel import spoken_text, tip_text
from .shortcuts import SHORTCUTS

NO_RUN = -1
# As core's review_page classes them: the score's optimal matching may pair records that share no text at all
# (overlap 0, nothing added to P or R); such a pair is no pair here, its two records are missed and spurious.
KIND_MEANINGS = {MATCHED: "matched: a predicted record paired with a true one at overlap ≥ 0.5",
                 PARTIAL: "partial: paired below overlap 0.5 (above 0)",
                 MISSED: "missed: a true record left unpaired, or paired with a predicted record sharing no text "
                         "with it",
                 SPURIOUS: "spurious: a predicted record left unpaired, or paired with a true record sharing no text "
                           "with it"}
KEPT = "kept"  # a disagreement whose project's version was kept (O): listed apart, no longer open
KEPT_MEANING = ("kept: a disagreement decided for the project's version (O), or merged into it (Shift+T), no longer "
                "open; the figures still count it. Unticked: hidden in the list and on the page")
KEPT_COLOUR = "#868e96"
# The legend's key to the hatching a missed record is drawn with on the page (overlay.js): what tells it from the
# others without its colour, said where the colours are.
HATCH_KEY = "hatched on the page: missed"
HATCH_MEANING = ("hatched on the page (and dashed): a true record the run missed, told apart from the others "
                 "whatever its colour looks like")
TRUE_OUTLINE = "true"  # how the overlay draws a pair's true record apart from its predicted one (dashed)
PREDICTED_KINDS = (MATCHED, PARTIAL, SPURIOUS)  # the classes whose row shows a predicted record
DATA_ROLE = Qt.ItemDataRole.UserRole
FAILURE_WIDTH = 160  # a failure's reason shown beside the page's figures (whole in their tooltip)
CHOOSER_CHARACTERS = 24  # the run chooser's least width, in characters: what a long run's or name's line is cut to
ELIDE_MARGIN = 4  # px the styles keep between the chooser's text and its edit field's edges (both sides together)
ANNOTATOR = "annotator:"  # the combo's data for another annotator's label set: "annotator:NAME"
TAKE_ALL_KEYS = next(shortcut.keys[0] for shortcut in SHORTCUTS if shortcut.name == "take_all")


@dataclass(frozen=True)
class _Chosen:
    """The review rows chosen (selected, and the current one) by what their records are, on one page: kept across
    a refill of the list (a redraw, a class shown or hidden) as long as those records are still there, and across
    a restart (`ReviewRows`)."""

    page: str
    selected: frozenset[RowKey]
    current: RowKey | None


def row_key(record: ReviewRecord) -> RowKey:
    """A review record as a redraw, or the next start, finds it again (its index may change when other records
    come or go)."""
    return record.kind, record.xpaths, record.true_xpaths


def annotator_of(choice: object) -> str | None:
    """The annotator a review choice names, or None for a run (an int) or no choice."""
    return choice[len(ANNOTATOR):] if isinstance(choice, str) and choice.startswith(ANNOTATOR) else None


def review_label(record: ReviewRecord, true_numbers: Sequence[int] = ()) -> str:
    """The badge: T<k> names a true record by the number the Records tab gives it (`true_numbers[i]`: that of
    the page's i-th true record; 1-based positions without them), P<k> a predicted one (1-based)."""
    if record.kind == SPURIOUS:
        return predicted_label(record)
    true = record.true or 0
    return f"T{true_numbers[true] if true < len(true_numbers) else true + 1}"


def predicted_label(record: ReviewRecord) -> str:
    """The badge of a record's predicted side: P<k>, its 1-based place among the page's predicted records."""
    return f"P{(record.predicted or 0) + 1}"


def overlay_records(review: PageReview, kinds: frozenset[str] = frozenset(KINDS),
                    true_numbers: Sequence[int] = (), kept: Collection[int] = (),
                    show_kept: bool = False, chosen: Collection[int] = ()) -> list[dict[str, object]]:
    """What PageView.show_records draws in review mode: the records of the classes in `kinds`, each in its
    class's colour (a pair's true record beside its predicted one: `_drawn`); the disagreements whose project's
    version was kept (`kept`: their indices) apart, only with `show_kept`, their badge saying so. The records of
    the rows chosen in the list (`chosen`: their indices) are drawn selected, as labelling draws its selected
    record: with touching records, a scroll alone does not say which one the row is."""
    return [drawn for i, r in enumerate(review.records) if (show_kept if i in kept else r.kind in kinds)
            for drawn in _drawn(r, i, true_numbers, kept=i in kept, chosen=i in chosen)]


def _drawn(record: ReviewRecord, index: int, true_numbers: Sequence[int], *, kept: bool, chosen: bool
           ) -> list[dict[str, object]]:
    """A review record as drawn: its extent under its row's badge. A pair whose true record holds other elements
    than the predicted one is two drawings in the class's colour: the true record outlined (dashed, unfilled:
    `TRUE_OUTLINE`) under its T badge, first (a larger true record lies under what was predicted inside it), and
    the predicted record filled under its P badge: the reviewer sees what the run missed and what it added, not
    a T badge on the predicted extent."""
    mark = " kept" if kept else ""
    own = {"xpaths": list(record.xpaths), "colour_index": index, "state": record.kind, "selected": chosen,
           "label": review_label(record, true_numbers) + mark}
    if record.kind not in (MATCHED, PARTIAL) or record_key(record.true_xpaths) == record_key(record.xpaths):
        return [own]
    true = {**own, "xpaths": list(record.true_xpaths), "outline": TRUE_OUTLINE}
    return [true, {**own, "label": predicted_label(record) + mark}]


def _figures(p: float | None, r: float | None, f: float | None) -> str:
    if p is None or r is None or f is None:
        return "not scored"
    return f"P {p:.3f}   R {r:.3f}   F1 {f:.3f}"


def hallucination_words(scores: Sequence[StoredScore]) -> str:
    """NEXT-EVAL's hallucination figures of a run's stored page scores (the share of pages with a predicted record
    that names no text, and the share of such records), in core's words, those of `recordlens score`."""
    return DatasetScore([PageScore(s.page, s.precision, s.recall, s.f1, s.predicted_records, s.true_records, [],
                                   s.hallucinated_records, 0) for s in scores]).hallucination_words()


def page_counts(run: RunInfo, missing: int = 0) -> str:
    """How many pages a run holds records for, failed on, and holds nothing for among the labelled ones."""
    failed = f", {run.failed_pages} failed" if run.failed_pages else ""
    absent = f", {missing} missing" if missing else ""
    return f"{counted(run.predicted_pages - run.failed_pages, 'page')}{failed}{absent}"


def run_started_and_origin(run: RunInfo) -> str:
    """When a run started and the folder it was added from: what tells runs of one method apart in the list
    (their settings, mostly the same, are in its tip)."""
    started = f"started {local_time(run.started_at, seconds=False)}"
    origin = run_origin(run.parameters, run.cost)
    return f"{started}, {origin}" if origin else started


def overlap_text(overlap: float) -> str:
    """A pair's overlap in two decimals; below 0.005 "< 0.01", since a pair always overlaps (records that do not
    are missed or spurious) and "0.00" would read as none."""
    return f"{overlap:.2f}" if overlap >= 0.005 else "< 0.01"


def _overlap_said(overlap: float) -> str:
    """`overlap_text` in words: "below 0.01" for "< 0.01"."""
    return overlap_text(overlap).replace("< ", "below ")


def _badge_said(badge: str) -> str:
    """A row's badge in words: "T3" the true record 3, "P4" the predicted record 4."""
    return f"{'true' if badge.startswith('T') else 'predicted'} record {badge[1:]}"


def wrapped(label: QLabel) -> QLabel:
    """A label whose text wraps to the panel's width and asks for none of its own: however long what it says (an
    annotator's name, a run's figures), it never widens the panel, nor the window."""
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


NO_BREAK = "\u00a0"
# Where the words of one figure meet, which a wrapped line must not part (`whole_figures`): a value and its label
# before it ("F1 0.476", "overlap 5.00", "≥ 0.5"), a count and what it counts after it ("11 missed", "5 predicted"),
# a one-letter tag after that ("(P)"), and a list's "·" and the figure it closes.
_FIGURE_JOINS = (re.compile(r"(?<=\S) (?=\d+\.\d+(?![\w.]))"), re.compile(r"(?<![\w.])(\d+) (?=[^\W\d_])"),
                 re.compile(r"(?<=\S) (?=\([A-Z]\)(?!\w))"), re.compile(r"(?<=\S) (?=· )"))


def whole_figures(text: str) -> str:
    """`text` with each figure's words joined by non-breaking spaces: "F1" never ends a line whose next one starts
    with its "0.476", nor "0" one whose next starts with "spurious". Lines break between figures only."""
    for join in _FIGURE_JOINS:
        text = join.sub(lambda found: found.group(1) + NO_BREAK if found.groups() else NO_BREAK, text)
    return text


class FiguresLabel(QLabel):
    """Figures wrapped to the panel's width (`wrapped`) between figures only, never inside one (`whole_figures`).
    `text()` is the words as set, their spaces ordinary: the non-breaking ones are how they are laid out, not what
    they say."""

    def __init__(self, text: str = "") -> None:
        super().__init__()
        wrapped(self)
        self._words = ""
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._words = text
        super().setText(whole_figures(text))

    def text(self) -> str:
        return self._words


class HatchKey(QLabel):
    """The legend's key to the hatching: a hatched swatch before its words, as a class's toggle shows its dot before
    its own, and named by its words as the toggles are. The swatch is drawn in the palette it is painted in (the
    missed colour in the shade that shows on the panel at WCAG's 3:1 for graphics): it follows a switched theme."""

    SWATCH = 14  # px, as a toggle's dot (`dot_that_shows`)
    GAP = 4  # px between the swatch and the words
    STRIPES = 5  # px from one stripe to the next, across the row

    def __init__(self) -> None:
        super().__init__(HATCH_KEY)
        self.setToolTip(HATCH_MEANING)
        self.setIndent(self.SWATCH + self.GAP)  # room for the swatch before the words
        self.setMinimumHeight(self.SWATCH + 2)  # the swatch whole, with a font smaller than it

    def swatch(self) -> QRect:
        """Where the swatch is drawn: in the indent before the words, in the middle of the height. A label lays its
        words out in their own direction, whatever the window's: the app's, left to right, so on the left."""
        area = self.contentsRect()
        return QRect(area.left(), area.center().y() - self.SWATCH // 2, self.SWATCH, self.SWATCH)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        colour = readable_on(STATE_COLOURS[MISSED], self.palette().color(QPalette.ColorRole.Window), GRAPHICS)
        painter = QPainter(self)
        _hatched(painter, self.swatch(), colour, self.STRIPES)
        painter.end()


def _hatched(painter: QPainter, area: QRect, colour: QColor, period: int) -> None:
    """`area` hatched as the overlay hatches a missed record: stripes rising to the right (lines of x + y the
    same), in `colour`, inside a dashed frame of it. Unsmoothed, so that each stripe is whole pixels."""
    painter.save()
    painter.setClipRect(area)
    painter.setPen(QPen(colour, 1))
    for start in range(area.left(), area.right() + area.height() + 1):
        if (start - area.left()) % period < 2:  # each stripe two pixels wide
            painter.drawLine(QPoint(start, area.top()), QPoint(start - area.height() + 1, area.bottom()))
    painter.setPen(QPen(colour, 1, Qt.PenStyle.DashLine))
    painter.drawRect(area.adjusted(0, 0, -1, -1))
    painter.restore()


class RunChooser(QComboBox):
    """The runs' list, which says when it is about to open: runs added meanwhile (by the command line, while the
    app is open) are listed before the person chooses. The line chosen ends in "…" where the box is narrower than
    it (a narrow panel, a run's long line), never cut mid-word; the whole of it is in the box's tip. The line on
    show chosen again from the open list is said too (`chosen_again`): Qt's box reports a change of line only, and
    an annotator's comparison that failed or was cancelled is made again by choosing them again."""

    opening = Signal()
    chosen_again = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._opened_on: int | None = None  # the line on show as the list opened (after it was listed again)
        self.activated.connect(self._on_activated)

    def showPopup(self) -> None:  # noqa: N802 - Qt's name
        emit(self.opening)
        self._opened_on = self.currentIndex()
        super().showPopup()

    def _on_activated(self, index: int) -> None:
        opened_on, self._opened_on = self._opened_on, None
        if index == opened_on:
            emit(self.chosen_again)

    def shown_text(self) -> str:
        """The chosen line as the box draws it: whole, or its start and "…"."""
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        return self._elided(option)

    def _elided(self, option: QStyleOptionComboBox) -> str:
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        room = field.width() - ELIDE_MARGIN - (option.iconSize.width() + 4 if not option.currentIcon.isNull() else 0)
        return self.fontMetrics().elidedText(option.currentText, Qt.TextElideMode.ElideRight, max(0, room))

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        # As QComboBox paints itself, the label's text elided to the room it has (Qt clips it at the edge)
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        option.currentText = self._elided(option)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)


class RowsByKeys(QListWidget):
    """A list that says when the keys take it to another row (`row_reached(item)`: Up, Down, Page Up, Home, a
    row's first letters): not when the code makes one current (the list refilled, the next open row after a
    decision), nor for a click, which `itemClicked` says. The keys coming in (F6, Ctrl+3) choose no row: Qt's
    own choice of the first would be decided by T unseen, the page elsewhere; the first Down reaches it."""

    row_reached = Signal(QListWidgetItem)

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt's name
        chosen = self.currentItem() is not None
        super().focusInEvent(event)
        if not chosen:
            self.selectionModel().clearCurrentIndex()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        before = self.currentRow()
        super().keyPressEvent(event)
        item = self.currentItem()
        if item is not None and self.currentRow() != before:
            emit(self.row_reached, item)


class WorstPages(QListWidget):
    """The run's worst pages: a few rows high at most, one when there are none, so that the review list above it
    takes the panel's height first (with a stretch of 2 to 1 beyond that). Qt's lists ask for 192 px and at least
    about 70 whatever they hold: an empty list of worst pages was as tall as the review list in a short window."""

    ROWS_ASKED = 5  # rows the list asks for when it has them (more scroll)
    LEAST_ROWS = 2  # rows it keeps when the panel is short; one when it holds none

    def __init__(self) -> None:
        super().__init__()
        model = self.model()
        for change in (model.rowsInserted, model.rowsRemoved, model.modelReset):
            change.connect(self._fit)
        self._fit()

    def _fit(self) -> None:
        """Grown with the panel while it holds rows; an empty list stays one row high, the room left to others."""
        grows = QSizePolicy.Policy.Expanding if self.count() else QSizePolicy.Policy.Fixed
        self.setSizePolicy(QSizePolicy.Policy.Expanding, grows)
        self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self._rows_high(min(max(self.count(), 1), self.ROWS_ASKED))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self._rows_high(min(max(self.count(), 1), self.LEAST_ROWS))

    def _rows_high(self, rows: int) -> QSize:
        row = self.sizeHintForRow(0) if self.count() else self.fontMetrics().height() + 4
        return QSize(super().minimumSizeHint().width(), rows * row + 2 * self.frameWidth())


class FiguresWhole(QWidget):
    """The panel's parts, whose height for a width is the least their layout needs at it: that of the figures'
    wrapped lines whole, the lists at their least. `ScrolledWhenShort` is never given less (a scroll area gives
    its widget the height the widget asks for its width, which by Qt's default is the preferred one)."""

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        layout = self.layout()
        return layout.totalMinimumHeightForWidth(width) if layout is not None else super().heightForWidth(width)


class ScrolledWhenShort(QScrollArea):
    """The review panel's parts, scrolled (up and down only) where the panel is shorter than they need: squeezed
    below that (a short window, a large font), Qt's layout cut the page's wrapped figures to a line or two. As
    narrow as the parts can be, no narrower: their width stays the window's least width, as it was without."""

    def __init__(self, content: QWidget) -> None:
        super().__init__()
        self.setWidget(content)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys go to the parts
        # Scrolled to the part the keys go to, however they get there: Tab does it, F6 or a click on the tab not.
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._show_focused)

    def _show_focused(self, _old: QWidget | None, new: QWidget | None) -> None:
        content = self.widget()
        if new is not None and content is not None and content.isAncestorOf(new):
            self.ensureWidgetVisible(new)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        content = self.widget()
        least = content.minimumSizeHint().width() if content is not None else 0
        return QSize(least + self.verticalScrollBar().sizeHint().width(), super().minimumSizeHint().height())


SCORE = "Score this run against the labels"
SCORE_AGAIN = "Score this run again"  # short: a button's text is the panel's least width
SCORE_TIPS = {SCORE: "Score this run against the project's labels", SCORE_AGAIN: "Score this run again against "
              "the project's labels as they are now"}


class ReviewPanel(QWidget):
    """Signals: `run_chosen(run_id)` (NO_RUN for none), `page_chosen(name)` (a worst page picked),
    `record_chosen(index)` (a reviewed record picked), `score_requested(run_id)`, `kinds_changed()` (a class
    shown or hidden: `shown_kinds()`), `runs_opening()` (the runs' list is about to open), `take_all_requested()`
    (every record of another annotator's that the project lacks on the page, to be taken), `runs_listed(any)`
    (the runs and annotators listed again; `any`: whether there is one to review)."""

    run_chosen = Signal(object)  # a run id, NO_RUN, or "annotator:NAME"
    page_chosen = Signal(str)
    record_chosen = Signal(int)
    score_requested = Signal(int)
    kinds_changed = Signal()
    runs_opening = Signal()
    take_all_requested = Signal()
    runs_listed = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runs = RunChooser()
        self.runs.opening.connect(self.runs_opening)
        keeps_its_own_keys(self.runs)  # Alt+Down opens it, not the window's Shift+U
        # A run's line says its method, outcome, pages and origin; an annotator's, their name: however long, the
        # chooser asks for `CHOOSER_CHARACTERS`, cuts the rest (whole in its tip) and lets the panel set its width.
        self.runs.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.runs.setMinimumContentsLength(CHOOSER_CHARACTERS)
        self.runs.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        # Long figures wrap inside the panel: what a page or a run says never widens the panel.
        self.page_figures = FiguresLabel("—")
        self.run_figures = FiguresLabel("—")
        self.score_button = QPushButton(SCORE)
        self.kind_toggles = {kind: self._kind_toggle(kind) for kind in KINDS}
        self.kept_toggle = QCheckBox(f"{KEPT} (0)")  # apart from the classes: not one of the review's, nor remembered
        dot_that_shows(self.kept_toggle, KEPT_COLOUR)  # in the shade that shows on the theme, as it switches
        self.kept_toggle.setChecked(True)
        self.kept_toggle.setToolTip(KEPT_MEANING)
        self.kept_toggle.hide()
        self.kept: frozenset[int] = frozenset()  # the page's review records whose project's version was kept
        self._merged: frozenset[int] = frozenset()  # those of them a merge (Shift+T) decided
        # Two by two, and never wider than the panel: the counts in their texts change from page to page.
        legend = QWidget()
        legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        grid = QGridLayout(legend)
        grid.setContentsMargins(0, 0, 0, 0)
        for k, toggle in enumerate(self.kind_toggles.values()):
            grid.addWidget(toggle, k // 2, k % 2)
        self.hatch_key = HatchKey()
        grid.addWidget(self.hatch_key, len(KINDS) // 2, 0)  # under missed, the class it is drawn for
        grid.addWidget(self.kept_toggle, len(KINDS) // 2, 1)
        # The runs as last listed (None: not yet): what the first change seen elsewhere is told against
        self.listed_runs: dict[int, RunInfo] | None = None
        self._review: PageReview | None = None
        self._texts: Sequence[str] = ()
        self._true_texts: Sequence[str] = ()
        self.true_numbers: Sequence[int] = ()
        self._named: Sequence[int] = ()
        self._entries: Sequence[int] = ()
        self._whole: Callable[[Sequence[str]], str] | None = None
        self.records = RowsByKeys()
        # Several rows at once (Shift+click, Ctrl+click): T decides them all in one step.
        self.records.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        # Each line in its own direction, the page's words isolated in it (an Arabic record's text read right to
        # left, the marks and numbers around it left where they are), cut at its logical end; in the row's colour.
        self.records.setItemDelegate(LinesInTheirOwnDirection(self.records))
        # What the take-all button takes, said in a label that wraps beside it: a sentence with an annotator's name
        # and what it leaves out, on the button itself, made its width the panel's and the window's least width.
        self.take_all = QPushButton()
        self.take_all_words = wrapped(QLabel())
        self.take_all_offer = QWidget()
        offer = QHBoxLayout(self.take_all_offer)
        offer.setContentsMargins(0, 0, 0, 0)
        offer.addWidget(self.take_all_words, 1)
        offer.addWidget(self.take_all)
        self.take_all_offer.hide()
        self.worst = WorstPages()
        form = QFormLayout()
        form.addRow("run", self.runs)
        form.addRow("this page", self.page_figures)
        form.addRow("run mean", self.run_figures)
        content = FiguresWhole()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(form)
        layout.addWidget(self.score_button)
        layout.addWidget(legend)
        layout.addWidget(self.records, 2)
        layout.addWidget(self.take_all_offer)
        layout.addWidget(wrapped(QLabel("worst pages (W opens the worst, then the next)")))
        layout.addWidget(self.worst, 1)
        self.scroll = ScrolledWhenShort(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll)
        self.runs.currentIndexChanged.connect(self._on_run)
        self.runs.chosen_again.connect(lambda: emit(self.run_chosen, self.run_id()))
        self.worst.itemActivated.connect(lambda item: emit(self.page_chosen, item.data(DATA_ROLE)))
        self.worst.itemClicked.connect(lambda item: emit(self.page_chosen, item.data(DATA_ROLE)))
        # A row clicked, or reached with the arrow keys, moves the page to its record: once for each
        self.records.itemClicked.connect(lambda item: emit(self.record_chosen, item.data(DATA_ROLE)))
        self.records.row_reached.connect(lambda item: emit(self.record_chosen, item.data(DATA_ROLE)))
        self.runs.setAccessibleName("run under review")
        self.records.setAccessibleName("review records")
        self.worst.setAccessibleName("worst pages")
        show_focus(self.records, self.worst)
        self.records.installEventFilter(self)  # a theme switched: the rows' colours follow
        self.score_button.clicked.connect(lambda: emit(self.score_requested, self.run_id()))
        self.take_all.clicked.connect(lambda: emit(self.take_all_requested))
        self.score_button.hide()
        for toggle in (*self.kind_toggles.values(), self.kept_toggle):
            toggle.toggled.connect(self._on_kinds)

    @staticmethod
    def _kind_toggle(kind: str) -> QCheckBox:
        toggle = QCheckBox(f"{kind} (0)")
        dot_that_shows(toggle, STATE_COLOURS[kind])
        toggle.setChecked(True)
        toggle.setToolTip(f"{KIND_MEANINGS[kind]}. Unticked: its records are hidden in the list and on the page")
        return toggle

    def shown_kinds(self) -> frozenset[str]:
        """The classes whose records the list and the page show."""
        return frozenset(kind for kind, toggle in self.kind_toggles.items() if toggle.isChecked())

    def show_only(self, kinds: Sequence[str]) -> None:
        """Tick these classes' toggles and untick the others', then show the result once."""
        for kind, toggle in self.kind_toggles.items():
            toggle.blockSignals(True)
            toggle.setChecked(kind in kinds)
            toggle.blockSignals(False)
        self._on_kinds()  # once, not once per tick box

    def shows_kept(self) -> bool:
        """Whether the list and the page show the kept disagreements."""
        return self.kept_toggle.isChecked()

    def offer_keep(self, annotator: str | None) -> None:
        """The kept disagreements' toggle, while another annotator's labels are under review (a run is not
        adjudicated)."""
        self.kept_toggle.setVisible(annotator is not None)

    def current_index(self) -> int | None:
        """The chosen row's record (its index in the page's review), None when no row is chosen."""
        item = self.records.currentItem()
        return None if item is None else int(item.data(DATA_ROLE))

    def chosen_indices(self) -> list[int]:
        """The selected rows' records (their indices in the page's review), in list order; the chosen row's alone
        when none is selected."""
        rows = sorted(self.records.row(item) for item in self.records.selectedItems())
        if not rows:
            current = self.current_index()
            return [] if current is None else [current]
        return [int(self.records.item(row).data(DATA_ROLE)) for row in rows]

    def open_count(self) -> int:
        """How many of the page's review records are a disagreement still open (not matched, not kept), their rows
        shown or not."""
        records = self._review.records if self._review is not None else ()
        return sum(1 for i, record in enumerate(records) if record.kind != MATCHED and i not in self.kept)

    def open_rows(self) -> list[tuple[int, int]]:
        """The rows listed whose record is a disagreement still open (not matched, not kept), in the list's order:
        each row with its record's index in the page's review."""
        if self._review is None:
            return []
        records = self._review.records
        indices = [(k, int(self.records.item(k).data(DATA_ROLE))) for k in range(self.records.count())]
        return [(k, i) for k, i in indices if records[i].kind != MATCHED and i not in self.kept]

    def choose_open_row(self, row: int) -> bool:
        """After a decision: the first row from `row` on whose record is still a disagreement (not matched), else
        the first such row above; so that T again goes on to the next one. A kept disagreement is no open one. With
        none left in the list no row is chosen: a matched (or kept) row chosen would read as one left to decide,
        and T on it would change the project's record. Whether an open row was chosen."""
        if self._review is None or not self.records.count():
            return False
        open_rows = [k for k, _ in self.open_rows()]
        if not open_rows:
            self.records.clearSelection()
            self.records.setCurrentRow(-1)
            return False
        after = [k for k in open_rows if k >= row]
        # That row alone: the rows just decided were selected, and an extended list's setCurrentRow adds to them
        self.records.setCurrentRow(after[0] if after else open_rows[0],
                                   QItemSelectionModel.SelectionFlag.ClearAndSelect)
        return True

    def offer_take_all(self, annotator: str | None, count: int, left_out: str = "", *, accepting: str = "",
                       left: int = 0) -> None:
        """The button that takes every record of the annotator's that the project lacks on the page (`count`),
        shown while there are such records; `accepting` says how it takes those the page holds as proposals (it
        accepts them), `left_out` the `left` records it leaves (kept with O, held already). With nothing to take,
        what it leaves is said still, the button hidden: a reviewer learns of them without pressing its keys."""
        offered = annotator is not None and count > 0
        said = annotator is not None and (offered or bool(left_out))
        self.take_all_offer.setVisible(said)
        self.take_all.setVisible(offered)
        if annotator is not None and not count and left_out:
            self.take_all_words.setText(f"nothing to take: {counted(left, 'record')} of {annotator}'s left out "
                                        f"({left_out})")
        elif annotator is not None and count:
            notes = [accepting] if accepting else []
            notes += [f"left out: {left_out}"] if left_out else []
            how = f" ({'; '.join(notes)})" if notes else ""
            words = (f"{count} of {annotator}'s records the project lacks on this page{how}" if count > 1
                     else f"{annotator}'s record the project lacks on this page{how}")
            self.take_all_words.setText(words)
            self.take_all.setText(f"Take all {count}" if count > 1 else "Take it")
            self.take_all.setToolTip(f"Take {'all ' if count > 1 else ''}{words} ({TAKE_ALL_KEYS})")

    def _on_kinds(self) -> None:
        self._fill_records(self._chosen())
        emit(self.kinds_changed)

    def chosen_rows(self) -> tuple[str, list[RowKey], RowKey | None] | None:
        """The page under review, the keys of its rows chosen (sorted: the same choice is always written alike)
        and the current row's; None without a page's review."""
        chosen = self._chosen()
        return None if chosen is None else (chosen.page, sorted(chosen.selected), chosen.current)

    def choose_rows(self, page: str, selected: Collection[RowKey], current: RowKey | None) -> None:
        """These rows alone chosen (those of them the list holds), the current one `current` if it is there: the
        rows a restart chooses again. Nothing for another page's."""
        review = self._review
        if review is None or review.score.page != page:
            return
        self.records.clearSelection()
        self._choose_again(review, _Chosen(page, frozenset(selected), current))

    def _chosen(self) -> _Chosen | None:
        review = self._review
        if review is None:
            return None
        records = review.records
        current = self.current_index()
        selected = frozenset(row_key(records[int(item.data(DATA_ROLE))]) for item in self.records.selectedItems())
        return _Chosen(review.score.page, selected, None if current is None else row_key(records[current]))

    def set_runs(self, runs: Sequence[RunInfo], current: object = NO_RUN, annotators: Sequence[str] = (),
                 missing: Mapping[int, int] | None = None) -> None:
        """The runs, then the other annotators' label sets (compared with the project's labels), to choose from.
        `missing`: run id -> how many labelled pages it holds nothing for. A run that shares its method with
        another says when it started and where it came from."""
        missing = missing or {}
        self.listed_runs = {run.id: run for run in runs}
        methods = [run.method for run in runs]
        self.runs.blockSignals(True)
        try:
            self.runs.clear()
            # With nothing to review yet, the one line says how to get something.
            self.runs.addItem("— choose a run or an annotator —" if runs or annotators else
                              "— no run yet: recordlens runs --add, or import --annotator —",
                              NO_RUN)
            for run in runs:
                origin = f" · {run_started_and_origin(run)}" if methods.count(run.method) > 1 else ""
                self.runs.addItem(f"#{run.id} {run.method} ({run.outcome}, {page_counts(run, missing.get(run.id, 0))})"
                                  f"{origin}", run.id)
                self.runs.setItemData(self.runs.count() - 1, self._run_tip(run), Qt.ItemDataRole.ToolTipRole)
            for name in annotators:
                self.runs.addItem(f"annotator {name} against the project's labels", ANNOTATOR + name)
                # in the tip too: the chooser cuts a long name (a run's tip is its settings, `_tip_the_choice`)
                self.runs.setItemData(self.runs.count() - 1, self.runs.itemText(self.runs.count() - 1),
                                      Qt.ItemDataRole.ToolTipRole)
            index = self.runs.findData(current)
            self.runs.setCurrentIndex(max(0, index))
        finally:
            self.runs.blockSignals(False)
        self._tip_the_choice()
        emit(self.runs_listed, bool(runs or annotators))

    def _tip_the_choice(self) -> None:
        """The chosen line whole in the list's tip: a narrow panel cuts it, and its end tells runs apart."""
        tip, text = self.runs.currentData(Qt.ItemDataRole.ToolTipRole), self.runs.currentText()
        self.runs.setToolTip("" if not tip else text if tip == text else f"{text}\n{tip}")

    @staticmethod
    def _run_tip(run: RunInfo) -> str:
        ended = f", ended {local_time(run.ended_at, zone=True)}" if run.ended_at else ""
        source = f"\nfrom {shown_bytes(str(run.parameters['source']))}" if run.parameters.get("source") else ""
        settings = method_settings(run.parameters)
        # what a model's run paid for, as `recordlens runs` says it (its requests, every attempt, and its tokens)
        return (f"run {run.id}: {run.method}, started {local_time(run.started_at, zone=True)}{ended}{source}"
                + (f"\nsettings: {settings}" if settings else "") + (f"\nspent: {run.spent}" if run.spent else ""))

    def run_id(self) -> object:
        """The chosen run's id, "annotator:NAME" for an annotator's label set, NO_RUN for none."""
        value = self.runs.currentData()
        if value is None:
            return NO_RUN
        return value if annotator_of(value) is not None else int(value)

    def show_run(self, run: RunInfo | None, worst: Sequence[tuple[str, float]], stale: int = 0,
                 scores: Sequence[StoredScore] = (), missing: int = 0, why_stale: str = "", unscored: int = 0,
                 holes_unscored: int = 0) -> None:
        """The run's means (with its hallucination figures, from its stored `scores`) and worst pages; `stale`
        pages changed since it was scored or scored by an earlier RecordLens, said as `why_stale` (offered: Score
        again); `missing` labelled pages it holds nothing for; `unscored` labelled pages its stored means leave
        out (labelled since it was scored), `holes_unscored` of them pages it failed on or holds nothing for.
        Means no longer current say so on their line, where they are read before anything else."""
        lines = [self._means(run, stale, unscored) if run else "—"]
        if run and scores and not run.scores_dropped:  # of the scores left alone: no more the run's than its means
            lines.append(hallucination_words(scores))
        if run and (run.failed_pages or missing):
            lines.append(f"⚠ {self._holes(run.failed_pages, missing)}: "
                         f"{self._holes_in_means(run, run.failed_pages + missing, holes_unscored)}")
            # The pages scored without a prediction are what the means count as empty: with none, the means are
            # those without them already.
            in_means = run.scored_pages - run.scored_with_prediction
            if in_means and run.scored_with_prediction and run.f1_with_prediction is not None:
                lines.append(f"without them: F1 {run.f1_with_prediction:.3f} over "  # as score's "without failed"
                             f"{counted(run.scored_with_prediction, 'page')} it predicted")
        if run and stale:
            lines.append(f"⚠ {why_stale or counted(stale, 'page') + ' changed since it was scored'}")
        self.run_figures.setText("\n".join(lines))
        self._offer_score(run is not None and (run.scored_pages == 0 or stale > 0))
        self.score_button.setText(SCORE_AGAIN if run is not None and run.scored_pages else SCORE)
        self.score_button.setToolTip(SCORE_TIPS[self.score_button.text()])
        self.worst.clear()
        for name, f1 in worst:
            item = QListWidgetItem(f"page {name}   F1 {f1:.3f}")
            item.setData(DATA_ROLE, name)
            self.worst.addItem(item)

    def _offer_score(self, offered: bool) -> None:
        """The Score button shown while the run has something to score. Hidden with the keys on it (pressed: the
        run is scored), the keys go to the review's list (or its run chooser), not where Qt would hand them on, the
        next tick box: Space there hid a class's records unasked."""
        if not offered and self.score_button.hasFocus():
            self.first_control().setFocus(Qt.FocusReason.OtherFocusReason)
        self.score_button.setVisible(offered)

    @classmethod
    def _means(cls, run: RunInfo, stale: int, unscored: int) -> str:
        """The run's means, said out of date where they are; none for a run some of whose scores went with its
        predictions since it was scored (`RunInfo.scores_dropped`): a mean of the scores left would be a figure the
        run never had."""
        if run.scores_dropped:
            return "— (no figures: its predictions changed since it was scored: Score again)"
        return _figures(run.precision, run.recall, run.f1) + cls._out_of_date(run, stale, unscored)

    @staticmethod
    def _out_of_date(run: RunInfo, stale: int, unscored: int) -> str:
        """" (scored before 36 pages were labelled: Score again)" after means that leave out pages labelled since,
        " (out of date: Score again)" after means some of whose pages changed since; "" after current means."""
        if not run.scored_pages:
            return ""
        if unscored:
            return f" (scored before {counted(unscored, 'page')} {'was' if unscored == 1 else 'were'} labelled: " \
                   "Score again)"
        return " (out of date: Score again)" if stale else ""

    @staticmethod
    def _holes_in_means(run: RunInfo, holes: int, unscored: int) -> str:
        """What the means make of the pages a run failed on or holds nothing for (`holes`), `unscored` of them
        labelled since it was scored (in no figure yet); before it is scored, what scoring will make of them."""
        if not run.scored_pages:
            return "scoring counts them as empty predictions"
        if not unscored:
            return "scored as empty predictions"
        left_out = "not in the mean (labelled since it was scored)"
        return left_out if unscored >= holes else f"{unscored} {left_out}, the others scored as empty predictions"

    @staticmethod
    def _holes(failed: int, missing: int) -> str:
        """"failed on 2 pages, nothing for 1 labelled page" (either part alone when the other is 0)."""
        parts = [f"failed on {counted(failed, 'page')}"] if failed else []
        if missing:
            parts.append(f"{'nothing' if failed else 'holds nothing'} for {counted(missing, 'labelled page')}")
        return ", ".join(parts)

    def show_page(self, review: PageReview | None, note: str = "", texts: Sequence[str] = (),
                  true_texts: Sequence[str] = (), true_numbers: Sequence[int] = (), named: Sequence[int] = (),
                  entries: Sequence[int] = (), kept: Collection[int] = (), merged: Collection[int] = (),
                  failure: str = "", whole: Callable[[Sequence[str]], str] | None = None) -> None:
        """The page's figures, with `note` (what qualifies them) below, and one row per reviewed record of a shown
        class (`texts[i]`: record i's text, `true_texts[i]`: the text of the true record it is paired with, when
        given: a row's tip shows both; `true_numbers`: the true records' numbers in the Records tab; `named[i]`:
        how many of record i's XPaths name an element of the page; `entries[i]`: how many text entries it holds,
        none making a predicted record hallucinated; `kept`: the records whose project's version was kept, listed
        apart and counted on their own toggle, not their class's; `merged`: those of them a merge decided). The
        rows chosen stay chosen while the page is the same and their records are still there. `failure`: why the
        run failed on the page, said first, its figures then those of the empty prediction it is scored as (a
        failure must not lead with NEXT-EVAL's 1 of a page with nothing to find). `whole(xpaths)`: a record's whole
        text, for its row's tip (the rows' texts are cut); without it the tip holds the row's text."""
        chosen = self._chosen()
        self._review, self._texts, self._true_texts, self.true_numbers = review, texts, true_texts, true_numbers
        self._named, self._entries, self.kept, self._merged = named, entries, frozenset(kept), frozenset(merged)
        self._whole = whole
        records = review.records if review is not None else ()
        for kind, toggle in self.kind_toggles.items():
            toggle.setText(f"{kind} ({sum(1 for i, r in enumerate(records) if r.kind == kind and i not in self.kept)})")
        self.kept_toggle.setText(f"{KEPT} ({len(self.kept)})")
        self._fill_records(chosen)
        self.page_figures.setToolTip(f"the run failed on this page: {failure}" if failure else "")
        if review is None:
            self.page_figures.setText(note or "—")
            return
        s = review.score
        # NEXT-EVAL scores a page with no true and no predicted record 1: the summary's 0 of 0 would not say why
        nothing = not s.predicted_records and not s.true_records
        why = (" (an empty prediction where there is nothing to find: 1 by NEXT-EVAL's rule)" if failure else
               " (nothing to find and nothing proposed: 1 by NEXT-EVAL's rule)") if nothing else ""
        failed = (f"⚠ the run failed on this page ({shortened(failure, FAILURE_WIDTH)}); scored as an empty "
                  "prediction:\n") if failure else ""
        hallucinated = (f"\n{s.hallucinated_records} of {counted(s.predicted_records, 'predicted record')} "
                        "hallucinated (no text on the page)") if s.predicted_records else ""
        caveat = f"\n⚠ {note}" if note else ""
        self.page_figures.setText(f"{failed}{_figures(s.precision, s.recall, s.f1)}{why}\n{review.summary()}"
                                  f"{hallucinated}{caveat}")

    def _fill_records(self, chosen: _Chosen | None = None) -> None:
        review, texts, shown = self._review, self._texts, self.shown_kinds()
        self.records.clear()
        if review is None:
            return
        self._add_rows(review, texts, shown)
        if chosen is not None and chosen.page == review.score.page:
            self._choose_again(review, chosen)

    def _choose_again(self, review: PageReview, chosen: _Chosen) -> None:
        for row in range(self.records.count()):
            item = self.records.item(row)
            identity = row_key(review.records[int(item.data(DATA_ROLE))])
            if identity == chosen.current:
                self.records.setCurrentItem(item, QItemSelectionModel.SelectionFlag.NoUpdate)
            if identity in chosen.selected:
                item.setSelected(True)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.records and event.type() == QEvent.Type.PaletteChange:
            self._colour_rows()
        return False

    def _row_colours(self) -> dict[str, QColor]:
        """The page's colours (a class's, and the kept rows'), in the shade that reads on the list's background in
        its palette now (a dark palette's too)."""
        base = self.records.palette().base().color()
        return {kind: readable_on(colour, base) for kind, colour in (*STATE_COLOURS.items(), (KEPT, KEPT_COLOUR))}

    def _row_kind(self, review: PageReview, index: int) -> str:
        """What colours record `index`'s row: its class, or kept (dimmed: decided)."""
        return KEPT if index in self.kept else review.records[index].kind

    def _colour_rows(self) -> None:
        """The rows in the colours that read on the list's palette now: the theme switched under them."""
        review = self._review
        if review is None:
            return
        colours = self._row_colours()
        for row in range(self.records.count()):
            item = self.records.item(row)
            item.setForeground(colours[self._row_kind(review, int(item.data(DATA_ROLE)))])

    def _add_rows(self, review: PageReview, texts: Sequence[str], shown: frozenset[str]) -> None:
        colours = self._row_colours()
        for index, record in enumerate(review.records):
            kept = index in self.kept
            if not (self.shows_kept() if kept else record.kind in shown):
                continue
            pair = record.kind in (MATCHED, PARTIAL)
            overlap = f"  overlap {overlap_text(record.overlap)}" if pair else ""
            text = isolated(texts[index]) if index < len(texts) and texts[index] else "(no text)"
            # A pair's row is named after its true record but shows what was predicted: said, and both numbered.
            paired_with = f" ↔ {predicted_label(record)}" if pair else ""
            shown_text = f"predicted: {text}" if paired_with else text
            named = self._named[index] if index < len(self._named) else len(record.xpaths)
            decided = self._decided(index)
            hallucinated = ", hallucinated" if self._hallucinated(record, index) else ""
            item = QListWidgetItem(f"■ {review_label(record, self.true_numbers):>4}{paired_with}  {record.kind}"
                                   f"{f' ({decided})' if decided else ''}{hallucinated}{overlap}  "
                                   f"{element_words(record.xpaths, named)}\n        {shown_text}")
            item.setForeground(colours[self._row_kind(review, index)])
            item.setToolTip(self._tip(record, index))
            item.setData(Qt.ItemDataRole.AccessibleTextRole, self._spoken(record, index, named))
            item.setData(DATA_ROLE, index)
            self.records.addItem(item)

    def _decided(self, index: int) -> str:
        """How a kept disagreement was decided ("kept: the project's version"); "" for a record still open."""
        if index not in self.kept:
            return ""
        return f"{KEPT}: merged into the project's" if index in self._merged else f"{KEPT}: the project's version"

    def _hallucinated(self, record: ReviewRecord, index: int) -> bool:
        """A predicted record with no text on the page: what NEXT-EVAL calls hallucinated."""
        return record.kind in PREDICTED_KINDS and index < len(self._entries) and not self._entries[index]

    def _spoken(self, record: ReviewRecord, index: int, named: int) -> str:
        """A row as a screen reader says it, in words where the row has marks and short forms ("■", "T3 ↔ P4",
        "(2 el)"), the record's text whole (the row cuts it) and without the marks that isolate it: "true record 3,
        matched with predicted record 4, overlap 0.85, 1 element: predicted: …"."""
        pair = record.kind in (MATCHED, PARTIAL)
        overlap = _overlap_said(record.overlap)
        paired = f" with {_badge_said(predicted_label(record))}, overlap {overlap}" if pair else ""
        decided = f", {self._decided(index)}" if self._decided(index) else ""
        hallucinated = ", hallucinated" if self._hallucinated(record, index) else ""
        text = spoken_text(self._whole_text(record.xpaths, self._texts, index)) or "no text"
        return (f"{_badge_said(review_label(record, self.true_numbers))}, {record.kind}{paired}{decided}{hallucinated}"
                f", {element_words(record.xpaths, named, spoken=True)}: {'predicted: ' if pair else ''}{text}")

    def _whole_text(self, xpaths: Sequence[str], texts: Sequence[str], index: int) -> str:
        """A record's whole text when the page's texts are given (`whole`), else its row's (`texts[index]`)."""
        return self._whole(xpaths) if self._whole else texts[index] if index < len(texts) else ""

    def _tip(self, record: ReviewRecord, index: int) -> str:
        """A row's tip: its record's whole text (a pair's, both records'), where the row's is cut."""
        own = self._whole_text(record.xpaths, self._texts, index)
        if record.kind not in (MATCHED, PARTIAL):
            return tip_text(own)
        paired = self._whole_text(record.true_xpaths, self._true_texts, index)
        return f"predicted: {tip_text(own)}\ntrue: {tip_text(paired)}"

    def first_control(self) -> QWidget:
        """Where the keys go when review opens (F6): the review list when it has rows, else the run chooser."""
        return self.records if self.records.count() else self.runs

    def _on_run(self, _index: int) -> None:
        self._tip_the_choice()
        emit(self.run_chosen, self.run_id())
