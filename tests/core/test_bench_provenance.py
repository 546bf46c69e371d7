"""What `bench` says of where its figures come from: per method, the extractor that made them (version,
parameters, the selector's model digest) and the pages scored; the pages a method was trained or tuned on (its
figures there are in-sample), in the JSON as on stderr; replayed answers labelled by the input they were made on.
repeats' tuning pages are known by content (a digest list shipped in resources/models), as the selector's are."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from tests.conftest import DEV, SAMPLES, require_shared

PAGES = ("46", "111")  # two of the smallest dev pages, both with recorded answers in the samples
TUNING_LIST = resource_path("models", "repeats-tuning-pages.json")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def renamed_dev(tmp_path: Path) -> Path:
    """Two dev pages with their labels under a folder of another name: the same pages, whatever they are called."""
    dev = require_shared(DEV)
    root = tmp_path / "elsewhere"
    for part in ("html", "gt"):
        (root / part).mkdir(parents=True)
    for name in PAGES:
        shutil.copy(dev / "html" / f"{name}.html", root / "html" / f"{name}.html")
        shutil.copy(dev / "gt" / f"{name}.json", root / "gt" / f"{name}.json")
    return root


def test_bench_json_carries_each_method_s_provenance_and_its_in_sample_pages(renamed_dev: Path, capsys) -> None:
    from recordlens.core.extract.selector import load_model

    code, out, err = run(capsys, "bench", "--pages", str(renamed_dev / "html"), "--gt", str(renamed_dev / "gt"),
                         "--methods", "mdr,selector,repeats", "--json", "--no-chart", "-q")
    assert code == 0
    document = json.loads(out)
    rows = {row["method"]: row for row in document["table2"]}
    for row in rows.values():
        assert row["page_names"] == list(PAGES)
        assert isinstance(row["version"], str) and row["version"]
        assert isinstance(row["parameters"], dict)
    selector = rows["selector"]
    assert selector["parameters"]["model_digest"] == load_model().digest
    assert selector["parameters"]["model"] == "default"
    # the shipped selector was trained on the dev pages, repeats' rules were tuned on them: in-sample, both
    assert selector["in_sample_pages"] == list(PAGES)
    assert "are pages the shipped selector model was trained on" in selector["in_sample_warning"]
    assert rows["repeats"]["in_sample_pages"] == list(PAGES)
    assert "are pages repeats' hand rules were tuned on" in rows["repeats"]["in_sample_warning"]
    assert rows["mdr"]["in_sample_pages"] == [] and rows["mdr"]["in_sample_warning"] is None
    # the same warnings in the document as on stderr, each once
    for method in ("selector", "repeats"):
        said = rows[method]["in_sample_warning"]
        assert document["warnings"].count(said) == 1 and err.count(said) == 1


def test_score_warns_for_repeats_on_the_pages_it_was_tuned_on_whatever_their_folder(renamed_dev: Path,
                                                                                   tmp_path: Path, capsys) -> None:
    run_dir = tmp_path / "run-repeats"
    assert main(["extract", "--method", "repeats", "--pages", str(renamed_dev / "html"), "--out", str(run_dir),
                 "-q"]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "score", "--pred", str(run_dir), "--gt", str(renamed_dev / "gt"), "--pages",
                         str(renamed_dev / "html"), "--json", "-q")
    assert code == 0
    assert "2 of the 2 pages scored with a prediction (46, 111) are pages repeats' hand rules were tuned on" in err
    assert json.loads(out)["in_sample_pages"] == list(PAGES)


def test_bench_cv_marks_repeats_on_its_tuning_pages_by_content(renamed_dev: Path, capsys) -> None:
    demo = resource_path("demo", "dataset")  # pages repeats was not tuned on
    code, out, _ = run(capsys, "bench", "--cv", "2", "--pages", str(renamed_dev / "html"), "--gt",
                       str(renamed_dev / "gt"), "--pages", str(demo / "html"), "--gt", str(demo / "gt"), "-q")
    assert code == 0
    assert "repeats on elsewhere (tuned there)" in out
    assert "repeats on dataset " in out and "repeats on dataset (tuned" not in out


def test_replayed_answers_are_labelled_by_the_input_they_were_made_on(renamed_dev: Path, capsys) -> None:
    samples = require_shared(SAMPLES)
    code, out, _ = run(capsys, "bench", "--pages", str(renamed_dev / "html"), "--gt", str(renamed_dev / "gt"),
                       "--methods", "replay:hier", "--answers", str(samples / "llm"), "--json", "--no-chart", "-q")
    assert code == 0
    document = json.loads(out)
    # Table 1 calls the reference's lossy nesting hier-ref; Table 2 calls the answers made on it the same
    assert [(row["method"], row["input"]) for row in document["table2"]] == [("replay", "hier-ref")]
    assert any(row["format"] == "hier-ref" and row["token_source"] == "recorded usage" for row in document["table1"])
    # and the provenance says it too, beside the answer files' own name for it
    assert document["table2"][0]["parameters"]["read_format"] == "hier-ref"
    assert document["table2"][0]["parameters"]["input_format"] == "hier"


def test_the_shipped_tuning_list_is_what_the_script_makes_from_the_dev_pages(monkeypatch) -> None:
    from tests.script_modules import script_module

    dev = require_shared(DEV)
    folder = Path(__file__).resolve().parents[2] / "bench"
    monkeypatch.syspath_prepend(str(folder))  # as `python bench/repeats_tuning_pages.py` runs
    script = script_module(folder / "repeats_tuning_pages.py", "recordlens_bench_repeats_tuning_pages")
    shipped = json.loads(TUNING_LIST.read_text(encoding="utf-8"))
    assert shipped == script.tuning_document(dev / "html", dev / "gt")
    assert len(shipped["digests"]) == 40
