"""Every keyboard shortcut in one table: the window builds its actions from it, the help sheet lists it.

Keeping the table here means a key cannot be bound without also appearing on the sheet (a test checks that
every entry has an action).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QTextBrowser, QWidget

from ..qt.screen_fit import resize_to_fit
from ..qt.widgets import closable_window


@dataclass(frozen=True)
class Shortcut:
    name: str               # the window's action name
    keys: tuple[str, ...]   # QKeySequence strings, the first one shown first (a menu shows only it)
    text: str               # the menu text
    group: str


def _grouped(groups: dict[str, tuple[tuple[str, tuple[str, ...], str], ...]]) -> tuple[Shortcut, ...]:
    """The table from its groups, in order: group -> (action name, keys, menu text) of each shortcut."""
    return tuple(Shortcut(name, keys, text, group) for group, rows in groups.items() for name, keys, text in rows)


SHORTCUTS: tuple[Shortcut, ...] = _grouped({
    "Records": (
        ("accept", ("A",), "Accept the selected record"),
        ("reject", ("R",), "Reject the selected record"),
        ("new_record", ("N",), "New record: the next click starts it"),
        ("merge", ("M",), "Merge the selected records"),
        ("split", ("S",), "Split the selected record where it spans several blocks"),
        ("delete", ("Del", "Backspace"), "Delete the selected records"),
        ("siblings", ("G",), "Apply the selected record to its siblings"),
        ("select_list", ("Shift+G",),
         "Select the selected record’s list: on a proposal, its proposals alone (then A or R judges them all)"),
        ("select_all", ("Ctrl+A",),
         "Select every record of the page not rejected, or every one found (then A or R judges them all)"),
        ("parent_element", ("U", "Alt+Up"), "The element just clicked: take its parent instead"),
        ("child_element", ("Shift+U", "Alt+Down"), "Back down to the element climbed from"),
        ("next_record", ("J",), "Next record"),
        ("previous_record", ("K",), "Previous record"),
        ("find_record", ("/",), "Find a record by its number or words (Enter selects the first found)"),
        ("cursor_next", ("Ctrl+Right",), "In the page: the element cursor (an outline) to the next element"),
        ("cursor_previous", ("Ctrl+Left",), "In the page: the element cursor to the previous element"),
        ("cursor_parent", ("Ctrl+Up",), "In the page: the element cursor to the element around it"),
        ("cursor_child", ("Ctrl+Down",), "In the page: the element cursor to the first element inside it"),
        ("focused_element", ("E",), "The page’s element the keys are on (the element cursor, or a link or field Tab "
                                    "moved to): as a click on it (start a record, add it to the selected one, or "
                                    "take it out); with none, the element cursor shows"),
        ("deselect", ("Esc",), "Clear the selection (in the page: also leave it for the record list)"),
    ),
    "Edit": (
        ("undo", ("Ctrl+Z",), "Undo"),
        ("redo", ("Ctrl+Shift+Z", "Ctrl+Y"), "Redo"),
        ("history", ("Ctrl+H",), "History of this page…"),
    ),
    "Propose": (
        ("propose", ("P",), "Propose records for this page"),
        ("propose_new", ("Shift+P",), "Propose records for every new page"),
        ("learn", ("Ctrl+Shift+L",), "Learn from this project’s labelled pages (Propose follows its labels)"),
        ("forget_model", (), "Propose with the shipped model again (the learnt one is kept aside)"),
        ("select_not_made", (), "Select earlier proposals the model no longer makes (said by the page’s last "
                                "Propose; then R rejects them all)"),
        ("cancel_job", ("Ctrl+.",), "Cancel the running job"),
    ),
    "Pages": (
        ("next_page", ("PgDown",), "Next page"),
        ("previous_page", ("PgUp",), "Previous page"),
        ("mark_labelled", ("L",), "Mark the page labelled"),
        ("mark_reviewed", ("V",), "Mark the page reviewed"),
        ("search", ("Ctrl+F",), "Search the pages (Enter opens the first found)"),
        ("import_pages", ("Ctrl+I",), "Import saved pages (MHTML, HTML)… (or drop them on the window)"),
        ("import_folder", ("Ctrl+Shift+I",), "Import a folder of pages, or a dataset with its labels (html/, gt/)…"),
        ("remove_page", (), "Remove this page from the project… (what it holds is kept in removed/)"),
    ),
    "View": (
        ("zoom_in", ("Ctrl+=", "Ctrl++"), "Zoom in (or Ctrl+wheel)"),
        ("zoom_out", ("Ctrl+-",), "Zoom out"),
        ("zoom_reset", ("Ctrl+0",), "Actual size (100 %)"),
        ("go_to_pages", ("Ctrl+1",), "Go to the page list"),
        ("go_to_page", ("Ctrl+2",), "Go to the page (Ctrl+arrows then move the element cursor, Tab through its "
                                    "links and fields)"),
        ("go_to_records", ("Ctrl+3",), "Go to the record list (the review list in review)"),
    ),
    "Review": (
        ("review", ("F6",), "Switch between labelling and review"),
        ("worst_page", ("W",), "Next worst page of the run under review"),
        ("take", ("T",), "Adjudicate: take the other annotator’s version of the chosen review record"),
        ("take_merged", ("Shift+T",), "Adjudicate: merge both annotators’ versions of the chosen record"),
        ("take_all", ("Ctrl+T",), "Adjudicate: take every record of the other annotator’s that the project lacks on "
                                  "this page"),
        ("keep_project", ("O",), "Adjudicate: keep the project’s version of the chosen review record"),
    ),
    "Application": (
        ("settings", ("Ctrl+,",), "Settings"),
        ("open_project", ("Ctrl+O",), "Open a project"),
        ("help", ("?", "F1"), "This shortcut sheet"),
        ("messages", ("Ctrl+Shift+M",), "Recent messages, in full (the status bar cuts long ones)"),
        ("quit", ("Ctrl+Q",), "Quit"),
    ),
})


# The shortcuts that act on the page on show (its records, its status, its history): with no page open they say
# how to open one rather than nothing at all.
OF_THE_PAGE_ON_SHOW = frozenset({
    "accept", "reject", "new_record", "merge", "split", "delete", "siblings", "select_list", "select_all",
    "parent_element", "child_element", "next_record", "previous_record", "focused_element",
    "cursor_next", "cursor_previous", "cursor_parent", "cursor_child",
    "history", "propose", "mark_labelled", "mark_reviewed", "remove_page", "select_not_made",
})

# The keys that wait, pressed while the page keys are on their way to another page, until that page is drawn
# (`MainWindow._step_page`): every key that reads or changes the page on show or its records, the selection and the
# undo stack included, and the review's adjudication (of the page on show's records). Carried out then, in the order
# pressed: on the page the keys went to, never on one they passed over, which may still be the one drawn.
WAIT_FOR_THE_PAGE_AHEAD = (OF_THE_PAGE_ON_SHOW | {
    shortcut.name for shortcut in SHORTCUTS if shortcut.group in ("Records", "Edit")} | {
    "take", "take_merged", "take_all", "keep_project"}) - {
    # Keys that only move the keys or clear a selection change no label: held, the letters typed after a held "/"
    # reached the window as shortcuts (J, R...) and were carried out on the page ahead as commands.
    "find_record", "deselect"}

# Keys heard only while the page has them: elsewhere Ctrl+arrows are the record list's (Ctrl+Down moves there
# without selecting) and a field's (a word to the left or right).
IN_THE_PAGE = frozenset({"cursor_next", "cursor_previous", "cursor_parent", "cursor_child"})

# The menu bar's titles, each with its Alt+letter (the letter after "&"), no two alike. Without them Alt+letter
# reached the focused widget instead: in the page filter, Alt+R chose "reviewed" and emptied the page list.
MENU_TITLES = {"Records": "&Records", "Edit": "&Edit", "Propose": "&Propose", "Pages": "Pa&ges", "View": "&View",
               "Review": "Revie&w", "Application": "&Application", "Agent": "Age&nt"}


def menu_texts(shortcuts: Sequence[Shortcut] = SHORTCUTS) -> dict[str, str]:
    """Each shortcut's menu text with an Alt+letter (the letter after "&"), none twice in one menu: the first
    letter of a word not taken yet, else any letter not taken, else none. A menu opened with Alt+letter is then
    walked with letters, not only arrows. The sheet and the tooltips show the text without it."""
    taken: dict[str, set[str]] = {}
    texts: dict[str, str] = {}
    for shortcut in shortcuts:
        used = taken.setdefault(shortcut.group, set())
        text = shortcut.text
        starts = [k for k, c in enumerate(text) if c.isalpha() and (k == 0 or not text[k - 1].isalnum())]
        anywhere = [k for k, c in enumerate(text) if c.isascii() and c.isalpha()]
        at = next((k for k in [*starts, *anywhere] if text[k].isascii() and text[k].lower() not in used), None)
        if at is None:
            texts[shortcut.name] = text
            continue
        used.add(text[at].lower())
        texts[shortcut.name] = f"{text[:at]}&{text[at:]}"
    return texts


def key_sequences(shortcut: Shortcut) -> list[QKeySequence]:
    return [QKeySequence(k) for k in shortcut.keys]


def shown_keys(shortcut: Shortcut) -> list[str]:
    """Every key of `shortcut`, as this system writes them ("Ctrl+Shift+Z", "Ctrl+Y"), the first first."""
    return [QKeySequence(k).toString(QKeySequence.SequenceFormat.NativeText) for k in shortcut.keys]


def tip(shortcut: Shortcut) -> str:
    """`shortcut`'s text with every one of its keys, for a tooltip or a status tip: a menu shows only the first
    key of an action with several ("Delete the selected records (Del or Backspace)")."""
    keys = " or ".join(shown_keys(shortcut))
    return f"{shortcut.text} ({keys})" if keys else shortcut.text


def help_html() -> str:
    rows: list[str] = []
    group = None
    for s in SHORTCUTS:
        if s.group != group:
            group = s.group
            rows.append(f"<tr><th colspan=2 align=left><br>{html.escape(group)}</th></tr>")
        keys = " or ".join(f"<b>{html.escape(k)}</b>" for k in shown_keys(s)) or f"<i>{html.escape(group)} menu</i>"
        rows.append(f"<tr><td width=140>{keys}</td><td>{html.escape(s.text)}</td></tr>")
    mouse = ("<p><b>Click</b> an element: add it to the selected record, or remove it if the record holds it; "
             "with no record selected, start a new one. <b>Alt+click</b> reaches the page itself (it opens a "
             "<i>details</i>, say; on a link or a form's button it starts nothing: no download, no visit). "
             "Hover an element to see its XPath and text.</p>"
             "<p><b>Several records at once</b>: Ctrl+click rows of the record list to add or remove one, "
             "Shift+click for a range, Ctrl+A for all; from the keyboard, in the record list (Ctrl+3), "
             "<b>Shift+Down</b> / <b>Shift+Up</b> select a range, and <b>Ctrl+Down</b> / <b>Ctrl+Up</b> move "
             "without changing the selection, then <b>Ctrl+Space</b> adds or removes the row. A, R and Del then "
             "act on every selected record, and M merges them. <b>Esc</b> leaves the search box. "
             "<b>Without a mouse</b>: Ctrl+1, Ctrl+2 and Ctrl+3 go to the page list, the page and the record list "
             "(a frame shows which has the keys); in the page, <b>Ctrl+Right</b> / <b>Ctrl+Left</b> move the "
             "element cursor (a black and white outline) to the next / previous element of the page, "
             "<b>Ctrl+Up</b> / <b>Ctrl+Down</b> to the element around it / the first inside it, and Tab moves "
             "through its links and fields (Enter and Space there edit nothing, and nothing is typed into a field: "
             "every key stays RecordLens’s); <b>E</b> does to the element the "
             "keys are on what a click on it does (with none, it shows the cursor at the middle of the view), "
             "then U, Shift+U and G as after a click; <b>Esc</b> leaves the page for the record list. "
             "<b>Alt</b> and a menu's underlined letter open that menu; <b>Esc</b> closes it, leaving its title "
             "highlighted (the arrows then go to the menus), and a second <b>Esc</b> gives the keys back. "
             "<b>J</b> on the last record offers the next page "
             "(J again opens it). <b>L</b> or <b>V</b> on a page with proposals says what export does with them "
             "and asks for the same key again. In Review (F6), the keys that select or change records say that F6 "
             "goes back to labelling.</p>")
    return f"<h3>Keyboard shortcuts</h3>{mouse}<table cellspacing=2>{''.join(rows)}</table>"


class ShortcutSheet(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("RecordLens shortcuts")
        resize_to_fit(self, 520, 640)
        text = QTextBrowser()
        text.setAccessibleName("keyboard shortcuts")
        text.setHtml(help_html())
        closable_window(self, text)
