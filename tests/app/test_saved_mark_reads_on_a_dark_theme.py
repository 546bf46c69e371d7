"""NOT SAVED, the window's warning that the database refused an edit, is red that reads on a dark theme's
background (WCAG's 4.5:1) as on a light one: `warning_style`, as every warning of the app."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QColor, QPalette

from recordlens.annotator.labelling.commands import NotSaved
from recordlens.annotator.qt.contrast import READABLE, contrast

pytestmark = pytest.mark.app


@pytest.mark.parametrize("theme", ["#323232", "#f6f5f4"])
def test_not_saved_reads_on_the_window_s_theme(window, theme):
    window.setPalette(QPalette(QColor(theme)))
    window.not_saved(NotSaved("database or disk is full"))
    assert window.saved_label.text() == "last edit NOT SAVED"
    colour = re.search(r"color:\s*(#[0-9a-fA-F]{6})", window.saved_label.styleSheet())
    assert colour is not None and contrast(QColor(colour.group(1)), QColor(theme)) >= READABLE
