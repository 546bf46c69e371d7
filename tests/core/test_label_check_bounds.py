"""`recordlens labels check`, as a verifier found it wanting: a saved copy changed by hand checked as it is now (and
exported so), duplicate records counted in bounded memory, whole-page records flagged, a project and a dataset
refused together, and a tie of chrome policies said as no majority."""

from __future__ import annotations

import csv
import json
import tracemalloc
from pathlib import Path

import pytest

from recordlens.core.cli.command import main as cli_main
from recordlens.core.page.dom import parse_html
from recordlens.core.records.hygiene import LISTED, PageCheck, check_page, summarise
from recordlens.core.records.model import save_records

LIST = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body><ul><li><b>a</b></li>'
        '<li><b>b</b></li></ul></body></html>')
ITEMS = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"]]


def _dataset(root: Path, pages: dict[str, tuple[str, list[list[str]]]]) -> Path:
    (root / "html").mkdir(parents=True)
    for name, (html, records) in pages.items():
        (root / "html" / f"{name}.html").write_text(html, encoding="utf-8")
        save_records(root / "gt" / f"{name}.json", records)
    return root


def test_a_saved_copy_changed_by_hand_is_checked_and_exported_as_it_is_now(tmp_path: Path, capsys) -> None:
    from recordlens.core.store import open_project

    data = _dataset(tmp_path / "ds", {"p": (LIST, ITEMS)})
    project = str(tmp_path / "P")
    assert cli_main(["project", "init", project]) == 0
    assert cli_main(["import", str(data), "--project", project, "-q"]) == 0
    assert cli_main(["labels", "check", "--project", project]) == 0  # remembered: clean
    assert "0 with label problems" in capsys.readouterr().out
    with open_project(project) as opened:
        stored = opened.snapshot_file("p")
    stored.chmod(0o644)
    stored.write_text(LIST.replace("<ul><li><b>a</b></li><li><b>b</b></li></ul>", "<p>gone</p>"), encoding="utf-8")
    for _ in range(2):  # checked anew, then the check made of the changed copy is remembered and said again
        assert cli_main(["labels", "check", "--project", project]) == 0
        out = capsys.readouterr()
        assert "page p: 2 XPath(s) name no element or one without text (first: /body[1]/ul[1]/li[1])" in out.out
        assert "1 with label problems" in out.out and "mean F1 of 0.0000" in out.out
        assert ("warning: page p: its saved copy in the project was changed since it was imported (it no longer "
                "matches its name, a hash of its bytes): checked as it is now") in out.err
    for fmt in ("jsonl", "csv"):
        assert cli_main(["export", "--project", project, "-f", fmt, "-o", str(tmp_path / fmt), "-q"]) == 0
    capsys.readouterr()
    lines = [json.loads(line) for line in (tmp_path / "jsonl" / "labels.jsonl").read_text().splitlines()]
    assert [(x["texts"], x["unresolved"]) for x in lines] == [([], x) for x in ITEMS]  # no text: nothing resolves
    with (tmp_path / "csv" / "labels.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [(row["resolves"], row["text"]) for row in rows] == [("0", ""), ("0", "")]


def test_thousands_of_duplicate_records_are_counted_in_bounded_memory() -> None:
    page = parse_html("<html><body><ul><li>a</li><li>b</li><li>c</li><li>d</li></ul></body></html>")
    copies = 1_000  # of each of 4 items (4,000 records), and 300 records of the whole list they lie inside
    records = [[f"/body[1]/ul[1]/li[{i % 4 + 1}]"] for i in range(4 * copies)] + [["/body[1]/ul[1]"]] * 300
    import scipy.optimize  # noqa: F401 - the matching's first import (20 MB) is no part of what is measured

    tracemalloc.start()
    try:
        check = check_page("p", page, records)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # Every pair held took 400 MB here (2 million pairs alike, 1.2 million nested), now under 1 MB
    assert peak < 40_000_000, f"{peak:,} bytes"
    assert check.twice_pairs == 4 * copies * (copies - 1) // 2 + 300 * 299 // 2
    assert check.twice_group_count == 5
    assert [(g.size, g.records[:3]) for g in check.twice_groups] == [
        (copies, [1, 5, 9]), (copies, [2, 6, 10]), (copies, [3, 7, 11]), (copies, [4, 8, 12]),
        (300, [4001, 4002, 4003])]
    assert all(len(g.records) == LISTED for g in check.twice_groups)
    assert check.twice == [(1, 1 + 4 * k) for k in range(1, LISTED + 1)]  # the first pairs, in record order
    assert check.nested_pairs == 4 * copies * 300 and check.nested_records == 4 * copies
    assert check.nested == [(1, 4001 + k) for k in range(LISTED)]
    assert check.ceiling == pytest.approx(2 * (5 / len(records)) / (1 + 5 / len(records)))  # 5 distinct records
    report = summarise([check])
    assert report.findings() == [
        f"page p: {check.twice_pairs} pair(s) of records cover the same text (first: records (1, 5)), in 5 group(s) "
        f"of records alike (first: {copies} records, 1, 5, 9, 13, 17, ...); {4 * copies} record(s) inside another "
        "(first: record 1 in 4001)"]
    document = json.dumps(report.as_dict())
    assert len(document) < 5_000  # not every pair (the verifier's 5,000 records printed 161 MB)
    assert PageCheck.from_dict(json.loads(document)["pages"][0]) == check  # a project remembers it whole


def test_records_alike_and_nested_are_still_each_counted_once() -> None:
    page = parse_html("<html><body><main><div><p>x</p><p>y</p></div><div><p>z</p></div></main></body></html>")
    card, field, other = ["/body[1]/main[1]/div[1]"], ["/body[1]/main[1]/div[1]/p[1]"], ["/body[1]/main[1]/div[2]"]
    # the field lies inside the card and inside the whole list, both given twice (spelled apart once)
    records = [card, field, ["/body[1]/main[1]"], ["/html[1]/body[1]/main[1]/div[1]"], other, ["/body[1]/main[1]/"]]
    check = check_page("p", page, records)
    assert check.twice == [(1, 4), (3, 6)] and check.twice_pairs == 2 and check.twice_group_count == 2
    assert check.nested == [(1, 3), (1, 6), (2, 1), (2, 3), (2, 4), (2, 6), (4, 3), (4, 6), (5, 3), (5, 6)]
    assert check.nested_pairs == 10 and check.nested_records == 4  # record 2 is inside four: one record
    assert summarise([check]).findings() == [  # two pairs of two: the pairs say it all, no groups
        "page p: 2 pair(s) of records cover the same text (first: records (1, 4)); 4 record(s) inside another "
        "(first: record 1 in 3)"]


def test_true_records_of_the_whole_page_are_flagged_as_score_warns_of_them(tmp_path: Path, capsys) -> None:
    data = _dataset(tmp_path / "w", {"p": (LIST, [["/html"], *ITEMS]), "q": (LIST, [[""]]), "r": (LIST, [["/"]]),
                                     "s": (LIST, ITEMS)})
    assert cli_main(["labels", "check", "--pages", str(data / "html"), "--gt", str(data / "gt")]) == 0
    out = capsys.readouterr()
    wide = ("1 true record(s) hold '', '/' or '/html', which the reference expands to every text entry of the page "
            "(first: record 1)")
    assert f"page p: {wide}; 2 record(s) inside another (first: record 2 in 1)" in out.out.splitlines()
    assert f"page q: {wide}" in out.out.splitlines() and f"page r: {wide}" in out.out.splitlines()
    assert "page s" not in out.out and "4 pages: 3 with label problems" in out.out
    assert cli_main(["labels", "check", "--pages", str(data / "html"), "--gt", str(data / "gt"), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert {p["page"]: p["whole_page"] for p in document["pages"]} == {"p": [1], "q": [1], "r": [1], "s": []}
    # the words are score's own
    assert cli_main(["score", "--pred", str(data / "gt"), "--gt", str(data / "gt"), "--pages", str(data / "html"),
                     "-q"]) == 0
    assert ("page q: 1 true record(s) hold '', '/' or '/html', which the reference expands to every text entry of "
            "the page") in capsys.readouterr().err


def test_a_project_and_a_dataset_together_are_refused(tmp_path: Path, capsys) -> None:
    data = _dataset(tmp_path / "x", {"p": (LIST, [["/body[1]/ul[1]/li[9]"]])})
    assert cli_main(["project", "init", str(tmp_path / "P")]) == 0
    capsys.readouterr()
    for given in (["--pages", str(data / "html"), "--gt", str(data / "gt")], ["--gt", str(data / "gt")]):
        assert cli_main(["labels", "check", "--project", str(tmp_path / "P"), *given]) == 2
        assert "give either --project DIR or --pages DIR --gt DIR, not both" in capsys.readouterr().err


@pytest.mark.parametrize("split", [(2, 2), (1, 1)])
def test_a_tie_of_chrome_policies_is_no_majority(split: tuple[int, int]) -> None:
    chrome, plain = split
    checks = ([PageCheck(f"c{i}", 3, chrome_records=1) for i in range(chrome)]
              + [PageCheck(f"n{i}", 2) for i in range(plain)])
    report = summarise(checks)
    assert report.majority_includes_chrome is None and report.policy_outliers == [] and report.findings() == []
    assert ("(no chrome policy has a majority: as many pages label page chrome as do not, so no page is flagged as "
            "unlike most)") in report.summary()
    assert "differs from the majority" not in report.summary()
    # one page more either way is a majority again
    assert summarise([*checks, PageCheck("n", 2)]).policy_outliers == [c.page for c in checks[:chrome]]
    assert summarise([*checks, PageCheck("c", 1, chrome_records=1)]).policy_outliers == [
        c.page for c in checks[chrome:]]
