"""What core logs (`logging.getLogger(__name__).warning`: a killed process's file removed, a run left unmarked, a
killed training's lock taken over) is said by a command as its other warnings (`warning: ...` on stderr): before,
no handler was set up and Python's last resort printed the bare message. A program that sets its logging up keeps
its own format; the fit workers' fallback (`fit_pool._say_fallback`, which prints `warning:` itself without a
handler) is said once either way. Run as the installed command runs, in a process of its own."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_path
from recordlens.core.resource_files import resource_path
from recordlens.core.store.project import init_project
from recordlens.core.store.removed_files import safe_name
from tests.conftest import ROOT

# The command given as JSON; "logging": the program sets its logging up before it runs the command (as the app)
COMMAND = """import json, logging, sys
from recordlens.core.cli.command import main
from recordlens.core.extract import fit_pool
if sys.argv[1] == "logging":
    logging.basicConfig(format="the program: %(levelname)s: %(message)s")
fit_pool.WORKER_MODULE = "recordlens.no_such_module"  # a fit worker ends at its start
status = main(json.loads(sys.argv[2]))
handlers = logging.getLogger().handlers  # the command's handler goes with it; the program's stays
assert len(handlers) == (0 if sys.argv[1] == "none" else 1), handlers
sys.exit(status)
"""
DEMO = resource_path("demo", "dataset")


def stderr(argv: list[str], setup: str = "none", **env: str) -> str:
    """What the command wrote on stderr, once it ended well."""
    done = subprocess.run([sys.executable, "-c", COMMAND, setup, json.dumps(argv)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    return done.stderr


def a_dead_process() -> int:
    """The id of a process of this machine that no longer runs."""
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                           check=True, timeout=60)
    return int(child.stdout)


def project_with_a_killed_commands_folder(tmp_path: Path) -> tuple[Path, Path, int]:
    """A project whose `removed/annotators/` holds the hidden folder a command killed part way left."""
    folder = tmp_path / "p"
    init_project(folder).close()
    dead = a_dead_process()
    here = safe_name(socket.gethostname(), "host")
    left = folder / "removed" / "annotators" / f".bea.T.partial-{dead}-{here}-0a1b2c3d"
    (left / "gt").mkdir(parents=True)
    return folder, left, dead


def test_a_warning_core_logs_is_said_as_the_commands_other_warnings(tmp_path: Path) -> None:
    folder, left, dead = project_with_a_killed_commands_folder(tmp_path)
    assert stderr(["annotators", "--project", str(folder)]).splitlines() == [
        f"warning: removed {hint_path(left)}, left by process {dead} of this machine as it was writing it (it no "
        "longer runs: killed part way?)"]
    assert not left.exists()


def test_a_program_that_set_its_logging_up_keeps_its_own_format(tmp_path: Path) -> None:
    folder, left, dead = project_with_a_killed_commands_folder(tmp_path)
    assert stderr(["annotators", "--project", str(folder)], "logging").splitlines() == [
        f"the program: WARNING: removed {hint_path(left)}, left by process {dead} of this machine as it was writing "
        "it (it no longer runs: killed part way?)"]


@pytest.mark.parametrize("setup", ["none", "logging"])
def test_the_fit_workers_fallback_is_said_once(tmp_path: Path, setup: str) -> None:
    said = stderr(["train", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out",
                   str(tmp_path / "model.json"), "-q"], setup, RECORDLENS_FIT_WORKERS="2")
    # the workers' own tracebacks share the stream, and may come in the middle of a line: the words are counted
    start = "warning: " if setup == "none" else "the program: WARNING: "
    assert said.count("fitting in worker processes failed") == 1, said
    assert f"{start}fitting in worker processes failed (" in said, said
