"""What a person reads in the status bar after Propose with a model learnt from two pages, and after a Learn that
took over the lock of a training that was killed.

Propose with a model of one stage used to end with that model's caution first (some 200 characters), and what
it had done after it: the status bar cut "done: no records found on page t", and the page's count beside it still
showed the proposals the shipped model had made before, as if this Propose had made them. A Learn that took over
a killed training's lock used to say so only on stderr, which a window started from a desktop menu has no one
reading, where `train --project` warns of it on its terminal."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.records.model import save_records
from recordlens.core.store import import_paths, init_project
from recordlens.core.store.learnt_model import TRAINING_LOCK
from tests.app.window_helpers import key, open_window, recent_messages
from tests.child_lines import first_line
from tests.core.catalogue_pages import catalogue

pytestmark = [pytest.mark.app, pytest.mark.usefixtures("quick_fits")]

# A page of another kind than the two labelled catalogue pages: the shipped model finds its 12 rows; a model
# learnt from the catalogues' cards finds nothing on it.
TABLE = "<!DOCTYPE html><html><head><title>t</title></head><body><table>{}</table></body></html>".format("".join(
    f"<tr><td>Row {i}</td><td>{i * 3}.50 EUR</td><td><a href='/x/{i}'>Open item {i}</a></td></tr>"
    for i in range(12)))
# Takes the project's training lock and holds it, as a Learn or `train --project` does while it fits.
TRAINING = """
import sys, time
from pathlib import Path
from recordlens.core.owner_files import take
take(Path(sys.argv[1]))
print("training", flush=True)
time.sleep(120)
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Two catalogue pages labelled with their cards (imported with their labels), then the table page, new."""
    data = tmp_path / "data"
    (data / "html").mkdir(parents=True)
    rng = random.Random(5)
    for name in ("0", "1"):
        html, cards, _ = catalogue(rng)
        (data / "html" / f"{name}.html").write_text(html, encoding="utf-8")
        save_records(data / "gt" / f"{name}.json", cards)
    (data / "html" / "t.html").write_text(TABLE, encoding="utf-8")
    with init_project(tmp_path / "project") as made:
        assert not import_paths(made, [data]).problems
        assert [(info.name, info.status) for info in made.pages()] == [
            ("0", "labelled"), ("1", "labelled"), ("t", "new")]
    return tmp_path / "project"


def go_to_the_last_page(window: MainWindow) -> None:
    for _ in range(len(window.page_list.names()) - 1):
        key(window, "PgDown")
    assert window.page_view.wait_until_loaded(30_000)


def run_job(qtbot, window: MainWindow, keys: str) -> str:
    """`keys` start a job (P, Ctrl+Shift+L); what the status bar says as it ends, whole."""
    key(window, keys)
    assert window.job is not None, window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: window.job is None, timeout=180_000)
    return window.statusBar().currentMessage()


def test_propose_with_a_model_of_two_pages_that_finds_nothing_says_so_where_it_shows(qtbot, tmp_path: Path,
                                                                                     project: Path) -> None:
    window = open_window(project, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.resize(1280, 800)
        go_to_the_last_page(window)
        assert run_job(qtbot, window, "P") == "done: 12 records proposed on page t"  # the shipped model
        learnt = run_job(qtbot, window, "Ctrl+Shift+L")
        assert learnt.startswith("learned one stage only, from 2 labelled pages"), learnt
        ended = run_job(qtbot, window, "P")
        shown = window.statusBar().shown_text()  # what the bar draws, cut to its width
        # What this Propose did, first and on show, and that the page's 12 proposals are the earlier ones
        assert shown.startswith("done: no records found on page t (its 12 earlier proposals stay); "), shown
        assert window.counts_label.text().endswith(" · 12 proposed"), window.counts_label.text()
        # the caution after it, whole in the message (and so under Recent messages)
        assert ended == ("done: no records found on page t (its 12 earlier proposals stay); proposed with this "
                         "project's model of one stage only, from 2 labelled pages (a second stage needs 6): its "
                         "proposals may be far off on pages it was not trained on; Propose → Propose with the "
                         "shipped model again goes back to the shipped model"), ended
        assert recent_messages(window).splitlines()[0].endswith(ended)
    finally:
        window.close()
        window.shutdown()


def test_learn_says_in_the_window_that_it_took_over_a_killed_trainings_lock(qtbot, tmp_path: Path,
                                                                           project: Path) -> None:
    lock = project / TRAINING_LOCK
    lock.parent.mkdir(exist_ok=True)
    training = subprocess.Popen([sys.executable, "-c", TRAINING, str(lock)], stdout=subprocess.PIPE, text=True)
    try:
        assert first_line(training).strip() == "training"
    finally:
        training.kill()  # kill -9: its lock file stays behind, naming it
        training.wait(timeout=30)
    assert lock.read_text(encoding="utf-8") == f"{socket.gethostname()} {training.pid}\n"
    window = open_window(project, tmp_path / "settings.json", qtbot=qtbot)
    try:
        ended = run_job(qtbot, window, "Ctrl+Shift+L")
        # In the words `train --project` warns of it (core's owner_files), after what Learn did
        note = (f"a training of the project {window.project.root} by process {training.pid} ended without releasing "
                "its lock (it was killed); the lock is taken over")
        assert ended.startswith("learned one stage only, from 2 labelled pages") and ended.endswith(f"; {note}"), ended
        # and on its own as Learn met it, kept under Recent messages
        assert any(line.endswith(f" {note}") for line in recent_messages(window).splitlines()), recent_messages(window)
        assert not lock.exists()  # released as Learn ended
    finally:
        window.close()
        window.shutdown()
