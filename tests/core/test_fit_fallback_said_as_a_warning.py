"""Fit workers that cannot start leave the fits to the process, which says so: in a command, whose logging nobody
sets up, as a command's other warnings (`warning: ...`; Python's last resort printed the bare message), and in a
program that set its logging up (the app) through its log."""

from __future__ import annotations

import re
import subprocess
import sys

SCRIPT = """import logging, math, sys
from recordlens.core.extract import fit_pool
if sys.argv[1] == "logging":
    logging.basicConfig(format="the app: %(levelname)s: %(message)s")
fit_pool.WORKER_MODULE = "recordlens.no_such_module"  # every worker ends at its start
print(fit_pool.map_fits(math.sqrt, [1.0, 4.0, 9.0], workers=2))
"""


def _said(setup: str) -> tuple[str, str]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, setup], capture_output=True, text=True, timeout=120,
                          check=True)
    return done.stdout, done.stderr


def _lines_of(said: str, err: str) -> list[str]:
    """The warnings `said` (a pattern) in the whole of `err`: the workers' own "No module named" lines, written at
    the same moment from other processes, may share a line with it."""
    return re.findall(said, err)


def test_a_command_says_it_as_its_other_warnings() -> None:
    out, err = _said("none")
    assert out == "[1.0, 2.0, 3.0]\n"
    warned = _lines_of(r"warning: fitting in worker processes failed \(a worker .*?\); fitting in this process "
                       r"instead", err)
    assert len(warned) == 1 and "WARNING" not in err, err


def test_a_program_with_its_log_says_it_there() -> None:
    _, err = _said("logging")
    assert len(_lines_of(r"the app: WARNING: fitting in worker processes failed \(", err)) == 1, err
