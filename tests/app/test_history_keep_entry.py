"""A keep (O in the review: the project's version kept over another annotator's) changes no label, so the history's
Records cell of its entry was empty and its tips only repeated "keep, adjudicated with bea", while a merge's and a
take's entries named their record. A keep names the project's record it kept, by its number on the page then, or
says it concerns a record of bea's the project does not hold.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.demo_project import ITEM
from tests.app.list_projects import BEAS_RECORDS, one_list_and_beas
from tests.app.window_helpers import key, open_window

pytestmark = pytest.mark.app


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Page 1 with the project's records items 1 and 2, and bea's label set, whose records each hold one more."""
    return one_list_and_beas(tmp_path)


def test_a_keep_entry_names_the_record_it_kept_or_bea_s_record_the_project_lacks(qtbot, tmp_path, project_dir):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        project = window.project
        ours = project.labels("1")[1]  # record 2, item 2
        window.edit("keep the project's version", lambda: project.adjudication.keep(
            "1", "bea", BEAS_RECORDS[1], ours.xpaths, window.person))
        window.edit("keep the project's version", lambda: project.adjudication.keep(
            "1", "bea", BEAS_RECORDS[0], None, window.person))
        key(window, "Ctrl+H")
        dialog = window.tools.history_dialog
        assert dialog is not None
        not_held, kept = dialog.entries.topLevelItem(0), dialog.entries.topLevelItem(1)
        assert kept.text(3) == "keep the project's version over bea's"
        assert kept.text(4) == "record 2", kept.text(4)
        assert kept.toolTip(4) == f"record 2 accepted: {ITEM.format(2)}", kept.toolTip(4)
        assert not_held.text(4) == "bea's record, not in the project", not_held.text(4)
        assert not_held.toolTip(4) == (f"bea's record, which the project does not hold: {ITEM.format(1)}  "
                                       f"{ITEM.format(3)}"), not_held.toolTip(4)
        dialog.close()
    finally:
        window.close()
