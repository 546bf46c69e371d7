"""The learned offline extractor ("selector"): its model file, determinism, policy learning, CLI and speed.

Pages here are made by the tests (tests/core/catalogue_pages.py: a seeded generator of catalogue pages with a
navigation bar, a main grid of cards and a secondary list beside it), so that label policies are built by construction.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from recordlens.core.cli.command import main as cli_main
from recordlens.core.errors import DatasetError
from recordlens.core.extract import create
from recordlens.core.extract.candidates import FEATURE_NAMES, feature_matrix, page_candidates
from recordlens.core.extract.repeats import PageFacts, Parameters, find_regions
from recordlens.core.extract.selector import DEFAULT_MODEL, SelectorExtractor
from recordlens.core.extract.selector_model import Ensemble, ModelError, SelectorModel, Tree
from recordlens.core.extract.training import FitConfig, LabelledPage, _fit_trees, _stack, bags, fit, prepare
from recordlens.core.page.dom import Page, parse_html
from recordlens.core.records.model import save_records
from tests.core.catalogue_pages import SMALL, catalogue, labelled_pages, write_dataset
from tests.quick_training import few_trees


@pytest.fixture(scope="module")
def examples_with_secondary():
    return prepare(labelled_pages(1, 12, with_secondary=True))


def test_converted_model_gives_scikit_learns_probabilities(examples_with_secondary) -> None:
    x, y, w = _stack(examples_with_secondary, [e.features for e in examples_with_secondary], "none")
    trees = _fit_trees(x, y, w, seed=0, config=SMALL)
    converted = Ensemble.from_sklearn(trees)
    assert np.allclose(converted.predict(x), trees.predict_proba(x)[:, 1], atol=1e-9)


def test_training_is_deterministic(examples_with_secondary, caplog, quick_fits: None) -> None:
    first = fit(examples_with_secondary, seed=3, config=SMALL, workers=1).to_json()
    again = fit(prepare(labelled_pages(1, 12, with_secondary=True)), seed=3, config=SMALL, workers=1).to_json()
    assert first == again
    # Fitted in worker processes, the same bytes: each fit depends on its own inputs only.
    with caplog.at_level(logging.WARNING):
        assert fit(examples_with_secondary, seed=3, config=SMALL, workers=2).to_json() == first
    assert "fitting in this process instead" not in caplog.text  # the workers did fit


def test_bagging_leaves_out_a_different_fifth_of_the_pages_for_each_member() -> None:
    config = FitConfig(bags=4, bag_share=0.8)
    shares = bags(12, 0, config)
    assert len(shares) == 4 and all(s == sorted(set(s)) for s in shares)
    left_out = [set(range(12)) - set(s) for s in shares]
    assert sorted(len(x) for x in left_out) == [2, 2, 3, 3]  # 12 pages in five groups, four of them left out
    assert all(not a & b for i, a in enumerate(left_out) for b in left_out[i + 1:])  # disjoint
    assert set().union(*shares) == set(range(12))  # every page trains some member
    assert shares == bags(12, 0, config) and shares != bags(12, 1, config)
    assert bags(12, 0, FitConfig(bags=1)) == [list(range(12))]
    assert bags(7, 0, config) == [list(range(7))]  # too few pages for bags with a second stage: one fit


def test_a_share_without_regions_of_records_is_dropped(examples_with_secondary) -> None:
    # Only one page keeps its records, and the first member's share leaves that page out.
    keep = min(set(range(12)) - set(bags(12, 0, SMALL)[0]))
    examples = [e if i == keep else dataclasses.replace(e, targets=np.zeros_like(e.targets),
                                                         matched=np.zeros_like(e.targets))
                for i, e in enumerate(examples_with_secondary)]
    model = fit(examples, seed=0, config=SMALL)
    assert SMALL.targets == ("best", "matched") and len(model.members) == 3 * 2
    assert all(examples[keep].name not in m["left_out"] for m in model.provenance["members"])


def test_the_model_is_the_mean_of_its_members_and_the_first_format_still_loads(tmp_path: Path,
                                                                                examples_with_secondary) -> None:
    model = fit(examples_with_secondary, seed=0, config=SMALL)
    assert len(model.members) == SMALL.bags * len(SMALL.targets) == 8
    left_out = [set(m["left_out"]) for m in model.provenance["members"][:SMALL.bags]]
    assert [len(x) for x in left_out] == [3, 3, 2, 2] and not set.intersection(*left_out)
    e = examples_with_secondary[0]
    mean = np.mean([m.predict(e.candidates, e.features) for m in model.members], axis=0)
    assert np.allclose(model.predict(e.candidates), mean)
    # A model file written before bagging: one member as "first" and "second".
    data = json.loads(model.to_json())
    data.pop("members")
    data.update({"format": "recordlens-selector/1", **model.members[0].as_dict()})
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    loaded = SelectorModel.load(old)
    assert len(loaded.members) == 1
    assert np.array_equal(loaded.predict(e.candidates), model.members[0].predict(e.candidates, e.features))
    data["format"] = "recordlens-selector/2"
    old.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelError, match="damaged"):
        SelectorModel.load(old)


def test_members_of_each_kind_of_target_share_the_page_shares(examples_with_secondary) -> None:
    both = fit(examples_with_secondary, seed=0, config=SMALL)
    best = fit(examples_with_secondary, seed=0, config=dataclasses.replace(SMALL, targets=("best",)))
    said = both.provenance["members"]
    assert [m["target"] for m in said] == ["best"] * 4 + ["matched"] * 4
    assert [m["left_out"] for m in said[:4]] == [m["left_out"] for m in said[4:]] == [
        m["left_out"] for m in best.provenance["members"]]
    e = examples_with_secondary[0]
    # The "best" members are the model of "best" alone, fitted the same way.
    assert all(np.array_equal(a.predict(e.candidates, e.features), b.predict(e.candidates, e.features))
               for a, b in zip(both.members[:4], best.members, strict=True))
    with pytest.raises(DatasetError, match="unknown kind of training target"):
        fit(examples_with_secondary, seed=0, config=dataclasses.replace(SMALL, targets=("nearest",)))


def test_the_model_file_round_trips_and_states_its_provenance(tmp_path: Path, examples_with_secondary) -> None:
    model = fit(examples_with_secondary, seed=0, config=SMALL, description="twelve made pages")
    path = model.save(tmp_path / "m.json")
    loaded = SelectorModel.load(path)
    e = examples_with_secondary[0]
    assert np.array_equal(loaded.predict(e.candidates), model.predict(e.candidates))
    assert loaded.provenance["trained_on"] == "twelve made pages"
    assert loaded.provenance["seed"] == 0 and len(loaded.provenance["pages"]) == 12


def test_a_damaged_or_foreign_model_file_is_refused_clearly(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelError, match="not a selector model"):
        SelectorModel.load(bad)
    other = tmp_path / "other.json"
    data = json.loads(SelectorModel.load(DEFAULT_MODEL).to_json())
    data["features"]["first"] = data["features"]["first"][:-1]
    other.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelError, match="train it again"):
        SelectorModel.load(other)
    with pytest.raises(ModelError, match="cannot read"):
        SelectorModel.load(tmp_path / "missing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00 not text")
    with pytest.raises(ModelError, match="not UTF-8"):
        SelectorModel.load(binary)


def test_a_refused_model_file_is_not_read_again_until_it_changes(tmp_path: Path, monkeypatch) -> None:
    import os

    from recordlens.core.extract import selector

    shipped = SelectorModel.load(DEFAULT_MODEL).to_json()
    reads: list[str] = []
    real_load = SelectorModel.load.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(SelectorModel, "load", classmethod(lambda cls, p: reads.append(str(p)) or real_load(cls, p)))
    stale = tmp_path / "stale.json"
    stale.write_text("{not json", encoding="utf-8")
    for _ in range(3):
        with pytest.raises(ModelError, match="not a selector model"):
            selector.load_model(stale)
    assert reads == [str(stale)]
    stale.write_text(shipped, encoding="utf-8")  # trained again
    os.utime(stale, ns=(stale.stat().st_atime_ns, stale.stat().st_mtime_ns + 10**9))
    assert selector.load_model(stale).members and len(reads) == 2
    missing = tmp_path / "missing.json"
    for _ in range(2):
        with pytest.raises(ModelError, match="cannot read"):
            selector.load_model(missing)
    assert reads.count(str(missing)) == 2  # a missing file may appear at any time: asked again each time


@pytest.mark.parametrize("damage", ["feature out of range", "short array", "a loop", "empty second stage",
                                    "no members"])
def test_a_model_file_damaged_inside_its_trees_is_refused_when_read(tmp_path: Path, damage: str) -> None:
    data = json.loads(SelectorModel.load(DEFAULT_MODEL).to_json())
    first = data["members"][0]["first"]
    tree = first.get("boosted", first)["trees"][0]  # a stage may blend boosted trees with a forest
    inner = next(i for i, left in enumerate(tree["left"]) if left >= 0)
    if damage == "feature out of range":
        tree["feature"][inner] = 9999
    elif damage == "short array":
        tree["left"] = tree["left"][:-1]
    elif damage == "a loop":
        tree["left"][inner] = inner
    elif damage == "empty second stage":
        data["members"][0]["second"] = {}
    else:
        data["members"] = []
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelError, match="a damaged selector model"):
        SelectorModel.load(damaged)


def secondary_proposed(model: SelectorModel, pages: list[LabelledPage]) -> tuple[int, int]:
    """(pages whose proposals hold a secondary item, pages whose proposals hold every main card)."""
    extractor = SelectorExtractor(model)
    with_secondary = with_main = 0
    for lp in pages:
        records = extractor.extract(lp.page).records
        with_secondary += any("/aside[1]/" in x for r in records for x in r)
        main = [r for r in lp.truth if "/aside[1]/" not in r[0]]
        with_main += all(r in records for r in main)
    return with_secondary, with_main


def test_proposals_follow_the_labelling_policy_of_the_training_pages() -> None:
    """Train on labels that include the secondary list: it is proposed on new pages; train on labels that never
    include it: it is not. The main cards are proposed either way."""
    unseen = labelled_pages(99, 6, with_secondary=True)
    including = fit(prepare(labelled_pages(5, 12, with_secondary=True)), seed=0, config=SMALL)
    excluding = fit(prepare(labelled_pages(5, 12, with_secondary=False)), seed=0, config=SMALL)
    assert secondary_proposed(including, unseen) == (6, 6)
    assert secondary_proposed(excluding, unseen) == (0, 6)


def test_shipped_model_is_small_knows_its_training_and_finds_a_product_grid() -> None:
    # How fast it loads and extracts is measured by bench/offline_extractor.py, not asserted here.
    model = SelectorModel.load(DEFAULT_MODEL)
    assert DEFAULT_MODEL.stat().st_size < 3_000_000
    assert model.provenance.get("pages") and model.provenance.get("seed") is not None
    html, main, _ = catalogue(random.Random(7))
    records = create("selector").extract(parse_html(html)).records
    assert all(r in records for r in main)


def test_every_output_xpath_resolves_and_covers_text() -> None:
    html, _, _ = catalogue(random.Random(11))
    page: Page = parse_html(html)
    extraction = SelectorExtractor().extract(page)
    assert extraction.method == "selector" and extraction.records
    for record in extraction.records:
        for xpath in record:
            element = page.resolve(xpath)
            assert element is not None and page.text_keys_under(element)


def test_features_are_the_same_every_time_and_have_their_names() -> None:
    html, _, _ = catalogue(random.Random(3))
    first = feature_matrix(page_candidates(parse_html(html)))
    assert first.shape[1] == len(FEATURE_NAMES)
    assert np.array_equal(first, feature_matrix(page_candidates(parse_html(html))))


STORY = ('<tr class="story"><td><a href="/s{k}">Story {k}</a> <span>site{k}.org</span></td></tr>'
         '<tr><td><span>{k} points</span> by <a href="/u{k}">user{k}</a> <a href="/c{k}">{k} comments</a></td></tr>')


def _story_table(rows: str) -> str:
    return f"<html><body><table><tbody>{rows}</tbody></table></body></html>"


def test_rows_that_alternate_in_look_are_also_proposed_as_records_of_two_rows() -> None:
    # A title row, then a row of its details, then a spacer without text: one story is two rows.
    spacer = '<tr class="spacer"><td></td></tr>'
    page = parse_html(_story_table("".join(STORY.format(k=k) + spacer for k in range(1, 9))))
    regions = [c.region for c in page_candidates(page).candidates]
    pairs = [r for r in regions if len(r.records[0]) == 2]
    assert len(pairs) == 1 and pairs[0].count == 8
    assert [e.tag for e in pairs[0].records[0]] == ["tr", "tr"]
    assert any(r.count == 16 and len(r.records[0]) == 1 for r in regions)  # the rows one by one stay a candidate
    # The hand rules of repeats are not changed by it.
    assert all(len(r.records[0]) == 1 for r in find_regions(PageFacts(page, 4), Parameters()))


def test_an_odd_row_at_one_end_leaves_both_readings_of_the_pairs() -> None:
    # A details row before the first title: the run alone cannot tell where a record begins.
    stray = '<tr><td><span>0 points</span> by <a href="/u0">user0</a> <a href="/c0">0 comments</a></td></tr>'
    page = parse_html(_story_table(stray + "".join(STORY.format(k=k) for k in range(1, 9))))
    pairs = [r for r in (c.region for c in page_candidates(page).candidates) if len(r.records[0]) == 2]
    starts = {r.records[0][0].attrs.get("class") for r in pairs}
    assert "story" in starts and len(pairs) == 2
    story_first = next(r for r in pairs if r.records[0][0].attrs.get("class") == "story")
    assert story_first.count == 8 and all(rec[0].attrs.get("class") == "story" for rec in story_first.records)


def test_zebra_striped_rows_are_not_paired() -> None:
    row = '<tr class="{parity}"><td><a href="/p{k}">Item {k}</a></td><td>{k} units</td><td>price {k}</td></tr>'
    page = parse_html(_story_table("".join(row.format(parity=("odd", "even")[k % 2], k=k) for k in range(12))))
    assert all(len(c.region.records[0]) == 1 for c in page_candidates(page).candidates)
    # Nor when the first row alone has one more cell (a badge): most rows still differ by class only.
    badge = row.replace("</tr>", "<td>sale</td></tr>").format(parity="even", k=0)
    rows = badge + "".join(row.format(parity=("odd", "even")[k % 2], k=k) for k in range(1, 12))
    assert all(len(c.region.records[0]) == 1 for c in page_candidates(parse_html(_story_table(rows))).candidates)


def test_items_of_widgets_are_candidates_marked_as_such_but_never_records_of_repeats() -> None:
    # Some labels count a carousel's items, or a select's options, as records: the selector weighs them.
    cards = "".join(f'<a href="/c{k}"><span>Company {k}</span> <span>{k} jobs</span></a>' for k in range(6))
    options = "".join(f"<option>City {k}</option>" for k in range(5))
    page = parse_html(f'<html><body><div role="listbox" class="carousel"><div>{cards}</div></div>'
                      f"<form><select>{options}</select></form></body></html>")
    pc = page_candidates(page)
    by_tag = {c.region.records[0][0].tag: c for c in pc.candidates}
    assert by_tag["a"].region.count == 6 and by_tag["option"].region.count == 5
    widget = FEATURE_NAMES.index("in_widget"), FEATURE_NAMES.index("widget_item_share")
    assert by_tag["a"].features[widget[0]] == 1.0 and by_tag["option"].features[widget[1]] == 1.0
    assert find_regions(PageFacts(page, 4), Parameters()) == []


def test_train_command_writes_a_model_that_extract_uses(tmp_path: Path, quick_fits: None, capsys) -> None:
    pages_dir, gt_dir = write_dataset(tmp_path / "data", [None] * 8, seed=2)  # type: ignore[list-item]
    model = tmp_path / "model.json"
    assert cli_main(["train", "--pages", str(pages_dir), "--gt", str(gt_dir), "--out", str(model)]) == 0
    said = capsys.readouterr().err
    assert "preparing pages [##############################] 8/8" in said
    assert re.search(r"fitting \[#{30}\] (\d+)/\1", said), said  # the fits' bar, full at the end
    assert "one stage only" not in said
    assert SelectorModel.load(model).provenance["trained_on"].startswith("8 labelled pages")
    assert SelectorModel.load(model).provenance["recordlens"]  # the version that wrote it
    assert cli_main(["inspect", str(model)]) == 0  # what the file was trained on, not "not a page"
    described = capsys.readouterr().out
    assert "8 labelled pages of data" in described and "seed 0" in described and "2 stage(s)" in described
    out = tmp_path / "run"
    assert cli_main(["extract", "--model", str(model), "--pages", str(pages_dir), "--out", str(out), "-q"]) == 0
    assert "8 extracted" in capsys.readouterr().out  # its closing line, a result, on stdout
    records = json.loads((out / "0.json").read_text(encoding="utf-8"))
    assert records and not any("/aside[1]/" in x for r in records for x in r)
    assert "replaced" not in said
    # bench measures that model file too: its selector row is the score of the run extract made with it
    assert cli_main(["score", "--pred", str(out), "--gt", str(gt_dir), "--pages", str(pages_dir), "--json",
                     "-q"]) == 0
    scored = json.loads(capsys.readouterr().out)["mean"]["f1"]
    assert cli_main(["bench", "--pages", str(pages_dir), "--gt", str(gt_dir), "--methods", "selector",
                     "--selector-model", str(model), "--no-chart", "--json", "-q"]) == 0
    assert json.loads(capsys.readouterr().out)["table2"][0]["f1"] == pytest.approx(scored)
    for wrong in ([str(tmp_path / "nothing.json")], [str(model), "--methods", "mdr"]):
        assert cli_main(["bench", "--pages", str(pages_dir), "--gt", str(gt_dir), "--no-chart", "-q",
                         "--selector-model", *wrong]) == 2
    err = capsys.readouterr().err
    assert "nothing.json" in err and "add selector to --methods" in err
    again = ["train", "--pages", str(pages_dir), "--gt", str(gt_dir), "--out", str(model), "-q"]
    written = model.read_bytes()
    assert cli_main(again) == 0  # the same pages, labels and seed: the model in place is theirs, not fitted again
    said = capsys.readouterr().out
    assert f"{model}: the model there is the one these pages give (the same 8 labelled pages and labels, seed 0, " \
           "RecordLens " in said and "not trained again" in said and "--force trains it anyway" in said, said
    assert "fitting [" not in said and model.read_bytes() == written
    assert cli_main([*again, "--force"]) == 0
    assert f"replaced the earlier {model}" in capsys.readouterr().err
    assert model.read_bytes() == written


def test_extract_without_a_method_runs_the_selector_with_the_shipped_model(tmp_path: Path) -> None:
    pages_dir, _ = write_dataset(tmp_path / "data", [None] * 1, seed=4)  # type: ignore[list-item]
    out = tmp_path / "run"
    assert cli_main(["extract", "--pages", str(pages_dir), "--out", str(out), "-q"]) == 0
    run = json.loads((out / "_run" / "run.json").read_text(encoding="utf-8"))
    page = json.loads((out / "_run" / "0.json").read_text(encoding="utf-8"))
    assert run["method"] == page["method"] == "selector" and page["parameters"]["model"] == "default"


def test_train_command_refuses_unclear_input(tmp_path: Path, capsys) -> None:
    assert cli_main(["train", "--pages", str(tmp_path), "--out", str(tmp_path / "m.json")]) == 2
    assert "--gt" in capsys.readouterr().err
    assert cli_main(["extract", "--method", "repeats", "--model", "m.json", "--pages", str(tmp_path),
                     "--out", str(tmp_path / "r")]) == 2
    assert cli_main(["train", "--pages", str(tmp_path), "--gt", str(tmp_path), "--out", str(tmp_path / "m.json"),
                     "--workers", "0"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("html", ["", "<html></html>", "<p>one paragraph</p>",
                                  "<div>" * 3000 + "<ul><li>a</li><li>b</li><li>c</li></ul>" + "</div>" * 3000])
def test_odd_pages_never_crash(html: str) -> None:
    extraction = SelectorExtractor().extract(parse_html(html))
    assert isinstance(extraction.records, list)
    assert extraction.records or extraction.warnings


def test_a_project_trains_on_its_labelled_pages_and_proposals_follow_its_policy(tmp_path: Path,
                                                                                 quick_fits: None) -> None:
    """`train --project P`: a project whose labels include the secondary list teaches the selector to propose it.
    A page not marked labelled is left out of the training."""
    from recordlens.core.store.db import Provenance
    from recordlens.core.store.importer import import_paths
    from recordlens.core.store.project import init_project

    rng = random.Random(21)
    root = tmp_path / "data"
    (root / "html").mkdir(parents=True)
    for k in range(10):
        html, main, secondary = catalogue(rng)
        (root / "html" / f"{k}.html").write_text(html, encoding="utf-8")
        save_records(root / "gt" / f"{k}.json", main + secondary)
    project = init_project(tmp_path / "project")
    assert not import_paths(project, [root]).problems
    project.set_status("9", "new", Provenance.person("tester"))
    model = tmp_path / "project-model.json"
    assert cli_main(["train", "--project", str(tmp_path / "project"), "--out", str(model), "-q"]) == 0
    trained = SelectorModel.load(model)
    assert [p["name"] for p in trained.provenance["pages"]] == [str(k) for k in range(9)]
    unseen = labelled_pages(77, 4, with_secondary=True)
    assert secondary_proposed(trained, unseen) == (4, 4)


def test_a_candidate_far_below_any_threshold_gets_probability_zero_without_a_warning() -> None:
    import warnings

    leaf = {"left": [-1], "right": [-1], "feature": [-2], "threshold": [-2.0], "value": [-1000.0]}
    ensemble = Ensemble(base=0.0, rate=1.0, trees=[Tree.from_dict(leaf, features=3)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow warning would print on every Propose
        assert ensemble.predict(np.zeros((2, 3))).tolist() == [0.0, 0.0]


def test_forgetting_a_project_model_sets_it_aside_and_keeps_the_latest(tmp_path: Path) -> None:
    from recordlens.core.store import forget_project_model, project_model, project_model_path

    assert forget_project_model(tmp_path) is None  # nothing learnt: nothing to forget
    path = project_model_path(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(DEFAULT_MODEL.read_bytes())
    assert project_model(tmp_path) == (path, "")
    kept = forget_project_model(tmp_path)
    assert kept == tmp_path / "models" / "selector.forgotten.json"
    assert kept.read_bytes() == DEFAULT_MODEL.read_bytes() and not path.exists()
    assert project_model(tmp_path) == (None, "")
    path.write_text("second")  # forgetting again keeps the newer one aside, in the same place
    assert forget_project_model(tmp_path) == kept and kept.read_text() == "second"


def test_a_model_says_when_too_few_pages_with_records_gave_it_one_stage_only(tmp_path: Path, monkeypatch) -> None:
    from recordlens.core.extract import model_stages

    few_trees(monkeypatch, trees=3)  # the stages the fits make are tested, not what they propose

    pages = labelled_pages(31, 8, with_secondary=False)
    whole = fit(prepare(pages)).save(tmp_path / "whole.json")
    # Eight pages, but records on one of them only: the inner folds of the second stage cannot be trained.
    sparse = [LabelledPage(p.name, p.page, p.truth if k == 0 else [], p.source) for k, p in enumerate(pages)]
    one = fit(prepare(sparse)).save(tmp_path / "one.json")
    assert (model_stages(whole), model_stages(one), model_stages(DEFAULT_MODEL)) == (2, 1, 2)


def test_train_says_what_its_labels_teach_uses_a_page_once_keeps_the_projects_model_and_cross_validates(
        tmp_path: Path, capsys, monkeypatch) -> None:
    """Labels naming nothing and pages labelled as holding no record are said; a page given twice is used once;
    `--project` keeps the model it replaces; `--cv K` gives the settings' cross-validated figures beside the
    shipped model's on the same pages."""
    few_trees(monkeypatch, trees=3)  # some 500 fits, of which what is said is tested, not what they propose
    from recordlens.core.store.importer import import_paths
    from recordlens.core.store.project import init_project

    pages_dir, gt_dir = write_dataset(tmp_path / "data", [None] * 8, seed=5)  # type: ignore[list-item]
    save_records(gt_dir / "1.json", [["/body[1]/div[99]/span[7]"]])  # a label that names nothing
    save_records(gt_dir / "2.json", [])  # a page labelled as holding no record
    # a page without labels (another page: a byte copy of one would not be imported again): left out, said
    (pages_dir / "unlabelled.html").write_bytes((pages_dir / "3.html").read_bytes() + b"<!-- another page -->")
    save_records(gt_dir / "pageless.json", [["/body[1]"]])  # labels without their page: left out, said
    save_records(gt_dir / "4.json", [*json.loads((gt_dir / "4.json").read_text()), []])  # a record of no XPath
    copy = tmp_path / "copy"
    shutil.copytree(tmp_path / "data", copy)
    save_records(copy / "gt" / "5.json", json.loads((gt_dir / "5.json").read_text())[:2])  # page 5, other labels
    model = tmp_path / "m.json"
    assert cli_main(["train", "--pages", str(pages_dir), "--gt", str(gt_dir), "--pages", str(copy / "html"),
                     "--gt", str(copy / "gt"), "--out", str(model), "--cv", "4", "-q"]) == 0
    captured = capsys.readouterr()
    assert "page 0 of copy is page 0 of data again (the same texts and labels): used once" in captured.err
    assert "1 page(s) have labels with XPaths that name no element or one without text (1 of data)" in captured.err
    assert "1 page(s) are labelled as holding no record (2 of data)" in captured.err
    assert f"1 page(s) of {pages_dir} have no labels in {gt_dir} (unlabelled): left out" in captured.err
    assert f"1 label file(s) of {gt_dir} have no page in {pages_dir} (pageless): left out" in captured.err
    assert "1 page(s) have a record without any XPath (4 of data)" in captured.err
    assert "page 5 of copy is page 5 of data again (with other labels): both are used, and they disagree" \
        in captured.err
    assert SelectorModel.load(model).provenance["trained_on"].startswith("9 labelled pages of copy, data")
    written, trained, shipped, key, weaker = captured.out.splitlines()  # the model written, then its figures
    assert written.startswith(f"{model}: selector model from 9 labelled pages of copy, data")
    assert "spam N/M: of the M pages, the N whose proposed records number under half or over twice" in key
    assert trained.startswith("these settings, cross-validated on these 9 pages (4 page-grouped folds, seed 0): P ")
    assert shipped.startswith("the shipped model on the same pages (it was not trained on any of them): P ")
    # The folds of 6 pages are not bagged, unlike the model written from 9.
    assert weaker.startswith("the cross-validated figure is of models weaker than the one written (2 stages, 16 "
                             "members on 8 page shares)") and "2 stages, 2 members, not bagged" in weaker, weaker
    assert cli_main(["train", "--pages", str(pages_dir), "--gt", str(gt_dir), "--out", str(model), "--cv", "9",
                     "-q"]) == 2  # refused before the work
    assert "--cv 9: cross-validation needs from 2 folds to as many folds as pages (8 here)" in capsys.readouterr().err

    project = tmp_path / "project"
    with init_project(project) as opened:
        assert [p.path.name for p in import_paths(opened, [tmp_path / "data"]).problems] == ["pageless.json"]
    assert cli_main(["train", "--project", str(project), "-q"]) == 0
    first = (project / "models" / "selector.json").read_bytes()
    capsys.readouterr()
    assert cli_main(["train", "--project", str(project), "--seed", "1", "-q"]) == 0
    err = capsys.readouterr().err
    assert "the project's earlier model is kept as" in err and "in place of" not in err
    assert "1 page(s) of the project are not marked labelled or reviewed (unlabelled): left out" in err
    assert (project / "models" / "selector.forgotten.json").read_bytes() == first
    assert cli_main(["train", "--project", str(project), "--seed", "1", "-q"]) == 0  # the same model again
    assert "the project's model is the one it had" in capsys.readouterr().out
    assert (project / "models" / "selector.forgotten.json").read_bytes() == first  # the one set aside stays


