"""Import and export: the 40 dev pages survive a NEXT-EVAL round trip, broken files are reported one by one
and leave no half-imported page, labels are kept verbatim and flagged, and stored runs score against labels."""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import socket
import time
from pathlib import Path

import pytest

from recordlens.core.cli import project as project_cli
from recordlens.core.errors import RecordLensError
from recordlens.core.output_paths import OutputPathError
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.records.model import load_records
from recordlens.core.runs.evaluate import score_run
from recordlens.core.store.exporter import export_project
from recordlens.core.store.importer import import_paths, import_run_folder
from recordlens.core.store.project import Project, Provenance, StoreError, init_project, open_project

PAGE = "<html><head><title>Shop</title></head><body><ul><li>a</li><li>b</li></ul></body></html>"


def run_cli(argv: list[str]) -> int:
    """The project commands under a parser shaped like core/cli/command.py's, `score` included."""
    parser = argparse.ArgumentParser(prog="recordlens")
    sub = parser.add_subparsers(required=True)
    project_cli.register(sub)
    score = sub.add_parser("score")
    for name in ("--pred", "--gt", "--pages"):
        score.add_argument(name)
    project_cli.add_score_arguments(score)
    score.set_defaults(handler=lambda args: _print_scores(project_cli.score_project_run(args)))
    args = parser.parse_args(argv)
    return args.handler(args)


def _print_scores(result) -> int:
    scores, warnings, _failed = result
    print(json.dumps({"f1": scores.f1, "pages": len(scores.pages), "warnings": warnings}))
    return 0


def small_dataset(root: Path) -> Path:
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    (root / "html" / "1.html").write_text(PAGE, encoding="utf-8")
    (root / "gt" / "1.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"], ["/html/body/ul/li[2]"]]))
    return root


