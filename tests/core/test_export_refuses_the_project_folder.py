"""Where an export writes, and what it says it left out (a verifier's findings): an --out that is the project's own
folder or lies inside it (its snapshots/) is refused before anything is written, as `project copy` refuses a copy
there; a jsonl target that is a folder is said as such, not as a bare "Is a directory"; and the accepted records of a
page still in progress, which a nexteval export does not write, are counted as those left out of labelled pages
are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.output_paths import OutputPathError
from recordlens.core.store.exporter import export_project
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance, init_project, open_project

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo" / "dataset"
IN_PROGRESS = "4"


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith("project.db")}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    with init_project(tmp_path / "P") as opened:
        import_paths(opened, [DEMO])
    return tmp_path / "P"


@pytest.mark.parametrize("fmt", ["nexteval", "jsonl", "csv"])
@pytest.mark.parametrize("inside", [".", "snapshots", "snapshots/new", "removed"])
def test_an_out_in_the_project_folder_is_refused_and_nothing_is_written(project: Path, fmt: str, inside: str,
                                                                         capsys) -> None:
    before = files_of(project)
    out = project / inside
    code = main(["export", "--project", str(project), "--format", fmt, "--out", str(out), "-q"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "nothing exported" in err and f"the project {project}" in err and "outside it" in err, err
    assert files_of(project) == before
    assert not (project / "snapshots" / "new").exists()


def test_a_link_to_the_project_does_not_hide_it(project: Path, tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to(project)
    with open_project(project) as opened, pytest.raises(OutputPathError, match="is the project"):
        export_project(opened, "nexteval", tmp_path / "link")
    assert not (project / "html").exists()


def test_an_out_beside_the_project_is_exported_and_a_copy_inside_is_still_refused(project: Path,
                                                                                   tmp_path: Path, capsys) -> None:
    assert main(["export", "--project", str(project), "--format", "nexteval", "--out", str(tmp_path / "ex"),
                 "-q"]) == 0
    assert len(list((tmp_path / "ex" / "gt").glob("*.json"))) == 4
    capsys.readouterr()
    assert main(["project", "copy", str(project), str(project / "backup")]) == 2
    assert "lies inside the project" in capsys.readouterr().err


def test_a_jsonl_target_that_is_a_folder_is_said_as_such(project: Path, tmp_path: Path, capsys) -> None:
    (tmp_path / "out" / "labels.jsonl").mkdir(parents=True)
    code = main(["export", "--project", str(project), "--format", "jsonl", "--out", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err
    assert code == 2
    assert "labels.jsonl is a folder; the jsonl export is written to a file" in err and "move that folder away" in err
    assert "Is a directory" not in err
    assert list((tmp_path / "out").iterdir()) == [tmp_path / "out" / "labels.jsonl"]


def test_accepted_records_of_a_page_in_progress_are_counted_as_left_out(project: Path, tmp_path: Path,
                                                                        capsys) -> None:
    with open_project(project) as opened:
        opened.set_status(IN_PROGRESS, "proposed", Provenance.person("ann"))
        held = len(opened.true_records(IN_PROGRESS))
        summary = export_project(opened, "nexteval", tmp_path / "core")
    assert held and summary.unfinished_records == {IN_PROGRESS: held}
    for flags in ([], ["--all-pages"]):
        out = tmp_path / f"cli{len(flags)}"
        assert main(["export", "--project", str(project), "--format", "nexteval", "--out", str(out), "-q",
                     *flags]) == 0
        err = capsys.readouterr().err
        assert (f"{held} accepted or edited record(s) on 1 page not marked labelled were not exported "
                f"({IN_PROGRESS} ({held} records))") in err, err
        assert not (out / "gt" / f"{IN_PROGRESS}.json").exists()


def test_a_page_in_progress_without_records_is_not_counted(project: Path, tmp_path: Path, capsys) -> None:
    with open_project(project) as opened:
        for label in opened.labels(IN_PROGRESS):
            opened.delete(label.id, Provenance.person("ann"))
        opened.set_status(IN_PROGRESS, "proposed", Provenance.person("ann"))
        assert export_project(opened, "nexteval", tmp_path / "ex").unfinished_records == {}
    assert main(["export", "--project", str(project), "--format", "nexteval", "--out", str(tmp_path / "ex2"),
                 "-q"]) == 0
    assert "not marked labelled were not exported" not in capsys.readouterr().err
    assert json.loads((tmp_path / "ex2" / "gt" / "1.json").read_text(encoding="utf-8"))
