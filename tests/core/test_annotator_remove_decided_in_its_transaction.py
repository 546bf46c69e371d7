"""`annotators --remove NAME` decides which pages go, and checks them, in the transaction that deletes them: pages an
import adds to the set meanwhile go too (or, with --page, stay), never left behind while the command says the set
was removed. Its labels are written to `removed/annotators/` before the write lock is taken, so that an edit made
meanwhile is stored at once; and a page whose name is a path (a database changed by hand) is refused before any file
is written outside the project."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store import label_sets
from recordlens.core.store.db import StoreError
from recordlens.core.store.files import store_snapshot
from recordlens.core.store.label_sets import Annotators
from recordlens.core.store.project import Project, Provenance, init_project, open_project

PAGES = ["1", "2", "3", "4", "5"]
ANA = Provenance.person("ana")


def labels(page: str) -> list[list[str]]:
    return [[f"/html[1]/body[1]/div[{page}]"], [f"/html[1]/body[1]/p[{page}]"]]


def bea_labelled(project: Project, pages: list[str]) -> None:
    """Bea's labels of `pages`, as `import --annotator bea` stores them."""
    project.annotators.store("bea", {page: (labels(page), f"gt/{page}.json") for page in pages})


def project_with_beas_set(folder: Path) -> None:
    """A project of PAGES, bea having labelled pages 1 and 2."""
    with init_project(folder) as project:
        data = b"<html><body><div>a</div><p>b</p></body></html>"
        digest = store_snapshot(project.root, data, ".html")
        with project.writing():
            for name in PAGES:
                project.add_page(name, digest, ".html", len(data))
        bea_labelled(project, ["1", "2"])


def set_asides(folder: Path) -> list[Path]:
    parent = folder / "removed" / "annotators"
    return sorted(parent.iterdir()) if parent.is_dir() else []


def on_reading_the_set(monkeypatch: pytest.MonkeyPatch, act) -> None:  # noqa: ANN001 - called with the read's number
    """`act(n)` once the set's pages are read for the n-th time (`Annotators._held`), the reads `act` makes (an
    import's) left uncounted."""
    real = Annotators._held
    reads: list[int] = []
    acting_now: list[bool] = []

    def acting(self: Annotators, annotator: str) -> dict[str, label_sets.SetPage]:
        held = real(self, annotator)
        if not acting_now:
            reads.append(1)
            acting_now.append(True)
            try:
                act(len(reads))
            finally:
                acting_now.clear()
        return held

    monkeypatch.setattr(Annotators, "_held", acting)


def test_pages_an_import_adds_while_the_set_is_removed_go_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys) -> None:
    project_with_beas_set(tmp_path / "p")
    with open_project(tmp_path / "p") as other:
        on_reading_the_set(monkeypatch, lambda n: n == 1 and bea_labelled(other, ["3", "4"]))
        assert main(["annotators", "--project", str(tmp_path / "p"), "--remove", "bea"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("removed bea's label set (4 pages: 1 (2 records), 2 (2 records), 3 (2 records), "
                           "4 (2 records)); kept in ")
    with open_project(tmp_path / "p") as project:
        assert project.annotators.names() == []
    (kept,) = set_asides(tmp_path / "p")  # the first copy, of 2 pages, is gone
    assert sorted(p.stem for p in (kept / "gt").iterdir()) == ["1", "2", "3", "4"]


def test_pages_asked_for_go_and_those_added_meanwhile_stay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project_with_beas_set(tmp_path / "p")
    with open_project(tmp_path / "p") as other:
        # page 1 labelled again (other labels) and page 3 added while page 1 is set aside: page 1 goes as it now is
        on_reading_the_set(monkeypatch, lambda n: n == 1 and other.annotators.store(
            "bea", {"1": (labels("9"), "again/1.json"), "3": (labels("3"), "gt/3.json")}))
        with open_project(tmp_path / "p") as project:
            kept = project.annotators.remove("bea", ["1"])
            assert project.annotators.pages("bea") == ["2", "3"]
    assert kept.pages == {"1": 2} and kept.folder is not None
    assert (kept.folder / "gt" / "1.json").read_text(encoding="utf-8").count("div[9]") == 1


def test_a_set_that_changes_while_each_copy_is_written_is_not_removed_and_leaves_no_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project_with_beas_set(tmp_path / "p")
    with open_project(tmp_path / "p") as other:
        # an import going on: one more page of bea's after each read that decides what goes
        on_reading_the_set(monkeypatch, lambda n: n % 2 == 1 and bea_labelled(other, [PAGES[min(n // 2 + 2, 4)]]))
        with open_project(tmp_path / "p") as project:
            with pytest.raises(StoreError, match="bea's labels not removed: the set changed each of the 3 times"):
                project.annotators.remove("bea")
            assert project.annotators.pages("bea") == ["1", "2", "3", "4", "5"]
    assert set_asides(tmp_path / "p") == []


def test_an_edit_made_while_the_labels_are_set_aside_is_stored_at_once(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    project_with_beas_set(tmp_path / "p")
    edits: list[str] = []
    with open_project(tmp_path / "p") as other:
        other.db.conn.execute("PRAGMA busy_timeout = 0")  # the app's L key, refused at once if the lock is held
        real = label_sets.write_text

        def editing_first(path: Path, text: str) -> Path:
            if not edits:
                try:
                    other.set_status("5", "labelled", ANA)
                    edits.append("stored")
                except sqlite3.OperationalError as error:
                    edits.append(str(error))
            return real(path, text)

        monkeypatch.setattr(label_sets, "write_text", editing_first)
        with open_project(tmp_path / "p") as project:
            kept = project.annotators.remove("bea")
            assert project.page("5").status == "labelled" and project.annotators.names() == []
    assert edits == ["stored"] and kept.pages == {"1": 2, "2": 2}


def test_a_page_named_as_a_path_is_refused_before_any_file_is_written(tmp_path: Path) -> None:
    folder = tmp_path / "inside" / "p"
    project_with_beas_set(folder)
    escaped = "../../../../escaped"  # from removed/annotators/bea.TIME/gt/: beside the project's folder
    with sqlite3.connect(folder / "project.db") as db:  # changed by hand
        db.execute("UPDATE pages SET name = ? WHERE name = '2'", (escaped,))
    with open_project(folder) as project:
        with pytest.raises(StoreError) as refused:
            project.annotators.remove("bea")
        assert project.annotators.pages("bea") == ["1", escaped]
    assert str(refused.value).startswith(f"bea's labels are kept as they are: the page name '{escaped}' is a path, "
                                         "not a file's name: its file would be written outside ")
    assert "`recordlens project remove-page`" in str(refused.value)
    assert list(tmp_path.rglob("escaped*")) == []
    assert not (folder / "removed").exists()
