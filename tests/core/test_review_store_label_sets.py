"""Label sets, as a reviewer found them: two spellings of one name that a project made before names were checked
holds are each reached by their exact name; a set-aside that did not happen leaves nothing behind; a re-import
writes the folder's note once, and reads the set once."""

from __future__ import annotations

import json
import shlex
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.importer import import_paths
from recordlens.core.store.label_sets import SetAside
from recordlens.core.store.project import open_project
from tests.core.two_annotators import dataset, project_of_ana_and_bea

NFC, NFD = "Zo\u00eb", "Zoe\u0308"  # one name, as two systems write it


@pytest.fixture
def project(dev_dir: Path, tmp_path: Path) -> Path:
    """The dev pages with their labels, and bea's labels of them as her set."""
    return project_of_ana_and_bea(dev_dir, tmp_path)


def sets(folder: Path) -> dict[str, dict[str, list[list[str]]]]:
    with open_project(folder) as opened:
        return {name: opened.annotators.all_records(name) for name in opened.annotators.names()}


def test_two_spellings_held_from_before_are_each_reached_by_their_exact_name(project: Path, dev_dir: Path,
                                                                            tmp_path: Path, capsys) -> None:
    # A project made before names were checked: both spellings are sets (names used to be only stripped)
    with sqlite3.connect(project / "project.db") as db:
        for name in (NFC, NFD):
            db.execute("INSERT INTO annotator_pages (annotator, page_id, source, imported_at) SELECT ?, id, 'old', "
                       "'2020-01-01T00:00:00Z' FROM pages WHERE name = '1'", (name,))
            db.execute("INSERT INTO annotator_labels (annotator, page_id, position, xpaths) SELECT ?, id, 0, "
                       "'[\"/body[1]\"]' FROM pages WHERE name = '1'", (name,))
    again = dataset(dev_dir, tmp_path / "again")
    for name in (NFD, NFC):
        assert main(["import", str(again), "--project", str(project), "--annotator", name, "-q"]) == 0
    assert set(sets(project)) == {"bea", NFC, NFD}
    # ... and the restore command that a removal prints works
    capsys.readouterr()
    assert main(["annotators", "--project", str(project), "--remove", NFD]) == 0
    command = capsys.readouterr().out.split("(`recordlens ")[1].split("` puts them back")[0]
    assert main([*shlex.split(command), "-q"]) == 0
    assert set(sets(project)) == {"bea", NFC, NFD}


def test_a_new_spelling_is_refused_with_the_difference_shown(project: Path, dev_dir: Path, tmp_path: Path,
                                                           capsys) -> None:
    cal = dataset(dev_dir, tmp_path / "cal")
    assert main(["import", str(cal), "--project", str(project), "--annotator", NFC, "-q"]) == 0
    capsys.readouterr()
    assert main(["import", str(cal), "--project", str(project), "--annotator", NFD, "-q"]) == 2
    # The two show how they differ, and only where they do: the letters stay as they are written.
    assert (f"the annotator name 'Zoe\\u0308' is another spelling of {NFC!r}, whose label set is in the "
            "project") in capsys.readouterr().err


def fail_on(folder: Path, table: str, event: str) -> None:
    """The project's database refuses any `event` on `table` from now on, as a full disk would a write."""
    with sqlite3.connect(folder / "project.db") as db:
        db.execute(f"CREATE TRIGGER refused BEFORE {event} ON {table} BEGIN SELECT RAISE(ABORT, 'disk full'); END")


def test_a_removal_that_fails_after_the_labels_were_set_aside_leaves_no_folder(project: Path, capsys) -> None:
    before = sets(project)
    fail_on(project, "annotator_pages", "DELETE")
    assert main(["annotators", "--project", str(project), "--remove", "bea"]) == 2
    assert "disk full" in capsys.readouterr().err
    assert sets(project) == before
    assert not (project / "removed").exists()
    assert main(["annotators", "--project", str(project)]) == 0
    assert "kept in" not in capsys.readouterr().out


def test_a_re_import_that_fails_after_the_labels_were_set_aside_leaves_no_folder(project: Path, dev_dir: Path,
                                                                                tmp_path: Path, capsys) -> None:
    before = sets(project)
    fail_on(project, "annotator_labels", "INSERT")
    again = dataset(dev_dir, tmp_path / "again")  # the project's labels: other than bea's on pages 1 and 7
    assert main(["import", str(again), "--project", str(project), "--annotator", "bea", "-q"]) == 1
    captured = capsys.readouterr()
    assert "bea's labels of page 1 not imported" in captured.err and "replaced" not in captured.out
    assert sets(project) == before
    assert not (project / "removed").exists()


def test_forgetting_some_pages_rewrites_the_note_without_them(tmp_path: Path) -> None:
    from recordlens.core.store.label_sets import SetPage

    kept = SetAside("bea", "removed")
    kept.keep(tmp_path, [(SetPage("bea", page, 1, f"{page}.json", "t"), [["/a"]]) for page in ("1", "2")])
    assert kept.folder is not None
    folder = kept.folder
    kept.forget(["2"])
    assert sorted(p.name for p in (folder / "gt").iterdir()) == ["1.json"]
    assert list(json.loads((folder / "set-aside.json").read_text(encoding="utf-8"))["pages"]) == ["1"]
    kept.forget(["1"])
    assert kept.folder is None and not (tmp_path / "removed").exists()


def test_a_re_import_writes_the_note_once_and_reads_the_set_once(project: Path, dev_dir: Path, tmp_path: Path,
                                                                 monkeypatch) -> None:
    from recordlens.core.store import label_sets

    notes, scans = [], []
    write_text, set_pages = label_sets.write_text, label_sets.Annotators.set_pages

    def writing(path: Path, text: str, **options: object) -> Path:
        if Path(path).name == "set-aside.json":
            notes.append(path)
        return write_text(path, text, **options)

    monkeypatch.setattr(label_sets, "write_text", writing)
    monkeypatch.setattr(label_sets.Annotators, "set_pages",
                        lambda self, annotator=None: scans.append(annotator) or set_pages(self, annotator))
    with open_project(project) as opened:
        report = import_paths(opened, [dataset(dev_dir, tmp_path / "again")], annotator="bea")
    assert sorted(report.annotator_replaced) == ["1", "7"]  # two pages set aside, in one folder
    assert (len(notes), len(scans)) == (1, 1)
