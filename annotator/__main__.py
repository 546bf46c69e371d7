"""`python -m recordlens.annotator`: the desktop app (as `recordlens-annotator`)."""

import sys

from .app import main

sys.exit(main())
