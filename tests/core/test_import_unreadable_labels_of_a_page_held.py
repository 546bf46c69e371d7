"""A page already in the project whose labels file in the dataset cannot be read (not JSON, or a folder named N.json):
import says the file cannot be read and leaves the project's labels as they were, never taking the file for another
annotator's labels or edits of one's own (no `--annotator` or `--replace-labels` advice); with --replace-labels too,
since there are no labels to replace them with. An empty list of labels replacing a page's labels is said in its
history when that changes the page (`--replace-labels` of `[]`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from recordlens.core.store import open_project, status_moved
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """A project of the demo dataset, and a copy of that dataset to break."""
    shutil.copytree(DEMO, tmp_path / "data")
    assert run(capsys, "project", "init", str(tmp_path / "p"))[0] == 0
    assert run(capsys, "import", str(tmp_path / "data"), "--project", str(tmp_path / "p"), "-q")[0] == 0
    return tmp_path / "p", tmp_path / "data"


def break_labels(truth: Path, how: str) -> None:
    truth.unlink()
    if how == "folder":
        truth.mkdir()
    else:
        truth.write_text('[["/body[1]"', encoding="utf-8")


@pytest.mark.parametrize("how, why", [("json", "not valid JSON"), ("folder", "a folder, not a records file")])
@pytest.mark.parametrize("replace", [False, True])
def test_an_unreadable_labels_file_of_a_page_held_is_said_unreadable(project: tuple[Path, Path], how: str, why: str,
                                                                    replace: bool, capsys) -> None:
    root, data = project
    with open_project(root) as opened:
        before = opened.true_records("2")
    break_labels(data / "gt" / "2.json", how)
    code, _, err = run(capsys, "import", str(data), "--project", str(root), "-q",
                       *(["--replace-labels"] if replace else []))
    assert code == 1
    assert f"{data / 'gt' / '2.json'}: {why}" in err
    assert "page 2 is already in the project; its labels there are left as they were" in err
    assert "--annotator" not in err and "--replace-labels" not in err and "another annotator" not in err
    with open_project(root) as opened:
        assert opened.true_records("2") == before and opened.page("2").status == "labelled"


def test_replacing_labels_with_an_empty_list_is_in_the_history_when_it_changes_the_page(
        project: tuple[Path, Path], capsys) -> None:
    root, data = project
    (data / "gt" / "2.json").write_text("[]", encoding="utf-8")
    with open_project(root) as opened:
        changes = len(opened.history("2"))
    assert run(capsys, "import", str(data), "--project", str(root), "-q", "--replace-labels")[0] == 0
    with open_project(root) as opened:
        assert opened.true_records("2") == [] and opened.page("2").status == "labelled"
        assert len(opened.history("2")) > changes  # the records deleted: one step, restorable
        changes = len(opened.history("2"))
    # the same empty list again: nothing to replace, so nothing in the history
    code, _, err = run(capsys, "import", str(data), "--project", str(root), "-q", "--replace-labels")
    assert code == 0 and "were not imported" not in err
    with open_project(root) as opened:
        assert len(opened.history("2")) == changes


def test_an_empty_list_of_labels_is_a_decision_a_new_page_does_not_hold(tmp_path: Path, capsys) -> None:
    shutil.copytree(DEMO, tmp_path / "data")
    (tmp_path / "data" / "gt" / "2.json").write_text("[]", encoding="utf-8")
    root = str(tmp_path / "p")
    assert run(capsys, "project", "init", root)[0] == 0
    assert run(capsys, "import", str(tmp_path / "data" / "html"), "--project", root, "-q")[0] == 0  # no labels
    code, _, err = run(capsys, "import", str(tmp_path / "data"), "--project", root, "-q")
    assert code == 0 and "page 2 is already in the project: the labels in" in err  # not taken as held
    with open_project(root) as opened:
        assert opened.page("2").status == "new" and not opened.history("2")
    assert run(capsys, "import", str(tmp_path / "data"), "--project", root, "-q", "--replace-labels")[0] == 0
    with open_project(root) as opened:
        assert opened.page("2").status == "labelled"
        # new → labelled: in its history
        [change] = opened.history("2")
        moved = status_moved(change.action, change.detail, change.actor.kind)
        assert change.action == "status" and (moved["from"], moved["to"]) == ("new", "labelled")
