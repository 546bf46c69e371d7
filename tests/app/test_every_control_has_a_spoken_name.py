"""What a screen reader gets of the windows' controls: every control and text shown (a button, a field, a list, a
table and its headers, a text view) has a name of its own, and a button that shows no text has a tip. A walk of
Qt's accessibility tree found eight without one: the shortcut sheet's text, the recent messages' text, the History
list's header, the agent window's steps of a trajectory, its tasks table with both headers and the corner button
that selects all. A control added without a name fails here.

On the main window's project (tests/app/demo_project.py): labelling, Review (bea's labels against the project's),
its tool windows, the settings, and each tab of the agent window."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.qt.event_loop import spin
from recordlens.annotator.settings_dialog import SettingsDialog
from tests.app.review_helpers import review_bea

pytestmark = pytest.mark.app

# What a person reaches with the keys or reads: each must be named for a screen reader to say what it is.
SPOKEN = (QAbstractButton, QComboBox, QLineEdit, QAbstractSpinBox, QAbstractItemView, QTextEdit, QPlainTextEdit,
          QTabBar)


def spoken_name(widget: QWidget) -> str:
    """The name a screen reader says for `widget`: its accessible interface's."""
    interface = QAccessible.queryAccessibleInterface(widget)
    return (interface.text(QAccessible.Text.Name) or "").strip() if interface is not None else ""


def unnamed(top: QWidget) -> list[str]:
    """The controls and texts shown in `top` that a screen reader would name with nothing, and the buttons that
    show no text and have no tip."""
    found = []
    for widget in (top, *top.findChildren(QWidget)):
        if not widget.isVisible() or not isinstance(widget, SPOKEN):
            continue
        where = f"{type(widget).__name__} {widget.objectName()} in {type(widget.parentWidget()).__name__}"
        if not spoken_name(widget):
            found.append(f"no name: {where}")
        if isinstance(widget, QAbstractButton) and not widget.text().strip() and not widget.toolTip():
            found.append(f"no text nor tip: {where}")
    return found


def test_the_main_window_names_every_control_in_labelling_and_review(qtbot, window: MainWindow) -> None:
    assert unnamed(window) == []
    project = window.project
    project.annotators.set_page("bea", "1", project.true_records("1")[3:])
    review_bea(qtbot, window)
    window.tabs.setCurrentWidget(window.review_panel)
    spin(100)
    assert window.review_panel.records.isVisible()
    assert unnamed(window) == []


def test_history_and_recent_messages_name_their_texts_and_headers(qtbot, window: MainWindow) -> None:
    window.tools.do_history()
    window.tools.do_messages()
    dialogs = (window.tools.history_dialog, window.tools.messages_dialog)
    try:
        for dialog in dialogs:
            qtbot.waitUntil(dialog.isVisible, timeout=5_000)
            assert unnamed(dialog) == [], dialog.windowTitle()
    finally:
        for dialog in dialogs:
            dialog.close()


def test_the_shortcut_sheet_names_its_text(qtbot, window: MainWindow) -> None:
    window.tools.do_help()
    sheet = window.tools.sheet
    try:
        qtbot.waitUntil(sheet.isVisible, timeout=5_000)
        assert unnamed(sheet) == []
    finally:
        sheet.close()


def test_the_settings_name_every_control(qtbot, window: MainWindow) -> None:
    dialog = SettingsDialog(window.settings, window.keys, window, annotators=window.project.annotators.names())
    dialog.show()
    try:
        qtbot.waitUntil(dialog.isVisible, timeout=5_000)
        assert unnamed(dialog) == []
    finally:
        dialog.close()


def test_every_tab_of_the_agent_window_names_its_controls(qtbot, window: MainWindow) -> None:
    agent = window.tools.open_agent_tools()
    try:
        tabs = agent.findChild(QTabWidget)
        assert tabs is not None
        walked: set[QWidget] = set()
        for index in range(tabs.count()):
            tabs.setCurrentIndex(index)
            spin(100)
            assert unnamed(agent) == [], tabs.tabText(index)
            walked.update(widget for widget in agent.findChildren(QWidget) if widget.isVisible())
        table = agent.task_editor.table
        assert {agent.viewer.timeline, table, table.horizontalHeader(), table.verticalHeader()} <= walked
        assert any(isinstance(widget, QAbstractButton) and widget.parentWidget() is table for widget in walked)
    finally:
        agent.close()
