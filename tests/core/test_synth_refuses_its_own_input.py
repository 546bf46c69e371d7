"""`synth --out` overlapping the folders it reads (a verifier's data-loss finding): an earlier synth output given as
its own --out was deleted before it was read, and an empty dataset marked complete was left. Now refused before
anything is touched, whether the overlap is the same folder, one inside the other, or hidden by a symbolic link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project
from recordlens.core.synth.pipeline import (
    SynthError,
    SynthOptions,
    dataset_sources,
    project_sources,
    synthesise_dataset,
)

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo" / "dataset"


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def earlier(tmp_path: Path) -> Path:
    """A synth output: the input of a variant of a variant."""
    synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt"), tmp_path / "syn", SynthOptions(variants=1))
    return tmp_path / "syn"


@pytest.mark.parametrize("out", ["syn", "syn/html", "syn/gt/deeper", "."])
def test_an_out_overlapping_the_input_is_refused_and_nothing_is_touched(earlier: Path, out: str, capsys) -> None:
    before = files_of(earlier)
    code = main(["synth", "--pages", str(earlier / "html"), "--gt", str(earlier / "gt"), "--out",
                 str(earlier.parent / out), "-k", "1", "-q"])
    assert code == 2
    err = capsys.readouterr().err
    assert "the input folder" in err and "choose another --out" in err
    assert files_of(earlier) == before


def test_a_symbolic_link_does_not_hide_the_overlap(earlier: Path) -> None:
    link = earlier.parent / "link"
    os.symlink(earlier, link)
    before = files_of(earlier)
    with pytest.raises(SynthError, match=r"--out .*link is the input folder|holds the input folder"):
        synthesise_dataset(dataset_sources(earlier / "html", earlier / "gt"), link, SynthOptions(variants=1))
    assert files_of(earlier) == before


def test_an_out_inside_the_project_read_is_refused(tmp_path: Path) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [DEMO])
    with pytest.raises(SynthError, match="lies inside the input folder"):
        synthesise_dataset(project_sources(tmp_path / "p"), tmp_path / "p" / "syn", SynthOptions(variants=1))
    assert not (tmp_path / "p" / "syn").exists()


def test_an_out_beside_the_input_is_still_made(earlier: Path) -> None:
    report = synthesise_dataset(dataset_sources(earlier / "html", earlier / "gt"), earlier.parent / "again",
                                SynthOptions(variants=1))
    assert len(report.pages) == 4 and not report.problems
