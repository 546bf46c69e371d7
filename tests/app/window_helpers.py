"""The main window as the app tests open it: on a project imported from a few files (a tall page of records among
them), with a key store of the test's own; what the tests do to it: open a page, click an element of its page,
press keys, wait for its labels; and what it says: in its status bar and in its recent messages."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import Settings
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project, open_project
from tests.app.page_helpers import click_element


def keep_app_state_private(monkeypatch, folder: Path) -> Path:  # noqa: ANN001 - pytest's MonkeyPatch
    """A window started by `app.main` in a test reads and writes its settings in `folder` and keeps keys in a
    session store: never the user's settings file or a real OS keyring. The settings file's path."""
    from recordlens.annotator import settings as settings_module
    from recordlens.annotator.labelling import main_window
    from recordlens.annotator.settings import SessionKeyStore

    path = folder / "settings.json"
    monkeypatch.setattr(main_window, "default_key_store", SessionKeyStore)
    monkeypatch.setattr(main_window, "settings_path", lambda: path)
    monkeypatch.setattr(settings_module, "settings_path", lambda: path)
    return path


def imported_project(folder: Path, files: Mapping[str, str | bytes]) -> Path:
    """A project in `folder`/project, imported from a dataset in `folder`/dataset holding `files` (path in the
    dataset -> content: `html/N.html` or `.mhtml` pages, `gt/N.json` their labels); every page must import, in
    the order given, without a problem."""
    dataset = folder / "dataset"
    for name, content in files.items():
        path = dataset / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    project_folder = folder / "project"
    with init_project(project_folder) as project:
        report = import_paths(project, [dataset])
        assert report.imported == [Path(name).stem for name in files if name.startswith("html/")]
        assert not report.problems, report.problems
    return project_folder


TALL_ITEMS = 60
# A page taller than the window, each paragraph a record (TALL_TRUTH): paragraphs at the default font size, long
# enough to wrap, so that a larger font or a narrower page makes each taller.
TALL_PAGE = ("<!doctype html><html><head><meta charset='utf-8'><title>tall</title></head><body>"
             + "".join(f"<p>Item number {n}: " + "a line of words that wraps when the page is narrow " * 3 + "</p>"
                       for n in range(1, TALL_ITEMS + 1)) + "</body></html>")
TALL_TRUTH = [[f"/body[1]/p[{n}]"] for n in range(1, TALL_ITEMS + 1)]


def tall_project(folder: Path) -> Path:
    """A project (in `folder`) of one page, TALL_PAGE, labelled TALL_TRUTH."""
    return imported_project(folder, {"html/1.html": TALL_PAGE, "gt/1.json": json.dumps(TALL_TRUTH)})


class FakeKeyStore:
    """Stands in for the OS keyring: the tests never touch a real one."""

    persistent = True
    description = "held by the test"

    def __init__(self, key: str | None = None) -> None:
        self.key = key

    def get(self) -> str | None:
        return self.key

    def set(self, key: str | None) -> None:
        self.key = key


def open_window(folder: Path, settings_file: Path, *, settings: Settings | None = None, qtbot=None,
                timeout_ms: int = 30_000, restored: bool = False) -> MainWindow:
    """The main window on the project in `folder` (by default as annotator "tester"), shown and active, once its
    first page has loaded; with `qtbot`, once it is exposed on screen too. `restored`: put where the last quit
    left it before it is shown, as a start of the app does (a size that reached the page after it was scrolled
    back would move it: the browser keeps what is in view in place when a resize reflows the text)."""
    window = MainWindow(open_project(folder), settings=settings or Settings(annotator="tester"),
                        settings_file=settings_file, key_store=FakeKeyStore())
    if restored:
        assert window.restore_geometry(), "no place kept by the last quit"
    window.show()
    window.activateWindow()
    if qtbot is not None:
        qtbot.waitExposed(window)
    assert window.page_view.wait_until_loaded(timeout_ms)
    return window


def window_as_started(qtbot, folder: Path, settings_file: Path) -> MainWindow:  # noqa: ANN001 - a QtBot
    """The main window on the project in `folder` as a start opens it: with the settings on disk in
    `settings_file`, its records drawn."""
    window = open_window(folder, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    window.wait_until_drawn()
    return window


@contextmanager
def window_on_page(qtbot, folder: Path, page: str, truth: Sequence[Sequence[str]], name: str = "1"
                   ) -> Iterator[MainWindow]:
    """The main window on a project of one page (`page`'s HTML, labelled `truth`), its records drawn; closed after."""
    project = imported_project(folder, {f"html/{name}.html": page, f"gt/{name}.json": json.dumps(truth)})
    window = open_window(project, folder / "settings.json", qtbot=qtbot)
    window.wait_until_drawn()
    try:
        yield window
    finally:
        window.close()


def open_page_loaded(window: MainWindow, name: str, timeout_ms: int = 30_000) -> None:
    """Open page `name` in the window, as the page list does, and wait until it has loaded."""
    window.open_page(name)
    assert window.page_view.wait_until_loaded(timeout_ms), f"page {name} did not load"


def record_rows(window: MainWindow) -> list[str]:
    """The lines of the record list, one entry per record row."""
    rows = window.record_panel.list
    return [rows.item(k).text() for k in range(rows.count())]


def click_row(window: MainWindow, row: int) -> None:
    """A real left click on a row of the record list."""
    rows = window.record_panel.list
    QTest.mouseClick(rows.viewport(), Qt.MouseButton.LeftButton, pos=rows.visualItemRect(rows.item(row)).center())


def click(window: MainWindow, xpath: str) -> None:
    """A real left click on the element at `xpath` of the window's page."""
    click_element(window.page_view, xpath)


def key(window: MainWindow, sequence: str) -> None:
    """A real key sequence on the window, through Qt's shortcut map as a user's."""
    QTest.keySequence(window, sequence)


def wait_for_labels(qtbot, window: MainWindow, predicate) -> None:
    """Wait until `predicate` holds of the labels the project keeps for the page on show."""
    qtbot.waitUntil(lambda: predicate(window.project.labels(window.page_name)), timeout=5_000)


def said(window: MainWindow) -> str:
    """What the window's status bar says now."""
    return window.statusBar().currentMessage()


def keep_status_messages(window: MainWindow) -> None:
    """Every message the status bar shows from now on, kept in `window.messages_seen` in order: one shown for a
    moment and replaced before a test looks is still there."""
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    window.messages_seen = messages  # type: ignore[attr-defined]


def recent_messages(window: MainWindow) -> str:
    """What the window said of late (Application → Recent messages), newest first, each after its time."""
    return window.messages.text()


def said_last(window: MainWindow) -> str:
    """The newest of the window's recent messages, after its time ("" if it said nothing yet)."""
    lines = recent_messages(window).splitlines()
    return lines[0] if lines else ""


class Answering:
    """Answers the window's questions as a person does, with a key on the question on show, one key each; keeps
    what each question said."""

    def __init__(self, *keys: Qt.Key) -> None:
        self.keys = list(keys)
        self.asked: list[tuple[str, str, list[str]]] = []  # each question, its details and its buttons
        self._answered = False  # the question on show is answered: its button may take a moment to act
        self.timer = QTimer()
        self.timer.timeout.connect(self._answer)
        self.timer.start(50)

    def _answer(self) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or not box.isVisible():
            self._answered = False
            return
        if self._answered or not self.keys:
            return
        self.asked.append((box.text(), box.informativeText(), [b.text() for b in box.buttons()]))
        QTest.keyClick(box, self.keys.pop(0))
        self._answered = box.isVisible()  # Esc closes it at once; a button's key clicks it a moment later

    def stop(self) -> None:
        self.timer.stop()


def just_before_the_next_write(window: MainWindow, monkeypatch, change: Callable[[], object]) -> None:  # noqa: ANN001
    """The other writer's `change` committed right before the window's next write transaction begins: after
    whatever the window looked at first."""
    writing = window.project.writing
    pending = [change]

    @contextmanager
    def then_writing():  # noqa: ANN202
        if pending and not window.project.db.conn.in_transaction:
            pending.pop()()
        with writing() as db:
            yield db

    monkeypatch.setattr(window.project, "writing", then_writing)
