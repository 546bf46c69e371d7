"""`export`, `labels check` and `annotators` (its list) open a project as every command that only reads does
(`open_project` inside `reading_as_it_is`): a project of this schema on a read-only mount is read where it is, and
one of an earlier schema that another process of this RecordLens is bringing up to date is waited for, as `runs`
waits, not copied under it. They went their own way (`project_copy.open_to_read`), which read such a project at
once, holding the database open while the other process's upgrade needed it alone (so refusing it)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from recordlens.core.store import project as project_module
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.core.cli_runs import DEMO, demo_project, run
from tests.core.old_projects import as_earlier_schema, version_of
from tests.core.test_safety_project_files import run_on_read_only

pytestmark = pytest.mark.timeout(600)

COMMANDS = {
    "export": ("export", "--project", "{project}", "--format", "jsonl", "--out", "{tmp}/out", "-q"),
    "labels check": ("labels", "check", "--project", "{project}"),
    "annotators": ("annotators", "--project", "{project}"),
    "runs": ("runs", "--project", "{project}"),  # the way every other reader opens it, for comparison
}

# Another process of this RecordLens bringing the project (argv[1]) up to date: it holds the upgrade's mark (with
# the purpose an upgrade gives it) until its stdin closes.
UPGRADER = """
import sys
from pathlib import Path
from recordlens.core import owner_files
from recordlens.core.store import project
mark = owner_files.take(Path(sys.argv[1]) / project.UPGRADE_MARK, purpose=project._UPGRADING)
print("upgrading", flush=True)
sys.stdin.read()
owner_files.release(mark)
"""


def _argv(command: str, project: Path, tmp: Path) -> list[str]:
    return [word.format(project=project, tmp=tmp) for word in COMMANDS[command]]


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The demo project with the label set of annotator bo."""
    folder = demo_project(capsys, tmp_path / "p")
    assert run(capsys, "import", str(DEMO), "--project", str(folder), "--annotator", "bo", "-q")[0] == 0
    return folder


@pytest.mark.parametrize("command", COMMANDS)
def test_an_earlier_project_another_process_brings_up_to_date_is_waited_for(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        command: str) -> None:
    as_earlier_schema(project, 10)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    monkeypatch.setattr(project_module, "UPGRADE_WAIT_SECONDS", 1.0)  # then the wait is said as too long
    upgrader = subprocess.Popen([sys.executable, "-c", UPGRADER, str(project)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
    try:
        assert upgrader.stdout is not None and upgrader.stdout.readline() == "upgrading\n"
        code, _, err = run(capsys, *_argv(command, project, tmp_path))
    finally:
        upgrader.communicate(timeout=120)
    assert code == 2, err
    assert (f"recordlens: error: {project} is being brought up to schema {SCHEMA_VERSION} by process "
            f"{upgrader.pid} on ") in err, err
    assert list((tmp_path / "tmp").iterdir()) == []  # no copy of the database made under the upgrade
    assert version_of(project / "project.db") == 10
    code, _, err = run(capsys, *_argv(command, project, tmp_path))  # once the other process is done: read
    assert code == 0 and "read as it is" in err, err


@pytest.mark.parametrize("command", ["export", "labels check", "annotators"])
def test_a_project_on_a_read_only_mount_is_read_where_it_is(project: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, writable, _ = run(capsys, *_argv(command, project, tmp_path / "writable"))
    assert code == 0
    before = (project / "project.db").read_bytes()
    read_only = run_on_read_only(project, _argv(command, project, tmp_path / "read-only"))
    assert read_only.returncode == 0, read_only.stderr
    assert read_only.stdout.replace("read-only", "writable") == writable  # as where it can be written
    assert (project / "project.db").read_bytes() == before
    if command == "export":
        said = [(tmp_path / kind / "out" / "labels.jsonl").read_bytes() for kind in ("writable", "read-only")]
        assert said[0] == said[1] and len(said[0].splitlines()) > 4
    if command == "annotators":
        assert writable.startswith("bo: 4 pages")
