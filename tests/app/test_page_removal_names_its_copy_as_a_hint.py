"""The window's words about the removal of a page, in a project whose folders' names hold a space and a byte that is
not UTF-8 (`caf\\xe9`), name its paths as a hint names a path (`command_hints.hint_path`), as the restore-page
command beside them does: the question asked before (where what the page held is written), and the message after
(`kept in …`), read back from the Recent messages as Qt shows them, where the raw path lost its byte (Qt drops it);
the message of a database gone from under the window too. The notice of a project open in another window names
its folder as the title does (`\\xe9`)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import _as_read
from recordlens.core.command_hints import hint_path
from recordlens.core.store.removed_files import REMOVED
from tests.app.demo_project import ITEM
from tests.app.list_projects import PLAIN_LIST
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app


def test_the_removal_names_where_the_page_is_kept_as_a_hint(qtbot, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    made = imported_project(tmp_path, {"html/1.html": PLAIN_LIST, "gt/1.json": json.dumps([[ITEM.format(1)]]),
                                       "html/2.html": PLAIN_LIST.replace("<ul>", "<ol>").replace("</ul>", "</ol>")})
    named = tmp_path / os.fsdecode(b"caf\xe9")
    try:
        named.mkdir()
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses a name that is not UTF-8")
    folder = named / os.fsdecode(b"my caf\xe9")
    shutil.move(made, folder)
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("1")
        asked: list[str] = []
        monkeypatch.setattr(window, "ask", lambda question, details, *_, **__: asked.append(details) or True)
        window.do_remove_page()
        assert f" written to {hint_path(folder / REMOVED)}; its snapshot stays" in asked[0], asked
        window.tools.do_messages()
        shown = window.tools.messages_dialog.view.toPlainText()  # the text as Qt shows it
        copy = next((folder / REMOVED).glob("*-1.*.json"))
        assert f"page 1 removed; what it held is kept in {hint_path(copy)} (`recordlens project" in shown, shown

        assert window._database_gone_text().startswith(f"{hint_path(window.watch.file)} is no longer the database")
        notice = window.watch.claim()  # the window holds the project's open mark: as another window finds it
        assert notice.startswith(f"{_as_read(folder.name)} is open in another RecordLens window too"), notice
        assert "\\xe9" in notice
    finally:
        window.close()
        window.shutdown()
