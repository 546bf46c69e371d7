"""A light and a dark theme for the app tests, switched as the desktop switches one while the app runs: Qt sets the
application's palette. The session has one application for every test: a test that switches the theme puts the
palette it found back (`theme_put_back`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

Theme = tuple[str, str, str, str]  # a list's rows, every other row, text, the window
LIGHT: Theme = ("#ffffff", "#f7f7f7", "#000000", "#efefef")
DARK: Theme = ("#323232", "#2b2b2b", "#e0e0e0", "#353535")


def theme(base: str, alternate: str, text: str, window: str | None = None) -> QPalette:
    """A theme's palette: a list's rows in `base` and `alternate`, its text in `text`, the window in `window` (the
    rows' colour when not given)."""
    palette = QPalette(QColor(window or base))
    for role, colour in ((QPalette.ColorRole.Base, base), (QPalette.ColorRole.AlternateBase, alternate),
                         (QPalette.ColorRole.Text, text), (QPalette.ColorRole.Window, window or base)):
        palette.setColor(role, QColor(colour))
    return palette


def switch_to(colours: Theme) -> None:
    """The theme switched as the desktop switches it (the application's palette), and what follows it done."""
    QApplication.setPalette(theme(*colours))
    QApplication.processEvents()


@contextmanager
def theme_put_back() -> Iterator[None]:
    """The application's palette as it was before, once the block is done."""
    before = QPalette(QApplication.palette())
    try:
        yield
    finally:
        QApplication.setPalette(before)
        QApplication.processEvents()
