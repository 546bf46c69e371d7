"""`recordlens project restore-page` of a removed page's copy onto the same page imported again since (same bytes),
while a window is open on the project: the copy's labels go onto the page the project holds now, and the window's
look at changes made elsewhere (`check_project`, as its timer calls it) shows them on the page on show, and an edit
made afterwards keeps them. Done here as another process would: through core, on a connection of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import import_paths, open_project, remove_page, restore_page
from tests.app.demo_project import ITEM
from tests.app.list_projects import TITLED_LIST, two_lists
from tests.app.window_helpers import open_page_loaded, open_window, record_rows, said

pytestmark = pytest.mark.app

PAGE = "2"


def _page_folder(root: Path, truth: list[list[str]] | None) -> Path:
    """A NEXT-EVAL folder of page 2's very bytes, with `truth` as its labels (None: no labels file)."""
    (root / "html").mkdir(parents=True)
    (root / "html" / f"{PAGE}.html").write_text(TITLED_LIST.format(title="Two"), encoding="utf-8")
    if truth is not None:
        (root / "gt").mkdir()
        (root / "gt" / f"{PAGE}.json").write_text(json.dumps(truth), encoding="utf-8")
    return root


def _import_again(tmp_path: Path, project_dir: Path, annotator: str | None) -> None:
    """Page 2 imported again elsewhere: in bea's folder (her labels of it), or plainly (no labels)."""
    truth = [[ITEM.format(3)]] if annotator else None
    folder = _page_folder(tmp_path / f"again-{annotator or 'plain'}", truth)
    with open_project(project_dir) as project:
        assert not import_paths(project, [folder], annotator=annotator).problems


def _remove_elsewhere(project_dir: Path) -> Path:
    with open_project(project_dir) as project:
        return remove_page(project, PAGE).kept


def _restore_elsewhere(project_dir: Path, copy: Path) -> None:
    with open_project(project_dir) as project:
        assert restore_page(project, copy).beside


def _held(project_dir: Path) -> list[tuple[int, list[str]]]:
    with open_project(project_dir) as project:
        return [(label.id, label.xpaths) for label in project.labels(PAGE)]


def _shown(window: MainWindow) -> list[tuple[int, list[str]]]:
    return [(label.id, label.xpaths) for label in window.labels]


def _an_edit_keeps_them(window: MainWindow, project_dir: Path, restored: list[tuple[int, list[str]]]) -> None:
    window.edit("add a record", lambda: window.project.add_record(PAGE, [ITEM.format(4)], window.person))
    window.reload_labels()
    held = _held(project_dir)
    assert held[:len(restored)] == restored and len(held) == len(restored) + 1, held
    assert _shown(window) == held


@pytest.mark.parametrize("annotator", ["bea", None])
def test_labels_restored_onto_the_page_on_show_in_one_look(qtbot, tmp_path: Path, annotator: str | None) -> None:
    """Removed, imported again and restored between two looks: the window, on the page all along, shows the copy's
    labels."""
    project_dir = two_lists(tmp_path)
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        open_page_loaded(window, PAGE)
        before = _shown(window)
        assert len(before) == 2
        copy = _remove_elsewhere(project_dir)
        _import_again(tmp_path, project_dir, annotator)
        _restore_elsewhere(project_dir, copy)
        window.check_project()
        restored = _held(project_dir)
        assert restored == before
        assert window.page_name == PAGE and _shown(window) == restored
        assert len(record_rows(window)) == len(restored)
        _an_edit_keeps_them(window, project_dir, restored)
    finally:
        window.close()


@pytest.mark.parametrize("annotator", ["bea", None])
def test_labels_restored_onto_the_page_on_show_look_by_look(qtbot, tmp_path: Path, annotator: str | None) -> None:
    """A look after each step: the page goes, comes back without the project's labels and is opened, then its
    labels come back onto it while it is on show."""
    project_dir = two_lists(tmp_path)
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        open_page_loaded(window, PAGE)
        before, progress = _shown(window), window.page_list.progress_label.text()
        copy = _remove_elsewhere(project_dir)
        window.check_project()
        assert window.page_name == "1", said(window)
        _import_again(tmp_path, project_dir, annotator)
        window.check_project()
        open_page_loaded(window, PAGE)
        assert _shown(window) == [] and record_rows(window) == []
        _restore_elsewhere(project_dir, copy)
        window.check_project()
        restored = _held(project_dir)
        assert restored == before
        assert _shown(window) == restored and len(record_rows(window)) == len(restored), said(window)
        assert f"page {PAGE} changed elsewhere" in said(window), said(window)
        assert window.page_list.progress_label.text() == progress  # its status came back with its labels
        _an_edit_keeps_them(window, project_dir, restored)
    finally:
        window.close()


def test_the_review_of_the_page_on_show_compares_the_labels_restored_onto_it(qtbot, tmp_path: Path) -> None:
    """Bea's labels of the page imported again and under review against the project's (none: the page came back
    without them); the copy's labels put back onto it, the review compares hers with them."""
    project_dir = two_lists(tmp_path)
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        copy = _remove_elsewhere(project_dir)
        _import_again(tmp_path, project_dir, "bea")
        window.check_project()
        open_page_loaded(window, PAGE)
        window.start_review("annotator:bea")
        qtbot.waitUntil(lambda: window.job is None and window.review is not None, timeout=20_000)
        assert [r.kind for r in window.review.records] == ["spurious"]
        _restore_elsewhere(project_dir, copy)
        window.check_project()
        qtbot.waitUntil(lambda: window.job is None, timeout=20_000)
        assert sorted(r.kind for r in window.review.records) == ["missed", "missed", "spurious"], said(window)
        assert len(record_rows(window)) == 2
    finally:
        window.close()
