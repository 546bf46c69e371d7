"""Importing a folder `recordlens site capture` wrote: the files a capture keeps beside each page
(`NAME.axtree.json`, `NAME.png`, `NAME.meta.json`) and the site's own (`site.json`, `capture.json`) are no pages
and no labels, and are not named on every import; a file of the researcher's own there still is."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.page import mhtml_bytes
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project

PAGE = "<html><body><ul><li>Alpha</li><li>Beta</li></ul></body></html>"


def captured_site(root: Path) -> Path:
    """A capture's folder: the site's index and state, and pages/ with each page's four files."""
    pages = root / "pages"
    pages.mkdir(parents=True)
    for name in ("home", "about"):
        (pages / f"{name}.mhtml").write_bytes(mhtml_bytes(PAGE.replace("Alpha", name)))
        (pages / f"{name}.axtree.json").write_text("{}", encoding="utf-8")
        (pages / f"{name}.meta.json").write_text("{}", encoding="utf-8")
        (pages / f"{name}.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / "site.json").write_text('{"name": "shop", "pages": []}', encoding="utf-8")
    (root / "capture.json").write_text("{}", encoding="utf-8")
    return pages


def not_imported(report) -> list[str]:  # noqa: ANN001
    return [line for line in report.warning_lines() if "not imported" in line]


def test_a_capture_s_pages_import_without_a_word_of_their_side_files(tmp_path: Path) -> None:
    pages = captured_site(tmp_path / "site")
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [pages])
    assert sorted(report.imported) == ["about", "home"] and not report.problems
    assert not_imported(report) == []


def test_a_site_folder_of_pages_with_its_index_says_nothing_of_the_index(tmp_path: Path) -> None:
    # a site built by hand (`site build`): its pages and site.json in one folder
    pages = captured_site(tmp_path / "site")
    (pages / "site.json").write_text('{"name": "shop", "pages": []}', encoding="utf-8")
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [pages])
    assert not_imported(report) == []


def test_the_researcher_s_own_files_beside_a_capture_are_still_named(tmp_path: Path) -> None:
    pages = captured_site(tmp_path / "site")
    (pages / "notes.json").write_text("{}", encoding="utf-8")
    (pages / "diagram.png").write_bytes(b"\x89PNG\r\n\x1a\n")  # no page of its name: not a capture's
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [pages])
    said = not_imported(report)
    assert len(said) == 2
    assert "1 JSON file not imported" in said[0] and "notes.json" in said[0] and "axtree" not in said[0]
    assert "1 file not imported" in said[1] and "diagram.png" in said[1] and "home.png" not in said[1]


def test_a_capture_s_own_folder_is_no_folder_of_labels(tmp_path: Path) -> None:
    captured_site(tmp_path / "site")
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [tmp_path / "site"])
    [problem] = report.problems
    assert "no page (.mhtml, .mht, .html, .htm) in this folder" in str(problem)
    assert "a folder of labels?" not in str(problem)  # its site.json and capture.json are the site's
