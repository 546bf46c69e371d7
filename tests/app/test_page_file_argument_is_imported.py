"""A file given to the app in place of a project: a desktop's "Open with RecordLens" on a saved page runs
`recordlens-annotator page.html`, and the app said "is a file, not a RecordLens project" and quit. A saved page is
imported into the project last open (or the demo project, said so), as a drop on the window imports it; any other
file is said, and the app stays open on the project last open."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator.settings import Settings
from recordlens.core.command_hints import hint_path
from tests.app.window_helpers import imported_project, keep_app_state_private, recent_messages

pytestmark = pytest.mark.app

PAGE = "<!doctype html><html><head><title>{0}</title></head><body><ul><li>{0} a</li><li>{0} b</li></ul></body></html>"


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    return imported_project(tmp_path / "made", {"html/1.html": PAGE.format("One")})


def started_with(qtbot, argv: list[str]) -> app.MainWindow:  # noqa: ANN001 - a QtBot
    """The window a start with `argv` opens, once any import it started has ended."""
    window = app.open_window(app.parse_args(argv))
    qtbot.waitUntil(lambda: window.job is None, timeout=120_000)
    return window


def closed(window: app.MainWindow) -> None:
    window.close()
    window.shutdown()


def test_a_saved_page_is_imported_into_the_project_last_open(qtbot, monkeypatch, tmp_path, project_dir, capsys):
    Settings(last_project=str(project_dir)).save(keep_app_state_private(monkeypatch, tmp_path))
    page = tmp_path / "downloads" / "shop.html"
    page.parent.mkdir()
    page.write_text(PAGE.format("Shop"), encoding="utf-8")
    window = started_with(qtbot, [str(page)])
    try:
        assert window.project.root == project_dir
        assert window.project.page_names() == ["1", "shop"]
        into = f"the project last open ({hint_path(project_dir)})"
        said = f"{hint_path(page)} is a saved page: it is imported into {into}"
        assert said in recent_messages(window)
        assert f"recordlens-annotator: {said}" in capsys.readouterr().err
    finally:
        closed(window)


def test_with_no_project_open_before_the_page_goes_into_the_demo_project_said_so(
    qtbot, monkeypatch, tmp_path, capsys
) -> None:
    keep_app_state_private(monkeypatch, tmp_path)  # no settings: no project was open before
    page = tmp_path / "saved page.mhtml"
    page.write_bytes(
        b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b"\r\n\r\n--b\r\n'
        b"Content-Type: text/html\r\nContent-Location: https://shop.example.com/\r\n\r\n"
        + PAGE.format("Archived").encode()
        + b"\r\n--b--\r\n"
    )
    demo = tmp_path / "demo"
    window = started_with(qtbot, [str(page), "--demo-dir", str(demo)])
    try:
        assert window.project.root == demo
        assert "saved page" in window.project.page_names()
        assert (
            f"{hint_path(page)} is a saved page: it is imported into the demo project, as no project of yours was "
            "open before (Ctrl+O opens one, or creates one in an empty folder)"
        ) in recent_messages(window)
    finally:
        closed(window)


def test_another_file_is_said_and_the_app_stays_on_the_project_last_open(qtbot, monkeypatch, tmp_path, project_dir):
    Settings(last_project=str(project_dir)).save(keep_app_state_private(monkeypatch, tmp_path))
    notes = tmp_path / "notes.txt"
    notes.write_text("not a page", encoding="utf-8")
    window = started_with(qtbot, [str(notes)])
    try:
        assert window.project.root == project_dir and window.project.page_names() == ["1"]
        said = (
            f"{hint_path(notes)} is a file, not a RecordLens project or a saved page (.mhtml, .html) to import: the "
            f"project last open ({hint_path(project_dir)}) is open instead"
        )
        assert window.statusBar().currentMessage() == said
    finally:
        closed(window)


def test_a_screenshot_of_a_file_is_still_refused(monkeypatch, tmp_path) -> None:
    """A screenshot is a script's: a file given for its project is its mistake, not a page to import."""
    notes = tmp_path / "page.html"
    notes.write_text(PAGE.format("Page"), encoding="utf-8")
    with pytest.raises(app.RecordLensError, match="is a file, not a RecordLens project"):
        app.start_for(app.parse_args([str(notes), "--screenshot", str(tmp_path / "shot.png")]))