def test_labels_and_predictions_saved_with_an_upper_case_suffix_or_a_byte_order_mark_are_read(tmp_path: Path) -> None:
    data = small_dataset(tmp_path / "data")
    (data / "html" / "2.HTML").write_text(PAGE, encoding="utf-8")  # as a Windows tool may save them
    truth = [["/body[1]/ul[1]/li[2]"]]
    (data / "gt" / "2.JSON").write_bytes(b"\xef\xbb\xbf" + json.dumps(truth).encode())
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [data])
        assert report.problems == [] and sorted(report.imported) == ["1", "2"]
        assert project.true_records("2") == truth and project.page("2").status == "labelled"
    pred = tmp_path / "pred"
    pred.mkdir()
    (pred / "1.JSON").write_text(json.dumps([["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"]]))
    (pred / "2.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(truth).encode())
    scores, warnings = score_run(pred, data / "gt", data / "html")
    assert [(p.page, p.f1) for p in scores.pages] == [("1", 1.0), ("2", 1.0)], warnings


def test_nexteval_export_and_reimport_give_the_same_records_on_the_40_dev_pages(dev_dir: Path,
                                                                                 tmp_path: Path) -> None:
    with init_project(tmp_path / "a") as first:
        report = import_paths(first, [dev_dir])
        assert report.problems == [] and len(report.imported) == 40
        export_project(first, "nexteval", tmp_path / "out")
    for gt in sorted((dev_dir / "gt").glob("*.json")):
        assert load_records(tmp_path / "out" / "gt" / gt.name).records == load_records(gt).records, gt.name
        page = dev_dir / "html" / f"{gt.stem}.html"
        assert (tmp_path / "out" / "html" / page.name).read_bytes() == page.read_bytes()
    with init_project(tmp_path / "b") as second, open_project(tmp_path / "a") as first:
        assert import_paths(second, [tmp_path / "out"]).problems == []
        names = [p.name for p in first.pages()]
        assert [p.name for p in second.pages()] == names and len(names) == 40
        for name in names:
            assert second.true_records(name) == first.true_records(name)
            assert second.page(name).snapshot == first.page(name).snapshot


def test_a_folder_with_broken_files_imports_the_good_ones_and_says_why_for_each_bad_one(tmp_path: Path) -> None:
    data = small_dataset(tmp_path / "data")
    html, gt = data / "html", data / "gt"
    good = mhtml_bytes(PAGE, url="https://shop.example/", title="Shop")
    (html / "2.mhtml").write_bytes(good)
    (html / "3.mhtml").write_bytes(good[: len(good) // 2])          # cut inside the HTML part
    (html / "4.html").write_bytes(b"")                               # empty
    (html / "5.mhtml").write_bytes(b"MIME-Version: 1.0\r\n\r\nno boundary at all")
    (html / "6.html").write_text(PAGE, encoding="utf-8")
    (gt / "6.json").write_text("[[\"/body[1]\"", encoding="utf-8")   # malformed ground truth
    (gt / "7.json").write_text("[]", encoding="utf-8")               # ground truth without a page
    (html / "8.html").write_text(PAGE, encoding="utf-8")
    (gt / "8.json").write_text('{"not": "a list"}', encoding="utf-8")
    (html / "3.html").write_text(PAGE, encoding="utf-8")             # beside the broken 3.mhtml, which wins
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [data, tmp_path / "missing.mhtml"])
        reasons = {problem.path.name: problem.reason for problem in report.problems}
        assert sorted(report.imported) == ["1", "2"]
        assert set(reasons) == {"3.mhtml", "4.html", "5.mhtml", "6.json", "7.json", "8.json", "missing.mhtml"}
        assert "truncated" in reasons["3.mhtml"] or "cut" in reasons["3.mhtml"], reasons["3.mhtml"]
        assert "empty" in reasons["4.html"]
        assert "not valid JSON" in reasons["6.json"]
        assert "no 7.html or 7.mhtml" in reasons["7.json"]
        assert "no such file" in reasons["missing.mhtml"]
        assert f"page 3: both 3.html and 3.mhtml in {html}; 3.mhtml is used" in report.warnings
        assert [p.name for p in project.pages()] == ["1", "2"]
        assert project.page("2").url == "https://shop.example/" and project.page("2").suffix == ".mhtml"
        assert project.page("1").status == "labelled" and project.page("2").status == "new"
        assert project.one("SELECT COUNT(*) FROM records")[0] == 2


def test_a_failure_while_writing_a_page_leaves_none_of_it(tmp_path: Path, monkeypatch) -> None:
    data = small_dataset(tmp_path / "data")

    def fail(*args, **kwargs):
        raise RecordLensError("disk full (simulated)")

    with init_project(tmp_path / "p") as project:
        monkeypatch.setattr(Project, "add_records", fail)
        report = import_paths(project, [data])
        assert [str(p.reason) for p in report.problems] == ["disk full (simulated)"]
        assert project.pages() == [] and project.one("SELECT COUNT(*) FROM label_history")[0] == 0
        monkeypatch.undo()
        assert import_paths(project, [data]).imported == ["1"]  # the leftover snapshot file is simply reused
        assert len(project.labels("1")) == 2

    # A full disk blames the project's side, not the page being read; so does a database refusing the write
    import errno
    import sqlite3

    from recordlens.core.store import importer

    def disk_full(root, data, suffix):
        raise OSError(errno.ENOSPC, "No space left on device", str(root / "snapshots" / "ab" / "x.html"))

    def database_full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    (data / "html" / "2.html").write_text(PAGE.replace("Shop", "Two"), encoding="utf-8")
    (data / "html" / "3.html").write_text(PAGE.replace("Shop", "Three"), encoding="utf-8")
    with init_project(tmp_path / "q") as project:
        # the first page that meets the full disk stops the import: the others would each meet it too
        monkeypatch.setattr(importer, "store_snapshot", disk_full)
        report = import_paths(project, [data])
        assert [p.reason for p in report.problems] == ["the disk that holds the project is full (No space left on "
                                                       "device)"]
        assert report.stopped_at == "1" and report.not_tried == ["2", "3"]
        monkeypatch.undo()
        monkeypatch.setattr(Project, "add_page", database_full)
        report = import_paths(project, [data])
        assert [p.reason for p in report.problems] == [
            "the disk that holds the project is full (its database: database or disk is full); free space and run "
            "this again (what was stored is intact)"]
        assert report.not_tried == ["2", "3"] and report.full_disk == (
            "the disk that holds the project is full (its database: database or disk is full)")
        assert project.pages() == []


def test_two_imports_of_the_same_pages_at_once_report_no_false_failure(tmp_path: Path, monkeypatch) -> None:
    from recordlens.core.store import importer

    data = small_dataset(tmp_path / "data")
    init_project(tmp_path / "p").close()
    stored = importer.store_snapshot
    other_done: list[object] = []

    def meanwhile_the_other_import_adds_it(*args, **kwargs):  # the other process, between check and write
        digest = stored(*args, **kwargs)
        if not other_done:
            monkeypatch.setattr(importer, "store_snapshot", stored)
            with open_project(tmp_path / "p") as other:
                other_done.append(import_paths(other, [data]))
        return digest

    monkeypatch.setattr(importer, "store_snapshot", meanwhile_the_other_import_adds_it)
    with open_project(tmp_path / "p") as project:
        report = import_paths(project, [data])
        assert other_done[0].imported == ["1"]
        assert report.problems == [] and report.unchanged == ["1"] and report.imported == []
        assert len(project.labels("1")) == 2  # stored once


def test_importing_twice_changes_nothing_and_a_different_page_with_a_taken_name_is_refused(tmp_path: Path) -> None:
    data = small_dataset(tmp_path / "data")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        again = import_paths(project, [data, data / "html" / "1.html"])
        assert (again.imported, again.unchanged, again.problems) == ([], ["1", "1"], [])
        assert len(project.labels("1")) == 2
        other = tmp_path / "other" / "1.html"
        other.parent.mkdir()
        other.write_text(PAGE.replace("b", "c"), encoding="utf-8")
        (refused,) = import_paths(project, [other]).problems
        assert "different page named '1'" in refused.reason
        copy = tmp_path / "other" / "1_v2.html"  # the same bytes under another name: the same page, said
        shutil.copy(data / "html" / "1.html", copy)
        report = import_paths(project, [copy])
        assert report.imported == [] and report.problems == [] and [p.name for p in project.pages()] == ["1"]
        assert report.same_as == [f"{copy}: the same page (the same bytes) as page 1, already in the project; not "
                                  "imported again as page 1_v2"]
        assert "1 already in the project under another name" in report.summary()


def test_dataset_labels_are_verbatim_and_unresolved_xpaths_are_flagged_not_dropped(tmp_path: Path) -> None:
    data = small_dataset(tmp_path / "data")
    records = [["/html/body/ul/li[2]", "/body[1]/ul[1]/li[9]"], [], ["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[1]"],
               ["/body[1]/ul[1]/"]]  # a trailing "/" names the list's items, as the score reads it: not flagged
    (data / "gt" / "1.json").write_text(json.dumps(records), encoding="utf-8")
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [data])
        assert report.flagged == {"1": 1}
        labels = project.labels("1")
        assert [list(label.xpaths) for label in labels] == records
        assert labels[0].unresolved == ("/body[1]/ul[1]/li[9]",)
        assert labels[0].origin == Provenance.dataset(str((data / "gt").resolve()))
        export_project(project, "nexteval", tmp_path / "out")
        with pytest.raises(StoreError, match="empty folder"):  # stale gt files must not mix with new ones
            export_project(project, "nexteval", tmp_path / "out")
    assert json.loads((tmp_path / "out" / "gt" / "1.json").read_text()) == records


def test_nexteval_export_writes_the_labelled_pages_as_its_help_says_with_modes_from_the_umask(
        tmp_path: Path, capsys) -> None:
    import os
    import stat

    data = small_dataset(tmp_path / "data")
    (data / "html" / "2.html").write_text(PAGE.replace("Shop", "Other"), encoding="utf-8")  # no gt: unlabelled
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        project.add_record("1", ["/body[1]"], Provenance.extractor("mdr", "0.3", "html"))  # a proposal
        rejected = project.add_record("1", ["/body[1]/ul[1]"], Provenance.extractor("mdr", "0.3", "html")).record
        assert rejected is not None
        project.reject(rejected.id, Provenance.person("ana"))
        assert [p.status for p in project.pages()] == ["labelled", "new"]
    old = os.umask(0o027)
    try:
        assert run_cli(["export", "--project", str(tmp_path / "p"), "-f", "nexteval", "-o", str(tmp_path / "out"),
                        "-q"]) == 0
    finally:
        os.umask(old)
    captured = capsys.readouterr()
    out = tmp_path / "out"
    # Pages and ground truth go together: the unlabelled page is left out, and the output says so.
    assert sorted(p.name for p in (out / "html").iterdir()) == ["1.html"]
    assert sorted(p.name for p in (out / "gt").iterdir()) == ["1.json"]
    assert "exported 1 page(s), 2 record(s)" in captured.out
    assert "1 page(s) not labelled (left out): 2" in captured.err
    assert "1 proposed and 1 rejected record(s) on labelled pages were not exported" in captured.err
    for path in (out / "html" / "1.html", out / "gt" / "1.json"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o640, path  # 0666 less the umask 027, html and gt alike
    # --all-pages: the unlabelled page's snapshot too, still without ground truth.
    run_cli(["export", "--project", str(tmp_path / "p"), "-f", "nexteval", "-o", str(tmp_path / "all"), "-q",
             "--all-pages"])
    assert sorted(p.name for p in (tmp_path / "all" / "html").iterdir()) == ["1.html", "2.html"]
    assert sorted(p.name for p in (tmp_path / "all" / "gt").iterdir()) == ["1.json"]
    assert "(html only, no gt): 2" in capsys.readouterr().err
    help_text = project_cli_help("export")
    assert "labelled or reviewed" in help_text and "left out" in help_text and "umask" in help_text


def test_an_export_stopped_part_way_says_so_to_every_reader_and_a_lost_snapshot_stops_it_first(
        tmp_path: Path, capsys) -> None:
    data = small_dataset(tmp_path / "data")
    (data / "html" / "2.html").write_text(PAGE.replace("Shop", "Other"), encoding="utf-8")
    (data / "gt" / "2.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"]]))
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])

        def stopped_after_one(pages):  # Ctrl+C (or a kill, or a full disk) while the second page is written
            yield pages[0]
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            export_project(project, "nexteval", tmp_path / "cut", stopped_after_one)
        assert (tmp_path / "cut" / "EXPORT-UNFINISHED.txt").is_file()
        with pytest.raises(StoreError, match="already holds a dataset .an export that was stopped part way."):
            export_project(project, "nexteval", tmp_path / "cut")
        with init_project(tmp_path / "q") as other:
            report = import_paths(other, [tmp_path / "cut"])
        assert any("an export that did not finish" in w for w in report.warnings)

        whole = export_project(project, "nexteval", tmp_path / "whole")
        assert whole.pages == 2 and not (tmp_path / "whole" / "EXPORT-UNFINISHED.txt").exists()

        stored = project.snapshot_file("2")
        stored.chmod(0o644)
        stored.write_bytes(stored.read_bytes().replace(b"Other", b"Edited"))  # changed by hand
        changed = export_project(project, "nexteval", tmp_path / "changed")
        assert changed.pages == 2 and changed.warnings == (
            "page 2: its saved copy in the project was changed since it was imported (it no longer matches its "
            "name, a hash of its bytes): exported as it is now",)
        stored.unlink()  # deleted by hand
        with pytest.raises(StoreError, match=r"saved copy of page\(s\) 2 is missing .*nothing exported"):
            export_project(project, "nexteval", tmp_path / "lost")
        assert not (tmp_path / "lost").exists() or not any((tmp_path / "lost").iterdir())


