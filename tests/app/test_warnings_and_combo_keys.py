"""Keyboard and dark-theme details of adjudication: the settings' warnings read on a dark theme's background as
on a light one (WCAG's 4.5:1), and Alt+Down opens the focused Review run list, the standard key, which the
window's Shift+U (Alt+Down) shortcut no longer takes from it."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QWidget

from recordlens.annotator.qt.contrast import READABLE, contrast
from tests.app.review_helpers import review_bea
from tests.app.window_helpers import FakeKeyStore, said

pytestmark = pytest.mark.app


def dark_palette() -> QPalette:
    """Adwaita dark's greys: the dialog's background #323232, its text near white."""
    palette = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#323232"), (QPalette.ColorRole.WindowText, "#eeeeec"),
                         (QPalette.ColorRole.Base, "#2d2d2d"), (QPalette.ColorRole.Text, "#eeeeec")):
        palette.setColor(role, QColor(colour))
    return palette


def text_colour(label: QLabel) -> QColor:
    found = re.search(r"color:\s*(#[0-9a-fA-F]{6})", label.styleSheet())
    return QColor(found.group(1)) if found else label.palette().color(QPalette.ColorRole.WindowText)


def readable(dialog, label: QLabel) -> float:
    return contrast(text_colour(label), dialog.palette().color(QPalette.ColorRole.Window))


def test_the_settings_warnings_read_on_a_dark_theme(qtbot):
    from recordlens.annotator.settings import Settings
    from recordlens.annotator.settings_dialog import SettingsDialog

    dark = QWidget()
    dark.setPalette(dark_palette())
    dialog = SettingsDialog(Settings(annotator="bea"), FakeKeyStore(), dark, annotators=["bea"])
    try:
        dialog.show()
        assert dialog.name_clash.isVisible()
        assert readable(dialog, dialog.name_clash) >= READABLE
        assert readable(dialog, dialog.problem) >= READABLE
        dialog.setPalette(QPalette(QColor("#f6f5f4")))  # the theme changed to a light one while it is open
        assert readable(dialog, dialog.name_clash) >= READABLE
        dialog.setPalette(dark_palette())
        assert readable(dialog, dialog.name_clash) >= READABLE
    finally:
        dialog.close()
        dark.deleteLater()


def test_alt_down_opens_the_focused_run_list(qtbot, window):
    window.project.annotators.set_page("bea", "1", window.project.true_records("1")[1:])
    review_bea(qtbot, window)
    alt_down_opens(qtbot, window.review_panel.runs)
    assert "nothing to go back down to" not in said(window)
    window.page_view.setFocus()
    QTest.keySequence(window, "Alt+Down")  # elsewhere it is still the window's Shift+U, which review refuses
    assert said(window) == "review mode: switch to the Records tab (F6) to change a record's level"


def test_alt_down_opens_the_focused_page_status_filter(qtbot, window):
    alt_down_opens(qtbot, window.page_list.status_filter)
    assert "nothing to go back down to" not in said(window)


def alt_down_opens(qtbot, combo) -> None:
    """Alt+Down on the focused combo box opens its list (closed again after)."""
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus, timeout=5_000)
    QTest.keyClick(combo, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    try:
        qtbot.waitUntil(combo.view().isVisible, timeout=5_000)
    finally:
        combo.hidePopup()
