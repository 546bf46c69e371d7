"""A file missing from the app's folder, met as the app opens a project (the page view's scripts, the demo's
pages), gets a dialog of its own where nobody reads a terminal: its heading says the installation is incomplete,
not that the project (which is fine) cannot be opened."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator.install_check import IncompleteInstall
from recordlens.annotator.labelling import demo_project, page_view
from recordlens.annotator.qt import page_scripts
from recordlens.annotator.qt.page_loader import OfflinePage
from recordlens.core.command_hints import hint_path
from tests.app.window_helpers import imported_project, keep_app_state_private

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>One</title></head><body><ul>
<li><b>Camera</b> <i>$399</i></li><li><b>Lens</b> <i>$129</i></li></ul></body></html>"""


class Stream(io.StringIO):
    """stdin or stderr of a start from a desktop menu: no terminal."""

    def isatty(self) -> bool:
        return False


def started_from_a_menu(monkeypatch, tmp_path: Path) -> list[str]:  # noqa: ANN001 - pytest's MonkeyPatch
    """The app as started from a desktop menu (no terminal, a screen a person sees) with its settings in
    `tmp_path`: the texts of the dialogs it shows, each answered at once. In the test itself: pytest sets
    sys.stderr again between a fixture and its test."""
    from PySide6.QtWidgets import QMessageBox

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append(box.text()) or 0)
    monkeypatch.setattr(app, "_platform", lambda: "xcb")
    monkeypatch.setattr(sys, "stdin", Stream())
    monkeypatch.setattr(sys, "stderr", Stream())
    keep_app_state_private(monkeypatch, tmp_path)
    return shown


def assert_said_as_an_incomplete_install(shown: list[str], missing: str) -> None:
    assert len(shown) == 1
    heading, said = shown[0].split("\n\n", 1)
    assert heading == IncompleteInstall.heading == "RecordLens cannot start: its installation is incomplete."
    assert said.startswith(f"{missing} is missing: the RecordLens installation is incomplete; install it again")
    assert "cannot be opened" not in shown[0]
    assert f"error: {missing} is missing" in sys.stderr.getvalue()


def test_the_page_view_missing_a_script_is_said_as_an_incomplete_install(qapp, monkeypatch, tmp_path):
    project = imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps([["/body[1]/ul[1]/li[1]"]])})
    monkeypatch.setattr(page_scripts, "QWEBCHANNEL_RESOURCE", ":/qtwebchannel/gone.js")
    made: list[OfflinePage] = []

    class Kept(OfflinePage):  # the page the view made before it failed, closed by the test (the app exits)
        def __init__(self, **options: object) -> None:
            super().__init__(**options)
            made.append(self)

    monkeypatch.setattr(page_view, "OfflinePage", Kept)
    dialogs = started_from_a_menu(monkeypatch, tmp_path)
    try:
        assert app.main([str(project)]) == 2
    finally:
        for page in made:
            page.close()
    assert_said_as_an_incomplete_install(dialogs, page_scripts.QWEBCHANNEL_JS)


def test_a_demo_page_missing_is_said_as_an_incomplete_install(qapp, monkeypatch, tmp_path):
    dataset = tmp_path / "dataset"
    shutil.copytree(demo_project.demo_dataset(), dataset)
    (dataset / "html" / "2.html").unlink()
    monkeypatch.setattr(demo_project, "demo_dataset", lambda: dataset)
    dialogs = started_from_a_menu(monkeypatch, tmp_path)
    assert app.main(["--demo-dir", str(tmp_path / "demo")]) == 2
    assert_said_as_an_incomplete_install(dialogs, hint_path(dataset / "html" / "2.html"))
