"""Two windows on one project: a record the other window deleted, then accepted, merged or split here, is refused
in words the person can read (the record they selected, deleted meanwhile), never by its database id, which the
app shows nowhere."""

from __future__ import annotations

import re

import pytest

from recordlens.core.store import Provenance
from recordlens.core.store.project import open_project
from tests.app.demo_project import ITEM
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app

GONE = "is no longer in the project (deleted meanwhile, in another window?)"


def ids_said(text: str, ids: list[int]) -> list[int]:
    return [i for i in ids if re.search(rf"\b{i}\b", text)]


@pytest.mark.parametrize(("keys", "words"), [("A", "accept record: the record selected "),
                                             ("Delete", "delete record: the record selected "),
                                             ("M", "merge 2 records: a record selected ")])
def test_a_record_deleted_in_another_window_is_refused_without_its_id(qtbot, window, project_dir, keys,
                                                                      words) -> None:
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    for k in (1, 2, 3):
        window.project.add_record("2", [ITEM.format(k)], Provenance.extractor("test", "1"), status="proposed")
    window.reload_labels([])
    ids = [label.id for label in window.labels]
    # Ids the page's numbers (1, 2, 3) cannot be mistaken for: the project's records so far are the demo's
    assert min(ids) > 3
    window.select_records(ids[1:] if keys == "M" else [ids[1]])
    with open_project(project_dir) as other:  # the other window deletes record 2
        other.delete(ids[1], Provenance.person("someone"))
    key(window, keys)
    assert f"{words}{GONE}" in said(window), said(window)
    assert ids_said(said(window), ids) == []
