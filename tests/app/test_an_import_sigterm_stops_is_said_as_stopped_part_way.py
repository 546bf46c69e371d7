"""SIGTERM (`kill PID`, a session logging out) while the window imports a dataset: the import stops after the page
under way, as a kill -9 stops it, and is said as one stopped part way: on stderr at once (what is left unfinished),
and by the project's next opening and every command (which import, how many of its pages are in, how to finish
it). Only the user's own Cancel, told then what was imported, leaves nothing to say."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.program import PROG
from recordlens.core.store import importer, stopped_imports_said
from tests.app.list_projects import FIRST_TWO, TITLED_LIST, one_list
from tests.app.window_helpers import keep_app_state_private, open_window, said

pytestmark = pytest.mark.app

PAGES = 8
HELD_AT = 3  # the import is held on its third page, two being in


def a_dataset(folder: Path) -> Path:
    """A dataset in `folder` (html/ and gt/) of PAGES list pages, each with two true records, none of them a page
    of the project (named from 11 on)."""
    for n in range(11, 11 + PAGES):
        (folder / "html").mkdir(parents=True, exist_ok=True)
        (folder / "gt").mkdir(exist_ok=True)
        (folder / "html" / f"{n}.html").write_text(TITLED_LIST.format(title=f"List {n}"), encoding="utf-8")
        (folder / "gt" / f"{n}.json").write_text(FIRST_TWO, encoding="utf-8")
    return folder


def import_held(window: MainWindow, dataset: Path, monkeypatch: pytest.MonkeyPatch, qtbot) -> None:  # noqa: ANN001
    """The window's import of `dataset` started and held on its HELD_AT-th page until the job is stopped."""
    reached = threading.Event()
    real_import_page = importer.import_page
    calls = 0

    def import_page(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - the importer's own
        nonlocal calls
        calls += 1
        if calls == HELD_AT:
            reached.set()
            deadline = time.monotonic() + 120
            while not job.cancelled and time.monotonic() < deadline:
                time.sleep(0.02)
        return real_import_page(*args, **kwargs)

    monkeypatch.setattr(importer, "import_page", import_page)
    job = window.importing.import_paths([dataset])
    assert job is not None
    qtbot.waitUntil(reached.is_set, timeout=60_000)


def test_an_import_stopped_by_sigterm_is_said_on_stderr_at_once_and_at_the_next_opening(
        qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    settings = keep_app_state_private(monkeypatch, tmp_path)
    project = one_list(tmp_path)
    dataset = a_dataset(tmp_path / "big")
    window = open_window(project, settings, qtbot=qtbot)
    try:
        import_held(window, dataset, monkeypatch, qtbot)
        capsys.readouterr()
        window.close_on_terminate()  # what the SIGTERM handler queues
        assert window.closed
    finally:
        window.shutdown()
    monkeypatch.undo()
    keep_app_state_private(monkeypatch, tmp_path)
    stopped = f"an import of {dataset} into {project} was stopped part way (begun "
    in_it = f"): {HELD_AT} of its {PAGES} pages are in the project; running the same import again finishes it"
    err = capsys.readouterr().err
    assert f"{PROG}: SIGTERM: importing big stopped part way. The import stops after the page under way" in err, err
    assert f"{PROG}: {stopped}" in err and in_it in err, err
    said_by_commands = stopped_imports_said(project)
    assert len(said_by_commands) == 1 and said_by_commands[0].startswith(stopped), said_by_commands
    reopened = app.open_window(app.parse_args([str(project)]))
    try:
        shown = said(reopened)
        assert shown.startswith(stopped) and in_it in shown, shown
    finally:
        reopened.close()


def test_an_import_the_user_cancels_is_not_said_again(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = one_list(tmp_path)
    dataset = a_dataset(tmp_path / "big")
    window = open_window(project, tmp_path / "settings.json", qtbot=qtbot)
    try:
        import_held(window, dataset, monkeypatch, qtbot)
        window.jobs.do_cancel_job()
        qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
        assert len(window.project.pages()) == 1 + HELD_AT
    finally:
        window.close()
    assert stopped_imports_said(project) == []
