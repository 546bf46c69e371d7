"""An import of a synth dataset that a stopped run left (synth.json says complete: false, and a page is in one of
its two folders of pages only) says once to run the same synth command again: the dataset's unfinished line says
it, and the line of the page left in one folder no longer says it again."""

from __future__ import annotations

import json
from pathlib import Path

from recordlens.core.page.dataset import SYNTH_MANIFEST
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project
from recordlens.core.synth import SynthOptions, dataset_sources, synthesise_dataset

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "dataset"
AGAIN = "same synth command again"


def _stopped_dataset(out: Path) -> Path:
    """A whole dataset made as a killed run leaves one: marked unfinished, a page's MHTML not written yet."""
    synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt"), out, SynthOptions(variants=1))
    manifest = out / SYNTH_MANIFEST
    manifest.write_text(json.dumps({**json.loads(manifest.read_text("utf-8")), "complete": False}), "utf-8")
    (out / "mhtml" / "3_v1.mhtml").unlink()
    return out


def test_the_import_of_an_unfinished_synth_dataset_says_to_run_it_again_once(tmp_path: Path) -> None:
    out = _stopped_dataset(tmp_path / "s")
    with init_project(tmp_path / "P") as project:
        report = import_paths(project, [out])
    said = report.warning_lines()
    assert sum(line.count(AGAIN) for line in said) == 1, said
    assert any("unfinished synth dataset" in line and AGAIN in line for line in said), said
    left = [line for line in said if "left in one of them only (3_v1)" in line]
    assert len(left) == 1 and "as it left the dataset unfinished" in left[0], said
