"""`synth --rate 1 -t NAME` writes the variants the robustness bench scores (bench/synth.py: NAME forced, seed 0):
at rate 1 no random number is drawn to choose the transformations, so the structure's random stream is the one a
forced choice gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.records.model import load_records
from recordlens.core.synth.pipeline import TRANSFORM_NAMES, SynthOptions, dataset_sources, synthesise_page
from tests.core.cli_runs import DEMO, run


@pytest.mark.parametrize("transform", TRANSFORM_NAMES)
def test_rate_one_makes_the_variant_the_transformation_forced_makes(transform: str) -> None:
    for source in dataset_sources(DEMO / "html", DEMO / "gt").read_all():
        forced = synthesise_page(source, 1, SynthOptions(content=False), chosen=[transform])
        drawn = synthesise_page(source, 1, SynthOptions(transforms=(transform,), rate=1.0, content=False))
        assert (drawn.html, drawn.records, drawn.transforms) == (forced.html, forced.records, forced.transforms)


def test_the_command_writes_the_bench_variants_of_every_transformation_with_content(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out",
                     str(tmp_path / "all"), "-k", "1", "--rate", "1", "-t", "all", "--formats", "html", "-q")
    assert code == 0
    for source in dataset_sources(DEMO / "html", DEMO / "gt").read_all():
        bench = synthesise_page(source, 1, SynthOptions(), chosen=list(TRANSFORM_NAMES))  # "all (rate 1) + content"
        assert (tmp_path / "all" / "html" / f"{bench.name}.html").read_text(encoding="utf-8") == bench.html
        assert load_records(tmp_path / "all" / "gt" / f"{bench.name}.json").records == bench.records
