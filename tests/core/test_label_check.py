"""Label hygiene (`recordlens labels check`): each kind of problem on a page made for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main as cli_main
from recordlens.core.page.dom import parse_html
from recordlens.core.records import model
from recordlens.core.records.hygiene import check_page, summarise
from recordlens.core.records.model import save_records

HTML = ("<html><body><nav><ul><li><a href='/a'>A</a></li><li><a href='/b'>B</a></li></ul></nav><main>"
        "<div class='w'><div class='card'><h3>One</h3><p>1.00</p></div></div>"
        "<div class='w'><div class='card'><h3>Two</h3><p>2.00</p></div></div>"
        "<div class='w'><div class='card'><h3>Three</h3><p>3.00</p></div></div></main></body></html>")
MAIN = [[f"/body[1]/main[1]/div[{i}]"] for i in (1, 2, 3)]
NAV = [["/body[1]/nav[1]/ul[1]/li[1]"], ["/body[1]/nav[1]/ul[1]/li[2]"]]


def test_a_clean_page_is_clean() -> None:
    check = check_page("p", parse_html(HTML), MAIN)
    assert check.clean and not check.includes_chrome


def test_a_wrapper_and_its_only_child_are_the_same_record_listed_twice() -> None:
    check = check_page("p", parse_html(HTML), [*MAIN, ["/body[1]/main[1]/div[2]/div[1]"]])
    assert check.twice == [(2, 4)] and not check.nested


def test_a_field_labelled_beside_its_card_is_nested() -> None:
    check = check_page("p", parse_html(HTML), [*MAIN, ["/body[1]/main[1]/div[3]/div[1]/h3[1]"]])
    assert check.nested == [(4, 3)]


def test_xpaths_that_resolve_to_nothing_are_named() -> None:
    check = check_page("p", parse_html(HTML), [*MAIN, ["/body[1]/main[1]/div[9]"], ["/body[1]/main[1]/div[1]//p"]])
    assert check.unresolved == ["/body[1]/main[1]/div[9]", "/body[1]/main[1]/div[1]//p"]


def test_a_page_whose_policy_differs_from_the_majority_is_an_outlier() -> None:
    page = parse_html(HTML)
    report = summarise([check_page(n, page, records) for n, records in (("1", MAIN), ("2", MAIN), ("3", MAIN + NAV))])
    assert not report.majority_includes_chrome and report.policy_outliers == ["3"]


def test_the_command_reports_a_dataset(tmp_path: Path, capsys) -> None:
    (tmp_path / "html").mkdir()
    for name, records in (("1", MAIN), ("2", MAIN), ("3", [*MAIN, ["/body[1]/main[1]/div[7]"]])):
        (tmp_path / "html" / f"{name}.html").write_text(HTML, encoding="utf-8")
        save_records(tmp_path / "gt" / f"{name}.json", records)
    assert cli_main(["labels", "check", "--pages", str(tmp_path / "html"), "--gt", str(tmp_path / "gt")]) == 0
    out = capsys.readouterr()
    assert "page 3: 1 XPath(s) name no element or one without text" in out.out
    assert "1 with label problems" in out.out  # the summary, with the ceiling: a result, on stdout


def test_a_record_without_any_xpath_is_named() -> None:
    check = check_page("p", parse_html(HTML), [*MAIN, []])
    assert check.empty == [4] and not check.clean
    assert summarise([check]).findings() == ["page p: 1 record(s) without any XPath (first: record 4)"]


def test_an_unreadable_labels_file_is_reported_and_the_others_are_checked(tmp_path: Path, capsys) -> None:
    (tmp_path / "html").mkdir()
    for name in ("1", "2", "3"):
        (tmp_path / "html" / f"{name}.html").write_text(HTML, encoding="utf-8")
        save_records(tmp_path / "gt" / f"{name}.json", [*MAIN, ["/body[1]/main[1]/div[7]"]])
    (tmp_path / "gt" / "2.json").write_text("[[", encoding="utf-8")
    save_records(tmp_path / "gt" / "4.json", MAIN)  # labels without their page
    assert cli_main(["labels", "check", "--pages", str(tmp_path / "html"), "--gt", str(tmp_path / "gt")]) == 1
    out = capsys.readouterr()
    assert "page 4: cannot be checked:" in out.out and "has no page 4" in out.out
    assert "page 2: cannot be checked:" in out.out and "not valid JSON" in out.out
    assert "page 1: 1 XPath(s) name no element or one without text" in out.out and "page 3: 1 XPath(s)" in out.out
    assert "2 pages: 2 with label problems" in out.out and "2 page(s) could not be checked" in out.out
    assert cli_main(["labels", "check", "--pages", str(tmp_path / "html"), "--gt", str(tmp_path / "gt"),
                     "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [p["page"] for p in report["pages"]] == ["1", "3"] and len(report["unreadable"]) == 2


def test_records_listed_twice_lower_the_ceiling_the_labels_allow() -> None:
    page = parse_html(HTML)
    assert check_page("p", page, MAIN).ceiling == 1.0
    twice = check_page("p", page, [*MAIN, ["/body[1]/main[1]/div[1]/div[1]"]])
    assert twice.ceiling == 2 * (3 / 3) * (3 / 4) / (1 + 3 / 4)  # 3 distinct records predicted, 4 listed
    # A true record that names nothing: NEXT-EVAL's clean oracle predicts no empty record, so it is missed.
    nothing = check_page("p", page, [*MAIN, ["/body[1]/main[1]/div[7]"]])
    assert nothing.ceiling == 2 * (3 / 3) * (3 / 4) / (1 + 3 / 4)


def _dataset_with_a_record_twice(root: Path) -> tuple[Path, Path]:
    """Three pages on disk; page 3's labels list its first card twice (the wrapper and its only child)."""
    (root / "html").mkdir(parents=True)
    for name, records in (("1", MAIN), ("2", MAIN), ("3", [*MAIN, ["/body[1]/main[1]/div[1]/div[1]"]])):
        (root / "html" / f"{name}.html").write_text(HTML, encoding="utf-8")
        save_records(root / "gt" / f"{name}.json", records)
    run = root / "run"
    for name in ("1", "2", "3"):
        save_records(run / f"{name}.json", MAIN[:2] if name == "1" else MAIN)
    return root, run


