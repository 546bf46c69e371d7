"""What import, `labels check`, export and `score --project` say of the layouts and labels a researcher builds a
dataset with: labels beside their pages, a dataset whose gt/ or html/ broke, a project's folder, files that are no
page, records that share an element, a page saved twice, a saved copy gone."""

from __future__ import annotations

import csv
import json
import os
import unicodedata
from pathlib import Path

import pytest

from recordlens.core.cli.command import main as cli_main
from recordlens.core.page.dom import parse_html
from recordlens.core.records.hygiene import check_page, summarise
from recordlens.core.store.exporter import export_project
from recordlens.core.store.importer import import_paths, import_run_folder
from recordlens.core.store.project import StoreError, init_project
from recordlens.core.store.scoring import score_stored_run

LIST = "<html><body><ul><li><b>Alpha</b> $1</li><li><b>Beta</b> $2</li><li><b>Gamma</b> $3</li></ul></body></html>"
ITEMS = [[f"/body[1]/ul[1]/li[{i}]"] for i in (1, 2, 3)]


def write_page(folder: Path, name: str, html: str = LIST, records: list[list[str]] | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.html").write_text(html, encoding="utf-8")
    if records is not None:
        (folder / f"{name}.json").write_text(json.dumps(records), encoding="utf-8")


def dataset(root: Path, names: tuple[str, ...] = ("1", "2")) -> Path:
    for name in names:
        write_page(root / "html", name, LIST.replace("Alpha", f"Alpha {name}"))  # a page of its own bytes each
        (root / "gt").mkdir(parents=True, exist_ok=True)
        (root / "gt" / f"{name}.json").write_text(json.dumps(ITEMS), encoding="utf-8")
    return root


def reasons(report) -> str:  # noqa: ANN001
    return " | ".join(str(problem) for problem in report.problems)


# --- labels beside their pages ---------------------------------------------------------------------------------------

def test_labels_beside_their_pages_in_one_folder_are_those_pages_labels(tmp_path: Path) -> None:
    write_page(tmp_path / "flat", "1", records=ITEMS)
    write_page(tmp_path / "flat", "11", records=ITEMS[:2])
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [tmp_path / "flat"])
        assert report.summary().startswith("imported 2 page(s) with 5 label(s)")
        assert [list(r) for r in project.true_records("11")] == ITEMS[:2]


def test_an_annotator_s_folder_of_labels_and_one_new_page_brings_every_label(tmp_path: Path) -> None:
    write_page(tmp_path / "flat", "1", records=ITEMS)
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "1.json").write_text(json.dumps(ITEMS[:1]), encoding="utf-8")  # a page the project has
    write_page(theirs, "new", records=ITEMS[1:])  # a page it lacks, with their labels
    with init_project(tmp_path / "p") as project:
        import_paths(project, [tmp_path / "flat"])
        report = import_paths(project, [theirs], annotator="bea")
        assert not report.problems
        assert report.labels == 3 and sorted(report.imported) == ["1", "new"]


def test_json_files_beside_pages_that_are_no_page_s_labels_are_named_not_refused(tmp_path: Path) -> None:
    # (a capture's own NAME.axtree.json and site.json are not named: tests/core/test_import_of_a_captured_site.py)
    write_page(tmp_path / "site", "home", records=ITEMS)
    (tmp_path / "site" / "home.notes.json").write_text("{}", encoding="utf-8")
    (tmp_path / "site" / "settings.json").write_text("{}", encoding="utf-8")
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [tmp_path / "site"])
    assert not report.problems and report.imported == ["home"] and report.labels == 3
    said = [line for line in report.warning_lines() if "JSON file" in line]
    assert len(said) == 1 and "2 JSON files not imported" in said[0] and "home.notes.json, settings.json" in said[0]


# --- a dataset whose gt/ or html/ is there but is no folder ----------------------------------------------------------

