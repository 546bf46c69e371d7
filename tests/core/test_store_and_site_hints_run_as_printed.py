"""The commands the store's and the snapshot sites' messages hand the user run as printed (`command_hints`) for a
folder named `-p q` (a leading dash, which a command takes for an option, and a space): rebuilding a site's index,
indexing the pages a capture saved, importing the subfolders or the second folder of pages an import left aside,
moving a project given to an import, copying a project on read-only media (and the folder of one whose log cannot be
read there), recovering a damaged database, and copying a tasks file RecordLens ships."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from recordlens.core.agent import candidates
from recordlens.core.agent.capture import PAGES_FOLDER, CaptureSummary
from recordlens.core.agent.sites import INDEX_FILE, load_site
from recordlens.core.errors import AgentError, RecordLensError
from recordlens.core.resource_files import resource_path
from recordlens.core.store.project import PROJECT_DB, open_project
from tests.core.cli_runs import DEMO, run
from tests.core.old_projects import as_earlier_schema
from tests.core.test_safety_project_files import run_on_read_only

NAME = "-p q"
SITE = resource_path("agent", "demo-site")


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the folder named relative to here, as a user types it


def commands(said: str, start: str) -> list[str]:
    """The commands in backquotes a message hands the user that begin with `start` (`recordlens import`)."""
    found = re.findall(rf"`({re.escape(start)} [^`]+)`", said)
    assert found, said
    return found


def command(said: str, start: str) -> str:
    return commands(said, start)[0]


def run_hint(capsys: pytest.CaptureFixture[str], line: str, *more: str) -> tuple[int, str, str]:
    """`recordlens ...` as a POSIX shell splits the line, run, with `more` words after it (an example that leaves the
    project out: `recordlens import DIR`)."""
    words = shlex.split(line)
    assert words[0] == "recordlens"
    return run(capsys, *words[1:], *more)


def run_in_shell(line: str) -> subprocess.CompletedProcess[str]:
    """Another program's command (`cp`, `sqlite3`) as printed, run by a POSIX shell here."""
    return subprocess.run(["sh", "-c", line], capture_output=True, text=True, check=False, timeout=120)


def project_named(capsys: pytest.CaptureFixture[str], name: str = NAME) -> Path:
    """A project in the folder `name` (relative) holding the demo's pages and labels."""
    assert run(capsys, "project", "init", "--", name)[0] == 0
    assert run(capsys, "import", str(DEMO), f"--project={name}", "-q")[0] == 0
    return Path(name)


def pages_of(project: str | Path) -> list[str]:
    with open_project(project) as opened:
        return opened.page_names()


