"""What an import says of a dataset `recordlens synth` made (synth.json beside html/, mhtml/ and gt/): pages a
stopped synth left in one of its two folders of pages are said as that, with the synth command that makes them
whole, not as another folder of pages to import; and variant names the project holds already are said once, with
how to make variants of other names, not as files to rename one by one."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project
from recordlens.core.synth import SynthOptions, dataset_sources, synthesise_dataset

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "dataset"


def synth(out: Path, **options: object) -> Path:
    synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt"), out, SynthOptions(variants=1, **options))  # type: ignore[arg-type]
    return out


def test_pages_a_stopped_synth_left_in_one_folder_are_said_with_the_command_that_makes_them_whole(
        tmp_path: Path) -> None:
    out = synth(tmp_path / "s")
    (out / "mhtml" / "3_v1.mhtml").unlink()  # as a synth killed between a page's HTML and its MHTML leaves it
    with init_project(tmp_path / "P") as project:
        report = import_paths(project, [out])
    assert sorted(report.imported) == ["1_v1", "2_v1", "3_v1", "4_v1"]
    said = [w for w in report.warnings if "mhtml/" in w]
    assert len(said) == 1, report.warnings
    assert "mhtml/ holds the same pages as html/ (synth writes each page to both)" in said[0]
    assert "3_v1" in said[0] and "running the same synth command again makes them whole" in said[0]
    assert "is not looked into" not in said[0] and "--replace-labels" not in said[0]


def test_the_same_pages_in_both_folders_are_said_as_the_same(tmp_path: Path) -> None:
    out = synth(tmp_path / "s")
    with init_project(tmp_path / "P") as project:
        report = import_paths(project, [out])
    said = [w for w in report.warnings if "mhtml/" in w]
    assert said == [f"{out}: the dataset's pages were read from html/; mhtml/ holds the same pages (synth writes "
                    "each page to both), so it is not imported too"]


def test_variant_names_the_project_holds_are_said_once_with_another_seed_or_the_project(tmp_path: Path) -> None:
    first = synth(tmp_path / "a", formats=("html",))
    again = synth(tmp_path / "b", formats=("html",), content=False)  # the same names, other pages
    with init_project(tmp_path / "P") as project:
        import_paths(project, [first])
        report = import_paths(project, [again])
    assert report.imported == [] and len(report.problems) == 4
    assert not any("rename the file" in p.reason for p in report.problems)
    advice = [w for w in report.warnings if "--seed" in w]
    assert len(advice) == 1, report.warnings
    assert "the project already holds variants of those names" in advice[0]
    assert "N_sS_vK" in advice[0] and f"recordlens synth --project {tmp_path / 'P'}" in advice[0]