@pytest.mark.parametrize("kind", ["dangling link", "file", "fifo"])
def test_a_dataset_whose_gt_is_no_folder_is_refused_whole(tmp_path: Path, kind: str) -> None:
    root = dataset(tmp_path / "ds")
    for file in (root / "gt").iterdir():
        file.unlink()
    (root / "gt").rmdir()
    if kind == "dangling link":
        (root / "gt").symlink_to(tmp_path / "moved" / "gt")
    elif kind == "file":
        (root / "gt").write_text("not a folder", encoding="utf-8")
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(root / "gt")
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [root])
        assert project.page_names() == []  # nothing half: not its pages without their labels
    said = reasons(report)
    assert "its gt is " in said and "nothing of the dataset imported" in said
    if kind == "dangling link":
        assert "a symbolic link to a folder that does not exist" in said and str(tmp_path / "moved") in said


def test_a_dataset_whose_html_is_a_dangling_link_names_it(tmp_path: Path) -> None:
    root = dataset(tmp_path / "ds")
    (root / "html").rename(tmp_path / "elsewhere")
    (root / "html").symlink_to(tmp_path / "moved" / "html")
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [root])
    assert "its html is a symbolic link to a folder that does not exist" in reasons(report)


# --- a project's folder ----------------------------------------------------------------------------------------------

def test_a_project_folder_and_its_snapshots_are_refused_pointing_to_project_copy_and_export(tmp_path: Path) -> None:
    with init_project(tmp_path / "A") as project:
        import_paths(project, [dataset(tmp_path / "ds", ("1",))])
    snapshots = tmp_path / "A" / "snapshots"
    bucket = next(snapshots.iterdir())
    with init_project(tmp_path / "B") as project:
        report = import_paths(project, [tmp_path / "A", snapshots, bucket, next(bucket.iterdir())])
        assert project.page_names() == []
    assert len(report.problems) == 4
    for problem in report.problems:
        assert "recordlens project copy" in problem.reason and "--format nexteval" in problem.reason


# --- files that are no page ------------------------------------------------------------------------------------------

def test_a_folder_import_names_its_files_of_other_suffixes_in_one_line(tmp_path: Path) -> None:
    write_page(tmp_path / "pages", "1")
    (tmp_path / "pages" / "11.xhtml").write_text(LIST, encoding="utf-8")
    (tmp_path / "pages" / "100.shtml").write_text(LIST, encoding="utf-8")
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [tmp_path / "pages"])
    said = [line for line in report.warning_lines() if "not imported" in line]
    assert len(said) == 1 and "2 files" in said[0] and "11.xhtml" in said[0] and "100.shtml" in said[0]


# --- labels check ----------------------------------------------------------------------------------------------------

def test_records_that_share_an_element_are_flagged() -> None:
    check = check_page("p", parse_html(LIST), [ITEMS[0] + ITEMS[1], ITEMS[1] + ITEMS[2]])
    assert check.overlapping == [(1, 2)] and check.overlapping_pairs == 1 and not check.clean
    assert not check.nested and not check.twice
    assert summarise([check]).findings() == [
        "page p: 1 pair(s) of records share an element, neither holding the other (first: records 1 and 2)"]


def test_records_inside_others_or_apart_do_not_overlap() -> None:
    nested = check_page("p", parse_html(LIST), [ITEMS[0] + ITEMS[1], ITEMS[1], ITEMS[2]])
    assert nested.nested == [(2, 1)] and not nested.overlapping


