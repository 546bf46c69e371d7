"""`python -m recordlens.core.cli`: core's command line alone, without the app's `qt` browser and capture renderer.

Run as a package's `__main__`, not as `-m recordlens.core.cli.command`: the package imports `command` before runpy
would run it as a script, and runpy then warns (a RuntimeWarning) on every run. Guarded, so that importing every
core module (as the no-Qt check does) runs nothing."""

import sys

from .command import main

if __name__ == "__main__":
    sys.exit(main())
