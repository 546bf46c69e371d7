"""Each `project.annotators.store` and `remove` removes the hidden set-asides that commands killed part way left in
`removed/annotators/`, as it begins, whether or not it sets labels aside. One that did set some aside listed the
folder again as it made its own hidden folder (`removed_files.hidden_folder`), for nothing: what was left there
had just been removed. A listing of a large `removed/annotators/` (every set-aside of a project's life) on a slow
share is time the command waits for."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recordlens.core.store.files import store_snapshot
from recordlens.core.store.label_sets import SET_ASIDE
from recordlens.core.store.project import Project, init_project
from recordlens.core.store.removed_files import REMOVED

PAGES = ["1", "2", "3"]


def labels(page: str, records: int) -> list[list[str]]:
    return [[f"/html[1]/body[1]/div[{page}{k}]"] for k in range(records)]


def with_beas_set(project: Project) -> None:
    data = b"<html><body><div>a</div></body></html>"
    digest = store_snapshot(project.root, data, ".html")
    with project.writing():
        for name in PAGES:
            project.add_page(name, digest, ".html", len(data))
    project.annotators.store("bea", {page: (labels(page, 3), None) for page in PAGES})


def listings_of(folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Each listing of `folder` from now on (pathlib's glob and iterdir, shutil, all through os.scandir)."""
    listed: list[Path] = []
    real_scandir, real_listdir = os.scandir, os.listdir

    def scandir(path: object = ".") -> object:
        if Path(os.fsdecode(path)) == folder:  # type: ignore[arg-type]
            listed.append(folder)
        return real_scandir(path)  # type: ignore[call-overload]

    def listdir(path: object = ".") -> list[str]:
        if Path(os.fsdecode(path)) == folder:  # type: ignore[arg-type]
            listed.append(folder)
        return real_listdir(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "listdir", listdir)
    return listed


@pytest.mark.parametrize("how", ["store", "remove"])
def test_the_set_aside_folder_is_listed_once_per_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         how: str) -> None:
    with init_project(tmp_path / "P") as project:
        with_beas_set(project)
        folder = Path(project.root) / REMOVED / SET_ASIDE
        folder.mkdir(parents=True)  # set-asides made before are there: the folder is listed
        listed = listings_of(folder, monkeypatch)
        if how == "store":
            replaced = project.annotators.store("bea", {page: (labels(page, 2), None) for page in PAGES})
            assert sorted(replaced) == PAGES  # each page's earlier labels set aside
        else:
            kept = project.annotators.remove("bea")
            assert sorted(kept.pages) == PAGES
    assert len(listed) == 1
    (named,) = [p for p in folder.iterdir()]
    assert named.name.startswith("bea.") and sorted(p.stem for p in (named / "gt").iterdir()) == PAGES