def test_train_cv_refuses_a_fold_it_cannot_fit_before_writing_the_model(tmp_path: Path, capsys) -> None:
    pages_dir, gt_dir = write_dataset(tmp_path / "data", [None] * 3, seed=7)  # type: ignore[list-item]
    for k in (1, 2):
        save_records(gt_dir / f"{k}.json", [])  # one page of three marks records
    model = tmp_path / "m.json"
    assert cli_main(["train", "--pages", str(pages_dir), "--gt", str(gt_dir), "--out", str(model), "--cv", "3",
                     "-q"]) == 2
    assert re.search(r"--cv 3: fold \d of 3 would have nothing to learn: these 2 pages are labelled as holding no "
                     r"record: .* \(or use fewer folds\)", capsys.readouterr().err)
    assert not model.exists()


def test_training_on_labels_that_mark_no_list_says_what_to_do(tmp_path: Path, capsys) -> None:
    pages_dir, gt_dir = write_dataset(tmp_path / "data", [None] * 2, seed=6)  # type: ignore[list-item]
    for k in range(2):
        save_records(gt_dir / f"{k}.json", [])
    assert cli_main(["train", "--pages", str(pages_dir), "--gt", str(gt_dir), "--out", str(tmp_path / "m.json"),
                     "-q"]) == 2
    assert "these 2 pages are labelled as holding no record: training needs pages whose labels mark lists of " \
           "records" in capsys.readouterr().err


