"""The one entry script of the frozen folder: both programs in dist/RecordLens/ are built from it.

`recordlens` and `recordlens-annotator` share one PyInstaller analysis (one `_internal/`); which program runs is
decided by the executable's name, so the two cannot drift apart in what they bundle.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

CLI_NAME = "recordlens"


def _run_module(argv: list[str]) -> int:
    """`PROGRAM -m MODULE ARGS`: the app starts helpers as `sys.executable -m ...` (the page saver); frozen,
    sys.executable is this program and not a Python interpreter, so the flag is honoured here."""
    module = argv[2]
    sys.argv = [argv[0], *argv[3:]]
    runpy.run_module(module, run_name="__main__", alter_sys=True)  # its SystemExit ends the program as usual
    return 0


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == "-m":
        return _run_module(sys.argv)
    if Path(sys.executable).stem == CLI_NAME:
        from recordlens.annotator.cli import main as cli_main

        return cli_main()
    from recordlens.annotator.install_check import run_if_installed

    return run_if_installed()  # the app; a file missing from the folder is said in one line, not as a traceback


if __name__ == "__main__":
    sys.exit(main())
