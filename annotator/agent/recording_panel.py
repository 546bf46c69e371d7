"""The recording controls beside the site browser: the task, Record/Stop, Wait, Answer, and the steps as they
are recorded. The panel only calls the recorder; the recorder decides what a step is."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QListWidget, QPushButton, QVBoxLayout, QWidget

from ...core.agent import Task
from ...core.errors import RecordLensError
from ..qt.widgets import button
from .recorder import Recorder
from .trajectory_replay import describe


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
        self.answer_edit.returnPressed.connect(self.answer)
        self.answer_button = button("Answer", self.answer)
        self.steps = QListWidget()
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
        layout.addWidget(QLabel("<b>Steps</b>"))
        layout.addWidget(self.steps, 1)
        layout.addWidget(self.save_button)
        layout.addWidget(self.status)
        recorder.step_recorded.connect(self._on_step)
        recorder.recording_changed.connect(self._on_recording)
        recorder.message.connect(self.status.setText)
        self._on_recording(False)

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
        ids = [t.id for t in self.tasks]
        if task.id in ids:
            self.tasks[ids.index(task.id)] = task
            self.task_box.setCurrentIndex(ids.index(task.id) + 1)
        else:
            self.set_tasks([*self.tasks, task])
            self.task_box.setCurrentIndex(len(self.tasks))

    def _show_instruction(self) -> None:
        self.answer_edit.clear()  # another task: what was typed for the last one goes
        task = self.current_task()
        self.instruction.setText(task.instruction if task else "Record on the site's first page.")

    def toggle(self) -> None:
        if self.recorder.recording:
            self.recorder.stop()
            return
        self.steps.clear()
        self.answer_edit.clear()  # each recording answers for itself: the last task's answer is not this one's
        try:
            self.recorder.start(self.current_task())
        except (RecordLensError, ValueError) as error:
            self.status.setText(str(error))

    def answer(self) -> None:
        self.recorder.answer(self.answer_edit.text())

    def _on_step(self, index: int) -> None:
        step = self.recorder.steps[index]
        self.steps.addItem(f"{index + 1}. {describe(step)}")
        self.steps.scrollToBottom()

    def _on_recording(self, on: bool) -> None:
        self.record_button.setText("■ Stop" if on else "● Record")
        for widget in (self.wait_button, self.answer_button, self.answer_edit):
            widget.setEnabled(on)
        self.task_box.setEnabled(not on)
        self.status.setText("recording: every action on the page is a step" if on else " ")
