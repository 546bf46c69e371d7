"""The agent window's files as a first-time user met them: unsaved task edits are asked about before the window
closes, the app quits or another tasks file opens; the site and tasks file last open come back (from the app's
settings, with the demo and a message for a path that is gone) and the title names them; a double-click edits a
task cell while Enter or "Record this task" picks it; the capture never defaults to the open site's folder nor
switches the open site unasked; opening says what was opened; the review's chooser starts beside the tasks
file; the Agent menu's items have access letters of their own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from recordlens.annotator.agent import review_queue, task_editor
from recordlens.annotator.agent.task_editor import COLUMNS
from recordlens.annotator.agent.window import AgentWindow
from recordlens.annotator.settings import Settings
from recordlens.core.agent.model import Task
from recordlens.core.agent.tasks import load_tasks
from tests.app.agent_helpers import DEMO_SITE, DEMO_TASKS
from tests.app.agent_site import make_site
from tests.app.gui_waits import queued_work_done

pytestmark = pytest.mark.app
Answer = QMessageBox.StandardButton
ANSWER = COLUMNS.index("answer")


def answering(*answers: Answer) -> tuple[list[str], object]:
    """An `ask` that gives `answers` in turn and records what it was asked about."""
    asked: list[str] = []
    queue = list(answers)

    def ask(_parent: object, what: str) -> Answer:
        asked.append(what)
        return queue.pop(0)

    return asked, ask


@pytest.fixture
def tasks_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "mine" / "tasks.jsonl"
    copy.parent.mkdir()
    shutil.copyfile(DEMO_TASKS, copy)
    return copy


def test_closing_with_unsaved_task_edits_asks_save_discard_or_cancel(qapp, tasks_copy: Path) -> None:
    window = AgentWindow(site=DEMO_SITE, tasks=tasks_copy)
    try:
        window.show()
        editor = window.task_editor
        assert not editor.modified() and not window.isWindowModified()
        editor.table.item(0, ANSWER).setText("changed")
        queued_work_done()
        assert editor.modified() and window.isWindowModified() and window.windowTitle().endswith("[*]")
        asked, editor.ask = answering(Answer.Cancel, Answer.Save)
        assert not window.close() and not window.closed and window.isVisible()  # Cancel: the edits stay
        assert asked == ["closing the agent window"]
        assert window.close() and window.closed  # Save: written, then closed
        assert load_tasks(tasks_copy)[0].answer == "changed"
    finally:
        window.close()


def test_discard_closes_without_writing_and_an_unedited_table_is_not_asked_about(qapp, tasks_copy: Path) -> None:
    window = AgentWindow(site=DEMO_SITE, tasks=tasks_copy)
    before = tasks_copy.read_bytes()
    asked, window.task_editor.ask = answering(Answer.Discard)
    window.task_editor.table.item(0, ANSWER).setText("changed")
    window.task_editor.table.item(0, ANSWER).setText(load_tasks(tasks_copy)[0].answer)  # undone by hand
    assert not window.task_editor.modified()
    window.task_editor.table.item(1, ANSWER).setText("changed")
    assert window.close() and asked == ["closing the agent window"] and tasks_copy.read_bytes() == before
    unedited = AgentWindow(site=DEMO_SITE, tasks=tasks_copy)
    asked_again, unedited.task_editor.ask = answering()
    assert unedited.close() and asked_again == []


def test_refined_tasks_added_from_the_review_are_unsaved_edits(qapp, tasks_copy: Path) -> None:
    window = AgentWindow(site=DEMO_SITE, tasks=tasks_copy)
    try:
        refined = Task(id="gen-1", instruction="Which licence?", answer="CC BY 4.0", site="demo-site",
                       start_url=load_tasks(DEMO_TASKS)[0].start_url)
        task_editor._add_refined(window.task_editor, [refined])
        assert window.task_editor.modified()
        asked, window.task_editor.ask = answering(Answer.Cancel)
        assert not window.close() and asked
    finally:
        window.task_editor.ask = answering(Answer.Discard)[1]
        window.close()


def test_opening_another_tasks_file_asks_once_a_file_is_chosen(qapp, tasks_copy: Path, monkeypatch) -> None:
    window = AgentWindow(site=DEMO_SITE, tasks=tasks_copy)
    try:
        chosen: list[str] = []
        monkeypatch.setattr(task_editor.QFileDialog, "getOpenFileName", lambda *a, **k: (chosen.pop(0), ""))
        editor = window.task_editor
        editor.table.item(0, ANSWER).setText("changed")
        asked, editor.ask = answering(Answer.Cancel, Answer.Discard)
        chosen.append("")  # the chooser cancelled: nothing asked, the edits stay unsaved
        editor.open_dialog()
        assert asked == [] and editor.path == tasks_copy and editor.modified()
        chosen.append(str(DEMO_TASKS))
        editor.open_dialog()  # Cancel: the edits stay
        assert asked == ["opening another tasks file"] and editor.path == tasks_copy and editor.modified()
        chosen.append(str(DEMO_TASKS))
        editor.open_dialog()  # Discard: the chosen file replaces the table
        assert editor.path == DEMO_TASKS and not editor.modified()
    finally:
        window.close()


def test_discarded_edits_are_gone_even_when_the_file_chosen_does_not_open(qapp, tasks_copy: Path,
                                                                           monkeypatch) -> None:
    window = AgentWindow(site=DEMO_SITE, tasks=tasks_copy)
    try:
        bad = tasks_copy.with_name("bad.jsonl")
        bad.write_text("not json\n", encoding="utf-8")
        monkeypatch.setattr(task_editor.QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
        editor = window.task_editor
        editor.table.item(0, ANSWER).setText("changed")
        asked, editor.ask = answering(Answer.Discard)
        editor.open_dialog()
        # The file's rows are back (not the discarded edits made "saved", for a later Save to write)
        assert asked == ["opening another tasks file"] and editor.path == tasks_copy
        assert editor.table.item(0, ANSWER).text() == load_tasks(tasks_copy)[0].answer and not editor.modified()
    finally:
        window.close()


def test_a_cell_still_being_typed_in_is_asked_about_before_closing(qapp, tasks_copy: Path) -> None:
    window = AgentWindow(site=DEMO_SITE, tasks=tasks_copy)
    try:
        window.show()
        window.tabs.setCurrentWidget(window.task_editor)
        table = window.task_editor.table
        table.setCurrentCell(0, ANSWER)
        table.editItem(table.item(0, ANSWER))
        cell_editor = table.indexWidget(table.currentIndex())
        cell_editor.selectAll()
        QTest.keyClicks(cell_editor, "XYZ")  # not committed: the editor is still open
        assert table.state() == table.State.EditingState
        asked, window.task_editor.ask = answering(Answer.Cancel, Answer.Save)
        assert not window.close() and asked == ["closing the agent window"]  # Cancel: kept
        assert window.close() and load_tasks(tasks_copy)[0].answer == "XYZ"  # Save: written
    finally:
        window.close()


def test_quitting_the_app_asks_about_the_agent_window_s_unsaved_tasks(qapp, tmp_path: Path, tasks_copy) -> None:
    from recordlens.annotator.labelling.main_window import MainWindow
    from recordlens.core.store.project import init_project
    from tests.app.window_helpers import FakeKeyStore

    settings_file = tmp_path / "settings.json"
    main = MainWindow(init_project(tmp_path / "project"), settings=Settings(), settings_file=settings_file,
                      key_store=FakeKeyStore())
    try:
        tools = main.tools.open_agent_tools()
        tools.task_editor.load(tasks_copy)
        tools.task_editor.table.item(0, ANSWER).setText("changed")
        asked, tools.task_editor.ask = answering(Answer.Cancel, Answer.Discard)
        main.close()
        assert asked == ["closing the agent window"] and not main.closed and not tools.closed  # Cancel: no quit
        main.close()
        assert asked == ["closing the agent window"] * 2 and main.closed and tools.closed  # asked once more, no
    finally:
        main.close()


def test_the_window_reopens_the_site_and_tasks_last_open_and_its_title_names_them(qapp, tmp_path: Path,
                                                                                  tasks_copy: Path) -> None:
    settings_file = tmp_path / "settings.json"
    first = AgentWindow(settings=Settings(), settings_file=settings_file)
    try:
        assert "site demo-site (shipped demo)" in first.windowTitle()
        assert "tasks demo-tasks.jsonl (shipped demo)" in first.windowTitle()
        copy = tmp_path / "demo-copy"
        shutil.copytree(DEMO_SITE, copy)
        first.open_site(copy, tasks_copy)
        # Said what was opened, and the copy is told from the shipped site by its folder
        assert first.statusBar().currentMessage() == (
            f"opened the site demo-site: {len(first.browser.site.pages)} pages ({copy}); 12 tasks from {tasks_copy}")
        assert f"site demo-site in {copy} — tasks tasks.jsonl" in first.windowTitle()
    finally:
        first.close()
    kept = Settings.load(settings_file)
    assert (kept.agent_site, kept.agent_tasks) == (str(copy.resolve()), str(tasks_copy.resolve()))
    again = AgentWindow(settings=kept, settings_file=settings_file)
    try:
        assert again.browser.site.root.resolve() == copy.resolve() and again.task_editor.path == tasks_copy
    finally:
        again.close()
    shutil.rmtree(copy)
    gone = AgentWindow(settings=Settings.load(settings_file), settings_file=settings_file)
    try:
        assert gone.browser.site.root.resolve() == DEMO_SITE.resolve() and gone.task_editor.path == tasks_copy
        assert f"the site last open, {copy.resolve()}, is gone: the shipped demo site is open" in (
            gone.statusBar().currentMessage())
    finally:
        gone.close()
    assert Settings.load(settings_file).agent_site == ""  # the demo, as the shipped one is remembered


def test_a_remembered_folder_that_is_no_longer_a_site_gives_the_demo_and_is_forgotten(qapp, tmp_path: Path,
                                                                                      tasks_copy: Path) -> None:
    settings_file = tmp_path / "settings.json"
    emptied = tmp_path / "emptied"
    emptied.mkdir()  # there, but its pages and index gone
    settings = Settings()
    settings.remember_agent_files(emptied, tasks_copy)
    settings.save(settings_file)
    window = AgentWindow(settings=Settings.load(settings_file), settings_file=settings_file)
    try:
        assert window.browser.site is not None and window.browser.site.root.resolve() == DEMO_SITE.resolve()
        assert window.task_editor.path == DEMO_TASKS and window.task_editor.table.rowCount() > 0
        assert f"the site last open, {emptied.resolve()}, cannot be opened" in window.statusBar().currentMessage()
        assert "the shipped demo site is open" in window.statusBar().currentMessage()
    finally:
        window.close()
    kept = Settings.load(settings_file)
    assert (kept.agent_site, kept.agent_tasks) == ("", "")  # not tried again next time


def test_a_tasks_file_opened_is_said_and_remembered(qapp, tmp_path: Path, tasks_copy: Path) -> None:
    settings_file = tmp_path / "settings.json"
    window = AgentWindow(settings=Settings(), settings_file=settings_file)
    try:
        window.task_editor.load(tasks_copy)
        assert window.statusBar().currentMessage() == f"12 tasks: {tasks_copy}"
        assert Settings.load(settings_file).agent_tasks == str(tasks_copy.resolve())
        assert window.windowTitle().endswith("— tasks tasks.jsonl[*]")
    finally:
        window.close()


def test_a_double_click_edits_the_cell_and_enter_or_the_button_picks_the_task(qapp, tasks_copy: Path) -> None:
    window = AgentWindow(site=DEMO_SITE, tasks=tasks_copy)
    try:
        window.resize(1400, 900)
        window.show()
        window.tabs.setCurrentWidget(window.task_editor)
        queued_work_done()
        table = window.task_editor.table
        cell = table.visualItemRect(table.item(2, ANSWER)).center()
        QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
        QTest.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
        assert table.state() == table.State.EditingState  # the cell editor is open ...
        assert window.tabs.currentWidget() is window.task_editor  # ... and the tab stayed
        assert "Enter on a row" in window.task_editor.hint.text()
        editor = QApplication.focusWidget()
        QTest.keyClick(editor, Qt.Key.Key_Escape)
        queued_work_done()
        assert table.state() != table.State.EditingState
        QTest.keyClick(table, Qt.Key.Key_Return)  # Enter on the row: picked for recording
        assert window.tabs.currentIndex() == 0 and window.panel.current_task().id == load_tasks(tasks_copy)[2].id
        window.tabs.setCurrentWidget(window.task_editor)
        table.setCurrentCell(4, ANSWER)
        QTest.mouseClick(window.task_editor.record_button, Qt.MouseButton.LeftButton)
        assert window.tabs.currentIndex() == 0 and window.panel.current_task().id == load_tasks(tasks_copy)[4].id
    finally:
        window.close()


def test_the_review_chooser_starts_beside_the_open_tasks_file(qapp, tasks_copy: Path, monkeypatch) -> None:
    window = AgentWindow(site=DEMO_SITE, tasks=tasks_copy)
    try:
        started: list[str] = []
        monkeypatch.setattr(review_queue.QFileDialog, "getOpenFileName",
                            lambda _parent, _title, folder, _filter: (started.append(folder), ("", ""))[1])
        window.task_editor.open_review()
        assert started == [str(tasks_copy.parent)]
    finally:
        window.task_editor.close_review()
        window.close()


def test_the_capture_starts_in_a_new_folder_and_opens_the_captured_site_only_when_asked(qapp, tmp_path: Path) -> None:
    make_site(tmp_path / "shop")
    (tmp_path / "shop-captured").mkdir()  # taken: the next name
    window = AgentWindow(site=tmp_path / "shop")
    try:
        dialog = window.open_capture_dialog()
        assert dialog.folder.text() == str(tmp_path / "shop-captured-2")
        assert not dialog.open_button.isEnabled()
        # A capture cancelled after some pages: they are indexed, and the open site stays until asked
        dialog.captured_folder = str(tmp_path / "demo-captured")
        shutil.copytree(DEMO_SITE, tmp_path / "demo-captured")
        dialog._on_finished({"ok": False, "message": "cancelled; run the capture again to continue"})
        assert dialog.open_button.isEnabled()
        assert window.browser.site.root == tmp_path / "shop"
        assert "“Open the captured site”" in window.statusBar().currentMessage()
        QTest.mouseClick(dialog.open_button, Qt.MouseButton.LeftButton)
        assert window.browser.site.root == tmp_path / "demo-captured"
        dialog.close()
    finally:
        window.close()
    demo = AgentWindow(site=DEMO_SITE)
    try:
        beside_demo = demo.open_capture_dialog()
        assert beside_demo.folder.text() == ""  # never beside (or in) the shipped demo
        beside_demo.close()  # left open, it stays the active window and the next tests' pages get no hover
    finally:
        demo.close()


def test_the_agent_menu_items_have_access_letters_of_their_own(qapp) -> None:
    window = AgentWindow(site=DEMO_SITE)
    try:
        [menu] = [a.menu() for a in window.menuBar().actions() if a.menu() is not None]
        texts = [a.text() for a in menu.actions() if not a.isSeparator()]
        letters = [t[t.index("&") + 1].lower() for t in texts if "&" in t]
        assert len(letters) == len(texts) and len(set(letters)) == len(letters), texts
    finally:
        window.close()
