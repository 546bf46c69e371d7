"""The recording controls beside the site browser: the task, Record/Stop, Wait, Answer, and the steps as they
are recorded (a wrong one is deleted with Del or the list's context menu, Ctrl+Z brings it back). The panel
only calls the recorder; the recorder decides what a step is.

An answer that does not match the task's gold answer is said in red before it is recorded: Answer once more
records it anyway, and the recording is marked as not matching (its success false), which the viewer and the
stored-trajectory picker show. The warning goes when the recording ends (the note that the reference was saved
marked "does not match" then follows, when it was) and when a task is chosen.

The status line speaks of the last action: a step recorded says so, and replaces what was said of an action
before it ("not recorded: …" would otherwise read as if the latest click had been dropped)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.agent import Step, Task, Trajectory
from ...core.errors import RecordLensError
from ..qt.contrast import keep_as_warning
from ..qt.widgets import button
from .recorder import Recorder
from .trajectory_replay import describe

RECORDING = "recording: every action on the page is a step"


class RecordingPanel(QWidget):
    """The recording controls beside the site browser; it only calls the recorder."""

    def __init__(self, recorder: Recorder, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.recorder = recorder
        self.tasks: list[Task] = []
        self.task_box = QComboBox()
        self.instruction = QLabel()
        self.instruction.setWordWrap(True)
        self.record_button = button("● Record", self.toggle)
        self.wait_button = button("Wait", recorder.wait)
        self.answer_edit = QLineEdit()
        self.answer_edit.setPlaceholderText("Answer…")
        self.answer_edit.setAccessibleName("answer")
        self.task_box.setAccessibleName("task")  # its label, not the task it shows
        self.answer_edit.returnPressed.connect(self.answer)
        self.answer_button = button("Answer", self.answer)
        self.steps = self._step_list()
        self.steps.setAccessibleName("steps")
        self.warning = QLabel()  # a wrong answer; kept apart from `status`, which the window writes to
        self.warning.setWordWrap(True)
        self.warning.hide()
        self._answer_confirmed: str | None = None  # the mismatching answer the user was warned about
        self.save_button = QPushButton("Save trajectory…")
        self.status = QLabel(" ")
        self.status.setWordWrap(True)
        self.task_box.currentIndexChanged.connect(self._show_instruction)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("<b>Task</b>"))
        layout.addWidget(self.task_box)
        layout.addWidget(self.instruction)
        row = QHBoxLayout()
        row.addWidget(self.record_button)
        row.addWidget(self.wait_button)
        layout.addLayout(row)
        answer = QHBoxLayout()
        answer.addWidget(self.answer_edit, 1)
        answer.addWidget(self.answer_button)
        layout.addLayout(answer)
        layout.addWidget(self.warning)
        keep_as_warning(self.warning, bold=True)  # on the panel: red that reads on a dark theme too
        layout.addWidget(QLabel("<b>Steps</b>"))
        layout.addWidget(self.steps, 1)
        layout.addWidget(self.save_button)
        layout.addWidget(self.status)
        recorder.step_recorded.connect(self._on_step)
        recorder.recording_changed.connect(self._on_recording)
        recorder.message.connect(self.status.setText)
        recorder.steps_changed.connect(self._show_steps)
        recorder.finished.connect(self._on_finished)
        self._on_recording(False)

    def _step_list(self) -> QListWidget:
        """The steps as recorded: a long one wraps (its whole text in the tooltip) rather than scrolling sideways;
        Del and the context menu delete the chosen step, Ctrl+Z brings it back."""
        steps = QListWidget()
        steps.setWordWrap(True)
        steps.setTextElideMode(Qt.TextElideMode.ElideRight)
        steps.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        steps.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        steps.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        steps.customContextMenuRequested.connect(self._step_menu)
        for keys, slot in ((QKeySequence.StandardKey.Delete, self.delete_step),
                           (QKeySequence.StandardKey.Undo, self.recorder.undo_delete)):
            shortcut = QShortcut(QKeySequence(keys), steps)
            shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(slot)
        return steps

    def set_tasks(self, tasks: list[Task]) -> None:
        self.tasks = list(tasks)
        self.task_box.clear()
        self.task_box.addItem("(no task: free browsing)")
        for task in self.tasks:
            self.task_box.addItem(f"{task.id} · {task.category}")
        if self.tasks:
            self.task_box.setCurrentIndex(1)

    def current_task(self) -> Task | None:
        index = self.task_box.currentIndex() - 1
        return self.tasks[index] if 0 <= index < len(self.tasks) else None

    def choose(self, task: Task) -> None:
        self._clear_warning()  # picked again, even the task already shown: a fresh start
        ids = [t.id for t in self.tasks]
        if task.id in ids:
            self.tasks[ids.index(task.id)] = task
            self.task_box.setCurrentIndex(ids.index(task.id) + 1)
        else:
            self.set_tasks([*self.tasks, task])
            self.task_box.setCurrentIndex(len(self.tasks))

    def _show_instruction(self) -> None:
        self.answer_edit.clear()  # another task: what was typed for the last one goes
        self._clear_warning()
        if not self.recorder.recording:
            self.steps.clear()  # the last task's steps are not this one's
        task = self.current_task()
        self.instruction.setText(task.instruction if task else "Record on the site's first page.")

    def toggle(self) -> None:
        if self.recorder.recording:
            self.recorder.stop()
            return
        self.steps.clear()
        self.answer_edit.clear()  # each recording answers for itself: the last task's answer is not this one's
        self._clear_warning()
        try:
            self.recorder.start(self.current_task())
        except (RecordLensError, ValueError) as error:
            self.status.setText(str(error))

    def answer(self) -> None:
        """Record the answer; one that does not match the gold answer is said first and needs a second press."""
        text = self.answer_edit.text().strip()
        mismatch = self.recorder.answer_mismatch(text) if self.recorder.recording else None
        if mismatch and text != self._answer_confirmed:
            self._answer_confirmed = text
            self.warning.setText(f"⚠ {mismatch}. Correct it, or press Answer again to record it anyway: the "
                                 "reference is then saved marked “does not match”.")
            self.warning.show()
            self.status.setText(RECORDING)  # the last action is this answer: a note on an earlier one is over
            return
        if not mismatch:  # corrected after a warning: the red "does not match" no longer says this answer
            self._clear_warning()
        self.recorder.answer(text)

    def _clear_warning(self) -> None:
        self._answer_confirmed = None
        self.warning.hide()
        self.warning.clear()

    def _on_finished(self, trajectory: Trajectory | None) -> None:
        if trajectory is not None and trajectory.success is False:
            self.warning.setText(f"⚠ this reference's answer “{trajectory.answer}” does not match the task's gold "
                                 "answer: it is saved marked “does not match”.")
            self.warning.show()

    def delete_step(self, row: int | None = None) -> bool:
        """Delete the chosen step (or step `row`) from the recording."""
        row = self.steps.currentRow() if row is None else row
        if not self.recorder.recording:
            self.status.setText("steps are deleted while recording: this recording is over (and saved)")
            return False
        return self.recorder.delete_step(row)

    def _step_menu(self, at: QPoint) -> None:
        item = self.steps.itemAt(at)
        menu = QMenu(self.steps)
        delete = menu.addAction("Delete this step", lambda: self.delete_step(self.steps.row(item)))
        delete.setEnabled(item is not None and self.recorder.recording)
        undo = menu.addAction("Undo the last delete", self.recorder.undo_delete)
        undo.setEnabled(self.recorder.recording)
        menu.exec(self.steps.viewport().mapToGlobal(at))

    def _on_step(self, index: int) -> None:
        step = self.recorder.steps[index]
        self.steps.addItem(self._item(index, step))
        self.steps.scrollToBottom()
        self.status.setText(f"recording: step {index + 1} ({describe(step)}) recorded")

    @staticmethod
    def _item(index: int, step: Step) -> QListWidgetItem:
        text = f"{index + 1}. {describe(step)}"
        item = QListWidgetItem(text)
        item.setToolTip(text)
        return item

    def _show_steps(self) -> None:
        row = self.steps.currentRow()
        self.steps.clear()
        for index, step in enumerate(self.recorder.steps):  # a copy of the steps, taken once for the whole list
            self.steps.addItem(self._item(index, step))
        self.steps.setCurrentRow(min(row, self.steps.count() - 1))

    def _on_recording(self, on: bool) -> None:
        if not on:  # "press Answer again" says nothing of a recording over (a saved mismatch is said after this)
            self._clear_warning()
        self.record_button.setText("■ Stop" if on else "● Record")
        self.record_button.setAccessibleName("Stop" if on else "Record")  # read without the symbol
        for widget in (self.wait_button, self.answer_button, self.answer_edit):
            widget.setEnabled(on)
        self.task_box.setEnabled(not on)
        self.status.setText(RECORDING if on else " ")