def project_cli_help(command: str) -> str:
    parser = argparse.ArgumentParser(prog="recordlens")
    sub = parser.add_subparsers()
    project_cli.register(sub)
    return " ".join(sub.choices[command].format_help().split())


def test_jsonl_and_csv_exports_carry_status_and_provenance(tmp_path: Path) -> None:
    data = small_dataset(tmp_path / "data")
    ana = Provenance.person("ana")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        first = project.labels("1")[0]
        project.edit(first.id, [*first.xpaths, "/body[1]/ul[1]/li[7]"], ana)
        project.add_record("1", ["/body[1]"], Provenance.extractor("mdr", "0.3", "html"))
        project.add_record("1", ['=HYPERLINK("http://x.example")'], ana)  # from an untrusted label file
        export_project(project, "jsonl", tmp_path / "out")
        export_project(project, "csv", tmp_path / "out")
    lines = [json.loads(line) for line in (tmp_path / "out" / "labels.jsonl").read_text().splitlines()]
    assert [(x["record"], x["status"]) for x in lines] == [(1, "edited"), (2, "accepted"), (3, "proposed"),
                                                           (4, "accepted")]
    assert lines[3]["xpaths"] == ['=HYPERLINK("http://x.example")']  # JSONL keeps every text verbatim
    assert lines[0]["changed_by"] == {"kind": "person", "name": "ana"}
    assert lines[2]["origin"] == {"kind": "extractor", "name": "mdr", "version": "0.3", "input_format": "html"}
    with (tmp_path / "out" / "labels.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["record"], r["xpath"]) for r in rows[:2]] == [("1", "/body[1]/ul[1]/li[1]"),
                                                             ("1", "/body[1]/ul[1]/li[7]")]
    assert rows[1]["resolves"] == "0"  # li[7] names nothing: marked as `labels check` flags it, whatever was stored
    assert rows[-2]["origin"] == "extractor mdr 0.3 (html)"
    assert rows[-1]["xpath"] == "'=HYPERLINK(\"http://x.example\")"  # a spreadsheet shows it, does not run it
    with init_project(tmp_path / "again") as again:  # a way out of a project, not back in: said so
        report = import_paths(again, [tmp_path / "out" / "labels.jsonl", tmp_path / "out" / "labels.csv"])
    assert [str(problem.reason).split("; ", 1)[1] for problem in report.problems] == [
        "a JSON Lines or CSV export holds no page, so it is not imported: import a NEXT-EVAL dataset (`export "
        "--format nexteval`), or move a whole project with `recordlens project copy`"] * 2


