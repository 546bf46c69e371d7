"""The agent window's capture tools: "Capture a site from the web…" (the capture process in the background,
with progress and cancel) and, beside the live render, what the capture stored for the page shown: Chromium's
accessibility tree (numbered as `format_axtree` gives it to agents), the full-page screenshot and the metadata.

`install(window)` adds both to an AgentWindow; they live here so the window's module stays small.

The capture's folder never starts as the open site's own (a capture adds its pages to the folder's, so it would mix
a foreign site into the open one): it starts empty, or at a new folder beside the open site's. And the open site
changes only when the user asks, with "Open the captured site" once the capture ends or is cancelled.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.agent import Site, format_axtree, read_tree
from ...core.errors import AgentError
from ..qt.file_dialogs import FileDialog as QFileDialog  # Qt's, never opening a file it lists (see there)
from ..qt.screen_fit import resize_to_fit
from ..qt.signals import emit
from ..qt.widgets import button
from .site_capture import DEFAULT_TIMEOUT_S, CaptureFromWeb
from .site_page import resaved_note

# The capture's messages name the command's options; the dialog says them as its fields: a user of the window
# never saw --same-host. (Options it has no field for, such as --refresh, are said as they are.)
_DIALOG_TERMS = (
    ("another host (--same-host)", "another host (only the hosts of the root pages are captured)"),
    ("--max-pages", "“Max pages”"), ("--depth", "“Depth”"), ("--include", "“Include”"),
    ("--exclude", "“Exclude”"), ("--ignore-robots", "“ignore robots.txt”"), ("--timeout", "“Timeout”"),
    ("--site folder", "“Site folder”"),
)


class CapturedPageView(QWidget):
    """The stored parts of the page shown in the site browser; says so when the page was not captured."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tabs = QTabWidget()
        self.tree = QPlainTextEdit()
        self.tree.setReadOnly(True)
        self.tree.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.shot = QLabel()
        self.shot.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        scroll = QScrollArea()
        scroll.setWidget(self.shot)
        scroll.setWidgetResizable(False)
        self.meta = QPlainTextEdit()
        self.meta.setReadOnly(True)
        self.tabs.addTab(self.tree, "Accessibility tree")
        self.tabs.addTab(scroll, "Full-page screenshot")
        self.tabs.addTab(self.meta, "Metadata")
        self.note = QLabel("")
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.note)
        layout.addWidget(self.tabs, 1)
        self.shown_url = ""

    def show_page(self, site: Site | None, url: str, labels: dict[str, int] | None = None) -> bool:
        """Show what was stored for `url`; False (and a note) when the site has nothing for it."""
        self.shown_url = url
        page = site.page(url) if site is not None else None
        tree_file = page.side_file("axtree") if page is not None else None
        if site is None or page is None or not tree_file:
            self.note.setText("This page was not captured with `recordlens site capture`: no stored "
                              "accessibility tree or full-page screenshot.")
            self.tree.setPlainText("")
            self.shot.setPixmap(QPixmap())
            self.meta.setPlainText("")
            return False
        try:
            self.tree.setPlainText(format_axtree(read_tree(site.root / tree_file), labels, max_lines=5000))
        except AgentError as error:
            self.tree.setPlainText(str(error))
        shot = page.side_file("screenshot")
        pixmap = QPixmap(str(site.root / shot)) if shot else QPixmap()
        width = 560  # a column beside the page: the screenshot scaled to it, the full length kept
        self.shot.setPixmap(pixmap.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
                            if not pixmap.isNull() else pixmap)
        self.shot.resize(self.shot.pixmap().size())
        meta = page.side_file("meta")
        try:
            data = json.loads((site.root / meta).read_text(encoding="utf-8")) if meta else {}
        except (OSError, ValueError):
            data = {}
        self.meta.setPlainText(json.dumps(data, ensure_ascii=False, indent=2))
        self.note.setText(f"Captured {data.get('captured_at', '')} at viewport "
                          f"{'x'.join(str(v) for v in data.get('viewport', []))}; "
                          f"screenshot {pixmap.width()}x{pixmap.height()} px"
                          + (f", cut: the page is {data.get('page_height')} px tall" if data.get("screenshot_cut")
                             else "")
                          # Saved again from the Site tab: the tree and screenshot shown are not of its file now
                          + (f". ⚠ {note}" if (note := resaved_note(data)) else "")
                          # What the capture said of the page: a request still pending, a page that kept changing
                          + "".join(f". ⚠ {warning}" for warning in _warnings(data)))
        return True


