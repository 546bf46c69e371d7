"""The quit's dialog, while answers a cancelled Propose asked for are on their way, says one answer as one ("when it
comes ... loses it") and several as several, as the dialog shows it at a real quit against the loopback fake."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.app.test_answers_kept_at_quit import quit_while_the_answer_is_on_its_way

pytestmark = pytest.mark.app


def test_one_answer_on_its_way_is_said_as_one(qtbot, tmp_path: Path) -> None:
    _, shown, _ = quit_while_the_answer_is_on_its_way(qtbot, tmp_path, threading.Event())
    assert shown and shown[0] == ("1 answer already asked of the model (and paid for) on the way: kept in the "
                                  "project's run when it comes. Quit now loses it.")


def test_several_answers_on_their_way_are_said_as_several() -> None:
    from recordlens.annotator.labelling.main_window import answers_on_their_way_said

    assert answers_on_their_way_said(3) == ("3 answers already asked of the model (and paid for) on the way: kept in "
                                            "the project's run when they come. Quit now loses them.")
