"""A variant of a variant names its original page in synth.json (`original`, besides `source`, the variant it was
made from), whether synth read a synth dataset or a project holding variants."""

from __future__ import annotations

import json
from pathlib import Path

from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project
from recordlens.core.synth.pipeline import SynthOptions, dataset_sources, project_sources, synthesise_dataset
from tests.core.cli_runs import DEMO

OPTIONS = SynthOptions(variants=1, formats=("html",))


def entries(dataset: Path) -> dict[str, dict]:
    manifest = json.loads((dataset / "synth.json").read_text(encoding="utf-8"))
    return {entry["name"]: entry for entry in manifest["pages"]}


def test_a_variant_of_a_dataset_variant_names_the_original_page(tmp_path: Path) -> None:
    synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt", names=["1"]), tmp_path / "a", OPTIONS)
    synthesise_dataset(dataset_sources(tmp_path / "a" / "html", tmp_path / "a" / "gt"), tmp_path / "b", OPTIONS)
    synthesise_dataset(dataset_sources(tmp_path / "b" / "html", tmp_path / "b" / "gt"), tmp_path / "c", OPTIONS)
    first, second, third = entries(tmp_path / "a")["1_v1"], entries(tmp_path / "b")["1_v1_v1"], \
        entries(tmp_path / "c")["1_v1_v1_v1"]
    assert "original" not in first  # its source is the original
    assert (second["source"], second["original"]) == ("1_v1", "1")
    assert (third["source"], third["original"]) == ("1_v1_v1", "1")
    assert second["source_digest"] == third["source_digest"] == first["source_digest"]


def test_a_variant_of_a_project_variant_names_the_original_page(tmp_path: Path) -> None:
    synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt", names=["1", "2"]), tmp_path / "a", OPTIONS)
    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [DEMO, tmp_path / "a"]).problems
    synthesise_dataset(project_sources(tmp_path / "p"), tmp_path / "b", OPTIONS)
    made = entries(tmp_path / "b")
    assert (made["1_v1_v1"]["source"], made["1_v1_v1"]["original"]) == ("1_v1", "1")
    assert (made["2_v1_v1"]["source"], made["2_v1_v1"]["original"]) == ("2_v1", "2")
    assert "original" not in made["1_v2"] and "original" not in made["3_v1"]
