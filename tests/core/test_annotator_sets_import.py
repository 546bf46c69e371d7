"""Importing an annotator's labels never loses labels: a name is never trimmed into another set's, a re-import
says which pages it replaced and sets their earlier labels aside in the project folder, from which they come back;
a folder with pages for some pages and labels alone for the project's others is taken whole."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project, open_project
from recordlens.core.text_forms import written
from tests.core.two_annotators import PAGES, bea, dataset


@pytest.fixture
def with_bea(dev_dir: Path, tmp_path: Path) -> Path:
    """A project of three dev pages with their labels, and bea's labels of them imported as her set."""
    folder = tmp_path / "p"
    with init_project(folder) as project:
        import_paths(project, [dataset(dev_dir, tmp_path / "ana")])
    assert main(["import", str(dataset(dev_dir, tmp_path / "bea", bea)), "--project", str(folder),
                 "--annotator", "bea", "-q"]) == 0
    return folder


def bea_sets(folder: Path) -> dict[str, dict[str, list[list[str]]]]:
    with open_project(folder) as project:
        return {name: project.annotators.all_records(name) for name in project.annotators.names()}


def test_a_name_with_a_space_at_either_end_is_refused_and_no_set_changes(with_bea: Path, dev_dir: Path,
                                                                         tmp_path: Path, capsys) -> None:
    before = bea_sets(with_bea)
    cal = dataset(dev_dir, tmp_path / "cal", lambda name, records: records[1:] if name == "11" else records)
    capsys.readouterr()
    assert main(["import", str(cal), "--project", str(with_bea), "--annotator", " bea", "-q"]) == 2
    err = capsys.readouterr().err
    assert "the annotator name ' bea' begins or ends with a space: give it without, as in --annotator 'bea'" in err
    assert bea_sets(with_bea) == before


def test_another_spelling_of_a_set_s_name_is_refused(with_bea: Path, dev_dir: Path, tmp_path: Path,
                                                     capsys) -> None:
    cal = dataset(dev_dir, tmp_path / "cal")
    assert main(["import", str(cal), "--project", str(with_bea), "--annotator", "Zoë van Dijk", "-q"]) == 0
    before = bea_sets(with_bea)
    capsys.readouterr()
    # the same name with two spaces, and with the ë written as e + combining diaeresis
    for other in ("Zoë  van Dijk", "Zoe\u0308 van Dijk"):
        assert main(["import", str(cal), "--project", str(with_bea), "--annotator", other, "-q"]) == 2
        said = capsys.readouterr().err
        assert f"the annotator name {written(other)} is another spelling of 'Zoë van Dijk', whose label set" in said
    assert bea_sets(with_bea) == before


def test_a_re_import_names_the_pages_it_replaced_and_keeps_their_labels_to_put_back(
        with_bea: Path, dev_dir: Path, tmp_path: Path, capsys) -> None:
    first = bea_sets(with_bea)["bea"]
    again = dataset(dev_dir, tmp_path / "bea2", lambda name, records: records[:2] if name == "1" else records)
    capsys.readouterr()
    assert main(["import", str(again), "--project", str(with_bea), "--annotator", "bea", "-q"]) == 0
    out = capsys.readouterr().out
    # page 1 changed, 7 changed (bea2 holds the project's records, not bea's halves), 11 the same
    assert f"replaced bea's labels of 2 pages: 1 ({len(first['1'])} → 2 records), 7 (" in out
    kept = Path(out.split("the earlier ones are kept in ")[1].split(" (")[0])
    assert kept.parent == with_bea / "removed" / "annotators" and kept.name.startswith("bea.")
    assert sorted(p.name for p in (kept / "gt").iterdir()) == ["1.json", "7.json"]
    assert json.loads((kept / "gt" / "1.json").read_text(encoding="utf-8")) == first["1"]
    assert json.loads((kept / "set-aside.json").read_text(encoding="utf-8"))["annotator"] == "bea"
    # The message's own command puts them back (and keeps what they replace, in turn)
    command = out.split("(`recordlens ")[1].split("` puts them back")[0]
    assert command == f"import {kept} --project {with_bea} --annotator bea"
    assert main([*shlex.split(command), "-q"]) == 0  # as a shell reads it: the paths are quoted
    assert bea_sets(with_bea)["bea"] == first
    assert "replaced bea's labels of 2 pages" in capsys.readouterr().out


def test_the_same_labels_again_replace_nothing_and_set_nothing_aside(with_bea: Path, tmp_path: Path,
                                                                    capsys) -> None:
    assert main(["import", str(tmp_path / "bea"), "--project", str(with_bea), "--annotator", "bea", "-q"]) == 0
    assert "replaced" not in capsys.readouterr().out
    assert not (with_bea / "removed").exists()


def test_the_case_warning_names_every_other_spelling(with_bea: Path, tmp_path: Path, capsys) -> None:
    for name in ("Bea", "BEA"):
        assert main(["import", str(tmp_path / "bea"), "--project", str(with_bea), "--annotator", name, "-q"]) == 0
    assert "'BEA', 'Bea' and 'bea' are 3 label sets (names differ in case); the labels go to 'BEA'" in \
        capsys.readouterr().err


def test_a_label_file_s_source_is_kept_as_an_absolute_path(with_bea: Path, tmp_path: Path) -> None:
    with open_project(with_bea) as project:
        sources = {page.page: page.source for page in project.annotators.set_pages("bea")}
    assert sources == {name: str((tmp_path / "bea" / "gt" / f"{name}.json").resolve()) for name in PAGES}


def test_a_folder_with_pages_for_some_and_labels_alone_for_the_project_s_pages_is_taken_whole(
        with_bea: Path, dev_dir: Path, tmp_path: Path, capsys) -> None:
    cleo = tmp_path / "cleo"  # html/ for a page the project lacks, gt/ for it and for the project's page 7
    (cleo / "html").mkdir(parents=True)
    (cleo / "gt").mkdir()
    shutil.copy(dev_dir / "html" / "83.html", cleo / "html")
    (cleo / "gt" / "83.json").write_text(json.dumps([["/body[1]"]]), encoding="utf-8")
    (cleo / "gt" / "7.json").write_text("[]", encoding="utf-8")
    (cleo / "gt" / "999.json").write_text("[]", encoding="utf-8")  # neither a page here nor in the project
    assert main(["import", str(cleo), "--project", str(with_bea), "--annotator", "cleo", "-q"]) == 1
    captured = capsys.readouterr()
    assert ("imported cleo's labels of 2 pages (1 label): 1 of the project's pages, 1 new to the project (imported "
            "without project labels: 83)") in captured.out
    assert "999.json: ground truth for page 999, but no 999.html" in captured.err and "7.json" not in captured.err
    with open_project(with_bea) as project:
        assert project.annotators.all_records("cleo") == {"7": [], "83": [["/body[1]"]]}
        assert project.true_records("7") and project.has_page("83") and not project.has_page("999")
