"""`synth`'s findings of a verifier, besides the data loss (test_synth_refuses_its_own_input.py): variant names
that clash across seeds and with a project's pages; --at-least-one leaving a variant unchanged; `table_cards`
naming texts a card hid; and the minor messages of synth and inspect."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.page.dom import Page, parse_html
from recordlens.core.resource_files import resource_path
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project, open_project
from recordlens.core.synth.pipeline import (
    Source,
    SynthOptions,
    dataset_sources,
    first_variant,
    synthesise_dataset,
    synthesise_page,
)
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini

DEMO = resource_path("demo", "dataset")


def names_in(folder: Path) -> list[str]:
    return sorted(p.stem for p in (folder / "html").glob("*.html"))


# 2. names ---------------------------------------------------------------------------------------------------------


def test_datasets_of_two_seeds_go_into_one_project(tmp_path: Path) -> None:
    for seed in (0, 1):
        synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt"), tmp_path / f"s{seed}",
                           SynthOptions(variants=2, seed=seed, formats=("html",)))
    assert names_in(tmp_path / "s0")[:2] == ["1_v1", "1_v2"]  # the default seed's names are as they were
    assert names_in(tmp_path / "s1")[:2] == ["1_s1_v1", "1_s1_v2"]
    with init_project(tmp_path / "p") as project:
        for seed in (0, 1):
            report = import_paths(project, [tmp_path / f"s{seed}"])
            assert not report.problems and len(report.imported) == 8


def test_synth_of_a_project_numbers_variants_past_those_it_holds(tmp_path: Path, capsys) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [DEMO])
    out = tmp_path / "first"
    assert run(capsys, "synth", "--project", str(tmp_path / "p"), "--out", str(out), "-k", "2", "-q")[0] == 0
    with open_project(tmp_path / "p") as project:
        assert not import_paths(project, [out]).problems
    # another run at the same seed (other options: other pages) would have named its variants 1_v1, 1_v2 again
    again = tmp_path / "again"
    code, _, err = run(capsys, "synth", "--project", str(tmp_path / "p"), "--out", str(again), "-k", "2",
                       "--rate", "1", "-q")
    assert code == 0
    assert "the project already holds variants of 4 pages (1, 2, 3, 4)" in err
    assert [n for n in names_in(again) if n.count("_v") == 1] == [f"{n}_v{k}" for n in "1234" for k in (3, 4)]
    manifest = json.loads((again / "synth.json").read_text(encoding="utf-8"))
    assert {p["name"]: p["variant"] for p in manifest["pages"]}["1_v3"] == 3
    with open_project(tmp_path / "p") as project:
        report = import_paths(project, [again])
        assert not report.problems and len(report.imported) == 4 * 2 + 8 * 2  # of the pages, and of their variants


def test_the_first_variant_is_numbered_past_the_variants_taken_at_its_seed() -> None:
    assert first_variant("1", 0, ["1_v1", "1_v2", "1_v10", "10_v30", "1_v01", "1_v\u00b2", "1_s4_v7"]) == 11
    assert first_variant("1", 4, ["1_v1", "1_s4_v7"]) == 8
    assert first_variant("1", 0, []) == 1


# 3. --at-least-one ------------------------------------------------------------------------------------------------

PARAGRAPHS = ("<!DOCTYPE html><html><head><title>t</title></head><body><div>"
              + "".join(f"<p>Entry {i}</p>" for i in range(1, 6)) + "</div></body></html>")
PARAGRAPH_RECORDS = [[f"/html[1]/body[1]/div[1]/p[{i}]"] for i in range(1, 6)]


def test_at_least_one_draws_again_where_the_transformation_drawn_does_not_apply() -> None:
    source = Source("p", PARAGRAPHS, PARAGRAPH_RECORDS)  # no table, no card list: table_cards does not apply
    options = SynthOptions(transforms=("table_cards", "shuffle_records"), rate=0.0, at_least_one=True,
                           content=False)
    for variant in range(1, 13):
        result = synthesise_page(source, variant, options)
        assert any(t["count"] for t in result.transforms), result.transforms
        assert not result.warnings


def test_at_least_one_says_a_variant_to_which_no_transformation_applies(tmp_path: Path) -> None:
    source = Source("p", PARAGRAPHS, PARAGRAPH_RECORDS)
    result = synthesise_page(source, 1, SynthOptions(transforms=("table_cards",), rate=0.0, at_least_one=True))
    assert result.transforms == [{"name": "table_cards", "count": 0,
                                  "detail": "no table of records or list of cards to turn"}]
    assert result.warnings == ["no selected transformation applies to this page (table_cards): the variant's "
                               "structure is its page's (--at-least-one)"]


# 4. table_cards and hidden texts -----------------------------------------------------------------------------------

HIDDEN = ("<!DOCTYPE html><html><head><title>t</title></head><body><section>"
          + "".join(f"<div class=\"r\">Alpha {i}<!-- c -->Beta {i}<span>S{i}</span>Gamma {i}</div>"
                    for i in range(1, 5))
          + "</section></body></html>")
HIDDEN_RECORDS = [[f"/html[1]/body[1]/section[1]/div[{i}]"] for i in range(1, 5)]


def record_texts(page: Page, records: list[list[str]]) -> list[list[str]]:
    """The text-map entries each record names, in text-map order."""
    texts = []
    for record in records:
        keys = [k for xpath in record for k in page.text_keys_under(page.resolve(xpath))]  # type: ignore[arg-type]
        texts.append([page.text_map[k] for k in keys])
    return texts


def test_cards_made_rows_name_the_texts_their_cards_named_and_no_hidden_one() -> None:
    source = Source("9", HIDDEN, HIDDEN_RECORDS)
    result = synthesise_page(source, 1, SynthOptions(content=False), chosen=["table_cards"])
    assert result.transforms[0]["count"] == 1 and "<table>" in result.html
    before = record_texts(parse_html(HIDDEN), HIDDEN_RECORDS)
    assert before[0] == ["Gamma 1", "S1"]  # the text map reads a div's last text only
    assert record_texts(parse_html(result.html), result.records) == before
    assert "Alpha 1" in result.html  # kept, hidden as in the source


# 5. messages -------------------------------------------------------------------------------------------------------

NOTE = "(tokens: n/a; they are counted"


def test_inspect_says_how_to_count_tokens_only_when_no_model_could_be_asked(monkeypatch: pytest.MonkeyPatch,
                                                                           capsys) -> None:
    page = str(DEMO / "html" / "1.html")
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    assert NOTE in run(capsys, "inspect", page)[1]
    monkeypatch.setenv("GEMINI_API_KEY", "fake")
    with FakeGemini(counts_tokens=False) as server:
        code, out, err = run(capsys, "inspect", page, "--base-url", server.url, "--no-tokens")
        assert code == 0 and NOTE not in out and not server.requests
        code, out, err = run(capsys, "inspect", page, "--base-url", server.url)  # the count fails: said itself
    assert code == 0 and NOTE not in out and "countTokens failed" in err and "n/a" in out


def test_synth_list_json_and_all_in_a_list(tmp_path: Path, capsys) -> None:
    code, out, _ = run(capsys, "synth", "--list", "--json")
    assert code == 0 and "table_cards" in json.loads(out) and "content" in json.loads(out)
    code, _, err = run(capsys, "synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out",
                       str(tmp_path / "out"), "-t", "all,foo")
    assert code == 2 and "'all' stands alone, not in a list" in err and "unknown" not in err
    assert not (tmp_path / "out").exists()


def test_synth_json_names_the_pages_left_out_and_the_problems(tmp_path: Path, capsys) -> None:
    for sub in ("html", "gt"):
        (tmp_path / "data" / sub).mkdir(parents=True)
    for name in ("1", "2"):
        (tmp_path / "data" / "html" / f"{name}.html").write_bytes((DEMO / "html" / f"{name}.html").read_bytes())
    (tmp_path / "data" / "gt" / "1.json").write_bytes((DEMO / "gt" / "1.json").read_bytes())
    code, out, _ = run(capsys, "synth", "--pages", str(tmp_path / "data" / "html"), "--gt",
                       str(tmp_path / "data" / "gt"), "--out", str(tmp_path / "out"), "-k", "1", "--json", "-q")
    summary = json.loads(out)
    assert code == 1 and summary["sources"] == 1 and summary["left_out"] == ["2"]
    assert len(summary["problems"]) == 1 and "no ground truth" in summary["problems"][0]
    assert summary["without_records"] == [] and summary["renumbered"] == []