def test_score_says_which_pages_a_selector_run_s_model_was_trained_on(tmp_path: Path, capsys, monkeypatch,
                                                                     quick_fits: None) -> None:
    """A figure on pages the model was trained on (same texts, same labels) is in-sample: said, in both forms of
    score; on other pages nothing is said. A run of other pages is refused rather than scored 0."""
    from recordlens.core.store.db import Provenance
    from recordlens.core.store.importer import import_paths, import_run_folder
    from recordlens.core.store.project import init_project, open_project

    pages_dir, gt_dir = write_dataset(tmp_path / "seen", [None] * 6, seed=8)  # type: ignore[list-item]
    other_pages, other_gt = write_dataset(tmp_path / "unseen", [None] * 2, seed=9)  # type: ignore[list-item]
    model = tmp_path / "m.json"
    assert cli_main(["train", "--pages", str(pages_dir), "--gt", str(gt_dir), "--out", str(model), "-q"]) == 0
    monkeypatch.chdir(tmp_path)  # the model named relatively, and scored from another folder below
    for name, pages in (("seen", pages_dir), ("unseen", other_pages)):
        assert cli_main(["extract", "--model", model.name, "--pages", str(pages), "--out", str(tmp_path / f"r-{name}"),
                         "-q"]) == 0
    monkeypatch.chdir(pages_dir)
    capsys.readouterr()
    assert cli_main(["score", "--pred", str(tmp_path / "r-seen"), "--gt", str(gt_dir), "--pages", str(pages_dir),
                     "--json", "-q"]) == 0
    captured = capsys.readouterr()
    assert f"6 of the 6 pages scored with a prediction (0, 1, 2, 3, 4, 5) are pages the selector model {model} " \
           "was trained on" in captured.err
    assert json.loads(captured.out)["in_sample_pages"] == ["0", "1", "2", "3", "4", "5"]
    assert cli_main(["bench", "--pages", str(pages_dir), "--gt", str(gt_dir), "--methods", "selector",
                     "--selector-model", str(model), "--no-chart", "-q"]) == 0  # bench's selector row too
    assert "6 of the 6 pages scored with a prediction" in capsys.readouterr().err
    assert cli_main(["score", "--pred", str(tmp_path / "r-unseen"), "--gt", str(other_gt), "--pages",
                     str(other_pages), "-q"]) == 0
    assert "in-sample" not in capsys.readouterr().err
    elsewhere = tmp_path / "r-elsewhere"  # a run of pages named otherwise
    shutil.copytree(tmp_path / "r-unseen", elsewhere)
    for k in (0, 1):
        (elsewhere / f"{k}.json").rename(elsewhere / f"9{k}.json")
    assert cli_main(["score", "--pred", str(elsewhere), "--gt", str(gt_dir), "--pages", str(pages_dir), "-q"]) == 2
    assert "holds no prediction for any of the 6 page(s) scored: a run of other pages" in capsys.readouterr().err
    stopped = tmp_path / "r-stopped"  # a run stopped before its first page is scored: every page empty
    (stopped / "_run").mkdir(parents=True)
    (stopped / "_run" / "run.json").write_text(json.dumps({"method": "selector", "stopped": "budget used up"}))
    assert cli_main(["score", "--pred", str(stopped), "--gt", str(gt_dir), "--pages", str(pages_dir), "-q"]) == 0

    # synthetic variants of the training pages: other texts and structure, the same pages underneath
    assert cli_main(["synth", "--pages", str(pages_dir), "--gt", str(gt_dir), "--out", str(tmp_path / "syn"),
                     "--variants", "1", "-q"]) == 0
    assert cli_main(["extract", "--model", str(model), "--pages", str(tmp_path / "syn" / "html"), "--out",
                     str(tmp_path / "r-syn"), "-q"]) == 0
    capsys.readouterr()
    assert cli_main(["score", "--pred", str(tmp_path / "r-syn"), "--gt", str(tmp_path / "syn" / "gt"), "--pages",
                     str(tmp_path / "syn" / "html"), "--json", "-q"]) == 0
    captured = capsys.readouterr()
    assert "6 of the 6 pages scored with a prediction (0_v1, 1_v1, 2_v1, 3_v1, 4_v1, 5_v1) are synthetic variants " \
           f"of pages the selector model {model} was trained on" in captured.err
    assert json.loads(captured.out)["variants_of_training_pages"] == [f"{k}_v1" for k in range(6)]

    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [tmp_path / "seen"]).problems
        run_id = import_run_folder(project, tmp_path / "r-seen").run_id
        other_run = project.runs.add("handmade")  # a run of page 0 alone, a page not marked labelled
        project.runs.add_predictions(other_run, {"0": [["/body[1]"]]})
        project.runs.finish(other_run)
    capsys.readouterr()
    with open_project(tmp_path / "p") as project:
        project.set_status("0", "new", Provenance.person("ana"))
    assert cli_main(["score", "--project", str(tmp_path / "p"), "--run", str(other_run), "-q"]) == 2
    assert f"run {other_run} holds no prediction for any of the 5 page(s) marked labelled" in capsys.readouterr().err
    with open_project(tmp_path / "p") as project:
        assert project.runs.scores(other_run) == []  # refused before any score was stored
        project.set_status("0", "labelled", Provenance.person("ana"))
    assert cli_main(["score", "--project", str(tmp_path / "p"), "--run", str(run_id), "-q"]) == 0
    assert "6 of the 6 pages scored" in capsys.readouterr().err
    # The model trained again under its name: the run's figures can no longer be placed, and that is said.
    assert cli_main(["train", "--pages", str(pages_dir), "--gt", str(gt_dir), "--out", str(model), "--seed", "3",
                     "-q"]) == 0
    capsys.readouterr()
    assert cli_main(["score", "--pred", str(tmp_path / "r-seen"), "--gt", str(gt_dir), "--pages", str(pages_dir),
                     "-q"]) == 0
    assert "whether these figures are in-sample cannot be told" in capsys.readouterr().err
