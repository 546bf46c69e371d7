"""What a project of many pages asks of `score`, `runs` and `annotators`: the in-sample check keeps one parsed page
alive at a time, the project form says which pages are synthetic variants of training pages as the folder form
does, a run scored again scores only the pages whose labels changed (with the figures a full score gives), and
lists of pages in messages are cut."""

from __future__ import annotations

import gc
import json
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.extract.training import page_digest
from recordlens.core.page.dom import Page, parse_html
from recordlens.core.runs import in_sample
from recordlens.core.store.importer import import_paths, import_run_folder, synthetic_sources_of
from recordlens.core.store.project import Project, Provenance, init_project, open_project
from recordlens.core.store.scoring import score_stored_run
from tests.core.cli_runs import run
from tests.core.shop_runs import dataset, page_html, run_folder

# 1. The in-sample check ------------------------------------------------------------------------------------------


def test_the_in_sample_check_keeps_one_parsed_page_alive_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of 1000 pages made `score` hold every parsed page at once (6 GB) only to take their digests."""
    truth = [["/body[1]/ul[1]/li[1]"]]
    trained = page_digest(parse_html(page_html(0)), truth)
    monkeypatch.setattr(in_sample, "model_pages", lambda parameters: ("default", {trained}))
    alive: list[weakref.ref[Page]] = []
    most = 0

    def scored() -> Iterator[tuple[str, Page, list[list[str]]]]:
        nonlocal most
        for k in range(6):
            gc.collect()
            most = max(most, sum(ref() is not None for ref in alive))  # those given before still alive
            page = parse_html(page_html(k))
            alive.append(weakref.ref(page))
            yield str(k), page, truth
            del page

    found = in_sample.trained_on({"model": "default", "model_digest": "d"}, in_sample.digests_of(scored()))
    assert found is not None and found.pages == ["0"] and found.scored == 6
    assert most <= 1  # at most the page given last, as the next is read


def test_a_model_that_cannot_be_read_parses_no_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(in_sample, "model_pages",
                        lambda parameters: ("m.json", "is not where the run found it any more"))

    def scored() -> Iterator[tuple[str, Page, list[list[str]]]]:
        raise AssertionError("no page needs reading when nothing can be told")
        yield  # pragma: no cover

    found = in_sample.trained_on({"model": "m.json", "model_digest": "d"}, in_sample.digests_of(scored()))
    assert found is not None and "cannot be told" in found.message()


# 2. Synthetic variants in a project ------------------------------------------------------------------------------

def test_the_project_form_of_score_names_synthetic_variants_of_training_pages(tmp_path: Path, capsys,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """As `score --pred --gt --pages` does from the dataset's synth.json: the import keeps each page's source."""
    data = dataset(tmp_path / "syn", 3)
    manifest = {"generator": "recordlens synth", "pages": [
        {"name": "0", "source": "a", "source_digest": "00aa11bb22cc33dd"},
        {"name": "1", "source": "b", "source_digest": "44ee55ff66aa77bb"},
        {"name": "2", "source": "c", "source_digest": "not trained on"}]}
    (data / "synth.json").write_text(json.dumps(manifest), encoding="utf-8")
    monkeypatch.setattr(in_sample, "model_pages",
                        lambda parameters: ("default", {"00aa11bb22cc33dd", "44ee55ff66aa77bb"}))
    selector = {"model": "default", "model_digest": "d"}
    pred = run_folder(tmp_path / "run", ["0", "1", "2"], "selector", selector)
    code, _, err = run(capsys, "score", "--pred", str(pred), "--gt", str(data / "gt"), "--pages", str(data / "html"),
                       "-q")
    said = ("2 of the 3 pages scored with a prediction (0, 1) are synthetic variants of pages the shipped selector "
            "model was trained on")
    assert code == 0 and said in err  # the folder form, as it was
    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [data]).problems
        import_run_folder(project, pred)
    code, out, err = run(capsys, "score", "--project", str(tmp_path / "p"), "--run", "1", "--json", "-q")
    assert code == 0 and said in err
    assert json.loads(out)["variants_of_training_pages"] == ["0", "1"]


def test_a_selector_runs_in_sample_check_in_a_project_parses_each_page_once_for_all_scores(
        tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each page's identity in a model's provenance is remembered beside its label check: a second `score` of a
    selector run parses no page for it (at 1000 pages, most of the command's time), and names the same pages."""
    data = dataset(tmp_path / "d", 3)
    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [data]).problems
        trained = page_digest(project.load("1").page, project.true_records("1"))
    monkeypatch.setattr(in_sample, "model_pages", lambda parameters: ("default", {trained}))
    pred = run_folder(tmp_path / "run", ["0", "1", "2"], "selector", {"model": "default", "model_digest": "d"})
    with open_project(tmp_path / "p") as project:
        import_run_folder(project, pred)
    said = "1 of the 3 pages scored with a prediction (1) are pages the shipped selector model was trained on"
    loads: list[str] = []
    real = Project.load
    monkeypatch.setattr(Project, "load",
                        lambda project, name, **given: loads.append(name) or real(project, name, **given))
    code, _, err = run(capsys, "score", "--project", str(tmp_path / "p"), "--run", "1", "-q")
    assert code == 0 and said in err
    loads.clear()
    code, _, err = run(capsys, "score", "--project", str(tmp_path / "p"), "--run", "1", "-q")
    assert code == 0 and said in err and loads == []  # scores kept, digests remembered: no page parsed


