"""The `recordlens` command as the core tests run it: in this process, its exit status and what it printed."""

from __future__ import annotations

import pytest

from recordlens.core.cli.command import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`recordlens ARGV`: its exit status, stdout and stderr (read, so that the next call starts empty)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
