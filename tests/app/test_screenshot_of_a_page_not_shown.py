"""`recordlens-annotator --screenshot --page NAME` on a page that cannot be shown (its snapshot gone, or a folder
where the file should be): the window keeps the page it showed before, so the screenshot must say that NAME
cannot be shown and exit non-zero, never save a picture of that other page as NAME's."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.app import main
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project, open_project
from tests.app.window_helpers import keep_app_state_private

pytestmark = pytest.mark.app

PAGES = ("first", "second")


@pytest.fixture(autouse=True)
def private_app_state(monkeypatch, tmp_path: Path) -> None:
    keep_app_state_private(monkeypatch, tmp_path)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Two pages of different text (each its own snapshot file): the first is the one a window opens on."""
    pages = tmp_path / "pages"
    pages.mkdir()
    for name in PAGES:
        (pages / f"{name}.html").write_text(f"<html><head><title>{name}</title></head><body><ul><li>{name} one"
                                            f"</li><li>{name} two</li></ul></body></html>")
    with init_project(tmp_path / "p") as opened:
        report = import_paths(opened, [pages])
        assert sorted(report.imported) == sorted(PAGES), report.problems
    return tmp_path / "p"


def _spoil(snapshot: Path, how: str) -> None:
    """The page's snapshot gone, or a folder in its place (a file that cannot be read as a page)."""
    snapshot.unlink()
    if how == "folder":
        snapshot.mkdir()


@pytest.mark.timeout(180)
@pytest.mark.parametrize("how", ["missing", "folder"])
@pytest.mark.parametrize("page", PAGES)  # "first": the page the window would open on anyway
def test_a_page_that_cannot_be_shown_is_said_and_no_picture_is_saved(qapp, project: Path, tmp_path: Path, capsys,
                                                                     page: str, how: str) -> None:
    with open_project(project) as opened:
        _spoil(opened.snapshot_file(page), how)
    shot = tmp_path / "shot.png"
    code = main([str(project), "--screenshot", str(shot), "--page", page, "--size", "900x600"])
    err = capsys.readouterr().err
    assert code != 0, "a screenshot was saved of another page than the one named"
    assert f"page {page} cannot be shown" in err, err
    assert not shot.exists()


@pytest.mark.timeout(180)
def test_the_page_named_is_the_page_saved(qapp, project: Path, tmp_path: Path, capsys) -> None:
    """The other page spoilt: the one named still opens and is saved (the check names no page falsely)."""
    with open_project(project) as opened:
        _spoil(opened.snapshot_file("first"), "missing")
    shot = tmp_path / "shot.png"
    code = main([str(project), "--screenshot", str(shot), "--page", "second", "--size", "900x600"])
    assert code == 0, capsys.readouterr().err
    assert shot.is_file()



@pytest.mark.timeout(180)
def test_with_no_page_named_the_page_that_cannot_be_shown_is_said(qapp, project: Path, tmp_path: Path,
                                                                   capsys) -> None:
    """No --page, and the page the window opens on cannot be shown: why is said, not "has no page to show"."""
    with open_project(project) as opened:
        _spoil(opened.snapshot_file("first"), "missing")
    shot = tmp_path / "shot.png"
    code = main([str(project), "--screenshot", str(shot), "--size", "900x600"])
    err = capsys.readouterr().err
    assert code != 0
    assert "page first cannot be shown" in err and "no page to show" not in err, err
    assert not shot.exists()


@pytest.mark.timeout(180)
def test_with_no_page_named_the_page_left_open_that_cannot_be_shown_is_said(qapp, project: Path, tmp_path: Path,
                                                                             capsys) -> None:
    """No --page, the project left on its second page, which cannot be shown now: that page is said, and no picture
    of the first page is saved in its place."""
    from recordlens.annotator.settings import Settings

    settings = Settings.load(tmp_path / "settings.json")
    settings.remember_page(str(project.resolve()), "second")
    settings.save(tmp_path / "settings.json")
    with open_project(project) as opened:
        _spoil(opened.snapshot_file("second"), "missing")
    shot = tmp_path / "shot.png"
    code = main([str(project), "--screenshot", str(shot), "--size", "900x600"])
    err = capsys.readouterr().err
    assert code != 0
    assert "page second cannot be shown" in err, err
    assert not shot.exists()


@pytest.mark.timeout(180)
def test_a_snapshot_row_changed_by_hand_is_said_naming_the_page_once(qapp, project: Path, tmp_path: Path,
                                                                      capsys) -> None:
    import sqlite3

    with open_project(project) as opened:
        digest = opened.page("second").snapshot
    db = sqlite3.connect(project / "project.db")
    try:
        db.execute("UPDATE snapshots SET suffix = '../x' WHERE hash = ?", (digest,))
        db.commit()
    finally:
        db.close()
    shot = tmp_path / "shot.png"
    code = main([str(project), "--screenshot", str(shot), "--page", "second", "--size", "900x600"])
    err = capsys.readouterr().err
    assert code != 0 and not shot.exists()
    assert "page second cannot be shown: '../x' is not the suffix of a saved copy" in err, err
    assert "page second: " not in err, err
