"""The `recordlens` command as the core tests run it: in this process, its exit status and what it printed; and
the demo dataset, with the command that extracts its pages."""

from __future__ import annotations

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path

DEMO = resource_path("demo", "dataset")  # the demo's four pages and their labels
EXTRACT = ("extract", "--method", "mdr", "--pages", str(DEMO / "html"), "--out")  # the run folder to follow


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`recordlens ARGV`: its exit status, stdout and stderr (read, so that the next call starts empty)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
