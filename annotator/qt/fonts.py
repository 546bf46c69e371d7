"""A machine with no fonts at all (fontconfig finds none: a bare container, a minimal install), said as such.

Without a font Qt draws every letter as an empty box, and Chromium's renderer crashes on a page with text, so a
page "does not load" although nothing is wrong with it. `no_fonts()` tells, once the QApplication exists. The
first time it finds none it adds the font matplotlib ships (DejaVu Sans, in the packaged folder too) to the
process's fonts, which Qt's widgets and Chromium (whose renderers ask the app's process for fonts) then draw with,
and says on the log (stderr) that no fonts are installed, what to install, and what that one font cannot draw.
A page's view says it too (`NoFontsNote`), for a user who started the app from a menu and reads no stderr.

It is asked as each process's application is made, before any window or page: by `env.create_application` (the
app, `agent run`'s browser), and by `OnlinePage` in the processes that save a page or capture a site, which make
their application themselves (online).
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QMouseEvent
from PySide6.QtWidgets import QLabel, QWidget

from ...core.errors import RecordLensError

# The fonts `make system-deps` installs (the Makefile's DEB_PACKAGES; tests/app/test_no_fonts_said.py checks that
# the two lists agree): Latin, Greek, Cyrillic, Hebrew, Arabic, Chinese, Japanese, Korean, Thai and emoji.
FONT_PACKAGES = ("fonts-dejavu-core", "fonts-liberation", "fonts-droid-fallback", "fonts-nanum", "fonts-thai-tlwg",
                 "fonts-noto-color-emoji")
NO_FONTS = ("no fonts are installed (fontconfig finds none): install some, on Debian or Ubuntu with "
            f"`sudo apt-get install {' '.join(FONT_PACKAGES)}`")
WITH_THE_FONT_CARRIED = ("meanwhile RecordLens draws with the one font it carries (DejaVu Sans), which has no "
                         "Chinese, Japanese, Korean, Thai or emoji: those show as empty boxes")
WITHOUT_A_FONT = "meanwhile all text shows as empty boxes, and pages cannot be drawn"

_log = logging.getLogger(__name__)


class NoFontsError(RecordLensError):
    """A page could not be drawn on a machine with no fonts (the fonts are to blame, not the page)."""

    def __init__(self) -> None:
        super().__init__(f"the page could not be drawn: {no_fonts_said()}")


def fonts_missing() -> bool:
    """Whether Qt's default font comes to no font at all. Qt's database lists fontconfig's generic families (Sans
    Serif, Serif, Monospace) even when it finds no font file, so its list of families is never empty."""
    return not QFontInfo(QFont()).family()


def no_fonts() -> bool:
    """Whether the machine has no fonts, as found the first time this is asked (after that the process has the
    font it carries, see the module's doc); said on the log then."""
    return bool(no_fonts_said())


@cache
def no_fonts_said() -> str:
    """What was said of the machine having no fonts ("" when it has some)."""
    if not fonts_missing():
        return ""
    said = f"{NO_FONTS}; {WITH_THE_FONT_CARRIED if _add_the_font_carried() else WITHOUT_A_FONT}"
    _log.warning(said)
    return said


def _add_the_font_carried() -> bool:
    """DejaVu Sans from matplotlib's data (a dependency of RecordLens) for the process; whether it could be."""
    import matplotlib

    font = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    return QFontDatabase.addApplicationFont(str(font)) >= 0


class NoFontsNote(QLabel):
    """What `no_fonts_said`, across the top of a page's view (made on a machine with no fonts), until clicked."""

    def __init__(self, view: QWidget) -> None:
        super().__init__(no_fonts_said(), view)
        self.setWordWrap(True)
        self.setMargin(8)
        self.setAutoFillBackground(True)
        self.setToolTip("click to hide")
        view.installEventFilter(self)
        self._place(view)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        # The view makes the widget it draws the page in when it is first shown: the note stays above it
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.ChildAdded):
            self._place(watched)
        return False

    def mousePressEvent(self, _event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        self.hide()

    def _place(self, view: QObject) -> None:
        if isinstance(view, QWidget):
            self.setGeometry(0, 0, view.width(), self.heightForWidth(view.width()))
            self.raise_()
