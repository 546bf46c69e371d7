"""`project restore-page` of a page that an import has brought back meanwhile, the same bytes (another annotator's
folder holding the page too): the copy's rows go beside what the page holds now when none would be overwritten,
and the copy is refused, naming what both hold and how to make room, when some would. It refused every such copy
as "another page ... from another file", and its advice (remove that one first) moved the other annotator's labels
into a copy that could not be put back either: the project's labels and theirs could not both be in the project."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from recordlens.core.cli.command import main
from recordlens.core.store import Provenance, import_paths, init_project, open_project

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "dataset"


def _command(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    said = capsys.readouterr()
    return code, said.out, said.err


def _folder(root: Path, page: str, change=lambda records: records) -> Path:  # noqa: ANN001 - a function
    """A NEXT-EVAL folder of one page of the demo dataset, its labels as `change` makes them (an annotator's)."""
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    shutil.copy(DEMO / "html" / f"{page}.html", root / "html")
    records = json.loads((DEMO / "gt" / f"{page}.json").read_text(encoding="utf-8"))
    (root / "gt" / f"{page}.json").write_text(json.dumps(change(records)), encoding="utf-8")
    return root


def _copies(project: Path) -> list[Path]:
    return sorted((project / "removed").glob("*.json"))


def _held(project: Path, page: str) -> tuple[list, str, dict[str, list]]:
    """The page's project labels (id and XPaths), its status, and each annotator's records of it."""
    with open_project(project) as opened:
        labels = [(label.id, label.xpaths) for label in opened.labels(page)]
        sets = {name: opened.annotators.records(name, page) for name in opened.annotators.names()
                if page in opened.annotators.pages(name)}
        return labels, opened.page(page).status, sets


def test_the_projects_labels_go_back_beside_an_annotators_labels_of_the_same_page(tmp_path: Path, capsys) -> None:
    p = tmp_path / "P"
    with init_project(p) as project:
        import_paths(project, [DEMO])
    before = _held(p, "2")
    assert _command(capsys, "project", "remove-page", "2", "--project", str(p))[0] == 0
    (copy,) = _copies(p)
    alices = _folder(tmp_path / "alice", "2", lambda records: records[:-1])  # the page, with her labels
    assert _command(capsys, "import", str(alices), "--project", str(p), "--annotator", "alice")[0] == 0
    code, out, err = _command(capsys, "project", "restore-page", str(copy), "--project", str(p))
    assert code == 0, err
    assert "another file" not in err and "beside what it holds" in out, out
    labels, status, sets = _held(p, "2")
    assert (labels, status) == before[:2]  # the project's labels, with their ids, and the page's status
    assert list(sets) == ["alice"] and len(sets["alice"]) == len(labels) - 1  # hers stay beside them
    assert _copies(p) == [] and (p / "removed" / "restored" / copy.name).is_file()
    with open_project(p) as project:
        (entry,) = project.history("2")  # the first import's entry, put back onto the page held now
        assert project.restore("2", None, Provenance.person("ana")).id is not None  # its history works there
        project.restore("2", entry.id, Provenance.person("ana"))
        assert [(label.id, label.xpaths) for label in project.labels("2")] == labels
    # A restore killed after its commit, its copy left in removed/: run again, it only moves the copy
    shutil.copy2(p / "removed" / "restored" / copy.name, copy)
    code, out, err = _command(capsys, "project", "restore-page", str(copy), "--project", str(p))
    assert code == 0 and "was restored already" in out, err
    assert _held(p, "2") == (labels, status, sets)


def test_the_page_held_now_taken_out_first_comes_back_beside_the_copy_put_back(tmp_path: Path, capsys) -> None:
    """The advice the refusal gave (remove the page held now first) followed: both copies come back, one onto the
    other, and the project holds the project's labels and alice's together."""
    p = tmp_path / "P"
    with init_project(p) as project:
        import_paths(project, [DEMO])
    assert _command(capsys, "project", "remove-page", "2", "--project", str(p))[0] == 0
    (projects,) = _copies(p)
    alices = _folder(tmp_path / "alice", "2", lambda records: records[:-1])
    assert _command(capsys, "import", str(alices), "--project", str(p), "--annotator", "alice")[0] == 0
    assert _command(capsys, "project", "remove-page", "2", "--project", str(p))[0] == 0
    (hers,) = [copy for copy in _copies(p) if copy != projects]
    assert _command(capsys, "project", "restore-page", str(projects), "--project", str(p))[0] == 0
    code, out, err = _command(capsys, "project", "restore-page", str(hers), "--project", str(p))
    assert code == 0, err
    labels, status, sets = _held(p, "2")
    assert labels and status == "labelled" and list(sets) == ["alice"]


def test_an_annotators_labels_held_by_both_are_refused_and_named(tmp_path: Path, capsys) -> None:
    p = tmp_path / "P"
    with init_project(p) as project:
        import_paths(project, [DEMO])
    first = _folder(tmp_path / "alice1", "2", lambda records: records[:-1])
    assert _command(capsys, "import", str(first), "--project", str(p), "--annotator", "alice")[0] == 0
    before = _held(p, "2")
    assert _command(capsys, "project", "remove-page", "2", "--project", str(p))[0] == 0
    (copy,) = _copies(p)
    second = _folder(tmp_path / "alice2", "2", lambda records: records[1:])  # her labels of it, made again
    assert _command(capsys, "import", str(second), "--project", str(p), "--annotator", "alice")[0] == 0
    held = _held(p, "2")
    code, out, err = _command(capsys, "project", "restore-page", str(copy), "--project", str(p))
    assert code == 2 and out == ""
    assert "alice's labels" in err and "same bytes" in err and "another file" not in err, err
    assert f"recordlens annotators --project {p} --remove alice --page 2" in err, err
    assert _held(p, "2") == held and copy.is_file()  # nothing written, the copy kept
    # The advice followed: her labels of the page held now set aside, then the copy comes back whole
    assert _command(capsys, "annotators", "--project", str(p), "--remove", "alice", "--page", "2")[0] == 0
    code, out, err = _command(capsys, "project", "restore-page", str(copy), "--project", str(p))
    assert code == 0, err
    assert _held(p, "2") == before


def test_the_projects_labels_held_by_both_are_refused_and_named(tmp_path: Path, capsys) -> None:
    p = tmp_path / "P"
    with init_project(p) as project:
        import_paths(project, [DEMO])
    assert _command(capsys, "project", "remove-page", "2", "--project", str(p))[0] == 0
    (copy,) = _copies(p)
    assert _command(capsys, "import", str(_folder(tmp_path / "again", "2")), "--project", str(p))[0] == 0
    held = _held(p, "2")
    code, _, err = _command(capsys, "project", "restore-page", str(copy), "--project", str(p))
    assert code == 2
    assert "the project's own labels of it (the page held now: 18 labels; this copy: 18 labels)" in err, err
    assert "another file" not in err
    assert f"recordlens project remove-page 2 --project {p}" in err, err
    assert _held(p, "2") == held and copy.is_file()


def test_another_page_of_the_name_is_refused_as_another_file(tmp_path: Path, capsys) -> None:
    p = tmp_path / "P"
    with init_project(p) as project:
        import_paths(project, [DEMO])
    assert _command(capsys, "project", "remove-page", "2", "--project", str(p))[0] == 0
    (copy,) = _copies(p)
    other = tmp_path / "other" / "2.html"  # page 2 changed since: other bytes under its name
    other.parent.mkdir()
    other.write_bytes((DEMO / "html" / "2.html").read_bytes() + b"<!-- changed -->\n")
    with open_project(p) as project:
        import_paths(project, [other])
    code, _, err = _command(capsys, "project", "restore-page", str(copy), "--project", str(p))
    assert code == 2 and "another page named '2'" in err and "remove that one first" in err, err


def test_a_runs_prediction_goes_back_unless_the_page_held_now_has_one_of_that_run(tmp_path: Path) -> None:
    from recordlens.core.store import StoreError, remove_page, restore_page

    p = tmp_path / "P"
    alices = _folder(tmp_path / "alice", "2", lambda records: records[:-1])
    with init_project(p) as project:
        import_paths(project, [DEMO])
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {"2": [["/body[1]"]]})
        first = remove_page(project, "2")
        import_paths(project, [alices], annotator="alice")
        restore_page(project, first.kept)
        assert project.runs.predictions(run) == {"2": [["/body[1]"]]}
        second = remove_page(project, "2")
        import_paths(project, [alices], annotator="alice")
        project.runs.add_predictions(run, {"2": [["/body[2]"]]})  # the run's prediction of the page held now
        try:
            restore_page(project, second.kept)
        except StoreError as error:
            said = str(error)
        assert f"predictions or scores of it by run {run}" in said and "remove-page 2" in said, said
        assert project.runs.predictions(run) == {"2": [["/body[2]"]]} and second.kept.is_file()
        assert project.labels("2") == []  # nothing of the copy put back
