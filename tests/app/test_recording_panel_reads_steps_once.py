"""The recording panel redraws its list of steps (a step deleted, one undone) from one copy of the recorder's steps:
`Recorder.steps` copies the whole trajectory each time it is read, and a read per row made a redraw of a long
recording cost the square of its steps."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject, Signal

from recordlens.annotator.agent.recording_panel import RecordingPanel
from recordlens.core.agent import Step

pytestmark = pytest.mark.app

STEPS = 200


class CountingRecorder(QObject):
    """The signals and calls the panel uses, with its steps counted each time they are read."""

    step_recorded = Signal(int)
    recording_changed = Signal(bool)
    message = Signal(str)
    steps_changed = Signal()
    finished = Signal(object)

    def __init__(self, steps: list[Step]) -> None:
        super().__init__()
        self._steps = steps
        self.reads = 0

    @property
    def steps(self) -> list[Step]:
        self.reads += 1
        return list(self._steps)

    recording = False

    def wait(self) -> None: ...

    def undo_delete(self) -> None: ...

    def delete_step(self, index: int) -> None: ...


def test_a_redraw_of_the_steps_reads_them_once(qapp) -> None:
    recorder = CountingRecorder([Step("Scroll", value="down", url="https://shop.test/") for _ in range(STEPS)])
    panel = RecordingPanel(recorder)
    try:
        recorder.reads = 0
        recorder.steps_changed.emit()
        assert panel.steps.count() == STEPS
        assert panel.steps.item(STEPS - 1).text().startswith(f"{STEPS}. ")
        assert recorder.reads == 1
        recorder.reads = 0
        recorder.step_recorded.emit(STEPS - 1)  # a step recorded: its row added, and said in the status
        assert recorder.reads == 1
        assert panel.steps.count() == STEPS + 1
    finally:
        panel.close()
        panel.deleteLater()