def labels_check(pages: Path, gt: Path, capsys) -> tuple[int, str]:  # noqa: ANN001
    code = cli_main(["labels", "check", "--pages", str(pages), "--gt", str(gt)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_labels_check_says_which_of_a_page_saved_twice_it_read(tmp_path: Path, capsys) -> None:
    write_page(tmp_path / "html", "8")
    (tmp_path / "html" / "8.mhtml").write_text("<html><body><ul><li>a</li></ul></body></html>", encoding="utf-8")
    (tmp_path / "gt").mkdir()
    (tmp_path / "gt" / "8.json").write_text(json.dumps(ITEMS), encoding="utf-8")
    _, said = labels_check(tmp_path / "html", tmp_path / "gt", capsys)
    assert "warning: page 8: both 8.html and 8.mhtml in" in said and "8.mhtml is used" in said
    assert "warning: page 8: The file is named .mhtml but holds plain HTML" in said


def test_labels_check_gives_the_warnings_import_gives_for_the_same_label_files(tmp_path: Path, capsys) -> None:
    write_page(tmp_path / "html", "d")
    (tmp_path / "gt").mkdir()
    (tmp_path / "gt" / "d.json").write_text(json.dumps(["/body[1]/ul[1]/li[1]", "/body[1]/ul[1]/li[2]"]))
    _, said = labels_check(tmp_path / "html", tmp_path / "gt", capsys)
    assert "record 1 is a string, read as a one-XPath record" in said
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [tmp_path])
    assert any("record 1 is a string, read as a one-XPath record" in line for line in report.warning_lines())


def test_labels_check_explains_a_label_file_named_in_another_unicode_form(tmp_path: Path, capsys) -> None:
    write_page(tmp_path / "html", unicodedata.normalize("NFC", "Zoë"))
    (tmp_path / "gt").mkdir()
    (tmp_path / "gt" / f"{unicodedata.normalize('NFD', 'Zoë')}.json").write_text(json.dumps(ITEMS))
    code, said = labels_check(tmp_path / "html", tmp_path / "gt", capsys)
    assert code == 1 and "has the same name written in another Unicode form" in said


# --- export and labels check agree on what resolves ------------------------------------------------------------------

def test_exports_mark_an_element_without_text_as_labels_check_flags_it(tmp_path: Path) -> None:
    html = "<html><body><ul><li>a</li><li>b</li></ul><img src='x.png'></body></html>"
    write_page(tmp_path / "ds" / "html", "p", html)
    (tmp_path / "ds" / "gt").mkdir()
    records = [["/body[1]/ul[1]/li[1]"], ["/body[1]/img[1]"], ["/body[1]/ul[1]/li[9]"]]
    (tmp_path / "ds" / "gt" / "p.json").write_text(json.dumps(records))
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [tmp_path / "ds"])
        export_project(project, "jsonl", tmp_path / "out")
        export_project(project, "csv", tmp_path / "out")
    flagged = report.checks[0].unresolved
    lines = [json.loads(line) for line in (tmp_path / "out" / "labels.jsonl").read_text().splitlines()]
    assert [x for line in lines for x in line["unresolved"]] == flagged == ["/body[1]/img[1]", "/body[1]/ul[1]/li[9]"]
    with (tmp_path / "out" / "labels.csv").open(newline="") as handle:
        assert [row["resolves"] for row in csv.DictReader(handle)] == ["1", "0", "0"]


# --- score of a project whose saved copy is gone ---------------------------------------------------------------------

def test_score_names_a_page_whose_saved_copy_is_gone_and_keeps_no_old_score(tmp_path: Path) -> None:
    root = dataset(tmp_path / "ds", ("a", "b"))
    run = tmp_path / "run"
    run.mkdir()
    for name in ("a", "b"):
        (run / f"{name}.json").write_text(json.dumps(ITEMS[:1]), encoding="utf-8")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [root])
        first = import_run_folder(project, run, "A").run_id
        score_stored_run(project, first)
        project.snapshot_file("b").unlink()
        (run / "a.json").write_text(json.dumps(ITEMS[:2]), encoding="utf-8")
        second = import_run_folder(project, run, "B").run_id
        for run_id in (first, second):  # scored before (its score of b stored) and never scored
            with pytest.raises(StoreError, match=r"copy of page\(s\) b is missing .*nothing scored.*remove-page"):
                score_stored_run(project, run_id)