def test_cli_init_import_export_runs_and_score_against_stored_labels(dev_dir: Path, tmp_path: Path, capsys) -> None:
    project_dir = str(tmp_path / "p")
    assert run_cli(["project", "init", project_dir]) == 0
    assert run_cli(["import", str(dev_dir), "--project", project_dir, "-q"]) == 0
    assert "imported 40 page(s) with 2004 label(s)" in capsys.readouterr().out
    # A run that predicts the ground truth itself, minus one page: scored as the folder form scores it.
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    for gt in sorted((dev_dir / "gt").glob("*.json"))[1:]:
        shutil.copy(gt, run_dir / gt.name)
    assert run_cli(["runs", "--project", project_dir, "--add", str(run_dir), "--method", "oracle"]) == 0
    assert "oracle" in capsys.readouterr().out
    assert run_cli(["score", "--project", project_dir, "--run", "1"]) == 0
    stored = json.loads(capsys.readouterr().out)
    folder_scores, _ = score_run(run_dir, dev_dir / "gt", dev_dir / "html")
    assert stored["f1"] == pytest.approx(folder_scores.f1) and stored["pages"] == 40
    assert any("no prediction in run 1" in w for w in stored["warnings"])
    assert run_cli(["runs", "--project", project_dir, "--json"]) == 0
    (run,) = json.loads(capsys.readouterr().out)
    assert run["scored_pages"] == 40 and run["f1"] == pytest.approx(folder_scores.f1)
    assert run_cli(["export", "--project", project_dir, "--format", "nexteval", "--out", str(tmp_path / "x")]) == 0
    assert len(list((tmp_path / "x" / "gt").glob("*.json"))) == 40


def test_score_forms_exclude_each_other(tmp_path: Path) -> None:
    with pytest.raises(RecordLensError, match="not both"):
        run_cli(["score", "--project", "p", "--run", "1", "--pred", "x"])
    with pytest.raises(RecordLensError, match="needs --run"):
        run_cli(["score", "--project", "p"])
    with pytest.raises(RecordLensError, match="missing --gt, --pages"):
        run_cli(["score", "--pred", "x"])


