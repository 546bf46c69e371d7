"""An annotator's folder imported again as it was says that nothing changed (not "imported their labels of 4
pages"); and their copy of a page that differs from the project's (saved again, a comment added) says how their
labels still go onto the project's page, which agreement compares, rather than to rename it into a page of its own."""

from __future__ import annotations

import json
from pathlib import Path

from recordlens.core.cli.command import main
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project, open_project

PAGES = {name: f"<html><body><ul><li>{name} a</li><li>{name} b</li></ul></body></html>" for name in ("1", "2")}
RECORDS = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"]]


def a_folder(root: Path, pages: dict[str, str], *, beside: bool = False) -> Path:
    """A NEXT-EVAL folder (`html/`, `gt/`), or (`beside`) pages with their `N.json` in one folder."""
    html, gt = (root, root) if beside else (root / "html", root / "gt")
    html.mkdir(parents=True, exist_ok=True)
    gt.mkdir(parents=True, exist_ok=True)
    for name, page in pages.items():
        (html / f"{name}.html").write_text(page, encoding="utf-8")
        (gt / f"{name}.json").write_text(json.dumps(RECORDS), encoding="utf-8")
    return root


def test_the_same_folder_imported_again_changes_nothing_and_says_so(tmp_path: Path, capsys) -> None:
    project = tmp_path / "p"
    with init_project(project) as opened:
        import_paths(opened, [a_folder(tmp_path / "ours", PAGES)])
    bea = a_folder(tmp_path / "bea", PAGES)
    args = ["import", str(bea), "--project", str(project), "--annotator", "bea", "-q"]
    assert main(args) == 0
    assert "imported bea's labels of 2 pages of the project (4 labels); 0 not imported" in capsys.readouterr().out
    assert main(args) == 0
    out = capsys.readouterr().out
    assert ("bea's labels of 2 pages of the project (4 labels) are those their set held already: nothing changed; "
            "0 not imported") in out, out
    (bea / "gt" / "2.json").write_text(json.dumps(RECORDS[:1]), encoding="utf-8")
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "imported bea's labels of 2 pages of the project (3 labels); 1 of those pages unchanged" in out, out
    assert "replaced bea's labels of 1 page: 2 (2 → 1 records)" in out


def test_their_copy_that_differs_says_how_their_labels_go_onto_the_projects_page(tmp_path: Path, capsys) -> None:
    project = tmp_path / "p"
    with init_project(project) as opened:
        import_paths(opened, [a_folder(tmp_path / "ours", PAGES)])
    theirs = {name: page.replace("</body>", "<!-- saved by bea --></body>") for name, page in PAGES.items()}
    bea = a_folder(tmp_path / "bea", theirs)
    assert main(["import", str(bea), "--project", str(project), "--annotator", "bea", "-q"]) == 1
    err = capsys.readouterr().err
    assert ("a different page named '1' is already in the project (their copy differs from the project's); to put "
            f"bea's labels of it onto the project's page 1, import their labels alone, as in `recordlens import "
            f"{bea / 'gt'} --project {project} --annotator bea`") in err, err
    assert "renamed, the file would be a page of its own, which agreement compares with none of the project's" in err
    assert "rename the file to import it as a new page" not in err
    assert main(["import", str(bea / "gt"), "--project", str(project), "--annotator", "bea", "-q"]) == 0  # as said
    with open_project(project) as opened:
        assert opened.annotators.pages("bea") == ["1", "2"] and opened.page_names() == ["1", "2"]

    beside = a_folder(tmp_path / "cyd", theirs, beside=True)  # their pages and labels in one folder
    assert main(["import", str(beside), "--project", str(project), "--annotator", "cyd", "-q"]) == 1
    assert f"import the folder again with {beside / '1.html'} moved out of it" in capsys.readouterr().err
    assert main(["import", str(bea), "--project", str(project), "-q"]) == 1  # the project's own: as it was
    assert "rename the file to import it as a new page" in capsys.readouterr().err
