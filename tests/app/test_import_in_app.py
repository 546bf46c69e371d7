"""Importing pages from the window, as a user would: files chosen with Ctrl+I, a dataset folder with its labels,
files dropped on the window. Broken files are refused with their reason under Recent messages, the good ones
land in the page list, and nothing already in the project changes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import Settings
from recordlens.core.store.project import init_project, open_project
from tests.app.window_helpers import FakeKeyStore, imported_project, open_window

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head><body>
<ul><li><b>One</b> <i>$1</i></li><li><b>Two</b> <i>$2</i></li><li><b>Three</b> <i>$3</i></li></ul></body></html>"""
TRUTH = '[["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"], ["/body[1]/ul[1]/li[3]"]]'
# An archive whose only part is cut off before its body: nothing to show, so it must be refused whole.
CUT_ARCHIVE = (b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"b\"\r\n\r\n--b\r\n"
               b"Content-Type: text/html\r\nContent-Location: https://shop.example.com/\r\n")


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    return imported_project(tmp_path / "made", {"html/1.html": PAGE.format(title="First")})


def _wait_for_import(qtbot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: window.job is None, timeout=60_000)


def _drop(window: MainWindow, paths: list[Path]) -> None:
    """What Qt delivers when files are dropped on the window: a drag entering it, then the drop."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    where = QPointF(window.width() / 2, window.height() / 2)
    enter = QDragEnterEvent(QPoint(int(where.x()), int(where.y())), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(where, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)


def test_files_dropped_on_the_window_are_imported_and_the_broken_ones_refused_with_their_reason(
        qtbot, tmp_path: Path, project_dir: Path):
    files = tmp_path / "downloads"
    files.mkdir()
    (files / "2.html").write_text(PAGE.format(title="Second"), encoding="utf-8")
    (files / "3.mhtml").write_bytes(CUT_ARCHIVE)
    (files / "notes.txt").write_text("not a page", encoding="utf-8")
    os.mkfifo(files / "4.html")  # a page file that is no regular file: reading it would block forever
    dataset = tmp_path / "dataset"
    (dataset / "html").mkdir(parents=True)
    (dataset / "gt").mkdir()
    (dataset / "html" / "5.html").write_text(PAGE.format(title="Fifth"), encoding="utf-8")
    (dataset / "gt" / "5.json").write_text(TRUTH, encoding="utf-8")

    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        before = window.project.labels("1")
        assert not window.page_view.view.acceptDrops()  # a drop on the page reaches the window, not Chromium
        _drop(window, [files / "2.html", files / "3.mhtml", files / "notes.txt", files / "4.html", dataset])
        _wait_for_import(qtbot, window)
        assert window.page_list.names() == ["1", "2", "5"]
        assert window.page_name == "1" and window.project.labels("1") == before
        assert [label.xpaths for label in window.project.labels("5")] == [
            ("/body[1]/ul[1]/li[1]",), ("/body[1]/ul[1]/li[2]",), ("/body[1]/ul[1]/li[3]",)]
        assert window.project.page("5").status == "labelled"
        said = window.statusBar().currentMessage()
        assert said.startswith("imported 2 page(s) with 3 label(s); 0 already in the project; 3 not imported"), said
        refused = [line for line in [text for _, text in window.messages.entries] if line.startswith("not imported: ")]
        assert len(refused) == 3, [text for _, text in window.messages.entries]
        assert any("3.mhtml" in line for line in refused)
        assert any("4.html" in line and "not a regular file" in line for line in refused), refused
        assert any("notes.txt" in line for line in refused)
    finally:
        window.close()


def test_ctrl_i_imports_the_files_chosen_and_a_page_imported_again_is_left_as_it_is(
        qtbot, tmp_path: Path, project_dir: Path, monkeypatch):
    (tmp_path / "saved").mkdir()
    page = tmp_path / "saved" / "2.html"
    page.write_text(PAGE.format(title="Second"), encoding="utf-8")
    opened_in: list[str] = []

    def choose(_parent, _title, folder, _filter):  # noqa: ANN001, ANN202 - the dialog's signature
        opened_in.append(folder)
        return [str(page)], ""

    monkeypatch.setattr("recordlens.annotator.labelling.page_import.QFileDialog.getOpenFileNames", choose)
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        QTest.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
        _wait_for_import(qtbot, window)
        assert window.page_list.names() == ["1", "2"]
        window.open_page("2")
        assert window.page_view.wait_until_loaded()
        window.project.add_record("2", ["/body[1]/ul[1]/li[1]"], window.person)
        QTest.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
        _wait_for_import(qtbot, window)
        assert window.statusBar().currentMessage() == (
            "imported 0 page(s) with 0 label(s); 1 already in the project; 0 not imported")
        assert len(window.project.labels("2")) == 1
        # The first dialog opened in the home folder, the second where the page was imported from.
        assert opened_in == [str(Path.home()), str(tmp_path / "saved")]
        assert Settings.load(tmp_path / "settings.json").import_folder == str(tmp_path / "saved")
    finally:
        window.close()


def test_a_window_on_an_empty_project_shows_the_first_page_imported(qtbot, tmp_path: Path):
    with init_project(tmp_path / "empty"):
        pass
    page = tmp_path / "first.html"
    page.write_text(PAGE.format(title="First"), encoding="utf-8")
    window = MainWindow(open_project(tmp_path / "empty"), settings=Settings(annotator="tester"),
                        settings_file=tmp_path / "settings.json", key_store=FakeKeyStore())
    window.show()
    try:
        assert window.page_name is None
        # In place of a blank page: what to do first.
        note = window.page_view.note
        assert note.isVisible() and not window.page_view.view.isVisible()
        assert note.text().startswith("This project has no pages yet.") and "Ctrl+I" in note.text()
        window.importing.import_paths([page])
        _wait_for_import(qtbot, window)
        assert window.page_name == "first"
        assert window.page_view.wait_until_loaded()
        assert not note.isVisible() and window.page_view.view.isVisible()
    finally:
        window.close()


def test_a_cancelled_import_keeps_the_pages_imported_before_it_and_says_which(qtbot, tmp_path: Path,
                                                                             project_dir: Path):
    folder = tmp_path / "many"
    folder.mkdir()
    for k in range(2, 40):
        (folder / f"{k}.html").write_text(PAGE.format(title=f"Page {k}"), encoding="utf-8")
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        assert window.importing.import_paths([folder]) is not None
        window.jobs.do_cancel_job()
        _wait_for_import(qtbot, window)
        assert window.statusBar().currentMessage() == "cancelled"
        report = window.importing.last_report
        assert report is not None and len(report.imported) < 38
        # Whatever the cancel let in is in the list and in the report, and nothing else is.
        assert sorted(window.page_list.names()) == sorted(["1", *report.imported])
    finally:
        window.close()