def test_a_run_folder_keeps_a_malformed_prediction_as_that_page_s_error(tmp_path: Path) -> None:
    data = small_dataset(tmp_path / "data")
    run_dir = tmp_path / "run"
    (run_dir / "_run").mkdir(parents=True)
    (run_dir / "_run" / "run.json").write_text(json.dumps({"method": "mdr", "version": "0.3"}))
    (run_dir / "1.json").write_text("not json")
    (run_dir / "99.json").write_text("[]")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        added = import_run_folder(project, run_dir)
        run_id = added.run_id
        assert project.runs.get(run_id).method == "mdr" and project.runs.get(run_id).parameters["version"] == "0.3"
        assert project.runs.predictions(run_id) == {"1": []}
        assert project.one("SELECT error FROM predictions")[0].startswith(str(run_dir / "1.json"))
        assert any("skipped 1 prediction file of " in w for w in added.warnings) and "99.json" in added.left_out
        again = import_run_folder(project, run_dir)  # the same folder twice: one run
        assert (again.run_id, again.stored, len(project.runs.all())) == (run_id, False, 1)
        (run_dir / "1.json").write_text('[["/body[1]"]]')  # extracted again since: another run
        other = import_run_folder(project, run_dir)
        assert other.stored and other.run_id != run_id and len(project.runs.all()) == 2


def test_the_import_report_states_the_label_hygiene_of_the_imported_pages(tmp_path: Path, capsys) -> None:
    data = small_dataset(tmp_path / "data")  # page 1: clean labels
    (data / "html" / "2.html").write_text(PAGE, encoding="utf-8")
    bad = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"], ["/body[1]/ul[1]/li[1]"], ["/body[1]/div[4]"]]
    (data / "gt" / "2.json").write_text(json.dumps(bad), encoding="utf-8")  # a record twice, an XPath to nothing
    project_dir = tmp_path / "p"
    assert run_cli(["project", "init", str(project_dir)]) == 0
    capsys.readouterr()
    assert run_cli(["import", str(data), "--project", str(project_dir), "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("labels: page 2: 1 XPath(s) name no element or one without text (first: /body[1]/div[4]), in 1 "
                      "record (4); 1 of them names nothing at all (4); 1 pair(s) of records cover the same text "
                      "(first: records (1, 3))")
    ceiling = (1 + 2 * (2 / 4) / (1 + 2 / 4)) / 2  # page 2: 2 distinct records with text, 4 listed
    assert out[1] == ("label check of the pages imported with labels: 2 pages: 1 with label problems, 0 whose "
                      "policy differs from the majority (majority does not label page chrome); proposing each "
                      f"distinct true record with text once scores a mean F1 of {ceiling:.4f}")
    assert out[2].startswith("imported 2 page(s) with 6 label(s)")
    with open_project(project_dir) as project:  # the same findings through the API, and for another annotator
        report = import_paths(project, [data], annotator="bea")
        assert report.label_check is not None and report.label_check.flagged == ["2"]
        (page_2,) = [c for c in report.label_check.pages if c.page == "2"]
        assert page_2.unresolved == ["/body[1]/div[4]"] and page_2.twice == [(1, 3)]
        assert import_paths(project, [data / "html"]).label_check is None  # no labels, no label check


def test_an_imported_page_s_label_policy_is_judged_against_the_project_s_pages(tmp_path: Path, capsys) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for root in (first, second):
        (root / "html").mkdir(parents=True)
        (root / "gt").mkdir()
    for n in (1, 2, 3):  # three pages whose labels hold no page chrome
        (first / "html" / f"{n}.html").write_text(PAGE.replace("<li>a", f"<li>a{n}"), encoding="utf-8")
        (first / "gt" / f"{n}.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"]]))
    menu = "<html><body><nav><ul><li>Home</li><li>Shop</li></ul></nav><ul><li>x</li><li>y</li></ul></body></html>"
    (second / "html" / "4.html").write_text(menu, encoding="utf-8")
    (second / "gt" / "4.json").write_text(json.dumps([["/body[1]/nav[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[1]"]]))
    project_dir = tmp_path / "p"
    assert run_cli(["project", "init", str(project_dir)]) == 0
    assert run_cli(["import", str(first), "--project", str(project_dir), "-q"]) == 0
    capsys.readouterr()
    assert run_cli(["import", str(second), "--project", str(project_dir), "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    # Alone, page 4 would be its own majority; against the project's four pages it is the one unlike them.
    assert ("labels: page 4: labels page chrome (navigation, header, footer, aside), unlike most pages: 1 of 2 "
            "records (1)") in out
    summary = next(line for line in out if line.startswith("label check"))
    assert summary.startswith("label check of the pages imported with labels, policy against the project's 4 "
                              "pages with labels: 1 page: 0 with label problems, 1 whose policy differs")


def test_a_jsonl_or_csv_export_over_an_earlier_one_says_it_replaced_it(tmp_path: Path, capsys) -> None:
    data = small_dataset(tmp_path / "data")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
    for fmt in ("jsonl", "csv"):
        args = ["export", "--project", str(tmp_path / "p"), "-f", fmt, "-o", str(tmp_path / "out"), "-q"]
        assert run_cli(args) == 0
        assert "replaced" not in capsys.readouterr().err
        assert run_cli(args) == 0
        assert f"replaced the earlier {tmp_path / 'out' / f'labels.{fmt}'}" in capsys.readouterr().err


def test_importing_a_folder_without_pages_is_said_and_fails(tmp_path: Path, capsys) -> None:
    init_project(tmp_path / "p").close()
    (tmp_path / "empty").mkdir()
    labels = tmp_path / "labels"
    labels.mkdir()
    (labels / "1.json").write_text('[["/body[1]/p[1]"]]', encoding="utf-8")
    assert run_cli(["import", str(tmp_path / "empty"), str(labels), "--project", str(tmp_path / "p"), "-q"]) == 1
    err = capsys.readouterr().err
    assert f"not imported: {tmp_path / 'empty'}: no page (.mhtml, .mht, .html, .htm) in this folder\n" in err
    assert f"not imported: {labels}: no page (.mhtml, .mht, .html, .htm) in this folder (a folder of labels? " in err


def test_a_dataset_imported_again_warns_only_of_labels_the_project_does_not_hold(tmp_path: Path) -> None:
    data = small_dataset(tmp_path / "data")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        again = import_paths(project, [data])  # resumed, or run twice: the same labels
        assert again.unchanged == ["1"] and not again.warnings
        (data / "gt" / "1.json").write_text(json.dumps([["/body[1]/ul[1]/li[3]"]]))  # another annotator's
        other = import_paths(project, [data])
        assert len(other.warnings) == 1 and "were not imported (another annotator's?" in other.warnings[0]


def test_a_runs_scores_say_which_pages_changed_since_they_were_made(tmp_path: Path, capsys) -> None:
    import time

    from recordlens.core.store import score_stored_run

    data = small_dataset(tmp_path / "data")
    (data / "html" / "2.html").write_text(PAGE, encoding="utf-8")
    (data / "gt" / "2.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"]]))
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {"1": project.true_records("1"), "2": []})
        assert project.runs.stale_pages(run) == []  # never scored: nothing to be stale
        score_stored_run(project, run)
        assert project.runs.stale_pages(run) == [] and project.runs.get(run).f1 == 0.5
        time.sleep(0.01)  # times are kept to the millisecond: a change is after the scoring, as a person's is
        proposal = project.add_record("2", ["/body[1]/ul[1]/li[2]"], Provenance.extractor("mdr", "0.3", "html"))
        project.reject(proposal.record.id, Provenance.person("ana"))
        assert project.runs.stale_pages(run) == []  # a proposal added and rejected leaves the truth as it was
        project.delete(project.labels("2")[0].id, Provenance.person("ana"))  # page 2's truth changed
        assert project.runs.stale_pages(run) == ["2"]
        project.set_status("1", "new", Provenance.person("ana"))  # page 1 leaves the truth
        assert project.runs.stale_pages(run) == ["1", "2"]
    assert run_cli(["runs", "--project", str(tmp_path / "p")]) == 0
    said = capsys.readouterr().out
    assert (f"(* run {run}'s figures are out of date: 2 pages labelled, changed or unmarked since it was scored "
            "(1, 2); `recordlens score --project") in said
    with open_project(tmp_path / "p") as project:
        score_stored_run(project, run)
        assert project.runs.stale_pages(run) == [] and [s.page for s in project.runs.scores(run)] == ["2"]


