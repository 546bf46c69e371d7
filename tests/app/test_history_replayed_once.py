"""Edit → History replays the page's history once each time it is drawn (opened, or refreshed after an edit). It
replayed it twice (the changes' numbers, then the steps' numbers) and a third time, sorting every state, for a
history with a keep in it: on a page of 10,000 records judged one by one, each replay is 20,000 changes.

The numbers from the one replay are those of their definition: each state of the page sorted in display order
(`history_records`), a change's records numbered before and after it, a step's before and after the whole step,
a keep's record after the keep."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest

from recordlens.annotator.labelling import history_dialog
from recordlens.annotator.labelling.history_dialog import KeptRecord, history_numbers_of
from recordlens.core.errors import RecordLensError
from recordlens.core.store import Change, Label, Project, Provenance, history_records, history_steps, open_project
from tests.app.demo_project import ITEM
from tests.app.list_projects import BEAS_RECORDS, one_list_and_beas
from tests.app.window_helpers import key, open_window

pytestmark = pytest.mark.app

PAGE = "1"
BY = Provenance.person("tester")


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Page 1 with the project's records items 1 and 2, and bea's label set beside them (so keeps can be made)."""
    return one_list_and_beas(tmp_path)


def _count_replays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each replay of a page's history the dialog asks for, by the core function that replays it."""
    replays: list[str] = []
    for name in ("history_numbers", "history_records"):
        replay = getattr(history_dialog, name, None)
        if replay is None:
            continue

        def counted(history, _replay=replay, _name=name):  # noqa: ANN001, ANN202
            replays.append(_name)
            return _replay(history)

        monkeypatch.setattr(history_dialog, name, counted)
    return replays


def test_the_history_is_replayed_once_per_drawing(qtbot, tmp_path: Path, project_dir: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        project = window.project
        ours = project.labels(PAGE)[1]
        # A keep (its record found among the page's records then), and a step of several changes (Ctrl+A, R)
        window.edit("keep the project's version", lambda: project.adjudication.keep(
            PAGE, "bea", BEAS_RECORDS[1], ours.xpaths, window.person))
        key(window, "Ctrl+A")
        key(window, "R")
        replays = _count_replays(monkeypatch)
        key(window, "Ctrl+H")
        dialog = window.tools.history_dialog
        assert dialog is not None and dialog.isVisible()
        assert dialog.entries.topLevelItem(0).childCount() == 2  # the step of two rejects, drawn
        assert dialog.entries.topLevelItem(1).text(4) == "record 2"  # the keep's record, numbered
        assert replays == ["history_numbers"], f"replayed {len(replays)} times to draw it once: {replays}"
        replays.clear()
        window.edit("add record", lambda: project.add_record(PAGE, [ITEM.format(3)], window.person))
        assert dialog.entries.topLevelItem(0).text(3).startswith("add")  # refreshed with the edit
        assert replays == ["history_numbers"], f"replayed {len(replays)} times to draw it once: {replays}"
        dialog.close()
    finally:
        window.close()


# -- the numbers, by their definition -------------------------------------------------------------------------------

def _number(state: list[Label], record_id: int) -> int | None:
    return next((k + 1 for k, label in enumerate(state) if label.id == record_id), None)


def _numbered(state: list[Label], ids: list[int]) -> dict[int, int]:
    return {i: n for i in ids if (n := _number(state, i)) is not None}


def _by_definition(history: list[Change], steps: list[list[Change]]
                   ) -> tuple[dict[int | None, dict[int, int]], list[dict[int, int]], dict[int, KeptRecord]]:
    after = list(history_records(history))
    state_before = {change.id: ([] if k == 0 else after[k - 1]) for k, change in enumerate(history)}
    state_after = {change.id: after[k] for k, change in enumerate(history)}
    changes: dict[int | None, dict[int, int]] = {}
    kept: dict[int, KeptRecord] = {}
    for change in history:
        numbers = _numbered(state_before[change.id], [label.id for label in change.before])
        numbers.update(_numbered(state_after[change.id], [label.id for label in change.after]))
        changes[change.id] = numbers
        if change.action == "keep" and change.id is not None:
            sides = change.detail["kept"]
            held = [label for label in state_after[change.id]
                    if sides["ours"] is not None and label.is_true and list(label.xpaths) == list(sides["ours"])]
            label = held[0] if held else None
            number = _number(state_after[change.id], label.id) if label else 0
            kept[change.id] = KeptRecord(str(change.detail["adjudicated"]), label, number or 0,
                                         tuple(sides["theirs"] or ()))
            changes[change.id] = {label.id: number} if label is not None else {}
    seen = []
    for step in steps:
        ids = list(dict.fromkeys(label.id for change in step for label in (*change.before, *change.after)))
        numbers = _numbered(state_before[step[0].id], ids)
        numbers.update(_numbered(state_after[step[-1].id], ids))
        seen.append(numbers)
    return changes, seen, kept


def _edit_at_random(project: Project, rng: random.Random) -> None:
    """One edit of page 1 chosen by `rng` (one the store refuses, as a merge of one record, is skipped)."""
    labels = project.labels(PAGE)
    ids = [label.id for label in labels]
    some = [ITEM.format(k) for k in sorted(rng.sample(range(1, 5), rng.randint(1, 2)))]
    edits = [lambda: project.add_record(PAGE, some, BY, status=rng.choice(["accepted", "proposed"]))]
    if ids:
        one = rng.choice(ids)
        edits += [lambda: project.accept(one, BY), lambda: project.reject(one, BY),
                  lambda: project.delete(one, BY), lambda: project.edit(one, some, BY),
                  lambda: project.merge(rng.sample(ids, min(2, len(ids))), BY)]
        true = [label for label in labels if label.is_true]
        edits.append(lambda: project.adjudication.keep(
            PAGE, "bea", rng.choice(BEAS_RECORDS), rng.choice(true).xpaths if true else None, BY))
    with contextlib.suppress(RecordLensError):
        rng.choice(edits)()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_numbers_of_the_one_replay_are_those_of_their_definition(project_dir: Path, seed: int) -> None:
    rng = random.Random(seed)
    with open_project(project_dir) as project:
        for _ in range(40):
            if rng.random() < 0.3:  # a step of several changes, as Ctrl+A then R makes one
                with project.one_step("several"):
                    for _ in range(rng.randint(2, 4)):
                        _edit_at_random(project, rng)
            else:
                _edit_at_random(project, rng)
        history = project.history(PAGE)
    steps = history_steps(history)
    assert any(len(step) > 1 for step in steps) and any(change.action == "keep" for change in history)
    shown = history_numbers_of(history, steps)
    changes, seen, kept = _by_definition(history, steps)
    assert shown.kept == kept
    assert shown.changes == changes
    assert shown.steps == seen
