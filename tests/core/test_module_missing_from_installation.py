"""A module RecordLens loads by name that the installation lacks is said in one line, not a traceback.

The desktop package once lacked `sklearn.ensemble` (packaging/recordlens.spec did not list it): its folder of data
files was there, so the import made an empty namespace package of it, and `recordlens train` ended in a traceback
on `AttributeError: module 'sklearn.ensemble' has no attribute 'GradientBoostingClassifier'`. Here the import finds
`sklearn.ensemble` as that folder, as it did in the package."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import sklearn
import sklearn.ensemble

from recordlens.core.errors import RecordLensError
from recordlens.core.lazy_import import MissingModuleError, load
from tests.core.cli_runs import DEMO, run

ENSEMBLE = "sklearn.ensemble"


class _FolderOnly(importlib.abc.MetaPathFinder):
    """Finds `sklearn.ensemble` as a folder of data files with no code, as in a bundle built without it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.PathFinder.find_spec(name, [str(self.folder)]) if name == ENSEMBLE else None


@pytest.fixture
def ensemble_only_a_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    bundle = tmp_path / "bundle" / "sklearn"
    (bundle / "ensemble").mkdir(parents=True)
    (bundle / "ensemble" / "meson.build").write_text("# a data file PyInstaller collects\n", encoding="utf-8")
    monkeypatch.setattr(sklearn, "ensemble", sklearn.ensemble)  # put back: an import sets the parent's attribute
    monkeypatch.delitem(sys.modules, ENSEMBLE)
    monkeypatch.setattr(sys, "meta_path", [_FolderOnly(bundle), *sys.meta_path])
    yield


def test_a_folder_found_in_the_place_of_a_module_is_a_missing_module(ensemble_only_a_folder: None) -> None:
    with pytest.raises(MissingModuleError, match=r"sklearn\.ensemble, which RecordLens needs here, is missing"):
        load(ENSEMBLE)


def test_a_module_not_installed_is_a_missing_module_and_still_a_module_not_found() -> None:
    with pytest.raises(MissingModuleError) as raised:
        load("recordlens_no_such_module")
    assert isinstance(raised.value, ModuleNotFoundError) and isinstance(raised.value, RecordLensError)
    assert "No module named 'recordlens_no_such_module'" in str(raised.value)


def test_train_without_the_ensemble_module_fails_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ensemble_only_a_folder: None) -> None:
    model = tmp_path / "m.json"
    code, out, err = run(capsys, "train", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out",
                         str(model), "--workers", "1", "--quiet")
    assert code == 2, err
    assert err.startswith("recordlens: error: sklearn.ensemble, which RecordLens needs here, is missing"), err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert not model.exists()