def test_a_label_changed_while_a_run_is_scored_leaves_its_page_stale(tmp_path: Path) -> None:
    import time

    from recordlens.core.store import score_stored_run

    data = small_dataset(tmp_path / "data")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {"1": []})
        time.sleep(0.01)

        def edit_midway(names):
            for name in names:
                time.sleep(0.01)
                project.delete(project.labels("1")[0].id, Provenance.person("ana"))  # as the app lets one do
                yield name

        score_stored_run(project, run, edit_midway)
        assert project.runs.stale_pages(run) == ["1"]  # the score was begun before the edit: not trusted


def test_a_project_copied_whole_keeps_what_an_export_leaves_out(tmp_path: Path, capsys) -> None:
    from recordlens.core.cli.command import main
    from recordlens.core.store.project_copy import copy_project

    data = small_dataset(tmp_path / "data")
    ana = Provenance.person("ana")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        first = project.labels("1")[0]
        project.edit(first.id, [*first.xpaths, "/body[1]/ul[1]/li[3]"], ana)
        project.add_record("1", ["/body[1]"], Provenance.extractor("mdr", "0.3", "html"))
        project.set_status("1", "reviewed", ana)
        import_paths(project, [small_dataset(tmp_path / "bea")], annotator="bea")
        run = tmp_path / "run"
        run.mkdir()
        (run / "1.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"]]))
        import_run_folder(project, run, "oracle")
        (project.root / "models").mkdir()
        (project.root / "models" / "selector.json").write_text("{}")
        (project.root / ".half-written.tmp").write_text("x")  # a killed process's leftover: not the project's
        # Open (as the app would have it) while the copy is made: the copy is one consistent state.
        copy = copy_project(project.root, tmp_path / "copy")
        before = (project.labels("1"), project.history("1"), project.page("1").status,
                  project.annotators.records("bea", "1"), project.runs.predictions(1))
    assert (copy.pages, copy.labels, copy.runs, copy.annotators) == (1, 3, 1, 1)
    with open_project(tmp_path / "copy") as copied:
        assert (copied.labels("1"), copied.history("1"), copied.page("1").status,
                copied.annotators.records("bea", "1"), copied.runs.predictions(1)) == before
        assert copied.load("1").page.text_map  # the saved page is there and reads
    assert (tmp_path / "copy" / "models" / "selector.json").read_text() == "{}"
    assert not (tmp_path / "copy" / ".half-written.tmp").exists()
    assert not list(tmp_path.glob(".copy.partial-*"))
    with pytest.raises(StoreError, match="not an empty folder"):
        copy_project(tmp_path / "p", tmp_path / "copy")
    with pytest.raises(OutputPathError, match="inside the project"):  # refused as an export there is
        copy_project(tmp_path / "p", tmp_path / "p" / "backup")
    (tmp_path / ".copy3.partial-killed").mkdir()  # what a copy killed part way left
    running = tmp_path / ".copy3.partial-running"  # a copy to the same folder running now: left be
    running.mkdir()
    (running / ".copying").write_text(f"{socket.gethostname()} {os.getpid()}")
    copy_project(tmp_path / "p", tmp_path / "copy3")
    assert not (tmp_path / ".copy3.partial-killed").exists() and running.is_dir()
    with open_project(tmp_path / "copy3") as third:
        snapshot = third.snapshot_file("1")
    snapshot.chmod(0o644)
    snapshot.unlink()  # a saved page deleted by hand: refused before anything is written, the file named
    with pytest.raises(StoreError, match="lacks the saved page of 1 page"):
        copy_project(tmp_path / "copy3", tmp_path / "copy4")
    assert not (tmp_path / "copy4").exists() and not list(tmp_path.glob(".copy4.partial-*"))
    assert main(["project", "copy", str(tmp_path / "p"), str(tmp_path / "copy2")]) == 0
    assert "1 page(s), 3 label(s) with their history, 1 run(s), 1 other annotator(s)" in capsys.readouterr().out
    assert main(["export", "--project", str(tmp_path / "p"), "--format", "nexteval", "--out",
                 str(tmp_path / "ex"), "-q"]) == 0
    assert "`recordlens project copy` copies it whole" in capsys.readouterr().err


