"""A folder whose name is not valid UTF-8 (Latin-1 bytes, which Python keeps as surrogates), or a UTF-8 name under
an ASCII locale: a run added from it, its pages imported, a model trained on it, all stored in the project's
database, the run's folder found again from what was stored, and every message naming it one way (`\\xe9`; a path
as a hint names it, `"$(printf %b '…/lat\\0351n1/…')"`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_path
from recordlens.core.path_text import json_text, shown_bytes, stored_text
from recordlens.core.store.project import open_project
from recordlens.core.store.runs import method_settings
from tests.core.cli_runs import DEMO, demo_project, run

LATIN = os.fsdecode(b"lat\xe9n1")  # 'lat\udce9n1'
SHOWN = "lat\\xe9n1"  # as messages write it, and as text the database holds
RUN = os.fsdecode(b"run-\xe9")


def _latin_dataset(tmp_path: Path) -> Path:
    """The demo dataset copied into a folder named in Latin-1 (skipped where the file system refuses the name)."""
    folder = tmp_path / LATIN
    try:
        shutil.copytree(DEMO, folder)
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses a name that is not UTF-8")
    return folder


def test_path_text_keeps_a_path_whole_in_json_and_shows_its_bytes() -> None:
    document = json_text(json.dumps({"source": f"/data/{LATIN}/run"}, ensure_ascii=False))
    document.encode("utf-8")  # what SQLite and a UTF-8 file take
    assert json.loads(document) == {"source": f"/data/{LATIN}/run"}
    assert shown_bytes(f"stored {LATIN}\n") == f"stored {SHOWN}\n"
    assert stored_text(f"{LATIN}/html/1.html") == f"{SHOWN}/html/1.html"
    assert stored_text("donn\udcc3\udca9es") == "données"  # a UTF-8 name read under an ASCII locale


def test_a_run_added_from_such_a_folder_is_stored_and_its_folder_found_again(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    dataset = _latin_dataset(tmp_path)
    project = demo_project(capsys, dataset / "P")  # a project in such a folder too
    folder = dataset / RUN
    code, _, err = run(capsys, "extract", "--method", "mdr", "--pages", str(dataset / "html"), "--out", str(folder),
                       "-q")
    assert code == 0, err
    code, out, err = run(capsys, "runs", "--project", str(project), "--add", str(folder))
    assert code == 0, err
    assert f"stored {hint_path(folder)} as run 1" in err and "\\udc" not in err and "Traceback" not in err
    assert "from run-\\xe9" in out and "\\udc" not in out  # the table names the folders as the messages do
    assert f"--project {hint_path(project)} --run 1" in out  # as a shell reads the bytes back
    with open_project(project) as opened:
        source = Path(str(opened.runs.get(1).parameters["source"]))
    assert source == folder.resolve() and source.is_dir()  # the very path, to be read again
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(folder))
    assert code == 0 and "is stored already, as run 1" in err and "added from" not in err  # found where it was
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    code, out, _ = run(capsys, "runs", "--project", str(project), "--json")
    assert code == 0 and json.loads(out.encode("utf-8"))[0]["parameters"]["source"] == str(folder.resolve())
    code, _, err = run(capsys, "runs", "--project", str(project), "--delete", "1")  # its copy names the folder
    assert code == 0, err
    copy = next((project / "removed" / "runs").iterdir())
    code, out, err = run(capsys, "runs", "--project", str(project), "--add", str(copy))
    assert code == 0, err
    assert "from run-\\xe9 (via its deleted copy)" in out


def test_pages_imported_from_such_a_folder_name_it_as_text(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    dataset = _latin_dataset(tmp_path)
    assert run(capsys, "project", "init", str(tmp_path / "P"))[0] == 0
    code, _, err = run(capsys, "import", str(dataset), "--project", str(tmp_path / "P"), "-q")
    assert code == 0, err
    assert "unexpected" not in err and "not imported" not in err
    with open_project(tmp_path / "P") as project:
        sources = [page.source for page in project.pages()]
        origins = {label.origin.name for label in project.labels("1") if label.origin is not None}
    assert sources == [f"{stored_text(str(dataset))}/html/{n}.html" for n in (1, 2, 3, 4)]
    assert all(SHOWN in source for source in sources)
    assert origins == {stored_text(str((dataset / "gt").resolve()))}


def test_a_run_of_a_model_trained_on_such_a_folder_is_stored(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             quick_fits: None) -> None:
    dataset = _latin_dataset(tmp_path)
    model = tmp_path / "model.json"
    code, _, err = run(capsys, "train", "--pages", str(dataset / "html"), "--gt", str(dataset / "gt"), "--out",
                       str(model), "-q", "--workers", "1")
    assert code == 0, err
    assert LATIN in json.loads(model.read_text(encoding="utf-8"))["provenance"]["trained_on"]  # its provenance
    folder = tmp_path / "run"
    assert run(capsys, "extract", "--model", str(model), "--pages", str(DEMO / "html"), "--out", str(folder),
               "-q")[0] == 0
    project = demo_project(capsys, tmp_path / "P")
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(folder))
    assert code == 0, err
    with open_project(project) as opened:
        parameters = opened.runs.get(1).parameters
    assert parameters["parameters"]["trained"].endswith(f"of {LATIN}")  # kept whole
    assert f"of {SHOWN}" in method_settings(parameters)  # `trained ...`, named as a message names it


def test_a_utf8_folder_imported_under_an_ascii_locale_is_stored_as_its_name(tmp_path: Path) -> None:
    dataset = tmp_path / "données"
    shutil.copytree(DEMO, dataset)
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}
    command = "import sys; from recordlens.core.cli.command import main; sys.exit(main(sys.argv[1:]))"
    for argv in (["project", "init", "P"], ["import", "données", "--project", "P", "-q"]):
        done = subprocess.run([sys.executable, "-c", command, *argv], cwd=tmp_path, env=env, capture_output=True,
                              timeout=120, check=False)
        assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
        assert b"unexpected" not in done.stderr
    with open_project(tmp_path / "P") as project:
        assert [page.source for page in project.pages()] == [f"données/html/{n}.html" for n in (1, 2, 3, 4)]
