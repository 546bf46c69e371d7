"""The windows the labelling window opens beside itself, each built when first asked for: the history of the page
on show (Edit → History), the shortcut sheet, the recent messages, the settings dialog and the agent-benchmark window.

The window owns this as `window.tools`; it sees the window through the `LabellingWindow` protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.errors import os_error_said
from ..settings import gemini_key, proposal_method
from ..settings_dialog import SettingsDialog
from .history_dialog import HistoryDialog
from .messages_dialog import MessagesDialog
from .shortcuts import ShortcutSheet

if TYPE_CHECKING:
    from .window_parts import LabellingWindow


class ToolWindows:
    def __init__(self, window: LabellingWindow) -> None:
        self.window = window
        self.history_dialog: HistoryDialog | None = None
        self.sheet: ShortcutSheet | None = None
        self.messages_dialog: MessagesDialog | None = None
        self.agent_window: Any = None  # an AgentWindow, imported only when first opened

    def do_history(self) -> None:
        window = self.window
        if window.page_name is None:
            return
        if self.history_dialog is None:
            self.history_dialog = HistoryDialog(window)
            self.history_dialog.restore_requested.connect(window.record_actions.restore_to)
            # Undo and redo are window shortcuts, and the dialog is a window of its own: without this, Ctrl+Z
            # pressed right after "Restore to here" would do nothing.
            self.history_dialog.addActions([window.actions_by_name["undo"], window.actions_by_name["redo"]])
        # Opened again: it starts from the newest change, not from the one chosen last time (the same keys
        # pressed again would restore another change)
        self.history_dialog.show_page(window.project, window.page_name, keep_choice=self.history_dialog.isVisible())
        self.history_dialog.show()
        self.history_dialog.raise_()

    def refresh_history(self) -> None:
        """Every change (edits, undo, redo, another page) is a new entry or another page: keep the list true."""
        window = self.window
        if self.history_dialog is not None and self.history_dialog.isVisible() and window.page_name is not None:
            self.history_dialog.show_page(window.project, window.page_name)

    def hide_history(self) -> None:
        """The project changes: the history shows a page of the one just closed."""
        if self.history_dialog is not None:
            self.history_dialog.hide()

    def do_settings(self) -> None:
        window = self.window
        dialog = SettingsDialog(window.settings, window.keys, window, annotators=window.project.annotators.names())
        if dialog.exec():
            dialog.apply()
            try:
                window.settings.save(window.settings_file)
            except OSError as error:
                window.message(f"settings not saved: {os_error_said(error)}", 10000)
                return
            if dialog.uses_gemini() and not gemini_key(window.keys):
                window.message("Gemini is the default but no key is set: Propose uses the offline extractor", 10000)
            else:
                window.message(f"settings saved; Propose uses "
                               f"{proposal_method(window.settings, has_key=bool(gemini_key(window.keys)))}")

    def do_help(self) -> None:
        if self.sheet is None:
            self.sheet = ShortcutSheet(self.window)
        self.sheet.show()
        self.sheet.raise_()

    def do_messages(self) -> None:
        if self.messages_dialog is None:
            self.messages_dialog = MessagesDialog(self.window)
        self.messages_dialog.show_log(self.window.messages)
        self.messages_dialog.show()
        self.messages_dialog.raise_()

    def refresh_messages(self) -> None:
        """A new message: the list, when open, shows it too."""
        if self.messages_dialog is not None and self.messages_dialog.isVisible():
            self.messages_dialog.show_log(self.window.messages)

    def open_agent_tools(self):  # noqa: ANN201 - an AgentWindow
        """Open (or raise) the agent-benchmark window: snapshot sites, recording, trajectories, tasks."""
        from ..agent.window import AgentWindow

        if self.agent_window is None or self.agent_window.closed:
            # The window's own settings object: one saved by either window keeps what the other remembered
            self.agent_window = AgentWindow(self.window.project, person=self.window.settings.person,
                                            settings=self.window.settings, settings_file=self.window.settings_file)
        self.agent_window.show()
        self.agent_window.raise_()
        return self.agent_window

    def may_close(self) -> bool:
        """Whether the app may quit: False when the agent window's unsaved task edits are kept (Cancel)."""
        agent = self.agent_window
        return agent is None or agent.closed or agent.may_close()

    def close(self) -> None:
        """The window closes: its tool windows go with it."""
        if self.agent_window is not None:
            self.agent_window.close()
        if self.history_dialog is not None:
            self.history_dialog.close()
        if self.messages_dialog is not None:
            self.messages_dialog.close()
