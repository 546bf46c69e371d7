"""Cycles are collected in the GUI thread only while the app runs: a job's thread that allocates past the
collector's threshold never frees a Qt object's wrapper (a test run once crashed with "Garbage-collecting" in a
Propose worker while it encoded a page for Gemini)."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

from recordlens.annotator.qt.env import create_application
from recordlens.annotator.qt.main_thread_gc import collect_in_the_gui_thread, installed

pytestmark = pytest.mark.app


class Holder:
    """A Python object in a reference cycle with a Qt object: garbage only the cycle collector frees."""

    def __init__(self) -> None:
        self.qt = QObject()
        self.me = self


def garbage_holding_a_qt_object() -> weakref.ref:
    holder = Holder()
    gone = weakref.ref(holder)
    del holder
    return gone


def allocate_in_a_thread(objects: int) -> list[list]:
    """What a job's thread does: allocate many objects that live on (the collector's count goes up with them)."""
    kept: list[list] = []

    def work() -> None:
        kept.extend([] for _ in range(objects))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(60)
    return kept


def test_the_app_collects_cycles_in_its_gui_thread_only(qapp: QApplication) -> None:
    assert create_application() is qapp  # the app's own way to its application
    collector = collect_in_the_gui_thread(qapp)
    assert installed() is collector and collector.active and not gc.isenabled()

    gone = garbage_holding_a_qt_object()
    made = allocate_in_a_thread(50 * gc.get_threshold()[0])  # far past the threshold: it would have run there
    assert gone() is not None  # not collected in the job's thread

    assert collector.check() > 0  # the GUI thread's look collects it, as the collector would have
    assert gone() is None and made


def test_nothing_is_collected_before_the_collectors_threshold(qapp: QApplication) -> None:
    collector = collect_in_the_gui_thread(qapp)
    gc.collect()
    gone = garbage_holding_a_qt_object()
    assert collector.check() == 0 and gone() is not None  # a young cycle waits for its generation's turn
    gc.collect()
    assert gone() is None


def test_stopping_collects_what_is_garbage_and_gives_collection_back(qapp: QApplication) -> None:
    collector = collect_in_the_gui_thread(qapp)
    gone = garbage_holding_a_qt_object()
    collector.stop()
    try:
        assert gone() is None and gc.isenabled() and not collector.active
    finally:
        collect_in_the_gui_thread(qapp)
    assert collector.active and not gc.isenabled()