def _warnings(meta: dict[str, object]) -> list[str]:
    """The warnings a captured page's meta.json keeps (none in a page captured before they were kept)."""
    found = meta.get("warnings")
    return [str(w) for w in found] if isinstance(found, list) else []


def _in_dialog_terms(text: str) -> str:
    """A message of the capture with the command's options said as the dialog's fields (`_DIALOG_TERMS`)."""
    for option, field in _DIALOG_TERMS:
        text = re.sub(re.escape(option) + r"(?![\w-])", field, text)
    return text


def new_folder_beside(site_root: Path) -> Path:
    """A folder beside the open site's that does not exist yet (NAME-captured, NAME-captured-2, ...)."""
    candidate = site_root.parent / f"{site_root.name}-captured"
    number = 2
    while candidate.exists():
        candidate = site_root.parent / f"{site_root.name}-captured-{number}"
        number += 1
    return candidate


class CaptureDialog(QDialog):
    """Roots, rules and a folder; Start runs the capture process, Cancel stops it (what was saved stays and a
    later capture of the same folder continues). `captured(result)` once it ends; `open_requested(folder)` when
    the user asks to open the site captured."""

    captured = Signal(object)
    open_requested = Signal(str)

    def __init__(self, folder: str | Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Capture a site from the web")
        self.process = CaptureFromWeb(self)
        self.roots = QLineEdit()
        self.roots.setPlaceholderText("https://example.org/  (several: separated by spaces)")
        self.folder = QLineEdit(str(folder or ""))
        where = QHBoxLayout()
        where.addWidget(self.folder, 1)
        where.addWidget(button("Choose…", self._choose_folder))
        self.depth = QSpinBox()
        self.depth.setRange(0, 20)
        self.depth.setValue(2)
        self.max_pages = QSpinBox()
        self.max_pages.setRange(1, 100000)
        self.max_pages.setValue(50)
        self.include = QLineEdit()
        self.exclude = QLineEdit()
        self.ignore_robots = QCheckBox("ignore robots.txt")
        self.timeout = QDoubleSpinBox()  # a page that hangs costs this long, as with the command's --timeout
        self.timeout.setRange(1, 3600)
        self.timeout.setDecimals(0)
        self.timeout.setSuffix(" s")
        self.timeout.setValue(DEFAULT_TIMEOUT_S)
        self.timeout.setToolTip("How long a page may take to load; once it has, a few seconds more to be captured")
        form = QFormLayout()
        form.addRow("Root pages", self.roots)
        form.addRow("Site folder", where)
        form.addRow("Depth", self.depth)
        form.addRow("Max pages", self.max_pages)
        form.addRow("Include (regex)", self.include)
        form.addRow("Exclude (regex)", self.exclude)
        form.addRow("Timeout per page", self.timeout)
        form.addRow("", self.ignore_robots)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.start_button = button("Start", self.start)
        self.cancel_button = button("Cancel", self.cancel)
        self.cancel_button.setEnabled(False)
        self.open_button = button("Open the captured site", self._ask_to_open)
        self.open_button.setEnabled(False)  # until a capture (ended or cancelled) has indexed pages
        self.captured_folder = ""
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addStretch(1)
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Pages are loaded from the network in a separate process; this window stays "
                                "offline."))
        layout.addLayout(form)
        layout.addWidget(self.bar)
        layout.addWidget(self.log, 1)
        layout.addLayout(buttons)
        self.process.progress.connect(self._on_progress)
        self.process.note.connect(lambda text: self.log.appendPlainText(_in_dialog_terms(text)))
        self.process.finished.connect(self._on_finished)
        self.result: dict[str, object] | None = None
        self.cancelled = False  # Cancel pressed during the capture under way
        resize_to_fit(self, 720, 520)

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "The site folder to capture into", self.folder.text())
        if folder:
            self.folder.setText(folder)

    def arguments(self) -> list[str]:
        out = ["--depth", str(self.depth.value()), "--max-pages", str(self.max_pages.value()),
               "--timeout", f"{self.timeout.value():g}"]
        for flag, field in (("--include", self.include), ("--exclude", self.exclude)):
            if field.text().strip():
                out += [flag, field.text().strip()]
        if self.ignore_robots.isChecked():
            out.append("--ignore-robots")
        return out

    def start(self) -> bool:
        roots = self.roots.text().split()
        folder = self.folder.text().strip()
        if not roots or not folder:
            self.log.appendPlainText("give one root page or more and a site folder")
            return False
        self.result = None
        self.cancelled = False
        self.captured_folder = folder
        self.open_button.setEnabled(False)
        self.start_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.bar.setRange(0, 0)  # busy until the first page is settled
        self.process.start(roots, folder, self.arguments())
        return True

    def cancel(self) -> None:
        if self.process.running:
            self.log.appendPlainText("cancelling…")  # at once: the page under way is dropped (it stays queued)
            self.cancelled = True
            self.process.cancel()
        else:
            self.reject()

    def _on_progress(self, done: int, total: int, text: str) -> None:
        if total:
            self.bar.setRange(0, total)
            self.bar.setValue(done)
        self.log.appendPlainText(_in_dialog_terms(text.split("  |")[0]))

    def _on_finished(self, result: dict[str, object]) -> None:
        self.result = result
        self.start_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        if not (self.cancelled and self.bar.maximum() > 0):  # cancelled: it stays where the capture stopped
            self.bar.setRange(0, 1)
            self.bar.setValue(1 if result.get("ok") else 0)
        self.log.appendPlainText(_in_dialog_terms(str(result.get("message") or "")))
        # The notes say what the summary line cannot: the rules changed since the last run, a lock taken over.
        for note in result.get("notes") or []:
            self.log.appendPlainText(f"warning: {_in_dialog_terms(str(note))}")
        # Cancelled too: the pages saved so far are indexed, a site of their own
        self.open_button.setEnabled((Path(self.captured_folder) / "site.json").is_file())
        emit(self.captured, result)

    def _ask_to_open(self) -> None:
        emit(self.open_requested, self.captured_folder)


