"""`python -m recordlens.core.cli` runs core's command line alone (docs/architecture.md's entry point). It was
`python -m recordlens.core.cli.command`, which printed runpy's RuntimeWarning on every run: the package imports
`command` before runpy would run it as a script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_python_m_core_cli_prints_its_help_without_a_warning(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "recordlens.core.cli", "--help"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "RuntimeWarning" not in done.stderr and "Warning" not in done.stderr, done.stderr
    assert done.stdout.startswith("usage: recordlens "), done.stdout[:200]


def test_the_architecture_page_names_the_entry_point_that_runs() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert "`python -m recordlens.core.cli`" in page
    assert "python -m recordlens.core.cli.command" not in page
