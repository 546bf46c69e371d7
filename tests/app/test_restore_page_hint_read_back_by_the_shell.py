"""The status bar's `recordlens project restore-page …` command, after the window removed a page of a project whose
folder's name holds a space and a byte that is not UTF-8 (`caf\\xe9`), is written as a hint writes a command
(`command_hints.hint_words`): copied from the Recent messages (the status bar cuts a long message), a shell reads it
back as the very bytes of the removed page's copy and of the project (`"$(printf %b '…/caf\\0351/my project')"`),
where `shlex.join` gave `'…/caf\\udce9/…'`, whose byte Qt drops from what it shows; and the command as a shell reads
it puts the page back."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main as recordlens
from tests.app.demo_project import ITEM
from tests.app.list_projects import PLAIN_LIST
from tests.app.window_helpers import imported_project, open_window
from tests.shell_words import made_folder, read_back

pytestmark = pytest.mark.app


def test_the_restore_command_of_a_page_removed_in_the_window_runs_as_bash_reads_it(
        qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    made = imported_project(tmp_path, {"html/1.html": PLAIN_LIST, "gt/1.json": json.dumps([[ITEM.format(1)]]),
                                       "html/2.html": PLAIN_LIST.replace("<ul>", "<ol>").replace("</ul>", "</ol>")})
    named = tmp_path / os.fsdecode(b"caf\xe9")
    made_folder(named)
    folder = named / "my project"
    shutil.move(made, folder)
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("1")
        monkeypatch.setattr(window, "ask", lambda *_, **__: True)
        window.do_remove_page()
        window.tools.do_messages()
        shown = window.tools.messages_dialog.view.toPlainText()  # the text as Qt shows it, to be copied
        found = re.search(r"\(`(recordlens project restore-page .+)` puts it back\)", shown)
        assert found, shown
        copy = next((folder / "removed").glob("*-1.*.json"))
        words = read_back(found.group(1))
        expected = [b"recordlens", b"project", b"restore-page", os.fsencode(copy), b"--project", os.fsencode(folder)]
        assert words == read_back(found.group(1), "bash") == expected, found.group(1)

        assert recordlens([os.fsdecode(word) for word in words[1:]]) == 0  # as the user runs it, in a terminal
        capsys.readouterr()
        assert window.project.has_page("1")
    finally:
        window.close()
        window.shutdown()
