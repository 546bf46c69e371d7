"""Process setup for QtWebEngine, and the PySide 6.12 signal workaround."""

from __future__ import annotations

import os
import sys

import pytest
from PySide6.QtCore import QObject, Signal

from recordlens.annotator.qt.env import chromium_flags
from recordlens.annotator.qt.signals import emit

pytestmark = pytest.mark.app


def test_flags_are_added_once_and_keep_the_users():
    flags = chromium_flags("--lang=de --disable-gpu")
    assert chromium_flags(flags) == flags
    assert flags.split().count("--disable-gpu") == 1
    assert "--lang=de" in flags.split()
    assert "--proxy-bypass-list=<-loopback>" in flags.split()
    assert ("--no-sandbox" in flags.split()) == (os.geteuid() == 0)


def test_the_environment_was_prepared_before_the_application(qapp):
    assert "--disable-background-networking" in os.environ["QTWEBENGINE_CHROMIUM_FLAGS"]
    assert qapp.arguments()


class _Source(QObject):
    fired = Signal(str)


def test_emit_leaves_the_reference_count_of_true_alone():
    source = _Source()
    received: list[str] = []
    source.fired.connect(received.append)
    before = sys.getrefcount(True)
    for _ in range(2000):
        emit(source.fired, "x")
    assert len(received) == 2000
    assert abs(sys.getrefcount(True) - before) < 50


def test_the_windows_get_the_app_s_icon_and_desktop_name(qapp):
    from recordlens.annotator.qt.env import _give_the_windows_their_icon

    _give_the_windows_their_icon(qapp)
    assert not qapp.windowIcon().isNull() and qapp.windowIcon().availableSizes()[0].width() == 256
    assert qapp.desktopFileName() == "recordlens"
