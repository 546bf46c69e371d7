"""`python -m recordlens.annotator`: the desktop app (as `recordlens-annotator`), once the files it reads at start
are found where its install put them (`install_check`)."""

import sys

from .install_check import run_if_installed

sys.exit(run_if_installed())