CEILING = (1 + 1 + 2 * (3 / 4) / (1 + 3 / 4)) / 3  # page 3: 3 distinct records predicted, 4 listed


def test_a_check_of_no_page_is_refused_rather_than_reported_as_perfect(tmp_path: Path, capsys) -> None:
    (tmp_path / "html").mkdir()
    (tmp_path / "gt").mkdir()
    dataset = ["labels", "check", "--pages", str(tmp_path / "html"), "--gt", str(tmp_path / "gt")]
    assert cli_main(dataset) == 2
    err = capsys.readouterr().err
    assert "has ground truth in" in err and "nothing checked" in err and "mean F1" not in err
    (tmp_path / "gt" / "1.json").write_text("[[", encoding="utf-8")
    (tmp_path / "html" / "1.html").write_text(HTML, encoding="utf-8")
    assert cli_main(dataset) == 1
    out = capsys.readouterr()
    assert "page 1: cannot be checked:" in out.out and "no page checked; 1 page(s) could not be" in out.out
    assert cli_main(["project", "init", str(tmp_path / "p")]) == 0
    capsys.readouterr()
    assert cli_main(["labels", "check", "--project", str(tmp_path / "p")]) == 2
    assert "holds labels: nothing checked" in capsys.readouterr().err


def test_score_states_the_ceiling_the_labels_allow_beside_the_run(tmp_path: Path, capsys) -> None:
    data, run = _dataset_with_a_record_twice(tmp_path / "data")
    folder = ["score", "--pred", str(run), "--gt", str(data / "gt"), "--pages", str(data / "html"), "-q"]
    assert cli_main([*folder, "--json"]) == 0
    assert "ceiling" not in json.loads(capsys.readouterr().out)  # only when asked
    assert cli_main([*folder, "--ceiling", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["ceiling"]["f1"] == pytest.approx(CEILING)
    assert document["ceiling"]["pages"] == {"1": 1.0, "2": 1.0, "3": pytest.approx(6 / 7)}
    assert document["mean"]["f1"] < document["ceiling"]["f1"]
    assert cli_main([*folder, "--ceiling"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(f"ceiling of the labels (each distinct true record with text predicted once): mean F1 "
                           f"{CEILING:.4f} over 3 pages, 1 of them below 1; this run's mean F1 "
                           f"{document['mean']['f1']:.4f}")


def test_score_of_a_stored_run_states_the_ceiling_of_the_project_labels(tmp_path: Path, capsys) -> None:
    data, run = _dataset_with_a_record_twice(tmp_path / "data")
    project = str(tmp_path / "p")
    assert cli_main(["project", "init", project]) == 0
    assert cli_main(["import", str(data), "--project", project, "-q"]) == 0
    assert cli_main(["runs", "--project", project, "--add", str(run), "--method", "hand"]) == 0
    capsys.readouterr()
    assert cli_main(["score", "--project", project, "--run", "1", "--ceiling", "--json", "-q"]) == 0
    assert json.loads(capsys.readouterr().out)["ceiling"]["f1"] == pytest.approx(CEILING)


def test_a_project_remembers_its_label_checks_until_the_labels_change(tmp_path: Path, monkeypatch, capsys) -> None:
    from recordlens.core.store import label_checks, open_project
    from recordlens.core.store.db import Provenance

    data, _ = _dataset_with_a_record_twice(tmp_path / "data")
    assert cli_main(["project", "init", str(tmp_path / "p")]) == 0
    assert cli_main(["import", str(data), "--project", str(tmp_path / "p"), "-q"]) == 0
    made: list[str] = []
    real = label_checks.check_page

    def counting(name: str, page, records):  # noqa: ANN001 - the checker's own arguments
        made.append(name)
        return real(name, page, records)

    monkeypatch.setattr(label_checks, "check_page", counting)
    with open_project(tmp_path / "p") as project:
        checks = list(project.label_checks.labelled())
        assert made == []  # the import kept the checks it made: no page is parsed again
        assert [c.page for c in checks] == ["1", "2", "3"] and checks[2].twice == [(1, 4)]
        first = project.labels("1")[0]
        project.edit(first.id, ["/body[1]/nav[1]/ul[1]/li[1]"], Provenance.person("ana"))
        again = {c.page: c for c in project.label_checks.labelled()}
        assert made == ["1"] and again["1"].includes_chrome  # only the page whose labels changed
        assert list(project.label_checks.labelled()) == list(again.values()) and made == ["1"]
    monkeypatch.setattr(label_checks, "CHECK_VERSION", label_checks.CHECK_VERSION + 1)
    with open_project(tmp_path / "p") as project:  # a checker that finds other things checks every page anew
        assert [c.page for c in project.label_checks.labelled()] == ["1", "2", "3"]
    assert made == ["1", "1", "2", "3"]
    monkeypatch.setattr(label_checks, "PAGE_READER_VERSION", label_checks.PAGE_READER_VERSION + 1)
    with open_project(tmp_path / "p") as project:  # pages read another way: every page is checked anew
        assert [c.page for c in project.label_checks.labelled()] == ["1", "2", "3"]
    assert made == ["1", "1", "2", "3", "1", "2", "3"]
    made.clear()
    assert cli_main(["labels", "check", "--project", str(tmp_path / "p")]) == 0
    assert made == []  # the command reads the remembered checks too
    with open_project(tmp_path / "p") as project:  # a page back in progress is checked, and said to be left out
        project.set_status("2", "proposed", Provenance.person("ana"))
    capsys.readouterr()
    assert cli_main(["labels", "check", "--project", str(tmp_path / "p")]) == 0
    assert "1 of the pages checked are not marked labelled or reviewed yet (2): score, export and agreement leave " \
           "them out" in capsys.readouterr().out
    with open_project(tmp_path / "p") as project:  # a saved copy gone: the remembered checks cannot hide it
        snapshot = project.snapshot_file("3")
    snapshot.chmod(0o644)
    snapshot.unlink()
    assert cli_main(["labels", "check", "--project", str(tmp_path / "p")]) == 1
    assert f"page 3: cannot be checked: its saved copy {snapshot} is missing" in capsys.readouterr().out
    assert cli_main(["labels", "check", "--project", str(tmp_path / "p"), "--json"]) == 1
    document = json.loads(capsys.readouterr().out)  # counted once: unreadable, not checked as well
    assert document["pages"] == [] and len(document["unreadable"]) == 3  # the three pages share one saved copy


def test_the_label_policy_benchmark_describes_a_page_from_its_candidates_alone(monkeypatch) -> None:
    from recordlens.core.extract.candidates import FEATURE_NAMES
    from recordlens.core.extract.training import LabelledPage, prepare
    from tests.script_modules import script_module

    folder = Path(__file__).resolve().parents[2] / "bench"
    monkeypatch.syspath_prepend(str(folder))  # as `python bench/label_policy.py` runs: its neighbours import
    bench = script_module(folder / "label_policy.py", "recordlens_bench_label_policy")
    without_nav = HTML.replace("<nav>", "<div>").replace("</nav>", "</div>")
    pages = [LabelledPage("nav", parse_html(HTML), MAIN), LabelledPage("plain", parse_html(without_nav), MAIN),
             LabelledPage("nav, labelled", parse_html(HTML), MAIN + NAV)]
    nav, plain, labelled = (bench.page_description(e) for e in prepare(pages))
    share = bench.SUMMARIES.index("share of candidates in chrome")
    assert len(nav) == len(bench.SUMMARIES) + 2 * len(FEATURE_NAMES)
    assert nav[share] > 0 and plain[share] == 0
    assert list(labelled) == list(nav)  # the labels never enter the description


def test_a_labels_file_the_system_refuses_to_read_is_reported_like_a_broken_one(tmp_path: Path, capsys,
                                                                                 monkeypatch) -> None:
    (tmp_path / "html").mkdir()
    for name in ("1", "2"):
        (tmp_path / "html" / f"{name}.html").write_text(HTML, encoding="utf-8")
        save_records(tmp_path / "gt" / f"{name}.json", MAIN)
    refused = tmp_path / "gt" / "2.json"
    read_regular_file = model.read_regular_file

    def no_permission(path: Path, *args, **kwargs) -> bytes:  # root reads any file: the refusal is simulated
        if Path(path) == refused:
            raise PermissionError(13, "Permission denied", str(path))
        return read_regular_file(path, *args, **kwargs)

    monkeypatch.setattr(model, "read_regular_file", no_permission)  # the one reader of a records file
    assert cli_main(["labels", "check", "--pages", str(tmp_path / "html"), "--gt", str(tmp_path / "gt")]) == 1
    out = capsys.readouterr()
    assert f"page 2: cannot be checked: {refused}: cannot be read (Permission denied)" in out.out
    assert "1 page: 0 with label problems" in out.out


def test_an_xpath_is_judged_as_the_score_reads_it() -> None:
    page = parse_html(HTML)
    trailing = [[MAIN[0][0] + "/"], *MAIN[1:]]  # a trailing slash: the score expands it to the same text
    assert check_page("p", page, trailing).unresolved == []


def test_an_xpath_with_invisible_characters_is_shown_quoted_in_the_findings() -> None:
    from recordlens.core.wording import shown

    page = parse_html("<main><ul><li>a</li><li>b</li></ul></main>")
    check = check_page("1", page, [["/body[1]/main[1]/ul[1]/li[1]\u200b"], [" /body[1]/main[1]/ul[1]/li[2]"]])
    line = summarise([check]).findings()[0]
    assert '(first: "/body[1]/main[1]/ul[1]/li[1]\\u200b")' in line  # not a name that looks like a good one
    assert shown("/body[1]/p[2]") == "/body[1]/p[2]"
