"""`recordlens-annotator --version` says the version as `recordlens --version` does, before any Qt module loads.
(Proposed with /tmp/fix41/smoke-PROPOSED-annotator-version.patch; fails before it: "unrecognized arguments".)"""

from __future__ import annotations

import subprocess
import sys

from recordlens.core.version import version_line


def test_the_annotator_says_its_version() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys; from recordlens.annotator.install_check import "
                           "run_if_installed; sys.exit(run_if_installed())", "--version"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, version_line("recordlens-annotator") + "\n", "")
    assert version_line("recordlens-annotator").split()[1] == version_line("recordlens").split()[1]
