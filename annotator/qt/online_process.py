"""Running an online command (saving a page, capturing a site) from the app: the command is a Python process of
its own (the app's Chromium is offline for good), run with QProcess in the background.

The command's protocol: progress lines on stderr start with `PREFIX`, the error that ends it with
`ERROR_PREFIX`; its result is the last line of stdout, one JSON object.
"""

from __future__ import annotations

import sys
from typing import ClassVar

from PySide6.QtCore import QObject, QProcess, Signal

from .signals import emit

PREFIX = "recordlens: "
ERROR_PREFIX = "recordlens: error: "


class OnlineProcess(QObject):
    """One command at a time, run in the background; `finished(result)` is emitted once per run, with a dict
    whose `ok` says whether it succeeded and whose `message` says what happened (`result` keeps it).

    A subclass declares a `progress` signal, passes `_launch` the values it is first emitted with, turns a
    progress line into an emit (`_on_progress`) and the finished process into the result (`_result`)."""

    finished = Signal(object)
    name: ClassVar[str] = "the process"  # in messages: "the process could not start: ..."
    stop_wait_ms: ClassVar[int] = 5000  # how long `cancel` waits for SIGTERM to end it before killing it

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.process: QProcess | None = None
        self._errors: list[str] = []
        self._stderr = b""
        self._cancelled = False
        self.result: dict[str, object] | None = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.state() != QProcess.ProcessState.NotRunning

    def _launch(self, arguments: list[str], *announce: object) -> None:
        """Start `python arguments...` (forgetting the last run), once `progress(*announce)` is emitted."""
        self.result = None
        self._errors = []
        self._stderr = b""
        self._cancelled = False
        process = QProcess(self)
        process.setProgram(sys.executable)
        process.setArguments(arguments)
        process.readyReadStandardError.connect(self._on_stderr)
        process.finished.connect(self._on_finished)
        process.errorOccurred.connect(self._on_error)
        self.process = process
        emit(self.progress, *announce)
        process.start()

    def cancel(self) -> None:
        """Stop the command with SIGTERM (killing it after `stop_wait_ms`); the result says it was cancelled."""
        if self.running:
            self._cancelled = True
            self.process.terminate()
            if not self.process.waitForFinished(self.stop_wait_ms):
                self.process.kill()

    def _on_progress(self, text: str) -> None:
        """A progress line, without its prefix."""
        raise NotImplementedError

    def _result(self, code: int, status: QProcess.ExitStatus, output: list[str]) -> dict[str, object]:
        """The result of the finished process, from its exit and its stdout lines."""
        raise NotImplementedError

    def _failure(self, code: int) -> str:
        """Why the command failed: its last error line, or its exit code."""
        return self._errors[-1] if self._errors else f"{self.name} stopped (exit code {code})"

    def _on_stderr(self, flush: bool = False) -> None:
        self._stderr += bytes(self.process.readAllStandardError())
        *lines, rest = self._stderr.split(b"\n")
        self._stderr = b"" if flush else rest
        for line in [*lines, rest] if flush else lines:
            text = line.decode("utf-8", "replace").strip()
            if text.startswith(ERROR_PREFIX):
                self._errors.append(text.removeprefix(ERROR_PREFIX))
            elif text.startswith(PREFIX):
                self._on_progress(text.removeprefix(PREFIX))

    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self._finish({"ok": False, "message": f"{self.name} could not start: {self.process.errorString()}"})

    def _on_finished(self, code: int, status: QProcess.ExitStatus) -> None:
        self._on_stderr(flush=True)
        output = bytes(self.process.readAllStandardOutput()).decode("utf-8", "replace").strip().splitlines()
        self._finish(self._result(code, status, output))

    def _finish(self, result: dict[str, object]) -> None:
        if self.result is not None:
            return
        self.result = result
        emit(self.finished, result)
