"""The JSON Lines and CSV exports name every page of the project (a page with no record gets a row of its own), say a
page's status in the words the app uses, hold each record's texts (a JSONL list; once a record in the CSV), guard
every CSV cell a spreadsheet would run, page names too, and say a saved page changed by hand, in UTF-8."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store import Project, Provenance, init_project, open_project
from recordlens.core.store.exporter import CSV_COLUMNS, export_project
from recordlens.core.store.importer import import_paths
from tests.core.export_files import csv_rows, jsonl_lines

PAGE = ("<html><body><ul><li>café</li><li>=SUM(A1)</li><li>-5</li></ul>"
        "<p>line one\nline two, \"quoted\"</p><p>one · two</p></body></html>")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Pages `1` (two records), `-5` and `=cmd` (one each), `empty` (labelled as holding no record), `fresh` (new,
    no record) and `guess` (an extractor's proposal: in progress)."""
    ds = tmp_path / "ds"
    (ds / "html").mkdir(parents=True)
    (ds / "gt").mkdir()
    truth = {"1": [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]", "/body[1]/ul[1]/li[3]"]],
             "-5": [["/body[1]/p[1]"]], "=cmd": [["/body[1]/ul[1]/li[3]"]], "empty": []}
    for name in (*truth, "fresh", "guess"):
        (ds / "html" / f"{name}.html").write_text(f"<!-- page {name} -->{PAGE}", encoding="utf-8")  # not copies
    for name, records in truth.items():
        (ds / "gt" / f"{name}.json").write_text(json.dumps(records), encoding="utf-8")
    folder = tmp_path / "P"
    assert main(["project", "init", str(folder)]) == 0
    assert main(["import", str(ds), "--project", str(folder), "-q"]) == 0
    with open_project(folder) as opened:
        opened.add_record("guess", ["/body[1]/ul[1]"], Provenance.extractor("mdr", "0.3", "html"))
    return folder


def export(project: Path, fmt: str, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["export", "--project", str(project), "--format", fmt, "--out", str(out), "-q"]) == 0
    return capsys.readouterr().out


ALL_PAGES = {"1", "-5", "=cmd", "empty", "fresh", "guess"}


