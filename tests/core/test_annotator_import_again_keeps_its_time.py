"""An annotator's labels imported again as they were change nothing, their time of import with them: the decisions
taken on those labels since are dated by it (`Adjudication.decided_since`), so that the import that does replace
them later still names the decisions taken before the one that changed nothing."""

from __future__ import annotations

import time
from pathlib import Path

from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance, open_project
from tests.core.two_annotators import ANN, dataset, project_of_ana_and_bea


def a_moment_later() -> None:
    """The project's times are to the millisecond: what comes next is stored at a later one."""
    time.sleep(0.02)


def test_decisions_before_an_identical_re_import_are_named_by_the_import_that_replaces_them(
        dev_dir: Path, tmp_path: Path) -> None:
    folder = project_of_ana_and_bea(dev_dir, tmp_path)
    beas = tmp_path / "bea"  # her folder, as the project imported it
    with open_project(folder) as project:
        first = project.true_records("1")[0]  # bea left it out: kept
        project.adjudication.keep("1", "bea", None, first, ANN)
        added = project.add_record("1", ["/body[1]"], Provenance.person("bea"), status="accepted", by=ANN,
                                   adjudicated="bea")  # taken
        seventh = project.labels("7")[0]
        project.edit(seventh.id, [*seventh.xpaths, "/body[1]"], ANN, adjudicated="bea")  # merged
        taken_number = next(k + 1 for k, label in enumerate(project.labels("1")) if label.id == added.record.id)
        held = project.annotators.set_pages("bea")
        a_moment_later()

        said = import_paths(project, [beas], annotator="bea").summary("bea")
        assert "are those their set held already: nothing changed" in said, said
        assert project.annotators.set_pages("bea") == held  # its time of import and source as they were
        a_moment_later()

        said = import_paths(project, [dataset(dev_dir, tmp_path / "bea2")], annotator="bea").summary("bea")
        assert f"2 adjudication decisions made on them: 1 kept, 1 taken (record {taken_number}))" in said, said
        assert "1 adjudication decision made on them: 1 merged (record 1))" in said, said
        assert "the decisions stay as they are: look at pages 1, 7 again in the app's review" in said


def test_storing_some_pages_as_they_were_dates_only_those_that_changed(dev_dir: Path, tmp_path: Path) -> None:
    folder = project_of_ana_and_bea(dev_dir, tmp_path)
    with open_project(folder) as project:
        sets = project.annotators
        before = {page.page: page for page in sets.set_pages("bea")}
        a_moment_later()
        changed = sets.records("bea", "7")[1:]
        stored = sets.store_pages("bea", {"1": (sets.records("bea", "1"), "elsewhere/1.json"),
                                          "7": (changed, "elsewhere/7.json")})
        assert stored.same == ("1",) and list(stored.replaced) == ["7"]
        after = {page.page: page for page in sets.set_pages("bea")}
        assert after["1"] == before["1"]  # nothing changed there: neither its time nor where it came from
        assert after["7"].imported_at > before["7"].imported_at and after["7"].source == "elsewhere/7.json"
        assert sets.records("bea", "7") == changed