def test_a_run_folder_stored_in_part_says_what_it_left_and_exits_1(tmp_path: Path, capsys) -> None:
    from recordlens.core.cli.command import main

    small_dataset(tmp_path / "data")
    (tmp_path / "data" / "html" / "0.html").write_text(PAGE + "<!-- page 0 -->", encoding="utf-8")
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    assert main(["import", str(tmp_path / "data"), "--project", str(tmp_path / "p"), "-q"]) == 0
    run = tmp_path / "run"
    run.mkdir()
    (run / "1.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"]]))
    (run / "nosuchpage.json").write_text("[]")
    (run / "0.json").write_text("{broken")  # a page of the project: stored as one the run failed on
    capsys.readouterr()
    assert main(["runs", "--project", str(tmp_path / "p"), "--add", str(run), "--method", "mine"]) == 1
    err = capsys.readouterr().err
    assert f"skipped 1 prediction file of {run} (nosuchpage.json): no page of that name in the project" in err
    assert f"{run / '0.json'}: not valid JSON" in err and "stored as a page the run failed on" in err
    # each file left out is named once, by the warning that says why; the last line counts them
    assert err.count("nosuchpage.json") == 1 and err.count("0.json") == 1
    assert (f"stored {run} as run 1 (2 files of it not as records: the warnings above say which and why)"
            in err)
    with open_project(tmp_path / "p") as project:
        assert project.runs.predictions(1)["1"] == [["/body[1]/ul[1]/li[1]"]] and "0" in project.runs.errors(1)
    assert main(["runs", "--project", str(tmp_path / "p"), "--add", str(run), "--method", "mine"]) == 1
    err = capsys.readouterr().err
    assert err.count("nosuchpage.json") == 1 and err.count("0.json") == 1
    assert ("(same method, parameters and predictions) (2 files of it not as records: the warnings above say which "
            "and why); nothing stored") in err


def test_a_project_made_in_a_folder_that_holds_files_says_so(tmp_path: Path, capsys) -> None:
    from recordlens.core.cli.command import main

    data = small_dataset(tmp_path / "data")
    assert main(["project", "init", str(data)]) == 0
    assert "held 2 entries already (gt, html); the project's files are beside them" in capsys.readouterr().err
    assert main(["project", "init", str(tmp_path / "new")]) == 0
    assert "held" not in capsys.readouterr().err


def test_labels_named_in_another_unicode_form_than_their_page_are_said_so(tmp_path: Path) -> None:
    import unicodedata

    data = tmp_path / "data"
    (data / "html").mkdir(parents=True)
    (data / "gt").mkdir()
    (data / "html" / f"{unicodedata.normalize('NFC', 'café')}.html").write_text(PAGE, encoding="utf-8")
    (data / "gt" / f"{unicodedata.normalize('NFD', 'café')}.json").write_text("[]")
    with init_project(tmp_path / "p") as project:
        problems = [p.reason for p in import_paths(project, [data]).problems]
    assert len(problems) == 1 and "has the same name written in another Unicode form" in problems[0]