# A snapshot site ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("damage", ["unreadable", "a file outside", "a page missing"])
def test_the_way_to_rebuild_a_site_index_runs_as_printed(damage: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(SITE, tmp_path / NAME)
    index = tmp_path / NAME / INDEX_FILE
    data = json.loads(index.read_text(encoding="utf-8"))
    data["pages"][0]["file"] = "../elsewhere.mhtml" if damage == "a file outside" else "gone.mhtml"
    index.write_text("{" if damage == "unreadable" else json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordLensError) as caught:
        load_site(Path(NAME))
    code, _, err = run_hint(capsys, command(str(caught.value), "recordlens site build"))
    assert code == 0, err
    assert len(load_site(Path(NAME)).pages) == len(list(SITE.glob("*.mhtml")))


def test_the_way_to_index_the_pages_a_capture_saved_runs_as_printed(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / NAME / PAGES_FOLDER
    saved.mkdir(parents=True)
    for page in ("home.mhtml", "about.mhtml"):
        shutil.copy(SITE / page, saved)
    said = CaptureSummary(NAME, saved=["https://papers.example.org/", "https://papers.example.org/about"],
                          index_error="No space left on device").no_site()
    code, _, err = run_hint(capsys, command(said, "recordlens site build"))
    assert code == 0, err
    assert len(load_site(Path(NAME)).pages) == 2


def test_the_way_to_copy_a_shipped_tasks_file_runs_as_printed(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / NAME).mkdir()
    tasks = Path(NAME) / "tasks.jsonl"
    shutil.copy(resource_path("agent", "demo-tasks.jsonl"), tasks)
    monkeypatch.setattr(candidates, "is_shipped", lambda path: True)  # as where RecordLens is installed in `-p q`
    with pytest.raises(AgentError) as caught:
        candidates.refuse_shipped(tasks)
    copied = run_in_shell(command(str(caught.value), "cp"))
    assert copied.returncode == 0, copied.stderr
    assert (tmp_path / "my-tasks.jsonl").read_bytes() == tasks.read_bytes()


# An import ------------------------------------------------------------------------------------------------------


def test_the_ways_to_import_the_subfolders_an_import_left_aside_run_as_printed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / NAME
    for folder in ("ds/html", "ds/gt", "labels", "pages"):
        (data / folder).mkdir(parents=True)
    shutil.copy(DEMO / "html" / "1.html", data)                     # a page of its own: the import goes on
    shutil.copy(DEMO / "html" / "2.html", data / "ds" / "html")     # a dataset
    shutil.copy(DEMO / "gt" / "2.json", data / "ds" / "gt")
    shutil.copy(DEMO / "gt" / "1.json", data / "labels")            # labels alone, of the page 1 imported
    shutil.copy(DEMO / "html" / "3.html", data / "pages")           # pages alone
    assert run(capsys, "project", "init", "P")[0] == 0
    code, _, err = run(capsys, "import", f"./{NAME}", "--project", "P", "-q")
    assert code == 0 and "3 subfolders not looked into" in err, err
    dataset, labels, pages = commands(err, "recordlens import")
    for line in (dataset, labels, pages):
        code, _, err = run_hint(capsys, line, "--project", "P", "-q")
        assert code == 0, (line, err)
    assert pages_of("P") == ["1", "2", "3"]
    with open_project("P") as project:
        assert "NAME" in project.annotators.names()


def test_the_ways_to_import_a_dataset_s_second_folder_of_pages_run_as_printed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / NAME
    for folder in ("html", "gt", "mhtml"):
        (data / folder).mkdir(parents=True)
    shutil.copy(DEMO / "html" / "1.html", data / "html")
    shutil.copy(DEMO / "gt" / "1.json", data / "gt")
    shutil.copy(SITE / "about.mhtml", data / "mhtml")
    assert run(capsys, "project", "init", "P")[0] == 0
    code, _, err = run(capsys, "import", f"./{NAME}", "--project", "P", "-q")
    assert code == 0 and "mhtml/ beside it" in err, err
    pages, labels = commands(err, "recordlens import")
    for line in (pages, labels):
        code, _, err = run_hint(capsys, line, "--project", "P", "-q")
        assert code == 0, (line, err)
    assert pages_of("P") == ["1", "about"]


def test_the_ways_to_move_a_project_given_to_an_import_run_as_printed(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    project_named(capsys)
    assert run(capsys, "project", "init", "P")[0] == 0
    code, _, err = run(capsys, "import", f"./{NAME}", "--project", "P")
    assert code != 0 and "a RecordLens project" in err, err
    code, _, said = run_hint(capsys, command(err, "recordlens project copy"))
    assert code == 0, said
    assert pages_of("DEST") == ["1", "2", "3", "4"]
    code, _, said = run_hint(capsys, command(err, "recordlens export"))
    assert code == 0, said
    code, _, said = run_hint(capsys, command(err, "recordlens import"), "--project", "P", "-q")
    assert code == 0, said
    assert pages_of("P") == ["1", "2", "3", "4"]


# A project that cannot be written, or is damaged ----------------------------------------------------------------


def test_the_way_to_copy_a_project_on_read_only_media_runs_as_printed(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    project_named(capsys)
    refused = run_on_read_only(tmp_path / NAME, ["import", str(DEMO), f"--project={NAME}"])
    assert refused.returncode == 2 and "the folder is read-only" in refused.stderr, refused.stderr
    code, _, err = run_hint(capsys, command(refused.stderr, "recordlens project copy").replace("NEW", "copy"))
    assert code == 0, err
    assert pages_of("copy") == ["1", "2", "3", "4"]


def test_the_way_to_copy_a_read_only_project_of_schema_0_runs_as_printed(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    project_named(capsys)
    as_earlier_schema(tmp_path / NAME, 0)  # a version no RecordLens reads as it is
    refused = run_on_read_only(tmp_path / NAME, ["labels", "check", f"--project={NAME}"])
    assert refused.returncode == 2 and "(schema version 0," in refused.stderr, refused.stderr
    args = shlex.split(command(refused.stderr, "recordlens project copy"))
    assert Path(args[3]).resolve() == (tmp_path / NAME).resolve() and not args[3].startswith("-")


def test_the_way_to_copy_a_read_only_project_whose_log_cannot_be_read_there_runs_as_printed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = project_named(capsys, "P")
    writer = sqlite3.connect(project / PROJECT_DB)  # the app, say, with changes not yet in the database file
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("UPDATE pages SET status = 'reviewed' WHERE name = '1'")
    writer.commit()
    shutil.copytree(project, tmp_path / NAME)  # copied while open: its log goes with it
    writer.close()
    (tmp_path / NAME / f"{PROJECT_DB}-shm").unlink()
    refused = run_on_read_only(tmp_path / NAME, ["project", "copy", "--", NAME, "c2"])
    assert refused.returncode == 2 and "its latest changes are in" in refused.stderr, refused.stderr
    copied = run_in_shell(command(refused.stderr, "cp -r"))
    assert copied.returncode == 0, copied.stderr
    assert (tmp_path / "NEW" / f"{PROJECT_DB}-wal").is_file()


def test_the_way_to_recover_a_damaged_database_runs_as_printed(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("sqlite3") is None:
        pytest.skip("no sqlite3 command here")
    database = project_named(capsys) / PROJECT_DB
    data = database.read_bytes()
    database.write_bytes(data[: len(data) // 2])  # a copy or a disk that stopped part way
    code, _, err = run(capsys, "runs", f"--project={NAME}")
    assert code == 2 and "the file is damaged" in err, err
    recovered = run_in_shell(command(err, "sqlite3"))  # what it rescues of a file cut in half, written out
    assert recovered.stdout.startswith("BEGIN;") and "user_version" in recovered.stdout, recovered.stderr
