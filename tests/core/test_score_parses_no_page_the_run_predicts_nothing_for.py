"""Scoring a stored run parses only the pages it predicts records for: a page it has no prediction for (never
extracted, failed, or predicted with no record) matches nothing, so its figures are its truth's alone (NEXT-EVAL:
every true record missed), and the one thing of the page they need, how many true records name nothing there, is
its label check's. On a run of part of a 1,040-page project, most of the time went on parsing pages to match
nothing against them."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.page.dataset import load_page
from recordlens.core.records.hygiene import check_page
from recordlens.core.records.model import TextKeyIndex, load_records
from recordlens.core.records.score import score_page, score_without_prediction
from recordlens.core.runs.evaluate import truth_naming_nothing
from recordlens.core.store import import_paths, init_project, score_stored_run
from recordlens.core.store import project as project_module
from tests.conftest import SHARED_DATA, require_shared
from tests.core.shop_runs import dataset


def naming_nothing(check, truth) -> int:  # noqa: ANN001 - a PageCheck
    unresolved = set(check.unresolved)
    return sum(1 for record in truth if all(x in unresolved for x in record))


@pytest.mark.parametrize("truth", [
    [],  # labelled as holding no record: two empty lists, a perfect score
    [["/body[1]/ul[1]/li[1]"], []],  # an empty record names nothing
    [["/body[1]/div[1]"], ["/body[1]/ul[1]/li[2]", "/nowhere[1]"]],  # one names nothing, one something
    [["/"], ["/body[1]/h1[1]"]],  # the reference's whole page: warned of
])
def test_a_page_without_a_prediction_scores_as_the_page_parsed_would(tmp_path: Path, truth) -> None:  # noqa: ANN001
    page = load_page(dataset(tmp_path, 1) / "html" / "0.html").page
    parsed = score_page([], truth, TextKeyIndex(page.text_map), "0")
    unread = score_without_prediction(truth, naming_nothing(check_page("0", page, truth), truth), "0")
    assert unread == parsed


def test_the_dev_pages_without_a_prediction_score_as_parsed(dev_dir: Path) -> None:
    more = require_shared(SHARED_DATA / "nexteval-synth-more")
    for path in [*sorted((dev_dir / "gt").glob("*.json"))[:12], more / "gt" / "82.json"]:
        truth = load_records(path).records
        page = load_page(path.parent.parent / "html" / f"{path.stem}.html").page
        parsed = score_page([], truth, TextKeyIndex(page.text_map), path.stem)
        unread = score_without_prediction(truth, naming_nothing(check_page(path.stem, page, truth), truth),
                                          path.stem)
        assert unread == parsed, path.stem
    assert parsed.empty_true_records  # page 82: a true record that names nothing, said by the score


def test_a_stored_run_is_scored_without_parsing_the_pages_it_predicts_nothing_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [dataset(tmp_path / "data", 5)])  # page 0 holds a true record that names nothing
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {"1": [["/body[1]/ul[1]/li[1]"]], "2": []},
                                     errors={"3": "the endpoint failed"})  # 0 and 4 never extracted
        project.runs.finish(run)
        parsed: list[str] = []

        def counted(path, name=None, **kwargs):  # noqa: ANN001, ANN202
            parsed.append(name)
            return load_page(path, name, **kwargs)

        monkeypatch.setattr(project_module, "load_page", counted)
        scores, warnings, _ = score_stored_run(project, run)
        assert parsed == ["1"]  # the import remembered every page's label check
        monkeypatch.undo()
        expected = [score_page(project.runs.predictions(run).get(name, []), project.true_records(name),
                               TextKeyIndex(project.load(name).page.text_map), name) for name in project.page_names()]
        assert [s.as_dict() for s in scores.pages] == [s.as_dict() for s in expected]
        assert truth_naming_nothing(expected[0]) in warnings  # page 0's, as a parsed score says it
        assert scores.pages[0].empty_true_records == 1 and scores.pages[0].recall == 0.0
        # each score keeps the hash of the copy it stands for, read though not parsed: a copy changed by hand since
        # is said, as for a page parsed
        copy = project.snapshot_file("4")
        copy.write_bytes(copy.read_bytes().replace(b"shop 4", b"shop four"))
        assert project.runs.copies_changed_since_scored(run) == ["4"]
