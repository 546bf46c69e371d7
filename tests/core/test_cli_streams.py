"""The command in a pipeline: stderr only says how the work goes (closed, full or its reader gone, the work
finishes); stdout holds what was asked for (its reader gone: exit 141, silently; unwritable: `could not write the
output`, exit 2, never blamed on a project); text stdout's encoding cannot hold is escaped, JSON staying valid."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.run_files import META_DIR, STOPPED
from recordlens.core.store.project import init_project

DEMO = resource_path("demo", "dataset")
ROOT = Path(__file__).resolve().parents[2]
# as the installed `recordlens` script runs it
COMMAND = [sys.executable, "-c", "import sys; from recordlens.core.cli.command import main; sys.exit(main())"]
needs_dev_full = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")


def _environment(tmp_path: Path, **more: str) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"), **more}


def _started(tmp_path: Path, *argv: str, **streams: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*COMMAND, *argv], cwd=tmp_path, env=_environment(tmp_path), **streams)  # type: ignore[call-overload]


def _assert_whole_run(run: Path) -> None:
    assert sorted(p.name for p in run.glob("*.json")) == ["1.json", "2.json", "3.json", "4.json"]
    assert STOPPED not in json.loads((run / META_DIR / "run.json").read_text(encoding="utf-8"))


def test_a_progress_reader_gone_stops_nothing(tmp_path: Path) -> None:
    """`extract ... 2>&1 | head -1`: the progress bar meets a closed pipe, and the run goes on to its end."""
    child = _started(tmp_path, "extract", "--method", "mdr", "--pages", str(DEMO / "html"), "--out", "run",
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    child.stderr.close()  # type: ignore[union-attr] # the reader is gone before the first line is written
    assert child.wait(timeout=120) == 0
    _assert_whole_run(tmp_path / "run")


def test_a_closed_or_full_stderr_stops_nothing(tmp_path: Path) -> None:
    for name, redirect in (("closed", "2>&-"), ("full", "2>/dev/full" if Path("/dev/full").exists() else "")):
        if not redirect:
            continue
        line = " ".join([*map(_quoted, COMMAND), "extract", "--method", "mdr", "--pages", _quoted(str(DEMO / "html")),
                         "--out", name, redirect])
        done = subprocess.run(["sh", "-c", line], cwd=tmp_path, env=_environment(tmp_path), capture_output=True,
                              timeout=120)
        assert done.returncode == 0, (name, done.stdout)
        _assert_whole_run(tmp_path / name)


def test_a_stdout_reader_gone_ends_the_command_with_141_and_no_traceback(tmp_path: Path) -> None:
    for argv in (["extract", "--list"], ["--help"]):
        # The reader gone before the command starts: a pipe whose reading end closed after the start could still
        # take the whole output (a busy machine may run the command to its end first), and the command exit 0
        reading, writing = os.pipe()
        os.close(reading)
        try:
            child = _started(tmp_path, *argv, stdout=writing, stderr=subprocess.PIPE)
        finally:
            os.close(writing)
        _, err = child.communicate(timeout=120)
        assert child.returncode == 141, argv
        assert err == b"", err


@needs_dev_full
def test_an_unwritable_stdout_is_said_as_the_output_not_the_project_s_disk(tmp_path: Path) -> None:
    project = tmp_path / "P"
    with init_project(project):  # made here: only the commands below write to /dev/full
        pass
    for argv in (["runs", "--project", str(project), "--json"], ["extract", "--list"], ["--help"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run([*COMMAND, *argv], cwd=tmp_path, env=_environment(tmp_path), stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=120)
        assert done.returncode == 2, argv
        assert done.stderr == "recordlens: error: could not write the output (No space left on device)\n", argv


def test_json_that_stdout_cannot_encode_is_written_with_escapes(tmp_path: Path) -> None:
    """A page named `café` under PYTHONIOENCODING=ascii: the JSON stays valid (and the table is written too)."""
    dataset = tmp_path / "data"
    for kind, suffix in (("html", ".html"), ("gt", ".json")):
        (dataset / kind).mkdir(parents=True)
        shutil.copy(DEMO / kind / f"1{suffix}", dataset / kind / f"café{suffix}")
    environment = _environment(tmp_path, PYTHONIOENCODING="ascii")
    # the run to score, made in this process: only the scoring writes to the ascii stdout
    assert main(["extract", "--method", "mdr", "--pages", str(dataset / "html"), "--out", str(tmp_path / "run"),
                 "-q"]) == 0
    scoring = [*COMMAND, "score", "--pred", "run", "--gt", str(dataset / "gt"), "--pages", str(dataset / "html"), "-q"]
    done = subprocess.run([*scoring, "--json"], cwd=tmp_path, env=environment, capture_output=True, timeout=120)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert [page["page"] for page in json.loads(done.stdout)["pages"]] == ["café"]
    done = subprocess.run(scoring, cwd=tmp_path, env=environment, capture_output=True, timeout=120)
    assert done.returncode == 0 and b"caf\\u00e9 " in done.stdout


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"
