"""The main window: pages on the left, the page with its records drawn in the middle, records and review on the
right, a status bar. It wires views to the project: every decision (what a click does to a record, which
siblings match, how records are classed in review) is a core call; every edit is an undoable store change.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QCloseEvent, QPainter, QPixmap, QUndoGroup, QUndoStack
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.errors import RecordLensError
from ...core.records import (
    PageReview,
    TextKeyIndex,
    new_records,
    review_page,
    sibling_records,
    split_parts,
    toggle_xpath,
    worst_pages,
)
from ...core.store import TRUE_PAGE_STATUSES, Change, Label, Project, Provenance, RunInfo, open_project
from ..settings import (
    KeyStore,
    Settings,
    default_key_store,
    extractor_params,
    gemini_key,
    proposal_method,
    settings_path,
)
from ..settings_dialog import SettingsDialog
from .commands import LabelCommand, StatusCommand, push, push_all
from .history_dialog import HistoryDialog, when
from .page_list import PageList
from .page_view import PageView
from .propose import BackgroundJob, Proposal, ProposeWorker
from .record_panel import RecordPanel, rows_for
from .review_panel import NO_RUN, ReviewPanel, overlay_records
from .shortcuts import SHORTCUTS, ShortcutSheet, key_sequences

_log = logging.getLogger(__name__)
WORST_SHOWN = 15
_BUTTONS = (("accept", "Accept"), ("reject", "Reject"), ("new_record", "New"), ("siblings", "Siblings"),
            ("merge", "Merge"), ("split", "Split"), ("delete", "Delete"), ("propose", "Propose"))


class MainWindow(QMainWindow):
    def __init__(self, project: Project, *, settings: Settings | None = None, settings_file: Path | None = None,
                 key_store: KeyStore | None = None) -> None:
        super().__init__()
        self.project = project
        self.settings_file = settings_file or settings_path()
        self.settings = settings or Settings.load(self.settings_file)
        self.keys = key_store or default_key_store()
        self.page_name: str | None = None
        self.labels: list[Label] = []
        self.review: PageReview | None = None
        self.job: BackgroundJob | None = None
        self._review_run = NO_RUN
        self._predictions: dict[int, dict[str, list[list[str]]]] = {}
        self._stacks: dict[str, QUndoStack] = {}
        self._arm_new = False
        self._page_loaded = False
        self._closed = False
        self._sheet: ShortcutSheet | None = None
        self.history_dialog: HistoryDialog | None = None
        self._agent_window = None

        self.page_list = PageList()
        self.page_view = PageView()
        self.breadcrumb = QLabel(" ")
        self.breadcrumb.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.record_panel = RecordPanel()
        self.review_panel = ReviewPanel()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.record_panel, "Records")
        self.tabs.addTab(self.review_panel, "Review")
        self.undo_group = QUndoGroup(self)
        self._build_layout()
        self.actions_by_name: dict[str, QAction] = {}
        self._build_actions()
        self._build_status_bar()
        self._connect()
        self.refresh_pages()
        self.review_panel.set_runs(self.project.runs.all())
        self._update_title()
        names = self.page_list.names()
        if names:
            self.open_page(names[0])

    # -- building ----------------------------------------------------------------------------------------------

    def _build_layout(self) -> None:
        centre = QWidget()
        layout = QVBoxLayout(centre)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.breadcrumb)
        layout.addWidget(self.page_view, 1)
        splitter = QSplitter()
        for widget in (self.page_list, centre, self.tabs):
            splitter.addWidget(widget)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([250, 900, 380])
        self.setCentralWidget(splitter)
        self.resize(1530, 920)

    def _build_actions(self) -> None:
        menus: dict[str, object] = {}
        for shortcut in SHORTCUTS:
            action = QAction(shortcut.text, self)
            action.setShortcuts(key_sequences(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(getattr(self, f"do_{shortcut.name}"))
            self.addAction(action)  # shortcuts work with the menu bar hidden too
            if shortcut.group not in menus:
                menus[shortcut.group] = self.menuBar().addMenu(shortcut.group)
            menus[shortcut.group].addAction(action)  # type: ignore[attr-defined]
            self.actions_by_name[shortcut.name] = action
        for position, (name, short) in enumerate(_BUTTONS):
            action = self.actions_by_name[name]
            action.setIconText(short)
            self.record_panel.add_button(action, position // 4, position % 4)
        # The agent-benchmark tools live in their own window, built only when first asked for.
        self.menuBar().addMenu("Agent").addAction("Agent benchmarks…").triggered.connect(self.open_agent_tools)
        self.undo_group.canUndoChanged.connect(self.actions_by_name["undo"].setEnabled)
        self.undo_group.canRedoChanged.connect(self.actions_by_name["redo"].setEnabled)
        self.actions_by_name["undo"].setEnabled(False)
        self.actions_by_name["redo"].setEnabled(False)
        self.actions_by_name["cancel_job"].setEnabled(False)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.job_progress = QProgressBar()
        self.job_progress.setMaximumWidth(220)
        self.job_cancel = QPushButton("Cancel")
        self.job_cancel.clicked.connect(self.do_cancel_job)
        self.blocked_label = QLabel()
        self.counts_label = QLabel()
        self.saved_label = QLabel("saved")
        for widget in (self.job_progress, self.job_cancel, self.blocked_label, self.counts_label, self.saved_label):
            bar.addPermanentWidget(widget)
        self.job_progress.hide()
        self.job_cancel.hide()
        self._on_blocked(0)

    def _connect(self) -> None:
        self.page_list.page_chosen.connect(self.open_page)
        self.page_view.element_clicked.connect(self._on_element_clicked)
        self.page_view.hovered.connect(self._on_hovered)
        self.page_view.blocked_count_changed.connect(self._on_blocked)
        self.page_view.loaded.connect(self._on_loaded)
        self.record_panel.selection_changed.connect(self._on_record_selection)
        self.tabs.currentChanged.connect(lambda _: self._on_tab())
        self.review_panel.run_chosen.connect(self._on_run_chosen)
        self.review_panel.page_chosen.connect(self._jump_to_page)
        self.review_panel.record_chosen.connect(self._on_review_record)
        self.review_panel.score_requested.connect(self._score_run)

    # -- small helpers -----------------------------------------------------------------------------------------

    @property
    def person(self) -> Provenance:
        return Provenance.person(self.settings.person)

    def message(self, text: str, ms: int = 6000) -> None:
        self.statusBar().showMessage(text, ms)

    def stack(self, page: str) -> QUndoStack:
        """The page's own undo stack: undo never changes a page other than the one on show."""
        if page not in self._stacks:
            stack = QUndoStack(self)
            self.undo_group.addStack(stack)
            self._stacks[page] = stack
        return self._stacks[page]

    def _label(self, record_id: int) -> Label | None:
        return next((label for label in self.labels if label.id == record_id), None)

    def _update_title(self) -> None:
        page = f" — page {self.page_name}" if self.page_name else ""
        self.setWindowTitle(f"RecordLens — {self.project.root.name}{page}")

    def in_review(self) -> bool:
        return self.tabs.currentWidget() is self.review_panel and self._review_run != NO_RUN

    # -- pages ---------------------------------------------------------------------------------------------------

    def refresh_pages(self) -> None:
        self.page_list.set_pages(self.project.pages(), self.page_name)

    def open_page(self, name: str) -> None:
        try:
            path = self.project.snapshot_file(name)
            self.page_view.open(path)
        except (RecordLensError, OSError) as error:
            self.message(f"page {name} cannot be shown: {error}", 15000)
            self.page_list.select(self.page_name)
            return
        self.page_name = name
        self._page_loaded = False
        self._arm_new = False
        self.undo_group.setActiveStack(self.stack(name))
        self.page_list.select(name)
        self.breadcrumb.setText(" ")
        self._update_title()
        self.reload_labels([])
        self._refresh_history()

    def _jump_to_page(self, name: str) -> None:
        if name not in self.page_list.names():
            self.page_list.show_all()
        self.open_page(name)

    def _on_loaded(self, ok: bool) -> None:
        self._page_loaded = ok
        if not ok:
            self.message(f"page {self.page_name} did not load in the browser", 15000)
        elif self.in_review():
            self._show_first_error()

    def _show_first_error(self) -> None:
        """What the run got wrong is what a reviewer looks for: bring the first such record into view."""
        wrong = [r for r in self.review.records if r.kind != "matched" and r.xpaths] if self.review else []
        if wrong:
            self.page_view.scroll_to(wrong[0].xpaths[0])

    def _on_blocked(self, count: int) -> None:
        self.blocked_label.setText(f"{count} request{'s' if count != 1 else ''} blocked")

    def _on_hovered(self, xpath: str) -> None:
        page = self.page_view.core_page
        element = page.resolve(xpath) if page and xpath else None
        if element is None:
            self.breadcrumb.setText(xpath or " ")
            return
        text = element.text()
        text = text if len(text) <= 120 else text[:119] + "…"
        holders = [str(k + 1) for k, label in enumerate(self.labels) if label.status != "rejected"
                   and any(page.resolve(x) is element for x in label.xpaths)]
        owner = f"   [record {', '.join(holders)}]" if holders else ""
        self.breadcrumb.setText(f"{element.key}   “{text}”{owner}")

    # -- records: showing ------------------------------------------------------------------------------------------

    def reload_labels(self, selected: Sequence[int] | None = None) -> None:
        """Read the page's labels again and redraw; `selected` None keeps the records still there selected."""
        if self.page_name is None:
            return
        keep = self.record_panel.selected_ids() if selected is None else list(selected)
        self.labels = self.project.labels(self.page_name)
        ids = {label.id for label in self.labels}
        self.record_panel.set_rows(rows_for(self.labels, self.page_view.core_page), [i for i in keep if i in ids])
        counts: dict[str, int] = {}
        for label in self.labels:
            counts[label.status] = counts.get(label.status, 0) + 1
        status = self.project.page(self.page_name).status
        self.counts_label.setText(f"page {status} · " + (" · ".join(f"{n} {s}" for s, n in counts.items())
                                                        or "no records"))
        self._show_mode()

    def _show_mode(self) -> None:
        if self.in_review():
            self._update_review()
            self.page_view.show_records(overlay_records(self.review) if self.review else [])
            return
        self.review = None
        selected = set(self.record_panel.selected_ids())
        self.page_view.show_records([
            {"xpaths": list(label.xpaths), "colour_index": k, "label": str(k + 1), "selected": label.id in selected}
            for k, label in enumerate(self.labels) if label.status != "rejected"])

    def select_records(self, ids: Sequence[int], scroll: bool = True) -> None:
        """Select records as the user would (the panel, the drawing, and scroll to the first)."""
        self.record_panel.select_ids(ids)
        self._on_record_selection(scroll)

    def _on_record_selection(self, scroll: bool = True) -> None:
        self._arm_new = False
        self._show_mode()
        current = self._label(self.record_panel.current_id() or -1)
        if scroll and current and current.xpaths:
            self.page_view.scroll_to(current.xpaths[0])

    # -- records: editing --------------------------------------------------------------------------------------

    def edit(self, text: str, change: Callable[[], Change]) -> Change | None:
        """Make one store change through the page's undo stack; None (and a message) when the store refuses."""
        assert self.page_name is not None
        command = LabelCommand(self.project, self.page_name, text, change, self.person, self._on_store_changed)
        try:
            result = push(self.stack(self.page_name), command)
        except RecordLensError as error:
            self.message(f"{text}: {error}", 10000)
            return None
        self._saved()
        return result

    def _edit_each(self, text: str, ids: Sequence[int], change: Callable[[int], Change]) -> None:
        assert self.page_name is not None
        commands = [LabelCommand(self.project, self.page_name, text, lambda i=i: change(i), self.person,
                                 self._on_store_changed) for i in ids]
        try:
            if len(commands) == 1:
                push(self.stack(self.page_name), commands[0])
            else:
                push_all(self.stack(self.page_name), f"{text} ×{len(commands)}", commands)
        except RecordLensError as error:
            self.message(f"{text}: {error}", 10000)
        self._saved()

    def _on_store_changed(self, page: str) -> None:
        """Undo or redo changed a page: show it as it now is."""
        self._saved()
        if page == self.page_name:
            self.reload_labels()

    def _saved(self) -> None:
        self.saved_label.setText(f"saved {time.strftime('%H:%M:%S')}")
        self.refresh_pages()
        self._refresh_history()

    def _on_element_clicked(self, xpath: str) -> None:
        if self.page_name is None:
            return
        if self.in_review():
            self.message("review mode: switch to the Records tab (F6) to edit")
            return
        current = None if self._arm_new else self._label(self.record_panel.current_id() or -1)
        self._arm_new = False
        if current is None:
            change = self.edit("new record", lambda: self.project.add_record(self.page_name, [xpath], self.person))
            if change and change.record:
                self.reload_labels([change.record.id])
            return
        xpaths = toggle_xpath(current.xpaths, xpath)
        if not xpaths:
            self.edit("delete record", lambda: self.project.delete(current.id, self.person))
            self.reload_labels([])
            return
        verb = "add to" if len(xpaths) > len(current.xpaths) else "remove from"
        unresolved = [x for x in current.unresolved if x in xpaths]
        self.edit(f"{verb} record", lambda: self.project.edit(current.id, xpaths, self.person, unresolved=unresolved))
        self.reload_labels([current.id])

    def _need(self, count: str) -> list[int] | None:
        ids = self.record_panel.selected_ids()
        if self.page_name is None or self.in_review():
            return None
        if (count == "one" and len(ids) != 1) or (count == "some" and not ids) or (count == "two" and len(ids) < 2):
            wanted = {"one": "one record", "some": "a record", "two": "two or more records (Ctrl+click)"}[count]
            self.message(f"select {wanted} first (J / K, or click its row)")
            return None
        return ids

    def _judge(self, verb: str, change: Callable[[int, Provenance], Change]) -> None:
        ids = self._need("some")
        if ids is None:
            return
        self._edit_each(f"{verb} record", ids, lambda i: change(i, self.person))
        self.labels = self.project.labels(self.page_name)
        self.reload_labels(self._next_proposed_after(ids[-1]))

    def _next_proposed_after(self, record_id: int) -> list[int]:
        """Accept/reject move on to the next proposal, so a page is reviewed with one key per record."""
        order = [label.id for label in self.labels]
        start = order.index(record_id) + 1 if record_id in order else 0
        for label in self.labels[start:] + self.labels[:start]:
            if label.status == "proposed":
                return [label.id]
        return [record_id] if record_id in order else []

    def do_accept(self) -> None:
        self._judge("accept", self.project.accept)
        self._scroll_to_selected()

    def do_reject(self) -> None:
        self._judge("reject", self.project.reject)
        self._scroll_to_selected()

    def do_new_record(self) -> None:
        self.record_panel.select_ids([])
        self._show_mode()
        self._arm_new = True
        self.message("click an element of the page to start a new record (Esc cancels)")

    def do_deselect(self) -> None:
        self._arm_new = False
        self.select_records([], scroll=False)

    def do_merge(self) -> None:
        ids = self._need("two")
        if ids is not None:
            change = self.edit(f"merge {len(ids)} records", lambda: self.project.merge(ids, self.person))
            self.reload_labels([change.record.id] if change and change.record else None)

    def do_split(self) -> None:
        ids = self._need("one")
        page = self.page_view.core_page
        label = self._label(ids[0]) if ids else None
        if label is None or page is None:
            return
        parts = split_parts(page, label.xpaths)
        if len(parts) < 2:
            self.message("this record lies in one block: nothing to split (remove elements by clicking them)")
            return
        change = self.edit("split record", lambda: self.project.split(label.id, parts, self.person))
        self.reload_labels([r.id for r in change.after] if change else None)

    def do_delete(self) -> None:
        ids = self._need("some")
        if ids is not None:
            self._edit_each("delete record", ids, lambda i: self.project.delete(i, self.person))
            self.reload_labels([])

    def do_siblings(self) -> None:
        ids = self._need("one")
        page = self.page_view.core_page
        label = self._label(ids[0]) if ids else None
        if label is None or page is None:
            return
        existing = [other.xpaths for other in self.labels if other.status != "rejected"]
        records = sibling_records(page, label.xpaths, existing)
        if not records:
            self.message("no sibling of the same structure without a record already")
            return
        self.edit(f"apply to {len(records)} siblings",
                  lambda: self.project.add_records(self.page_name, records, self.person))
        self.reload_labels([label.id])
        self.message(f"added {len(records)} records, one per sibling of record {self.labels.index(label) + 1}")

    def _step_record(self, step: int) -> None:
        ids = self.record_panel.ids()
        if not ids:
            return
        selected = self.record_panel.selected_ids()
        index = ids.index(selected[-1 if step > 0 else 0]) + step if selected else (0 if step > 0 else len(ids) - 1)
        self.select_records([ids[max(0, min(len(ids) - 1, index))]])

    def do_next_record(self) -> None:
        self._step_record(1)

    def do_previous_record(self) -> None:
        self._step_record(-1)

    def _scroll_to_selected(self) -> None:
        label = self._label(self.record_panel.current_id() or -1)
        if label and label.xpaths:
            self.page_view.scroll_to(label.xpaths[0])

    def do_undo(self) -> None:
        self._guarded(self.undo_group.undo)

    def do_redo(self) -> None:
        self._guarded(self.undo_group.redo)

    def do_history(self) -> None:
        if self.page_name is None:
            return
        if self.history_dialog is None:
            self.history_dialog = HistoryDialog(self)
            self.history_dialog.restore_requested.connect(self.restore_to)
            # Undo and redo are window shortcuts, and the dialog is a window of its own: without this, Ctrl+Z
            # pressed right after "Restore to here" would do nothing.
            self.history_dialog.addActions([self.actions_by_name["undo"], self.actions_by_name["redo"]])
        self.history_dialog.show_page(self.project, self.page_name)
        self.history_dialog.show()
        self.history_dialog.raise_()

    def _refresh_history(self) -> None:
        """Every change (edits, undo, redo, another page) is a new entry or another page: keep the list true."""
        if self.history_dialog is not None and self.history_dialog.isVisible() and self.page_name is not None:
            self.history_dialog.show_page(self.project, self.page_name)

    def restore_to(self, page: str, history_id: int | None) -> Change | None:
        """Bring the page's labels back to just after history entry `history_id` (None: before any change).

        It goes through the page's undo stack as a label change, so Ctrl+Z takes the restore back."""
        if page != self.page_name:
            self.message(f"page {page} is not the page on show: restore not made")
            return None
        if history_id is None:
            text = "restore to before any change"
        else:
            entry = next((c for c in self.project.history(page) if c.id == history_id), None)
            text = f"restore to change {history_id}" + (f" ({when(entry.at)})" if entry else "")
        change = self.edit(text, lambda: self.project.restore(page, history_id, self.person))
        self.reload_labels()
        if change is not None:
            self.message(f"page {page}: {text}" if change.id is not None
                         else f"page {page}: the labels are already as they were then")
        return change

    def _guarded(self, action: Callable[[], None]) -> None:
        try:
            action()
        except RecordLensError as error:
            self.message(f"could not change the project: {error}", 10000)
            self.reload_labels()

    # -- page status and navigation ------------------------------------------------------------------------------

    def _mark(self, status: str) -> None:
        if self.page_name is None:
            return
        command = StatusCommand(self.project, self.page_name, status, self.person, self._on_store_changed)
        try:
            push(self.stack(self.page_name), command)
        except RecordLensError as error:
            self.message(str(error), 10000)
            return
        self._saved()
        self.reload_labels()
        self.message(f"page {self.page_name} marked {status}")

    def do_mark_labelled(self) -> None:
        self._mark("labelled")

    def do_mark_reviewed(self) -> None:
        self._mark("reviewed")

    def _step_page(self, step: int) -> None:
        name = self.page_list.neighbour(self.page_name, step)
        if name is not None and name != self.page_name:
            self.open_page(name)

    def do_next_page(self) -> None:
        self._step_page(1)

    def do_previous_page(self) -> None:
        self._step_page(-1)

    def do_search(self) -> None:
        self.page_list.search.setFocus()
        self.page_list.search.selectAll()

    # -- proposing -----------------------------------------------------------------------------------------------

    def do_propose(self) -> None:
        if self.page_name is not None:
            self.propose([self.page_name])

    def do_propose_new(self) -> None:
        pages = [info.name for info in self.project.pages("new")]
        if not pages:
            self.message("no new page to propose records for")
            return
        self.propose(pages)

    def propose(self, pages: Sequence[str], method: str | None = None) -> ProposeWorker | None:
        key = gemini_key(self.keys)
        method = method or proposal_method(self.settings, has_key=bool(key))
        worker = ProposeWorker(self.project.root, pages, method, extractor_params(method, self.settings, key))
        worker.proposed.connect(self._on_proposal)
        return worker if self._start_job(worker, f"proposing with {method}") else None

    def _on_proposal(self, proposal: Proposal) -> None:
        if not proposal.records:
            self.message(f"page {proposal.page}: {proposal.provenance.name} found no records")
            return
        records = new_records(proposal.records, [label.xpaths for label in self.project.labels(proposal.page)])
        if not records:
            self.message(f"page {proposal.page}: all {len(proposal.records)} proposals are already on the page")
            return
        command = LabelCommand(self.project, proposal.page, f"{len(records)} proposals",
                               lambda: self.project.add_records(proposal.page, records, proposal.provenance),
                               self.person, self._on_store_changed)
        try:
            push(self.stack(proposal.page), command)
        except RecordLensError as error:
            self.message(f"page {proposal.page}: proposals not stored: {error}", 10000)
            return
        self._saved()
        if proposal.page == self.page_name:
            self.reload_labels()
        for warning in proposal.warnings:
            _log.info("page %s: %s", proposal.page, warning)

    def _start_job(self, job: BackgroundJob, what: str) -> bool:
        if self.job is not None:
            self.message("another job is running; cancel it first (Ctrl+.)")
            return False
        self.job = job
        job.progress.connect(self._on_job_progress)
        job.failed.connect(lambda page, text: self.message(f"page {page}: {text}", 15000))
        job.done.connect(self._on_job_done)
        self.job_progress.setRange(0, 0)
        self.job_progress.setFormat(what)
        self.job_progress.show()
        self.job_cancel.show()
        self.actions_by_name["cancel_job"].setEnabled(True)
        self.message(what)
        job.start()
        return True

    def _on_job_progress(self, done: int, total: int, what: str) -> None:
        self.job_progress.setRange(0, max(total, 1))
        self.job_progress.setValue(done)
        if what:
            self.job_progress.setToolTip(f"{done} / {total}: {what}")

    def _on_job_done(self, cancelled: bool, failure: str) -> None:
        job, self.job = self.job, None
        if job is not None:
            job.wait()
        self.job_progress.hide()
        self.job_cancel.hide()
        self.actions_by_name["cancel_job"].setEnabled(False)
        self.message("cancelled" if cancelled else (f"failed: {failure}" if failure else "done"), 10000)

    def do_cancel_job(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.message("cancelling…")

    # -- review --------------------------------------------------------------------------------------------------

    def do_review(self) -> None:
        self.tabs.setCurrentWidget(self.review_panel if self.tabs.currentWidget() is self.record_panel
                                   else self.record_panel)

    def start_review(self, run_id: int) -> None:
        self.review_panel.set_runs(self.project.runs.all(), run_id)
        self._review_run = run_id
        self.tabs.setCurrentWidget(self.review_panel)
        self._on_run_chosen(run_id)

    def _on_tab(self) -> None:
        if self.tabs.currentWidget() is self.review_panel:
            # Runs may have been added meanwhile (by the CLI, or a scoring job).
            self.review_panel.set_runs(self.project.runs.all(), self._review_run)
        self._show_mode()

    def _run_info(self) -> RunInfo | None:
        if self._review_run == NO_RUN:
            return None
        try:
            return self.project.runs.get(self._review_run)
        except RecordLensError:
            return None

    def _on_run_chosen(self, run_id: int) -> None:
        self._review_run = run_id
        run = self._run_info()
        worst = worst_pages(self.project.runs.scores(run_id), WORST_SHOWN) if run else []
        self.review_panel.show_run(run, worst)
        self._show_mode()
        if self._page_loaded:  # else _on_loaded does it
            self._show_first_error()

    def _update_review(self) -> None:
        page = self.page_view.core_page
        if self.page_name is None or page is None:
            self.review = None
            self.review_panel.show_page(None)
            return
        if self._review_run not in self._predictions:
            self._predictions[self._review_run] = self.project.runs.predictions(self._review_run)
        predictions = self._predictions[self._review_run]
        self.review = review_page(predictions.get(self.page_name, []), self.project.true_records(self.page_name),
                                  TextKeyIndex(page.text_map), self.page_name)
        self.review_panel.show_page(self.review)
        notes = []
        if self.page_name not in predictions:
            notes.append("the run has no prediction for this page")
        if self.project.page(self.page_name).status not in TRUE_PAGE_STATUSES:
            notes.append("page not marked labelled: its labels may be incomplete")
        if notes:
            self.message("; ".join(notes), 10000)

    def _on_review_record(self, index: int) -> None:
        if self.review and 0 <= index < len(self.review.records) and self.review.records[index].xpaths:
            self.page_view.scroll_to(self.review.records[index].xpaths[0])

    def do_worst_page(self) -> None:
        if self._review_run == NO_RUN:
            self.message("choose a run in the Review tab first (F6)")
            return
        ranked = [name for name, _ in worst_pages(self.project.runs.scores(self._review_run))]
        if not ranked:
            self.message("this run is not scored yet")
            return
        index = ranked.index(self.page_name) + 1 if self.page_name in ranked else 0
        self._jump_to_page(ranked[index % len(ranked)])

    def _score_run(self, run_id: int) -> None:
        from ...core.store import score_stored_run

        def work(project: Project, job: BackgroundJob) -> None:
            def progress(names: Sequence[str]):  # noqa: ANN202 - a generator
                for done, name in enumerate(names):
                    job.check()
                    job.report(done, len(names), name)
                    yield name

            score_stored_run(project, run_id, progress)

        job = BackgroundJob(self.project.root, work)
        job.done.connect(lambda *_: self._after_scoring(run_id))
        self._start_job(job, f"scoring run {run_id}")

    def _after_scoring(self, run_id: int) -> None:
        self.review_panel.set_runs(self.project.runs.all(), run_id)
        self._on_run_chosen(run_id)

    # -- application -------------------------------------------------------------------------------------------

    def do_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self.keys, self)
        if dialog.exec():
            dialog.apply()
            try:
                self.settings.save(self.settings_file)
            except OSError as error:
                self.message(f"settings not saved: {error}", 10000)
            if dialog.uses_gemini() and not gemini_key(self.keys):
                self.message("Gemini is the default but no key is set: Propose uses the offline extractor", 10000)

    def do_open_project(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open a RecordLens project", str(self.project.root))
        if folder:
            try:
                project = open_project(folder)
            except RecordLensError as error:
                QMessageBox.warning(self, "RecordLens", str(error))
                return
            self.set_project(project)

    def set_project(self, project: Project) -> None:
        if self.job is not None:
            self.job.cancel()
            self.job.wait()
        self.project.close()
        self.project = project
        for stack in self._stacks.values():
            self.undo_group.removeStack(stack)
        self._stacks.clear()
        self._predictions.clear()
        if self.history_dialog is not None:
            self.history_dialog.hide()  # it shows a page of the project just closed
        self.page_name = None
        self.refresh_pages()
        self.review_panel.set_runs(project.runs.all())
        self._update_title()
        names = self.page_list.names()
        if names:
            self.open_page(names[0])

    def do_help(self) -> None:
        if self._sheet is None:
            self._sheet = ShortcutSheet(self)
        self._sheet.show()
        self._sheet.raise_()

    def open_agent_tools(self):  # noqa: ANN201 - an AgentWindow
        """Open (or raise) the agent-benchmark window: snapshot sites, recording, trajectories, tasks."""
        from ..agent.window import AgentWindow

        if self._agent_window is None or self._agent_window.closed:
            self._agent_window = AgentWindow(self.project, person=self.settings.person)
        self._agent_window.show()
        self._agent_window.raise_()
        return self._agent_window

    def do_quit(self) -> None:
        self.close()

    def wait_until_drawn(self, timeout_ms: int = 30_000) -> None:
        """Until the page and its records are on screen (screenshots, tests)."""
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
        if self._closed:
            return
        self._closed = True
        if self.job is not None:
            self.job.cancel()
            self.job.wait()
        if self._agent_window is not None:
            self._agent_window.close()
        if self.history_dialog is not None:  # a tool window of this one: it goes with it
            self.history_dialog.close()
        self.page_view.dispose()
        self.project.close()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        self.shutdown()
        super().closeEvent(event)