def test_a_synthetic_page_imported_before_its_origin_was_kept_keeps_it_when_imported_again(tmp_path: Path) -> None:
    data = dataset(tmp_path / "syn", 2)
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        assert synthetic_sources_of(project) == {}  # as a project made before the origin was kept
        (data / "synth.json").write_text(json.dumps({"pages": [{"name": "1", "source_digest": "0123456789abcdef"}]}))
        report = import_paths(project, [data])
        assert report.unchanged == ["0", "1"] and not report.imported
        assert synthetic_sources_of(project) == {"1": "0123456789abcdef"}
        assert project.page("1").source == (f"{data / 'html' / '1.html'} (made by recordlens synth from the page of "
                                            "digest 0123456789abcdef)")
        assert project.page("0").source == str(data / "html" / "0.html")


# 3. Scoring again --------------------------------------------------------------------------------------------------

def loads_counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages whose snapshot is parsed from now on."""
    loaded: list[str] = []
    load = Project.load

    def counted(self: Project, name: str, **given):  # noqa: ANN202, ANN003
        loaded.append(name)
        return load(self, name, **given)

    monkeypatch.setattr(Project, "load", counted)
    return loaded


def full_score(project: Project, run_id: int) -> dict[str, object]:
    """The run's figures scored from nothing (its stored scores forgotten first)."""
    project.runs.drop_scores(run_id, [s.page for s in project.runs.scores(run_id)])
    return score_stored_run(project, run_id)[0].as_dict()


