"""History of a page imported with an empty label list (the annotator's "no record here"): its "add" says 0 records
in the Records column, not an empty cell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.labelling.history_dialog import HistoryDialog
from recordlens.core.store import open_project
from tests.app.window_helpers import imported_project

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>List</title></head><body><ul>
<li><b>Camera</b></li><li><b>Lens</b></li></ul></body></html>"""


def test_an_add_of_no_record_says_0_records(tmp_path: Path, qtbot) -> None:
    folder = imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps([])})
    with open_project(folder) as project:
        assert project.page("1").status == "labelled"
        project.set_status("1", "new", project.history("1")[0].actor)  # a status move: no records, and none said
        dialog = HistoryDialog()
        qtbot.addWidget(dialog)
        dialog.show_page(project, "1")
    rows = [dialog.entries.topLevelItem(r) for r in range(dialog.entries.topLevelItemCount())]
    assert [(row.text(3), row.text(4)) for row in rows] == [
        ("page labelled → new", ""), ("add; page new → labelled", "0 records"), ("before any change", "")]
    assert "no record" in rows[1].toolTip(4).lower()
    dialog.close()