def test_edited_ground_truth_imported_again_replaces_the_labels_when_asked_and_the_old_ones_restore(
        tmp_path: Path, capsys) -> None:
    from recordlens.core.cli.command import main
    from recordlens.core.store.project import history_steps

    data = small_dataset(tmp_path / "data")
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    assert main(["import", str(data), "--project", str(tmp_path / "p"), "-q"]) == 0
    with open_project(tmp_path / "p") as project:
        project.set_status("1", "reviewed", Provenance.person("ana"))
        before = project.true_records("1")
    edited = [["/body[1]/ul[1]/li[2]"]]
    (data / "gt" / "1.json").write_text(json.dumps(edited))
    capsys.readouterr()
    assert main(["import", str(data), "--project", str(tmp_path / "p"), "-q"]) == 0  # not asked: said, kept
    assert "--replace-labels` takes them" in capsys.readouterr().err
    assert main(["import", str(data), "--project", str(tmp_path / "p"), "--replace-labels", "-q"]) == 0
    assert "1 already in the project (labels replaced on 1 of them" in capsys.readouterr().out
    with open_project(tmp_path / "p") as project:
        assert project.true_records("1") == edited and project.page("1").status == "labelled"
        steps = history_steps(project.history("1"))
        replaced = steps[-1]
        assert len(steps[-1]) > 1 and replaced[0].step[1].startswith("labels replaced from ")
        earlier = steps[-2][-1].id  # restoring to just before the step brings the old labels back
        project.restore("1", earlier, Provenance.person("ana"))
        assert project.true_records("1") == before and project.page("1").status == "reviewed"
    assert main(["import", str(data), "--project", str(tmp_path / "p"), "--replace-labels", "--annotator", "bea",
                 "-q"]) == 2
    labels_only = tmp_path / "edited" / "gt"  # the edited labels alone, without the pages
    labels_only.mkdir(parents=True)
    (labels_only / "1.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"]]))
    capsys.readouterr()
    assert main(["import", str(labels_only.parent), "--project", str(tmp_path / "p"), "--replace-labels", "-q"]) == 0
    assert "their proposals and rejected records went too" in capsys.readouterr().out
    with open_project(tmp_path / "p") as project:
        assert project.true_records("1") == [["/body[1]/ul[1]/li[1]"]]


def test_a_project_copied_while_another_process_writes_to_it_is_one_consistent_state(tmp_path: Path) -> None:
    import sqlite3
    import subprocess
    import sys
    import textwrap

    from recordlens.core.store.project_copy import copy_project

    data = small_dataset(tmp_path / "data")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
    writer = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        from recordlens.core.store.project import open_project, Provenance
        with open_project({str(tmp_path / 'p')!r}) as project:
            for k in range(400):
                project.add_record("1", [f"/body[1]/p[{{k}}]"], Provenance.person("ana"))
        """)])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # copies made while the writer is at work
            with open_project(tmp_path / "p") as project:
                if len(project.labels("1")) > 10:
                    break
            time.sleep(0.05)
        copies = [copy_project(tmp_path / "p", tmp_path / f"copy{k}") for k in range(3)]
    finally:
        writer.wait(timeout=120)
    for k, copy in enumerate(copies):
        database = sqlite3.connect(tmp_path / f"copy{k}" / "project.db")
        try:
            assert database.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            records = database.execute("SELECT COUNT(*) FROM records").fetchone()[0]
            history = database.execute("SELECT COUNT(*) FROM label_history").fetchone()[0]
        finally:
            database.close()
        # the import's two records in one entry, then one entry per record added: nothing half-copied
        assert records == copy.labels > 10 and history == records - 1
    with open_project(tmp_path / "p") as project:
        assert len(project.labels("1")) == 402


def test_a_page_imported_with_no_records_has_that_decision_in_its_history(tmp_path: Path) -> None:
    """An empty gt list is the annotator's "this page holds no record": its import is a step of the page's history,
    as an import of records is (0 records), and undoing it takes the page back to new as that one does."""
    data = small_dataset(tmp_path / "data")
    (data / "html" / "2.html").write_text(PAGE + "<!-- page 2 -->", encoding="utf-8")
    (data / "gt" / "2.json").write_text("[]")
    with init_project(tmp_path / "p") as project:
        assert import_paths(project, [data]).problems == []
        labelled, empty = project.history("1"), project.history("2")
        assert project.page("2").status == "labelled" and project.labels("2") == []
        assert len(empty) == 1 and empty[0].action == labelled[0].action == "add"
        assert empty[0].actor == labelled[0].actor == Provenance.dataset(str(data / "gt"))  # the same origin
        assert empty[0].before == empty[0].after == ()
        assert empty[0].detail.get("page_status") == labelled[0].detail.get("page_status") == {"from": "new",
                                                                                              "to": "labelled"}
        project.restore("2", None, Provenance.person("ana"))  # undone: the page is new again, as page 1 would be
        assert project.page("2").status == "new"