def test_a_run_scored_again_scores_only_the_pages_whose_labels_changed(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    data = dataset(tmp_path / "data", 6)
    ana = Provenance.person("ana")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        run_id = import_run_folder(project, run_folder(tmp_path / "run", [str(k) for k in range(5)])).run_id
        first = score_stored_run(project, run_id)[0]
        assert first.pages[0].empty_true_records == 1
        time.sleep(0.01)  # times are kept to the millisecond: the changes are after the score
        label = project.labels("2")[0]
        project.edit(label.id, [*label.xpaths, "/body[1]/h1[1]"], ana)
        project.set_status("4", "new", ana)  # leaves the truth
        loaded = loads_counted(monkeypatch)
        again, warnings, left_out = score_stored_run(project, run_id)
        assert loaded == ["2"]  # page 4 left, the others kept their scores
        assert [p.page for p in again.pages] == ["0", "1", "2", "3", "5"]
        assert list(left_out) == ["5"] and any("page 5" in w for w in warnings)
        assert [s.page for s in project.runs.scores(run_id)] == ["0", "1", "2", "3", "5"]
        assert project.runs.stale_pages(run_id) == []
        assert again.as_dict() == full_score(project, run_id)
        loaded.clear()
        assert score_stored_run(project, run_id)[0].as_dict() == again.as_dict()
        # the count of true records that name no text, which the store does not keep, comes from the page's label
        # check: made once for page 2's new labels, then remembered
        assert loaded == ["2"]
        loaded.clear()
        assert score_stored_run(project, run_id)[0].as_dict() == again.as_dict() and loaded == []


def test_scores_stored_before_pages_were_last_read_differently_are_made_again(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A change to how core reads a page (its charset, its element tree) moves `PAGE_READER_VERSION`: a score made
    by the reader before is stale, said by `runs` and made again by `score`, though no label changed."""
    from recordlens.core.store import runs

    data = dataset(tmp_path / "data", 3)
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        run_id = import_run_folder(project, run_folder(tmp_path / "run", ["0", "1", "2"])).run_id
        score_stored_run(project, run_id)
        assert project.runs.stale_pages(run_id) == []
        monkeypatch.setattr(runs, "PAGE_READER_VERSION", runs.PAGE_READER_VERSION + 1)  # pages read anew since
        assert project.runs.stale_pages(run_id) == ["0", "1", "2"]
        loaded = loads_counted(monkeypatch)
        score_stored_run(project, run_id)
        assert sorted(loaded) == ["0", "1", "2"]  # every page scored again
        assert project.runs.stale_pages(run_id) == []  # by the reader of now


def test_runs_compare_scores_again_only_the_pages_changed(tmp_path: Path, capsys,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    data = dataset(tmp_path / "data", 4)
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        for k in (1, 2):
            import_run_folder(project, run_folder(tmp_path / f"run{k}", [str(n) for n in range(k, 4)], f"m{k}"))
    assert run(capsys, "runs", "--project", str(tmp_path / "p"), "--compare", "1", "2")[0] == 0
    time.sleep(0.01)
    with open_project(tmp_path / "p") as project:
        project.delete(project.labels("3")[0].id, Provenance.person("ana"))
    loaded = loads_counted(monkeypatch)
    code, _, err = run(capsys, "runs", "--project", str(tmp_path / "p"), "--compare", "1", "2")
    assert code == 0 and loaded == ["3", "3"] and "1 page labelled, changed or unmarked since it was scored" in err


# 4-6. Lists in messages cut ----------------------------------------------------------------------------------------

def test_annotators_names_a_few_pages_of_a_big_set_and_json_all(tmp_path: Path, capsys) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [dataset(tmp_path / "bea", 40)], annotator="bea")
    code, out, _ = run(capsys, "annotators", "--project", str(tmp_path / "p"))
    assert code == 0 and "bea: 40 pages, 81 records" in out
    line = next(line for line in out.splitlines() if "pages (records)" in line)
    assert line == ("  pages (records): 0 (3), 1 (2), 2 (2), 3 (2), 4 (2), 5 (2), 6 (2), 7 (2), ...; "
                    "`--json` lists them all")
    code, out, _ = run(capsys, "annotators", "--project", str(tmp_path / "p"), "--json")
    assert code == 0 and len(json.loads(out)) == 40
    code, out, _ = run(capsys, "annotators", "--project", str(tmp_path / "p"), "--remove", "bea")
    assert code == 0 and "removed bea's label set (40 pages: 0 (3 records), 1 (2 records), " in out
    assert "7 (2 records), ...); kept in " in out and "39 (2 records)" not in out


def test_a_run_folder_of_pages_the_project_lacks_is_said_in_one_line(tmp_path: Path, capsys) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [dataset(tmp_path / "data", 2)])
    folder = run_folder(tmp_path / "run", [str(k) for k in range(30)])
    code, _, err = run(capsys, "runs", "--project", str(tmp_path / "p"), "--add", str(folder))
    assert code == 1
    lines = [line for line in err.splitlines() if "no page" in line]
    assert lines == [f"warning: skipped 28 prediction files of {folder} (2.json, 3.json, 4.json, 5.json, 6.json, "
                     "...): no page of that name in the project"]
    assert (f"stored {folder} as run 1 (28 files of it not as records: the warnings above say why, and name the "
            "first of them)") in err


def test_the_runs_table_names_every_run_not_scored_yet(tmp_path: Path, capsys) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [dataset(tmp_path / "data", 2)])
        for k in range(3):
            import_run_folder(project, run_folder(tmp_path / f"run{k}", ["0", "1"], f"m{k}"))
    assert run(capsys, "score", "--project", str(tmp_path / "p"), "--run", "2", "-q")[0] == 0
    code, out, _ = run(capsys, "runs", "--project", str(tmp_path / "p"))
    assert code == 0 and out.splitlines()[-1] == (
        f"(F1 -: runs 1, 3 not scored yet; `recordlens score --project {tmp_path / 'p'} --run ID` scores a run "
        "against the project's labels, as the app's Review does)")


# Reading less of each page ------------------------------------------------------------------------------------------

def test_a_score_kept_reads_its_page_true_records_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = dataset(tmp_path / "data", 3)
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        run_id = import_run_folder(project, run_folder(tmp_path / "run", ["0", "1", "2"])).run_id
        first = score_stored_run(project, run_id)[0]
        read: list[str] = []
        true_records = Project.true_records

        def counted(self: Project, name: str) -> list[list[str]]:
            read.append(name)
            return true_records(self, name)

        monkeypatch.setattr(Project, "true_records", counted)
        assert score_stored_run(project, run_id)[0].as_dict() == first.as_dict()  # every score kept
        assert sorted(read) == ["0", "1", "2"]  # once each: for the label check and the count of empty records


def test_the_check_for_a_run_of_other_pages_reads_no_prediction(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from recordlens.core.cli.project import _refuse_a_run_of_other_pages
    from recordlens.core.errors import RecordLensError
    from recordlens.core.store.runs import Runs

    data = dataset(tmp_path / "data", 4)
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
        for name in ("2", "3"):
            project.set_status(name, "new", Provenance.person("ana"))  # not scored on
        ours = import_run_folder(project, run_folder(tmp_path / "ours", ["0", "1"])).run_id
        others = import_run_folder(project, run_folder(tmp_path / "others", ["2", "3"])).run_id

        def parsed(self: Runs, run_id: int) -> dict[str, list[list[str]]]:
            raise AssertionError("a run's records parsed only for their page names")

        monkeypatch.setattr(Runs, "predictions", parsed)
        _refuse_a_run_of_other_pages(project, ours)
        with pytest.raises(RecordLensError, match="a run of other pages"):
            _refuse_a_run_of_other_pages(project, others)


def test_a_synthetic_page_whose_origin_changed_keeps_the_new_one_in_one_form(tmp_path: Path) -> None:
    """synth made again from a source page changed since gives the same bytes another origin; a manifest may
    write a digest in capitals."""
    data = dataset(tmp_path / "syn", 1)

    def imported_with(digest: str) -> str | None:
        (data / "synth.json").write_text(json.dumps({"pages": [{"name": "0", "source_digest": digest}]}))
        import_paths(project, [data])
        return synthetic_sources_of(project).get("0")

    with init_project(tmp_path / "p") as project:
        assert imported_with("0123456789abcdef") == "0123456789abcdef"
        assert imported_with("fedcba9876543210") == "fedcba9876543210"
        assert imported_with("AABBCCDDEEFF0011") == "aabbccddeeff0011"
        assert project.page("0").source == (f"{data / 'html' / '0.html'} (made by recordlens synth from the page of "
                                            "digest aabbccddeeff0011)")
    with init_project(tmp_path / "q") as project:  # a first import in capitals
        assert imported_with("AABBCCDDEEFF0011") == "aabbccddeeff0011"
