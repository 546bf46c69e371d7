"""A second annotator: their NEXT-EVAL folder imported beside the project's labels, and `recordlens agreement`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.agreement import project_agreement
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance, StoreError, init_project, open_project
from tests.core.two_annotators import PAGES, bea, dataset


@pytest.fixture
def two(dev_dir: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "p"
    with init_project(folder) as project:
        import_paths(project, [dataset(dev_dir, tmp_path / "ana")])
        before = {name: project.true_records(name) for name in PAGES}
        report = import_paths(project, [dataset(dev_dir, tmp_path / "bea", bea)], annotator="bea")
        assert report.imported == list(PAGES) and not report.problems
        # Both label sets are kept, apart: the project's labels did not change.
        assert {name: project.true_records(name) for name in PAGES} == before
        assert project.annotators.names() == ["bea"]
        assert project.annotators.records("bea", "1") == before["1"][1:]
    return folder


def test_agreement_scores_one_set_against_the_other_and_lists_the_disagreeing_records(two: Path) -> None:
    with open_project(two) as project:
        result = project_agreement(project, "project", "bea")
        truth_1 = project.true_records("1")
    assert [p.page for p in result.pages] == list(PAGES)
    page_1, page_2, page_3 = result.pages
    assert page_3.f1 == 1.0 and page_3.disagreements == []
    assert page_1.recall == 1.0 and page_1.precision == pytest.approx((len(truth_1) - 1) / len(truth_1))
    assert [(d.kind, d.a_number, d.b_number) for d in page_1.disagreements] == [("only A", 1, None)]
    assert page_1.disagreements[0].a == tuple(truth_1[0])
    assert page_2.f1 < 1.0 and page_2.disagreements
    assert result.f1 == pytest.approx((page_1.f1 + page_2.f1 + page_3.f1) / 3)
    with open_project(two) as project:  # F1 is symmetric; P and R swap
        swapped = project_agreement(project, "bea", "project")
    assert swapped.f1 == pytest.approx(result.f1) and swapped.pages[0].recall == pytest.approx(page_1.precision)


def test_agreement_command_prints_per_page_and_mean_and_the_records(two: Path, capsys) -> None:
    assert main(["agreement", "--project", str(two), "--between", "project", "bea", "-q"]) == 0
    out = capsys.readouterr().out
    assert "agreement of project (A) with bea (B) on 3 page(s) both labelled" in out
    assert "(P: how much of project's records bea also made; R: the other way round; `--between bea project` " \
           "swaps them)" in out
    assert "\nmean " in out and "page 1: 1 record(s) disagree" in out and "only A   A1: /" in out
    assert main(["agreement", "--project", str(two), "--between", "project", "bea", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pages_compared"] == 3 and data["pages"][0]["disagreements"][0]["kind"] == "only A"
    assert main(["agreement", "--project", str(two), "--between", "bea", "nobody"]) == 2
    assert "no labels by 'nobody'" in capsys.readouterr().err
    with open_project(two) as project:  # carl accepted a record on a page not marked labelled yet
        project.set_status("1", "proposed", Provenance.person("ana"))
        first = project.labels("1")[0]
        project.edit(first.id, [*first.xpaths, "/body[1]"], Provenance.person("carl"))
    assert main(["agreement", "--project", str(two), "--between", "carl", "project"]) == 2
    err = capsys.readouterr().err
    assert "'carl' is a person of the project, with no accepted or changed record on a page marked labelled" in err
    assert "known:" not in err
    with open_project(two) as project:  # cleo labelled only page 1, which the project has not marked labelled
        project.annotators.set_page("cleo", "1", [["/body[1]"]], "by hand")
    assert main(["agreement", "--project", str(two), "--between", "cleo", "project", "-q"]) == 1
    assert "(no page labelled by both cleo and project: nothing to compare)" in capsys.readouterr().out


def test_an_annotator_named_with_spaces_is_refused_and_another_case_is_said(
        two: Path, dev_dir: Path, tmp_path: Path, capsys) -> None:
    more = dataset(dev_dir, tmp_path / "bea-more", lambda name, records: records[:1])
    with open_project(two) as project:
        before = project.annotators.records("bea", "1")
    assert main(["import", str(more), "--project", str(two), "--annotator", " bea ", "-q"]) == 2
    assert "space" in capsys.readouterr().err  # " bea " would have gone over bea's labels
    with open_project(two) as project:
        assert project.annotators.names() == ["bea"] and project.annotators.records("bea", "1") == before
    assert main(["import", str(more), "--project", str(two), "--annotator", "BEA", "-q"]) == 0
    err = capsys.readouterr().err
    assert "'BEA' and 'bea' are two label sets (names differ in case)" in err and err.count("names differ") == 1


def test_an_annotator_s_labels_alone_go_onto_the_project_s_pages(two: Path, tmp_path: Path, capsys) -> None:
    labels = tmp_path / "cleo" / "gt"  # no html/ beside: the pages are in the project already
    labels.mkdir(parents=True)
    (labels / "1.json").write_text(json.dumps([["/body[1]"]]), encoding="utf-8")
    (labels / "999.json").write_text("[]", encoding="utf-8")
    assert main(["import", str(tmp_path / "cleo"), "--project", str(two), "--annotator", "cleo", "-q"]) == 1
    captured = capsys.readouterr()
    assert "imported cleo's labels of 1 page of the project (1 label)" in captured.out
    assert "labels of page 999, which is not in the project" in captured.err
    with open_project(two) as project:
        assert project.annotators.records("cleo", "1") == [["/body[1]"]] and not project.has_page("999")
        assert len(project.pages()) == len(PAGES)
    (labels.parent / "gt").rename(labels.parent / "flat")  # a folder of N.json directly works too
    (labels.parent / "flat" / "999.json").unlink()
    assert main(["import", str(labels.parent / "flat"), "--project", str(two), "--annotator", "dora", "-q"]) == 0


def test_a_person_who_labelled_in_the_app_is_a_label_set_too(two: Path) -> None:
    with open_project(two) as project:
        first = project.labels("7")[0]
        project.edit(first.id, [*first.xpaths, "/body[1]"], Provenance.person("ana"))
        result = project_agreement(project, "ana", "bea")
        assert [p.page for p in result.pages] == ["7"]  # the pages ana worked on
        with pytest.raises(StoreError, match="two different"):
            project_agreement(project, "bea", "bea")
        with pytest.raises(StoreError, match="names the project's own labels"):
            import_paths(project, [], annotator="project")


def test_another_annotators_labels_imported_without_annotator_are_said_not_imported(dev_dir, tmp_path) -> None:
    data = dataset(dev_dir, tmp_path / "d")
    theirs = dataset(dev_dir, tmp_path / "theirs", bea)  # the same pages, labelled otherwise
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        again = import_paths(project, [data])  # the same labels: already the project's, nothing to say
        report = import_paths(project, [theirs])
    assert again.unchanged == report.unchanged == list(PAGES) and not again.warnings
    assert any("--annotator NAME" in w for w in report.warnings)
