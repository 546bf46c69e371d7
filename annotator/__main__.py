"""`python -m annotator` (from a source checkout) and `python -m recordlens.annotator`: the desktop app."""

import sys

from .app import main

sys.exit(main())
