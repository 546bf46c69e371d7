"""`synth --project` makes variants of the pages score, export, agreement and train --project take as ground truth:
those marked labelled or reviewed (a verifier's finding: a page set back to in progress, its accepted records kept,
was made variants of, and they came back into the project as labelled pages). The pages left out are said, those in
progress with accepted records named apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.errors import DatasetError
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance, init_project, open_project
from recordlens.core.synth.pipeline import project_sources

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo" / "dataset"
ANN = Provenance.person("ann")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The demo pages, page 4 set back to in progress with its accepted records, page 3 without any."""
    with init_project(tmp_path / "P") as opened:
        import_paths(opened, [DEMO])
        opened.set_status("4", "proposed", ANN)
        for label in opened.labels("3"):
            opened.delete(label.id, ANN)
        opened.set_status("3", "new", ANN)
        assert opened.true_records("4")
    return tmp_path / "P"


def test_pages_not_marked_labelled_are_left_out_and_said(project: Path) -> None:
    sources = project_sources(project)
    assert [name for name, _ in sources.loaders] == ["1", "2"]
    assert sources.left_out == ["3", "4"]
    assert sources.problems == [
        "2 pages of the project are not marked labelled or reviewed (3, 4); left out, as score, export and train "
        "leave them out; 1 page in progress holds accepted records (4): mark it labelled to make variants of it"]


def test_synth_writes_no_variant_of_a_page_in_progress_and_its_import_brings_none(project: Path, tmp_path: Path,
                                                                                  capsys) -> None:
    out = tmp_path / "syn"
    assert main(["synth", "--project", str(project), "--out", str(out), "-k", "1", "-q"]) == 1  # pages left out
    err = capsys.readouterr().err
    assert "1 page in progress holds accepted records (4)" in err
    assert sorted(p.stem for p in (out / "html").iterdir()) == ["1_v1", "2_v1"]
    assert main(["import", str(out), "--project", str(project), "-q"]) == 0
    with open_project(project) as opened:
        assert sorted(opened.page_names()) == ["1", "1_v1", "2", "2_v1", "3", "4"]
        assert opened.page("4").status == "proposed"


def test_a_project_with_no_page_marked_labelled_is_refused_naming_those_in_progress(project: Path) -> None:
    with open_project(project) as opened:
        for name in ("1", "2"):
            opened.set_status(name, "proposed", ANN)
    with pytest.raises(DatasetError, match=r"is marked labelled or reviewed \(3 pages in progress hold accepted "
                                           r"records \(1, 2, 4\)"):
        project_sources(project)
