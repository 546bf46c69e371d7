"""The project's own model path belongs to the project. A damaged file there (a model cut short) is set aside as
`selector.unusable.json` (a model of an older format as `selector.forgotten.json`) and replaced by `train --project`,
and that is said:
it used to be refused as "not a selector model … choose another path", though the app's Propose sent the user to
Learn to replace it. `train --out PATH` elsewhere still keeps a file that is not a model.

Setting the model aside (the app's "Propose with the shipped model again") where `models/` cannot be written used
to raise an uncaught OSError; it now says why, in the words a failed Learn uses, and leaves the model in place."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from recordlens.core.extract.selector_model import SelectorModel
from recordlens.core.output_paths import OutputPathError
from recordlens.core.store import project_model
from recordlens.core.store.learnt_model import (
    FORGOTTEN_MODEL,
    UNUSABLE_MODEL,
    forget_project_model,
    project_model_path,
    writable_model_path,
)
from tests.core.catalogue_pages import six_pages_and_page_4_in_progress
from tests.core.cli_runs import run

CUT_SHORT = SelectorModel([], provenance={"trained_on": "cut"}).to_json().encode("utf-8")[:40]


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Six pages imported with their labels (labelled), page 4 set back to in progress."""
    return six_pages_and_page_4_in_progress(tmp_path)


def with_damaged_model(project: Path) -> Path:
    path = project_model_path(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(CUT_SHORT)
    return path


def test_the_projects_own_path_takes_a_damaged_model_and_another_path_does_not(project_dir: Path,
                                                                               tmp_path: Path) -> None:
    own = with_damaged_model(project_dir)
    assert writable_model_path(own, project_dir) == own
    with pytest.raises(OutputPathError, match="is not a selector model, so it is not replaced"):
        writable_model_path(own)  # named without its project: an --out like any other
    elsewhere = tmp_path / "notes.json"
    elsewhere.write_bytes(CUT_SHORT)
    with pytest.raises(OutputPathError, match="is not a selector model, so it is not replaced"):
        writable_model_path(elsewhere, project_dir)


def test_train_project_sets_a_damaged_model_aside_and_says_so(project_dir: Path, quick_fits,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    own = with_damaged_model(project_dir)
    code, _, err = run(capsys, "train", "--project", str(project_dir), "-q", "--workers", "1")
    assert code == 0, err
    assert project_model(project_dir) == (own, "")  # a usable model now
    assert (project_dir / UNUSABLE_MODEL).read_bytes() == CUT_SHORT  # kept, not lost
    assert "the project's earlier model, which was unusable (not a selector model" in err, err
    assert f"is kept as {project_dir / UNUSABLE_MODEL}" in err and "in place of" not in err, err


def test_a_damaged_model_replaced_never_pushes_out_a_usable_one_set_aside(project_dir: Path, quick_fits,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "train", "--project", str(project_dir), "-q", "--workers", "1")[0] == 0
    usable = project_model_path(project_dir).read_bytes()
    (project_dir / FORGOTTEN_MODEL).write_bytes(usable)  # set aside by "Propose with the shipped model again"
    with_damaged_model(project_dir)
    code, _, err = run(capsys, "train", "--project", str(project_dir), "-q", "--workers", "1", "--force")
    assert code == 0, err
    assert (project_dir / FORGOTTEN_MODEL).read_bytes() == usable  # the usable one set aside is still there
    assert (project_dir / UNUSABLE_MODEL).read_bytes() == CUT_SHORT


def test_train_out_elsewhere_keeps_refusing_a_file_that_is_not_a_model(project_dir: Path, tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = tmp_path / "notes.json"
    elsewhere.write_bytes(CUT_SHORT)
    code, _, err = run(capsys, "train", "--project", str(project_dir), "--out", str(elsewhere), "-q")
    assert code == 2 and "is not a selector model, so it is not replaced" in err, err
    assert elsewhere.read_bytes() == CUT_SHORT


def read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """`models/` takes no file, as a read-only mount (root's permission bits say nothing)."""
    def refused(*_: object, **__: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr("recordlens.core.output_paths.tempfile.mkstemp", refused)


def test_setting_aside_in_a_folder_that_takes_no_file_says_why_and_keeps_the_model(
        project_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = project_model_path(project_dir)
    model.parent.mkdir(parents=True, exist_ok=True)
    model.write_text(SelectorModel([]).to_json(), encoding="utf-8")
    read_only(monkeypatch)
    with pytest.raises(OutputPathError) as refused:
        forget_project_model(project_dir)
    assert str(refused.value) == (f"cannot write {project_dir / FORGOTTEN_MODEL}: nothing can be written in "
                                  f"{model.parent} (Read-only file system)")
    assert model.is_file() and not (project_dir / FORGOTTEN_MODEL).exists()


def test_a_rename_refused_after_the_check_is_said_too(project_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = project_model_path(project_dir)
    model.parent.mkdir(parents=True, exist_ok=True)
    model.write_text(SelectorModel([]).to_json(), encoding="utf-8")

    def refused(*_: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Path, "replace", refused)
    with pytest.raises(OutputPathError, match=r"cannot write .*selector.forgotten.json: Permission denied$"):
        forget_project_model(project_dir)
    assert model.is_file()
