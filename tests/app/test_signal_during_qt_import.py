"""Ctrl+C or SIGTERM while a command imports PySide for the first time: the command stops as interrupted (exit 130
or 143, its one line) instead of aborting ("Fatal Python error: libshiboken/signature: could not initialize part
2", exit 134). Made deterministic by an import hook in the child process that sends the signal from inside
shiboken's start-up (the import of PySide6.support, which its signature module runs from C)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ctrl_c import with_ctrl_c

pytestmark = pytest.mark.app

# The child: argv[1] is the signal, argv[2] what to run: `capture FOLDER` (`recordlens site capture` of a closed
# loopback port, never reached once interrupted) or `qt-browser` (what `agent run --browser qt` calls first).
SIGNAL_MID_IMPORT = """
import os, signal, sys

SIGNUM = getattr(signal, sys.argv[1])
MID_IMPORT = "PySide6.support"  # imported by shiboken's C start-up, inside PySide6's first import


class SignalMidImport:
    def find_spec(self, name, path=None, target=None):
        if name == MID_IMPORT:
            sys.meta_path.remove(self)
            print("signalled inside PySide's import", file=sys.stderr, flush=True)
            os.kill(os.getpid(), SIGNUM)
        return None


from recordlens.annotator import cli

sys.meta_path.insert(0, SignalMidImport())
if sys.argv[2] == "capture":
    sys.exit(cli.main(["site", "capture", "http://127.0.0.1:9/", "--site", sys.argv[3]]))


class Stopped(KeyboardInterrupt):  # as the command line's SIGTERM handler raises
    pass


def stop(signum, frame):
    raise Stopped


signal.signal(signal.SIGTERM, stop)
try:
    cli._qt_site_browser(None)
except KeyboardInterrupt:
    print("interrupted after the import", file=sys.stderr)
    sys.exit(128 + SIGNUM)
print("not interrupted", file=sys.stderr)
"""

STATUS = {"SIGINT": 130, "SIGTERM": 128 + signal.SIGTERM}


def run_child(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(with_ctrl_c([sys.executable, "-c", SIGNAL_MID_IMPORT, *arguments]), cwd=tmp_path,
                          capture_output=True, text=True, timeout=240, env={**os.environ, "HOME": str(tmp_path)})


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_a_signal_inside_pysides_first_import_stops_site_capture_as_interrupted(tmp_path: Path,
                                                                                 signame: str) -> None:
    done = run_child(tmp_path, signame, "capture", str(tmp_path / "site"))
    assert "signalled inside PySide's import" in done.stderr  # the hook met the import it waits for
    assert done.returncode == STATUS[signame], done.stderr[-3000:]
    assert "Fatal Python error" not in done.stderr
    said = "recordlens: interrupted (SIGTERM)" if signame == "SIGTERM" else "recordlens: interrupted"
    assert done.stderr.splitlines()[-1] == said
    assert not (tmp_path / "site").exists()  # stopped before the capture began


def test_a_signal_inside_pysides_first_import_stops_the_qt_browsers_command_as_interrupted(tmp_path: Path) -> None:
    done = run_child(tmp_path, "SIGTERM", "qt-browser")
    assert "signalled inside PySide's import" in done.stderr
    assert done.returncode == STATUS["SIGTERM"], done.stderr[-3000:]
    assert done.stderr.splitlines()[-1] == "interrupted after the import"