def test_every_page_is_in_the_jsonl_export_those_with_no_record_on_a_row_of_their_own(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = export(project, "jsonl", tmp_path / "out", capsys)
    lines = jsonl_lines(tmp_path / "out")
    assert {line["page"] for line in lines} == ALL_PAGES
    empty = [line for line in lines if line["page"] in ("empty", "fresh")]
    assert [(line["page"], line["page_status"], line["record"], line["id"], line["status"], line["xpaths"])
            for line in empty] == [("empty", "labelled", None, None, None, []), ("fresh", "new", None, None, None, [])]
    records = [line for line in lines if line["record"] is not None]
    assert len(records) == 5 and "6 page(s), 5 record(s)" in said  # the count printed is the file's


def test_every_page_is_in_the_csv_export_those_with_no_record_on_a_row_of_their_own(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = export(project, "csv", tmp_path / "out", capsys)
    rows = csv_rows(tmp_path / "out")
    assert {row["page"] for row in rows} == ALL_PAGES - {"=cmd"} | {"'=cmd"}  # guarded: see below
    (empty,) = [row for row in rows if row["page"] == "empty"]
    assert empty["page_status"] == "labelled" and empty["record"] == empty["id"] == empty["xpath"] == ""
    assert len({(row["page"], row["record"]) for row in rows if row["record"]}) == 5
    assert "6 page(s), 5 record(s)" in said


def test_a_page_in_progress_is_said_so_not_with_a_records_word(project: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    export(project, "jsonl", tmp_path / "out", capsys)
    export(project, "csv", tmp_path / "out", capsys)
    (line,) = [line for line in jsonl_lines(tmp_path / "out") if line["page"] == "guess"]
    assert (line["page_status"], line["status"]) == ("in progress", "proposed")
    (row,) = [row for row in csv_rows(tmp_path / "out") if row["page"] == "guess"]
    assert (row["page_status"], row["status"]) == ("in progress", "proposed")
    assert {row["page_status"] for row in csv_rows(tmp_path / "out")} == {"labelled", "new", "in progress"}


def test_the_csv_guards_every_cell_a_spreadsheet_would_run_page_names_too_but_not_plain_numbers(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    export(project, "csv", tmp_path / "out", capsys)
    pages = {row["page"] for row in csv_rows(tmp_path / "out")}
    assert {"-5", "'=cmd"} <= pages and "=cmd" not in pages  # a number is read as that number; a formula not run
    (sum_row,) = [row for row in csv_rows(tmp_path / "out") if row["xpath"] == "/body[1]/ul[1]/li[2]"]
    assert sum_row["text"] == "'=SUM(A1) · -5"  # a text of the page, which a spreadsheet would run: shown, not run


def test_page_names_from_untrusted_file_names_are_guarded_and_a_joiner_strips_one_apostrophe(tmp_path: Path) -> None:
    names = ["+3", "-2.5", "-1e5", "@x", "'s-Hertogenbosch", "''", "-5 (copy)",
             '=HYPERLINK("http:"&CHAR(47)&CHAR(47)&"x","y")', "=1+1"]
    (tmp_path / "ds" / "html").mkdir(parents=True)
    for number, name in enumerate(names):
        (tmp_path / "ds" / "html" / f"{name}.html").write_text(f"<!-- {number} -->{PAGE}", encoding="utf-8")
    with init_project(tmp_path / "P") as opened:
        import_paths(opened, [tmp_path / "ds"])
        assert {info.name for info in opened.pages()} == set(names)
        export_project(opened, "csv", tmp_path / "out")
    pages = {row["page"] for row in csv_rows(tmp_path / "out")}
    assert pages == {"+3", "-2.5", "'-1e5", "'@x", "''s-Hertogenbosch", "'''", "'-5 (copy)",
                     "'" + '=HYPERLINK("http:"&CHAR(47)&CHAR(47)&"x","y")', "'=1+1"}
    # Every cell that starts with an apostrophe was given one: stripping one gives back every page's name
    assert {page.removeprefix("'") for page in pages} == set(names)


def test_each_record_has_its_texts_as_the_app_reads_them(project: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    with open_project(project) as opened:  # a text holding the mark the CSV joins texts with
        opened.add_record("1", ["/body[1]/p[2]", "/body[1]/ul[1]/li[1]"], Provenance.person("ana"))
    export(project, "jsonl", tmp_path / "out", capsys)
    export(project, "csv", tmp_path / "out", capsys)
    lines = jsonl_lines(tmp_path / "out")
    assert all("text" not in line for line in lines)
    texts = {(line["page"], line["record"]): line["texts"] for line in lines}
    assert texts[("1", 1)] == ["café"]
    assert texts[("1", 2)] == ["=SUM(A1)", "-5"]  # JSONL keeps every text verbatim
    assert texts[("1", 3)] == ["café", "one · two"]  # two texts, in page order, one of them holding " · "
    assert texts[("-5", 1)] == ['line one\nline two, "quoted"']
    assert texts[("guess", 1)] == ["café", "=SUM(A1)", "-5"]
    assert texts[("empty", None)] == texts[("fresh", None)] == []  # no record, so no text
    rows = csv_rows(tmp_path / "out")
    assert list(rows[0]) == list(CSV_COLUMNS) and "text" in CSV_COLUMNS
    (quoted,) = [row for row in rows if row["page"] == "-5"]
    assert quoted["text"] == 'line one\nline two, "quoted"'  # a line break and quotes, quoted as CSV quotes them
    assert (tmp_path / "out" / "labels.csv").read_bytes().startswith(b"page,")  # UTF-8, no byte-order mark


def test_the_csv_writes_a_records_text_on_its_first_row_only(project: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    export(project, "csv", tmp_path / "out", capsys)
    rows = csv_rows(tmp_path / "out")
    record = [(row["xpath"], row["text"]) for row in rows if (row["page"], row["record"]) == ("1", "2")]
    assert record == [("/body[1]/ul[1]/li[2]", "'=SUM(A1) · -5"), ("/body[1]/ul[1]/li[3]", "")]


def one_labelled_page(tmp_path: Path) -> Project:
    """A project of page 1 (PAGE) with one true record, imported from a dataset: open, to be used in a `with`."""
    (tmp_path / "ds" / "html").mkdir(parents=True)
    (tmp_path / "ds" / "gt").mkdir()
    (tmp_path / "ds" / "html" / "1.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "ds" / "gt" / "1.json").write_text('[["/body[1]/ul[1]/li[1]"]]', encoding="utf-8")
    opened = init_project(tmp_path / "P")
    import_paths(opened, [tmp_path / "ds"])
    return opened


def test_a_saved_page_changed_by_hand_is_said_as_the_nexteval_export_says_it(tmp_path: Path) -> None:
    with one_labelled_page(tmp_path) as opened:
        stored = opened.snapshot_file("1")
        stored.chmod(0o644)
        stored.write_bytes(stored.read_bytes().replace("café".encode(), b"tea"))  # changed by hand
        said = {fmt: export_project(opened, fmt, tmp_path / fmt).warnings for fmt in ("jsonl", "csv", "nexteval")}
    head = ("page 1: its saved copy in the project was changed since it was imported (it no longer matches its "
            "name, a hash of its bytes): ")
    assert said["nexteval"] == (head + "exported as it is now",)
    assert said["jsonl"] == said["csv"] == (head + "its records' texts are those it holds now",)
    assert jsonl_lines(tmp_path / "jsonl")[0]["texts"] == ["tea"]


def test_a_page_whose_saved_copy_is_gone_is_exported_without_texts_and_said(tmp_path: Path) -> None:
    with one_labelled_page(tmp_path) as opened:
        opened.snapshot_file("1").unlink()  # deleted by hand
        summary = export_project(opened, "jsonl", tmp_path / "out")
    assert summary.records == 1 and jsonl_lines(tmp_path / "out")[0]["texts"] is None
    (warning,) = summary.warnings  # printed by `export` as a warning
    assert warning.startswith("page '1': exported without its records' texts, as its saved copy in the project "
                              "could not be read: ") and "does not exist" in warning


def test_a_saved_copy_replaced_by_a_pipe_is_exported_without_texts_and_never_waited_on(tmp_path: Path) -> None:
    """The bytes whose hash is checked are the bytes parsed, read once, refused by the file's kind before a byte
    is read: a pipe (nothing ever written to it) put in its place by hand is said, not waited on."""
    with one_labelled_page(tmp_path) as opened:
        stored = opened.snapshot_file("1")
        stored.unlink()
        os.mkfifo(stored)
        summary = export_project(opened, "jsonl", tmp_path / "out")
    assert summary.records == 1 and jsonl_lines(tmp_path / "out")[0]["texts"] is None
    (warning,) = summary.warnings
    assert "could not be read: " in warning and "pipe" in warning, warning
