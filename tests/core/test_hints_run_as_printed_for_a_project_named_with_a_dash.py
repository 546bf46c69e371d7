"""Every command a message hands the user runs as printed (`command_hints`) for a project in a folder named `-p q` or
`-proj` (a leading dash, which the command would take for an option, and a space): the ways to make a project where
none is, to import a dataset or a saved page given where the project goes, to run a stopped import again, to put an
annotator's set-aside labels back, and to store a run of two settings whole."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import build_parser
from recordlens.core.store.import_marks import AskedImport, StoppedImport
from recordlens.core.store.importer import import_run_folder
from recordlens.core.store.project import PROJECT_DB, open_project
from tests.core.cli_runs import DEMO, run
from tests.core.cli_runs import gemini_extract as extract
from tests.fake_gemini import FakeGemini, answer

NAMES = ["-p q", "-proj"]


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the project named relative to here, as a user types it


def hint(said: str, command: str) -> str:
    """The command in backquotes a message hands the user, `recordlens COMMAND ...`."""
    found = re.search(rf"`(recordlens {command} [^`]+)`", said)  # one that names what it runs on
    assert found is not None, said
    return found.group(1)


def run_hint(capsys: pytest.CaptureFixture[str], command: str) -> tuple[int, str, str]:
    """The command as a POSIX shell splits it, run."""
    words = shlex.split(command)
    assert words[0] == "recordlens"
    return run(capsys, *words[1:])


def a_project(capsys: pytest.CaptureFixture[str], name: str) -> str:
    """A project named `name` (relative) holding the demo's pages and labels."""
    assert run(capsys, "project", "init", "--", name)[0] == 0
    assert run(capsys, "import", str(DEMO), f"--project={name}", "-q")[0] == 0
    return name


def pages_of(project: str | Path) -> list[str]:
    with open_project(project) as opened:
        return opened.page_names()


@pytest.mark.parametrize("name", NAMES)
def test_the_way_to_make_a_project_where_none_is_runs_as_printed(name: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "runs", f"--project={name}")  # no folder
    assert code != 0
    assert run_hint(capsys, hint(err, "project init"))[0] == 0
    assert (tmp_path / name / PROJECT_DB).is_file()


@pytest.mark.parametrize("name", NAMES)
def test_the_way_to_make_a_project_in_a_folder_without_one_runs_as_printed(name: str, tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / name).mkdir()
    code, _, err = run(capsys, "runs", f"--project={name}")
    assert code != 0 and "is not a RecordLens project" in err, err
    assert run_hint(capsys, hint(err, "project init"))[0] == 0
    assert (tmp_path / name / PROJECT_DB).is_file()


@pytest.mark.parametrize("name", NAMES)
def test_the_way_to_take_over_what_an_unfinished_init_left_runs_as_printed(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / name / "snapshots").mkdir(parents=True)
    (tmp_path / name / PROJECT_DB).write_bytes(b"")
    code, _, err = run(capsys, "runs", f"--project={name}")
    assert code != 0 and "is empty (0 bytes)" in err, err
    assert run_hint(capsys, hint(err, "project init"))[0] == 0
    assert pages_of(tmp_path / name) == []


@pytest.mark.parametrize("name", NAMES)
def test_the_way_to_import_a_dataset_given_as_the_project_runs_as_printed(name: str, tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(DEMO, tmp_path / name)
    assert run(capsys, "project", "init", "P")[0] == 0
    code, _, err = run(capsys, "runs", f"--project={name}")
    assert code != 0 and "a dataset" in err, err
    code, _, err = run_hint(capsys, hint(err, "import"))
    assert code == 0, err
    assert pages_of("P") == ["1", "2", "3", "4"]


@pytest.mark.parametrize("name", NAMES)
def test_the_way_to_import_a_saved_page_given_as_the_project_runs_as_printed(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(DEMO / "html" / "1.html", tmp_path / f"{name}.html")
    assert run(capsys, "project", "init", "P")[0] == 0
    code, _, err = run(capsys, "runs", f"--project={name}.html")
    assert code != 0 and "a saved page" in err, err
    code, _, err = run_hint(capsys, hint(err, "import"))
    assert code == 0, err
    assert pages_of("P") == [name]


@pytest.mark.parametrize("name", NAMES)
def test_a_stopped_import_of_an_annotator_s_labels_runs_again_as_printed(name: str, tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    project = a_project(capsys, name)
    asked = AskedImport.of([DEMO], "-bea")  # a name that begins with a dash too
    command = StoppedImport(tmp_path / "m.json", asked, ("1", "2", "3", "4"), "", 1).command(Path(project))
    code, _, err = run_hint(capsys, command)
    assert code == 0, err
    with open_project(project) as opened:
        assert "-bea" in opened.annotators.names()


@pytest.mark.parametrize("name", NAMES)
def test_an_annotator_s_set_aside_labels_go_back_as_printed(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    project = a_project(capsys, name)
    assert run(capsys, "import", str(DEMO), f"--project={project}", "--annotator=-bea", "-q")[0] == 0
    code, out, err = run(capsys, "annotators", f"--project={project}", "--remove=-bea")
    assert code == 0, err
    with open_project(project) as opened:
        assert "-bea" not in opened.annotators.names()
    code, _, err = run_hint(capsys, hint(out, "import"))
    assert code == 0, err
    with open_project(project) as opened:
        assert "-bea" in opened.annotators.names()


@pytest.mark.parametrize("name", NAMES)
def test_the_way_to_store_a_run_of_two_settings_whole_runs_as_printed(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-hints")
    project, run_dir = a_project(capsys, name), tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, server, "--temperature", "1"))[0] == 0
        assert run(capsys, *extract(run_dir, server, "--restart", "--temperature", "0.5",
                                    "--max-requests", "2"))[0] == 3  # pages 1 and 2 made again, 3 and 4 not
        with open_project(project) as opened:
            run_id = import_run_folder(opened, run_dir).run_id
        code, _, err = run(capsys, "score", f"--project={project}", "--run", str(run_id), "-q")
        assert code == 2, err
        add = hint(err, "runs")
        args = build_parser().parse_args(shlex.split(add)[1:])  # names this project and this folder
        assert (args.project, Path(args.add)) == (project, run_dir.resolve())
        assert run(capsys, *extract(run_dir, server, "--temperature", "0.5"))[0] == 0  # as told
    code, _, err = run_hint(capsys, add)
    assert code == 0, err
