"""A page's name or its saved copy's hash read from anywhere but an import (a copy in `removed/`, which may come from
a colleague or have been edited; a database changed by hand) is held to the rule that its files stay in their
folder: `project restore-page` refuses a name that is a path (`../../notes`, `/home/x`) and a hash that is no
sha256, and `export --format nexteval` and `synth --project` never write outside `--out`, whatever the project's
database says (the page is left out, said, and the command exits 1)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.store import StoreError
from recordlens.core.store.files import snapshot_path
from tests.core.cli_runs import demo_project, folder_files, run

NOTES = "my precious notes\n"


def removed_copy_of_page_1(capsys: pytest.CaptureFixture[str], project: Path) -> Path:
    assert run(capsys, "project", "remove-page", "1", "--project", str(project))[0] == 0
    (copy,) = (project / "removed").glob("1-1.*.json")
    return copy


def edited(copy: Path, **page: str) -> Path:
    """The removed page's copy with its page row's fields changed, as a colleague (or anyone) could."""
    document = json.loads(copy.read_text(encoding="utf-8"))
    document["page"].update(page)
    copy.write_text(json.dumps(document), encoding="utf-8")
    return copy


def names_in(project: Path) -> list[str]:
    with sqlite3.connect(project / "project.db") as db:
        return sorted(name for (name,) in db.execute("SELECT name FROM pages"))


@pytest.mark.parametrize("kind", ["relative", "absolute"])
def test_restore_page_refuses_a_copy_whose_page_name_is_a_path(kind: str, tmp_path: Path, capsys) -> None:
    project = demo_project(capsys, tmp_path / "work" / "P")
    name = "../../notes" if kind == "relative" else str(tmp_path / "work" / "ABS")
    copy = edited(removed_copy_of_page_1(capsys, project), name=name)
    code, out, err = run(capsys, "project", "restore-page", str(copy), "--project", str(project))
    assert code == 2 and out == ""
    assert f"the page name '{name}' is a path, not a file's name" in err and "cannot be put back" in err
    assert names_in(project) == ["2", "3", "4"] and copy.is_file()  # nothing put back; the copy where it was


def test_restore_page_refuses_a_copy_whose_saved_copy_is_named_by_a_path(tmp_path: Path, capsys) -> None:
    project = demo_project(capsys, tmp_path / "P")
    copy = removed_copy_of_page_1(capsys, project)
    suffix = json.loads(copy.read_text(encoding="utf-8"))["snapshot"][0]["suffix"]
    outside = tmp_path / f"elsewhere{suffix}"  # what `snapshots/../../elsewhere` names: a file, there
    outside.write_text("<p>not the project's</p>", encoding="utf-8")
    edited(copy, snapshot="../../elsewhere")
    code, _, err = run(capsys, "project", "restore-page", str(copy), "--project", str(project))
    assert code == 2 and "'../../elsewhere' is not the name of a saved copy (the 64 hex digits" in err
    assert names_in(project) == ["2", "3", "4"]


def test_a_snapshot_path_is_made_only_of_a_hash_and_a_suffix(tmp_path: Path) -> None:
    digest = "0123456789abcdef" * 4
    assert snapshot_path(tmp_path, digest, ".mhtml") == tmp_path / "snapshots" / "01" / f"{digest}.mhtml"
    for bad, suffix in (("../../x", ".html"), (digest.upper(), ".html"), (digest[:-1], ".html"),
                        (digest, "/../../x.html"), (digest, ".ht/ml")):
        with pytest.raises(StoreError, match="changed by hand"):
            snapshot_path(tmp_path, bad, suffix)


def renamed_in_the_database(project: Path, old: str, new: str) -> None:
    """A page renamed by hand in the project's database: what no command of the project writes."""
    with sqlite3.connect(project / "project.db") as db:
        db.execute("UPDATE pages SET name = ? WHERE name = ?", (new, old))


@pytest.mark.parametrize("kind", ["relative", "absolute"])
def test_export_writes_nothing_outside_out_whatever_a_stored_name_says(kind: str, tmp_path: Path, capsys) -> None:
    work = tmp_path / "work"
    project = demo_project(capsys, work / "P")
    (work / "notes.json").write_text(NOTES, encoding="utf-8")
    name = "../../notes" if kind == "relative" else str(work / "ABS")
    renamed_in_the_database(project, "1", name)
    before = folder_files(tmp_path)
    code, out, err = run(capsys, "export", "--project", str(project), "--format", "nexteval",
                         "--out", str(work / "out"), "-q")
    assert code == 1  # a page left out: work left undone
    assert "exported 3 page(s)" in out and "; 1 not exported" in out
    assert f"not exported: the page name '{name}' is a path" in err
    assert (work / "notes.json").read_text(encoding="utf-8") == NOTES
    assert not (work / "notes.html").exists() and not (work / "ABS.html").exists()
    made = {path for path in folder_files(tmp_path) if path not in before}
    assert made == {f"work/out/{folder}/{page}.{suffix}" for page in ("2", "3", "4")
                    for folder, suffix in (("html", "html"), ("gt", "json"))}


def test_synth_of_a_project_writes_nothing_outside_out_whatever_a_stored_name_says(tmp_path: Path, capsys) -> None:
    work = tmp_path / "work"
    project = demo_project(capsys, work / "P")
    renamed_in_the_database(project, "1", "../../notes")
    before = folder_files(tmp_path)
    code, _, err = run(capsys, "synth", "--project", str(project), "--out", str(work / "syn"), "--variants", "1",
                       "--formats", "html", "-q")
    assert code == 1
    assert "the page name '../../notes' is a path, not a file's name" in err and "; left out" in err
    made = {Path(path) for path in folder_files(tmp_path) if path not in before}
    assert made and all(path.parts[:2] == ("work", "syn") for path in made)
    assert not any("notes" in path.name for path in made)
