"""Every keyboard shortcut in one table: the window builds its actions from it, the help sheet lists it.

Keeping the table here means a key cannot be bound without also appearing on the sheet (a test checks that
every entry has an action).
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget


@dataclass(frozen=True)
class Shortcut:
    name: str               # the window's action name
    keys: tuple[str, ...]   # QKeySequence strings, the first one shown first
    text: str               # the menu text
    group: str


SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("accept", ("A",), "Accept the selected record", "Records"),
    Shortcut("reject", ("R",), "Reject the selected record", "Records"),
    Shortcut("new_record", ("N",), "New record: the next click starts it", "Records"),
    Shortcut("merge", ("M",), "Merge the selected records", "Records"),
    Shortcut("split", ("S",), "Split the selected record where it spans several blocks", "Records"),
    Shortcut("delete", ("Del", "Backspace"), "Delete the selected records", "Records"),
    Shortcut("siblings", ("G",), "Apply the selected record to its siblings", "Records"),
    Shortcut("parent_element", ("Alt+Up", "U"), "The element just clicked: take its parent instead", "Records"),
    Shortcut("child_element", ("Alt+Down", "Shift+U"), "Back down to the element climbed from", "Records"),
    Shortcut("next_record", ("J",), "Next record", "Records"),
    Shortcut("previous_record", ("K",), "Previous record", "Records"),
    Shortcut("deselect", ("Esc",), "Clear the selection", "Records"),
    Shortcut("undo", ("Ctrl+Z",), "Undo", "Edit"),
    Shortcut("redo", ("Ctrl+Shift+Z", "Ctrl+Y"), "Redo", "Edit"),
    Shortcut("history", ("Ctrl+H",), "History of this page…", "Edit"),
    Shortcut("propose", ("P",), "Propose records for this page", "Propose"),
    Shortcut("propose_new", ("Shift+P",), "Propose records for every new page", "Propose"),
    Shortcut("learn", ("Ctrl+Shift+L",), "Learn from this project’s labelled pages (Propose follows its labels)",
             "Propose"),
    Shortcut("cancel_job", ("Ctrl+.",), "Cancel the running job", "Propose"),
    Shortcut("next_page", ("PgDown",), "Next page", "Pages"),
    Shortcut("previous_page", ("PgUp",), "Previous page", "Pages"),
    Shortcut("mark_labelled", ("L",), "Mark the page labelled", "Pages"),
    Shortcut("mark_reviewed", ("V",), "Mark the page reviewed", "Pages"),
    Shortcut("search", ("Ctrl+F",), "Search the pages", "Pages"),
    Shortcut("review", ("F6",), "Switch between labelling and review", "Review"),
    Shortcut("worst_page", ("W",), "Next worst page of the run under review", "Review"),
    Shortcut("take", ("T",), "Adjudicate: take the other annotator’s version of the chosen review record",
             "Review"),
    Shortcut("take_merged", ("Shift+T",), "Adjudicate: merge both annotators’ versions of the chosen record",
             "Review"),
    Shortcut("settings", ("Ctrl+,",), "Settings", "Application"),
    Shortcut("open_project", ("Ctrl+O",), "Open a project", "Application"),
    Shortcut("help", ("?", "F1"), "This shortcut sheet", "Application"),
    Shortcut("quit", ("Ctrl+Q",), "Quit", "Application"),
)


def key_sequences(shortcut: Shortcut) -> list[QKeySequence]:
    return [QKeySequence(k) for k in shortcut.keys]


def help_html() -> str:
    rows: list[str] = []
    group = None
    for s in SHORTCUTS:
        if s.group != group:
            group = s.group
            rows.append(f"<tr><th colspan=2 align=left><br>{html.escape(group)}</th></tr>")
        keys = " or ".join(
            f"<b>{html.escape(QKeySequence(k).toString(QKeySequence.SequenceFormat.NativeText))}</b>" for k in s.keys)
        rows.append(f"<tr><td width=140>{keys}</td><td>{html.escape(s.text)}</td></tr>")
    mouse = ("<p><b>Click</b> an element: add it to the selected record, or remove it if the record holds it; "
             "with no record selected, start a new one. <b>Alt+click</b> reaches the page itself. "
             "Hover an element to see its XPath and text.</p>"
             "<p><b>Several records at once</b>: Ctrl+click rows of the record list to add or remove one, "
             "Shift+click for a range, Ctrl+A for all; A, R and Del then act on every selected record, and M "
             "merges them. <b>Esc</b> leaves the search box. <b>J</b> on the last record offers the next page "
             "(J again opens it). <b>L</b> on a page with proposals says what export does with them and asks "
             "for L again.</p>")
    return f"<h3>Keyboard shortcuts</h3>{mouse}<table cellspacing=2>{''.join(rows)}</table>"


class ShortcutSheet(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("RecordLens shortcuts")
        self.resize(520, 640)
        layout = QVBoxLayout(self)
        text = QTextBrowser()
        text.setHtml(help_html())
        layout.addWidget(text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setWindowModality(Qt.WindowModality.NonModal)
