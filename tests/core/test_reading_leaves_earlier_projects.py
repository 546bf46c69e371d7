"""A command that only reads a project (export, labels check, the lists of runs and annotators, agreement, train
--out elsewhere) reads a project of an earlier RecordLens as it is: through a copy of its database brought up to
date and thrown away, the project left as it was for the RecordLens that made it, said once; a command that writes
brings it up to date as before. `project copy` of such a project says that the copy is of this schema."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from recordlens.core.store import open_project, take_upgrades
from recordlens.core.store.project_copy import open_to_read
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.core.cli_runs import DEMO, demo_project, run
from tests.core.old_projects import as_earlier_schema, version_of

EARLIER = 10


@pytest.fixture
def earlier(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    """The demo project as a RecordLens of schema 10 left it; temporary files go to a folder of the test's own."""
    folder = demo_project(capsys, tmp_path / "p")
    assert run(capsys, "import", str(DEMO), "--project", str(folder), "--annotator", "bo", "-q")[0] == 0
    as_earlier_schema(folder, EARLIER)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    return folder


def read_as_it_is(folder: Path) -> str:
    return (f"recordlens: {folder}: project of an earlier RecordLens (schema {EARLIER}), read as it is and left as it "
            f"was (that RecordLens still opens it); a command that writes to it brings it up to schema "
            f"{SCHEMA_VERSION}, which earlier versions cannot open")


COMMANDS = {
    "export": ("export", "--project", "{project}", "--format", "jsonl", "--out", "{tmp}/out", "-q"),
    "runs": ("runs", "--project", "{project}"),
    "labels check": ("labels", "check", "--project", "{project}"),
    "annotators": ("annotators", "--project", "{project}"),
    "agreement": ("agreement", "--project", "{project}", "--between", "project", "bo"),
    "train elsewhere": ("train", "--project", "{project}", "--out", "{tmp}/model.json", "--workers", "1", "-q"),
}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_that_only_reads_leaves_an_earlier_project_as_it_was(
        earlier: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    before = (earlier / "project.db").read_bytes()
    code, out, err = run(capsys, *(word.format(project=earlier, tmp=tmp_path) for word in COMMANDS[command]))
    assert "brought up" not in err, err
    assert err.count(read_as_it_is(earlier)) == 1, err  # once, however often the command opened it
    assert version_of(earlier / "project.db") == EARLIER and (earlier / "project.db").read_bytes() == before
    assert not (earlier / "removed").exists()
    assert list((tmp_path / "tmp").iterdir()) == []  # the copy read is thrown away
    assert code == 0, err  # and read what the project holds:
    if command == "export":
        assert len((tmp_path / "out" / "labels.jsonl").read_text(encoding="utf-8").splitlines()) > 4
    if command == "runs":
        assert "(no runs yet)" in out
    if command == "annotators":
        assert out.startswith("bo: 4 pages")


def test_a_command_that_writes_brings_it_up_to_date_as_before(earlier: Path, capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    code, _, err = run(capsys, "import", str(DEMO / "html" / "1.html"), "--project", str(earlier), "-q")
    assert code == 0 and f"project brought up from schema {EARLIER} to {SCHEMA_VERSION}" in err
    assert "read as it is" not in err and version_of(earlier / "project.db") == SCHEMA_VERSION


def test_open_to_read_reads_an_earlier_project_through_a_copy_thrown_away_at_close(earlier: Path,
                                                                                    tmp_path: Path) -> None:
    with open_to_read(earlier) as project:
        assert project.schema_version() == SCHEMA_VERSION and project.root == earlier
        assert [p.name for p in project.pages()] == ["1", "2", "3", "4"]
        assert project.snapshot_file("1").is_file()  # the project's own saved pages
    assert version_of(earlier / "project.db") == EARLIER and list((tmp_path / "tmp").iterdir()) == []
    (said,) = take_upgrades()
    assert f"recordlens: {said.message()}" == read_as_it_is(earlier)
    with open_project(earlier) as project:  # the project itself, opened to write: brought up to date
        assert project.schema_version() == SCHEMA_VERSION
    assert [upgrade.found for upgrade in take_upgrades()] == [EARLIER]


def test_a_copy_of_an_earlier_project_says_its_schema(earlier: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "project", "copy", str(earlier), str(tmp_path / "copy"))
    assert code == 0
    assert (f"recordlens: the copy {tmp_path / 'copy'} is of schema {SCHEMA_VERSION} (brought up from the project's "
            f"schema {EARLIER}): earlier RecordLens versions cannot open it; the project copied is left as it was"
            ) in err
    assert version_of(earlier / "project.db") == EARLIER
    assert version_of(tmp_path / "copy" / "project.db") == SCHEMA_VERSION
    code, _, err = run(capsys, "project", "copy", str(tmp_path / "copy"), str(tmp_path / "again"))
    assert code == 0 and "is of schema" not in err  # a copy of a current project: nothing to say


def test_a_project_read_as_it_is_then_brought_up_to_date_is_said_brought_up_alone(earlier: Path) -> None:
    """A command that reads it first, then writes to it (`score --project --ceiling` the other way round), says
    the upgrade only: "left as it was" no longer holds."""
    open_to_read(earlier).close()
    open_project(earlier).close()
    assert [type(said).__name__ for said in take_upgrades()] == ["SchemaUpgrade"]


def test_an_earlier_project_on_read_only_media_is_read_as_it_is(earlier: Path, tmp_path: Path) -> None:
    """Refused before ("copy it, where it is brought up to date"): read through a copy brought up to date, as where
    it can be written."""
    from tests.core.test_safety_project_files import run_on_read_only

    exported = run_on_read_only(earlier, ["export", "--project", str(earlier), "--format", "nexteval", "--out",
                                          str(tmp_path / "export"), "-q"])
    assert exported.returncode == 0, exported.stderr
    assert read_as_it_is(earlier) in exported.stderr
    assert sorted(p.name for p in (tmp_path / "export" / "gt").iterdir()) == ["1.json", "2.json", "3.json", "4.json"]
    assert version_of(earlier / "project.db") == EARLIER
