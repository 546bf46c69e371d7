"""The app's warning text is red that reads on the background it is drawn on (WCAG's 4.5:1), on a dark theme as
on a light one and after a switch while it is shown: the settings' warnings, the recording panel's "does not
match", and what `annotator/qt/contrast.py` gives any other (`warning_style`)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from recordlens.annotator.agent.recorder import Recorder
from recordlens.annotator.agent.recording_panel import RecordingPanel
from recordlens.annotator.qt.contrast import READABLE, contrast, keep_as_warning, warning_style
from tests.app.agent_helpers import DEMO_SITE, shown_browser

pytestmark = pytest.mark.app

DARK, LIGHT = "#323232", "#f6f5f4"  # Adwaita's window greys


def themed(window: str) -> QPalette:
    palette = QPalette(QColor(window))
    palette.setColor(QPalette.ColorRole.WindowText, QColor("#eeeeec" if window == DARK else "#2e3436"))
    return palette


def reads(label: QLabel, on: QWidget) -> float:
    colour = re.search(r"color:\s*(#[0-9a-fA-F]{6})", label.styleSheet())
    assert colour is not None, label.styleSheet()
    return contrast(QColor(colour.group(1)), on.palette().color(QPalette.ColorRole.Window))


def test_a_warning_label_reads_on_each_theme_it_is_shown_on(qtbot):
    box = QWidget()
    qtbot.addWidget(box)
    box.setPalette(themed(DARK))
    label = QLabel("does not match")
    QVBoxLayout(box).addWidget(label)
    keep_as_warning(label, bold=True)
    box.show()
    for theme in (DARK, LIGHT, DARK):
        box.setPalette(themed(theme))
        assert reads(label, box) >= READABLE, theme
        assert "font-weight: bold" in label.styleSheet()


def test_warning_style_reads_where_the_fixed_reds_did_not(qtbot):
    dark = QWidget()
    qtbot.addWidget(dark)
    dark.setPalette(themed(DARK))
    for fixed in ("#c92a2a", "#c00000"):  # the reds the recording panel and the saved mark had
        assert contrast(QColor(fixed), QColor(DARK)) < READABLE
    red = re.search(r"#[0-9a-f]{6}", warning_style(dark)).group(0)  # type: ignore[union-attr]
    assert contrast(QColor(red), QColor(DARK)) >= READABLE


@pytest.fixture(scope="module")
def browser(qapp):
    yield from shown_browser(DEMO_SITE, (1000, 600))


def test_the_recording_panel_s_warning_reads_on_a_dark_theme(qtbot, browser):
    panel = RecordingPanel(Recorder(browser, actor="person:test"))
    qtbot.addWidget(panel)
    panel.setPalette(themed(DARK))
    panel.show()
    assert reads(panel.warning, panel) >= READABLE  # #c92a2a, fixed, read at 2.3:1 there
    panel.setPalette(themed(LIGHT))
    assert reads(panel.warning, panel) >= READABLE