def install(window) -> Callable[[], None]:  # noqa: ANN001 - an AgentWindow (imported late by it)
    """Add "Capture a site from the web…" to the window's Agent menu and the captured-page view beside the
    live page (shown only for captured pages). Returns the menu action's slot."""
    view = CapturedPageView()
    view.setVisible(False)
    site_tab = window.tabs.widget(0)
    site_tab.insertWidget(1, view)
    window.captured_view = view
    window.capture_dialog = None

    def refresh(*_: object) -> None:
        shown = view.show_page(window.browser.site, window.browser.url)
        view.setVisible(shown)

    window.browser.loaded.connect(refresh)
    window.task_editor.site_source = lambda: window.browser.site  # the review queue checks answers on it

    def open_dialog() -> CaptureDialog:
        site = window.browser.site
        folder = "" if site is None or window._is_demo_site() else str(new_folder_beside(site.root))
        dialog = window.capture_dialog
        if dialog is None:
            dialog = window.capture_dialog = CaptureDialog(folder, window)
            dialog.captured.connect(lambda result: _on_captured(window, result))
            dialog.open_requested.connect(window.open_site)
        elif not dialog.process.running and (not dialog.folder.text().strip() or _is_open_site(window, dialog)):
            dialog.folder.setText(folder)  # another site opened since: its own folder is never the default
        dialog.show()
        return dialog

    menus = [a.menu() for a in window.menuBar().actions() if a.menu() is not None]
    if menus:  # beside "Save a page from the web…", above Close (which stays the menu's last item)
        action = QAction("Capture a site from the &web…", menus[0])
        close = next((a for a in menus[0].actions() if a.text().replace("&", "") == "Close"), None)
        if close is not None:
            menus[0].insertAction(close, action)
        else:
            menus[0].addAction(action)
        action.triggered.connect(lambda: open_dialog())
    window.open_capture_dialog = open_dialog
    return open_dialog


def _is_open_site(window, dialog: CaptureDialog) -> bool:  # noqa: ANN001 - an AgentWindow
    site = window.browser.site
    return site is not None and Path(dialog.folder.text().strip()).resolve() == site.root.resolve()


def _on_captured(window, result: dict[str, object]) -> None:  # noqa: ANN001 - an AgentWindow
    """Said in the status bar; the open site stays (the dialog's "Open the captured site" changes it)."""
    message = str(result.get("message") or "")
    if window.capture_dialog is not None and window.capture_dialog.open_button.isEnabled():
        message += " — “Open the captured site” in the capture window opens it"
    window.statusBar().showMessage(message, 15000)
