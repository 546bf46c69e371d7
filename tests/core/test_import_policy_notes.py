"""What an annotator import says: their page-chrome policy weighed against the project's (not against the pages just
imported, which made two imports of one set contradict each other), and a summary that says whose labels went onto
which pages."""

from __future__ import annotations

import json
from pathlib import Path

from recordlens.core.cli.command import main

HTML = ("<html><body><nav><ul><li>home</li><li>shop</li></ul></nav>"
        "<ul><li>first {n}</li><li>second {n}</li></ul></body></html>")
CHROME = [["/body[1]/nav[1]/ul[1]/li[1]"], ["/body[1]/nav[1]/ul[1]/li[2]"]]
ITEMS = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"]]


def _labels(folder: Path, pages: dict[str, list], html: bool = False) -> Path:
    (folder / "gt").mkdir(parents=True)
    for name, records in pages.items():
        (folder / "gt" / f"{name}.json").write_text(json.dumps(records), encoding="utf-8")
        if html:
            (folder / "html").mkdir(exist_ok=True)
            (folder / "html" / f"{name}.html").write_text(HTML.format(n=name), encoding="utf-8")
    return folder


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "p"
    assert main(["project", "init", str(project)]) == 0
    base = _labels(tmp_path / "base", {name: ITEMS for name in ("1", "2", "3")}, html=True)
    assert main(["import", str(base), "--project", str(project), "-q"]) == 0
    return project


def test_an_annotator_s_policy_is_weighed_against_the_projects_whatever_pages_they_bring(tmp_path: Path,
                                                                                        capsys) -> None:
    project = _project(tmp_path)  # the project labels no page chrome
    capsys.readouterr()
    cyd = _labels(tmp_path / "cyd", {"1": CHROME + ITEMS, "2": CHROME + ITEMS, "3": ITEMS})
    assert main(["import", str(cyd), "--project", str(project), "--annotator", "cyd", "-q"]) == 0
    first = capsys.readouterr().out
    # cyd's two chrome pages are a majority of what cyd brought, not of the project: they are the ones unlike it
    assert "policy against the project's 3 pages with labels" in first, first
    assert "(majority does not label page chrome)" in first and "page 3:" not in first, first
    assert "pages 1, 2" in first or ("page 1:" in first and "page 2:" in first), first
    again = _labels(tmp_path / "cyd-again", {"1": CHROME + ITEMS})  # page 1 alone, again: the same verdict
    assert main(["import", str(again), "--project", str(project), "--annotator", "cyd", "-q"]) == 0
    out = capsys.readouterr().out
    assert "(majority does not label page chrome)" in out and ("pages 1" in out or "page 1:" in out), out


def test_an_annotator_import_says_whose_labels_went_onto_which_pages(tmp_path: Path, capsys) -> None:
    project = _project(tmp_path)
    capsys.readouterr()
    ben = _labels(tmp_path / "ben", {"1": ITEMS, "2": ITEMS})
    assert main(["import", str(ben), "--project", str(project), "--annotator", "ben", "-q"]) == 0
    out = capsys.readouterr().out
    assert "imported ben's labels of 2 pages of the project (4 labels); 0 not imported" in out, out
    assert "already in the project" not in out
    cyd = _labels(tmp_path / "cyd", {"1": ITEMS, "4": ITEMS}, html=True)  # page 4 is new to the project
    (cyd / "html" / "1.html").unlink()
    assert main(["import", str(cyd), "--project", str(project), "--annotator", "cyd", "-q"]) == 0
    out = capsys.readouterr().out
    assert ("imported cyd's labels of 2 pages (4 labels): 1 of the project's pages, 1 new to the project "
            "(imported without project labels: 4); 0 not imported") in out, out
