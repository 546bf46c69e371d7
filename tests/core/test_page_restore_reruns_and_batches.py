"""`project remove-page` and `project restore-page` run again after a kill, and restore-page given several copies:
the states a kill -9 leaves are made by hand (a copy put where the killed command had left it), so that each case
is met every time."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from recordlens.core.cli.command import main
from recordlens.core.store import Provenance, import_paths, init_project, open_project

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "dataset"


def _project(folder: Path) -> Path:
    with init_project(folder) as project:
        import_paths(project, [DEMO])
    return folder


def _command(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    said = capsys.readouterr()
    return code, said.out, said.err


def _names(folder: Path) -> list[str]:
    with open_project(folder) as project:
        return [page.name for page in project.pages()]


def _copies(folder: Path) -> list[Path]:
    return sorted((folder / "removed").glob("*.json"))


def test_a_restore_killed_after_its_commit_is_finished_by_a_rerun(tmp_path: Path, capsys) -> None:
    p = _project(tmp_path / "P")
    assert _command(capsys, "project", "remove-page", "1", "2", "3", "--project", str(p))[0] == 0
    (copy_of_2,) = (p / "removed").glob("*-2.*.json")
    assert _command(capsys, "project", "restore-page", str(copy_of_2), "--project", str(p))[0] == 0
    # killed after page 2's commit, before its copy moved: the copy still in removed/ beside the page put back
    shutil.copy2(p / "removed" / "restored" / copy_of_2.name, copy_of_2)
    code, out, err = _command(capsys, "project", "restore-page", *map(str, _copies(p)), "--project", str(p))
    assert code == 0, err
    assert "page 2 was restored already" in out and "remove that one first" not in err
    assert _names(p) == ["1", "2", "3", "4"] and _copies(p) == []  # the others restored too; every copy moved on
    assert len(list((p / "removed" / "restored").glob("*-2.*.json"))) == 2


def test_a_removal_killed_before_its_delete_committed_reuses_the_copy_it_wrote(tmp_path: Path, capsys) -> None:
    p = _project(tmp_path / "P")
    after = tmp_path / "after"
    shutil.copytree(p, after)
    assert _command(capsys, "project", "remove-page", "2", "--project", str(after))[0] == 0
    (p / "removed").mkdir()
    for copy in _copies(after):  # killed once the copy was in place, before the delete committed
        shutil.copy2(copy, p / "removed" / copy.name)
    code, out, err = _command(capsys, "project", "remove-page", "2", "--project", str(p))
    assert code == 0, err
    assert [copy.name for copy in _copies(p)] == [copy.name for copy in _copies(after)]  # no second copy
    assert "earlier removal" in out and _names(p) == ["1", "3", "4"]
    code, out, err = _command(capsys, "project", "restore-page", *map(str, _copies(p)), "--project", str(p))
    assert code == 0, err
    assert _names(p) == ["1", "2", "3", "4"]


def test_a_copy_that_is_not_the_page_held_is_not_reused_by_a_removal(tmp_path: Path, capsys) -> None:
    """A copy of the same page's earlier state (a label added since) stays as it is: the removal writes its own."""
    p = _project(tmp_path / "P")
    assert _command(capsys, "project", "remove-page", "2", "--project", str(p))[0] == 0
    (older,) = _copies(p)
    assert _command(capsys, "project", "restore-page", str(older), "--project", str(p))[0] == 0
    shutil.copy2(p / "removed" / "restored" / older.name, older)
    with open_project(p) as project:
        project.add_record("2", ["/body[1]"], Provenance.person("ana"))
    assert _command(capsys, "project", "remove-page", "2", "--project", str(p))[0] == 0
    assert len(_copies(p)) == 2 and older.is_file()


def test_a_batch_meeting_two_copies_of_one_page_restores_one(tmp_path: Path, capsys) -> None:
    p = _project(tmp_path / "P")
    assert _command(capsys, "project", "remove-page", "2", "4", "--project", str(p))[0] == 0
    (copy,) = (p / "removed").glob("*-2.*.json")
    second = copy.with_name(copy.name.replace(".json", "9.json"))  # a second copy of the same page, written later
    document = json.loads(copy.read_text(encoding="utf-8"))
    second.write_text(json.dumps({**document, "removed_at": document["removed_at"] + "9"}), encoding="utf-8")
    code, out, err = _command(capsys, "project", "restore-page", *map(str, _copies(p)), "--project", str(p))
    assert code == 0, err
    assert out.count("restored page 2 (") == 1 and out.count("page 2 was restored already") == 1
    assert _names(p) == ["1", "2", "3", "4"] and _copies(p) == []


def test_a_batch_says_each_copy_refused_and_puts_back_the_others(tmp_path: Path, capsys) -> None:
    a, b = _project(tmp_path / "A"), _project(tmp_path / "B")
    assert _command(capsys, "project", "remove-page", "2", "--project", str(b))[0] == 0
    assert _command(capsys, "project", "remove-page", "1", "3", "--project", str(a))[0] == 0
    (one,), (three,) = (a / "removed").glob("*-1.*.json"), (a / "removed").glob("*-3.*.json")
    (foreign,) = _copies(b)  # page 2 of another project, whose name this one still uses
    code, out, err = _command(capsys, "project", "restore-page", str(one), str(foreign), str(three),
                              "--project", str(a))
    assert code == 1  # some were not put back
    assert f"{foreign}" in err and "comes from another project" in err and "remove that one first" not in err
    assert "restored page 1 (" in out and "restored page 3 (" in out  # the copy after it tried too
    assert _names(a) == ["1", "2", "3", "4"] and foreign.is_file()
    code, _, err = _command(capsys, "project", "restore-page", str(foreign), "--project", str(a))
    assert code == 2 and "comes from another project" in err  # none put back
