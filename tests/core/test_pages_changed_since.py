"""`Project.pages_changed_since`: the pages with a history entry newer than a given one, with the counts `pages`
gives them, so that the annotator's page list can bring an edit's rows up to date without reading every page."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.store.files import store_snapshot
from recordlens.core.store.project import Provenance, init_project

PERSON = Provenance.person("ana")
MDR = Provenance.extractor("mdr", "1")


def test_only_the_pages_changed_after_the_entry_are_given_as_pages_gives_them(tmp_path: Path) -> None:
    with init_project(tmp_path / "p") as project:
        data = b"<html><body><ul></ul></body></html>"
        for name in ("10", "2", "1"):
            project.add_page(name, store_snapshot(project.root, data, ".html"), ".html", len(data))
        assert project.pages_changed_since(0) == []  # imported without labels: no history yet
        proposals = project.add_records("2", [[f"/body[1]/ul[1]/li[{k}]"] for k in (1, 2)], MDR).after
        project.add_records("10", [["/body[1]/ul[1]/li[1]"]], MDR)
        seen = project.last_change_id() or 0
        assert [info.name for info in project.pages_changed_since(0)] == ["2", "10"]  # natural order
        assert project.pages_changed_since(seen) == []

        project.accept(proposals[0].id, PERSON)
        project.reject(proposals[1].id, PERSON)
        changed = project.pages_changed_since(seen)
        assert changed == [project.page("2")]
        assert (changed[0].true_labels, changed[0].rejected, changed[0].proposed) == (1, 1, 0)
